"""Design-space sweeps: the sweep file's checks, the machine points, rows for points that
cannot run, reuse of what a results directory holds, the Pareto front, and the same
table from a local process pool and from a Dask LocalCluster of two workers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from qdialect.npu.machine import parse_machine
from qdialect.sweep.points import grid_points, machines
from qdialect.sweep.results import MachineSummary, pareto_front, read_csv, summarize
from qdialect.sweep.run import run_sweep, tasks
from qdialect.sweep.spec import SweepError, load_spec, parse_spec

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
MODELS = [str(EXAMPLES / "tosa_mlp.mlir"), str(EXAMPLES / "resnet_block.mlir")]
GRID = {"mac_array.rows+mac_array.cols": [8, 16], "buffers.weight.bytes": [65536, 262144],
        "dram.bus_bytes": [8, 16]}  # fmt: skip
TIMING = ("compile_seconds",)  # what differs from run to run


def spec(tmp_path: Path, **overrides) -> Path:
    data = {"machine": "default", "grid": GRID, "models": MODELS, "name": "test"}
    data.update(overrides)
    path = tmp_path / "sweep.json"
    path.write_text(json.dumps(data))
    return path


def stable(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in TIMING} for r in rows]


@pytest.mark.parametrize("data, message", [
    ({"models": MODELS, "grids": {}}, "unknown key(s) grids"),
    ({"models": []}, "'models' must list one or more models"),
    ({"models": ["missing.mlir"]}, "model 'missing.mlir' not found"),
    ({"models": MODELS, "grid": {"dram.bus_bytes": []}}, "must list one or more values"),
    ({"models": MODELS, "grid": {"dram.bus_bytes": [8, 8]}}, "repeats a value"),
    ({"models": MODELS, "grid": {"dram.bus_bytes": [8.5]}}, "8.5 is not an integer"),
    ({"models": MODELS, "samples": 0}, "'samples' must be a positive integer"),
    ({"models": MODELS, "area": {"mac": -1}}, "'area.mac' must be a non-negative number"),
    ({"models": ["onnx_zoo:"]}, "name the onnx_zoo model"),
])  # fmt: skip
def test_sweep_file_errors_name_the_key(tmp_path: Path, data, message) -> None:
    with pytest.raises(SweepError, match=re.escape(message)):
        parse_spec(data, tmp_path)


def test_grid_and_samples(tmp_path: Path) -> None:
    full = load_spec(spec(tmp_path))
    assert len(grid_points(full)) == 8
    sampled = load_spec(spec(tmp_path, samples=3, seed=1))
    picked = grid_points(sampled)
    assert len(picked) == 3 and all(p in grid_points(full) for p in picked)
    assert picked == grid_points(load_spec(spec(tmp_path, samples=3, seed=1)))  # seeded


def test_points_are_valid_descriptions_with_rows_following_the_array(tmp_path: Path) -> None:
    for point, text in machines(load_spec(spec(tmp_path))):
        m = parse_machine(text)
        cols = point["mac_array.rows+mac_array.cols"]  # tied: one value for both
        assert (m.mac_rows, m.mac_cols, m.bus_bytes) == (cols, cols, point["dram.bus_bytes"])
        assert m.buffer("weight").bytes == point["buffers.weight.bytes"]
        assert m.buffer("input").row_bytes == cols and m.buffer("accumulator").row_bytes == 4 * cols


def test_unknown_field_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(
        SweepError, match=re.escape("'dram.width' is not a field of the base machine")
    ):
        machines(load_spec(spec(tmp_path, grid={"dram.width": [8]})))


def test_points_that_cannot_run_are_rows_with_the_reason(tmp_path: Path) -> None:
    """Descriptions that do not validate (a buffer not a whole number of rows, a
    rectangular array) and a buffer too small for the model's layers: rows with the
    reason, the sweep goes on."""
    grid = {"buffers.input.bytes": [1000, 64, 262144]}
    rows = run_sweep(load_spec(spec(tmp_path, grid=grid)), tmp_path / "out", jobs=2)
    by = {(r["point"], r["model"]): r for r in rows}
    bad = by[("buffers.input.bytes=1000", "tosa_mlp.mlir")]
    assert bad["status"] == "invalid" and "not a multiple of its row_bytes" in bad["reason"]
    small = by[("buffers.input.bytes=64", "resnet_block.mlir")]
    assert small["status"] == "invalid" and small["reason"]
    ok = by[("buffers.input.bytes=262144", "resnet_block.mlir")]
    assert ok["status"] == "ok" and ok["exact"] and ok["cycles"] > 0
    assert 0 < ok["utilization"] <= 1 and ok["useful_macs"] > 0
    rect = run_sweep(load_spec(spec(tmp_path, grid={"mac_array.rows": [8]})), tmp_path / "r")
    assert rect[0]["status"] == "invalid" and "rectangular arrays" in rect[0]["reason"]


def test_results_are_reused_and_extended(tmp_path: Path) -> None:
    out = tmp_path / "out"
    small = load_spec(spec(tmp_path, grid={"dram.bus_bytes": [8, 16]}))
    first = run_sweep(small, out, jobs=2)
    counted: list[int] = []
    again = run_sweep(
        small, out, jobs=2, progress_total=lambda n: counted.append(n) or (lambda d: None)
    )
    assert counted == [0] and again == first
    bigger = load_spec(spec(tmp_path, grid={"dram.bus_bytes": [8, 16, 32]}))
    counted.clear()
    extended = run_sweep(
        bigger, out, jobs=2, progress_total=lambda n: counted.append(n) or (lambda d: None)
    )
    assert counted == [2]  # one new machine x two models
    assert extended[:4] == first
    assert len(read_csv(out / "results.csv")) == 6
    # A changed compiler (version) misses the cache: every key differs.
    assert not {t.key for t in tasks(small, out / "models", "other")} & {r["key"] for r in first}


def test_pareto_front() -> None:
    s = [MachineSummary("a", 10, 100, 0.5, 0), MachineSummary("b", 20, 50, 0.5, 0),
         MachineSummary("c", 20, 80, 0.5, 0), MachineSummary("d", 30, 60, 0.5, 0),
         MachineSummary("e", 40, 10, 0.5, 0)]  # fmt: skip
    assert [x.machine for x in pareto_front(s)] == ["a", "b", "e"]


def test_local_and_dask_cluster_tables_are_identical(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed", reason="Dask runs need the sweep extra")
    sweep = load_spec(spec(tmp_path))
    local = run_sweep(sweep, tmp_path / "local", jobs=2)
    assert len(local) == 16 and all(r["status"] == "ok" and r["exact"] for r in local)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:  # fmt: skip
        remote = run_sweep(sweep, tmp_path / "cluster", scheduler=cluster.scheduler_address)
    assert stable(remote) == stable(local)
    pyarrow = pytest.importorskip("pyarrow.parquet", reason="Parquet needs the sweep extra")
    table = pyarrow.read_table(tmp_path / "local" / "results.parquet").to_pylist()
    assert stable(table) == stable(local)
    summaries = summarize(local, ["tosa_mlp.mlir", "resnet_block.mlir"])
    assert len(summaries) == 8 and pareto_front(summaries)


def test_plot_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="plots need the plot extra")
    from qdialect.sweep.plot import pareto_plot

    s = [MachineSummary("a", 10, 100, 0.5, 0), MachineSummary("b", 20, 50, 0.5, 0)]
    path = pareto_plot(s, tmp_path / "front.png")
    assert path.stat().st_size > 1000
