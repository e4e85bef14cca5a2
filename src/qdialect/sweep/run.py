"""Running a sweep: the tasks (machine points x models) not already in the results, on a
local process pool or on a Dask distributed cluster, each row stored as it arrives.

    rows = run_sweep(load_spec("sweep.json"), Path("results"))            # local
    rows = run_sweep(spec, out, scheduler="tcp://10.0.0.5:8786")           # Dask

The results directory holds `results.csv` (appended as points finish: a sweep that is
interrupted, or extended with more points or models, runs only what is missing — a row
is reused when its key, a hash of the machine description, the model file's bytes, the
input seed and the compiler version, is present), `results.parquet` and the models the
zoo builds. With a scheduler, models must be at the same paths on the workers (a shared
filesystem) and the workers must have qdialect installed.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from qdialect.sweep.evaluate import Task, compiler_version, evaluate, task_key
from qdialect.sweep.points import area, machines
from qdialect.sweep.results import CsvStore, read_csv, write_parquet
from qdialect.sweep.spec import SweepError, SweepSpec


def model_file(ref: str, cache: Path) -> Path:
    """The file of a model reference: a path as it is, a zoo model built once into
    `cache` (ONNX Runtime quantizes `onnx_zoo:` models, TFLiteConverter `keras_zoo:`)."""
    zoo, _, name = ref.partition(":")
    if zoo == "onnx_zoo":
        from qdialect.models import onnx_zoo

        if name not in onnx_zoo.ZOO:
            raise SweepError(f"no model '{name}' in onnx_zoo ({', '.join(sorted(onnx_zoo.ZOO))})")
        path = cache / f"{name}.onnx"
        if not path.exists():
            path.write_bytes(onnx_zoo.quantized(name, cache))
        return path
    if zoo == "keras_zoo":
        from qdialect.models import keras_zoo

        build = getattr(keras_zoo, name, None)
        if build is None:
            raise SweepError(f"no model '{name}' in keras_zoo")
        path = cache / f"keras_{name}.tflite"
        if not path.exists():
            path.write_bytes(build(224))
        return path
    return Path(ref)


def tasks(spec: SweepSpec, cache: Path, version: str | None = None) -> list[Task]:
    """Every (machine point, model) of the sweep, keyed."""
    version = version or compiler_version()
    cache.mkdir(parents=True, exist_ok=True)
    files = []
    for ref in spec.models:
        path = model_file(ref, cache)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        name = ref if ":" in ref else path.name
        files.append((str(path), name, digest))
    out = []
    for point, text in machines(spec):
        label = ",".join(f"{k}={v}" for k, v in point.items())
        for path, name, digest in files:
            out.append(Task(task_key(text, digest, version, spec.inputs_seed), text, label,
                            path, name, area(text, spec), spec.inputs_seed))  # fmt: skip
    return out


def _local(todo: list[Task], jobs: int) -> Iterable[dict]:
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(evaluate, t) for t in todo]
        for f in as_completed(futures):
            yield f.result()


def _dask(todo: list[Task], scheduler: str) -> Iterable[dict]:
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise SweepError("--scheduler needs Dask's distributed (the sweep extra)") from None
    try:
        client = Client(scheduler, timeout="20s")
    except OSError as err:
        raise SweepError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
    try:
        futures = client.map(evaluate, todo, pure=False)
        for f in dask_completed(futures):
            yield f.result()
    finally:
        client.close()


def run_sweep(spec: SweepSpec, out: Path, *, scheduler: str | None = None,
              jobs: int | None = None, progress: Callable[[int], None] | None = None,
              progress_total: Callable[[int], Callable[[int], None]] | None = None
              ) -> list[dict]:  # fmt: skip
    """Run what `out/results.csv` lacks; the sweep's rows, in task order. `progress_total`
    (given the number of tasks to run) returns the callback told how many are done."""
    out.mkdir(parents=True, exist_ok=True)
    every = tasks(spec, out / "models")
    csv_path = out / "results.csv"
    have = {r["key"]: r for r in read_csv(csv_path)}
    todo = [t for t in every if t.key not in have]
    show = progress_total(len(todo)) if progress_total is not None else progress
    store = CsvStore(csv_path)
    try:
        if todo:
            source = (_dask(todo, scheduler) if scheduler
                      else _local(todo, jobs or min(len(todo), os.cpu_count() or 1)))  # fmt: skip
            for done, row in enumerate(source, 1):
                store.add(row)
                have[row["key"]] = row
                if show is not None:
                    show(done)
    finally:
        store.close()
    # The area proxy is the sweep file's (its weights are not part of the key).
    rows = [{**have[t.key], "area": t.area} for t in every]
    write_parquet(rows, out / "results.parquet")
    return rows


def progress_to(stream=sys.stderr) -> Callable[[int], Callable[[int], None]]:
    """A `progress_total` drawing the calibration's text bar on `stream`."""
    from qdialect.calibration.calibrate import progress_bar

    return lambda total: progress_bar(total, stream, unit="points")
