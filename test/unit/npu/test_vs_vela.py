"""Our MAC count against Arm's Vela on the same TFLite layers (bench/bench_vs_vela.py's two
sides): the useful-MAC figure every utilization divides by comes from an outside tool.

Vela's `nn_macs` counts every tap of a window, padding included; ours leaves taps on
padding out. So on layers without padding (1x1, dense) the two counts are equal, and on
a 3x3 "same" convolution Vela's is the full-window count and ours the count of taps
inside the image, each written here from its formula. Needs TensorFlow (the layers are
made by TFLiteConverter) and ethos-u-vela (the `vela` extra)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip(
    "tensorflow", reason="the layers are converted by TFLiteConverter (keras extra)"
)
pytest.importorskip("ethosu.vela", reason="Arm's Vela is not installed (the vela extra)")

from qdialect.models import keras_zoo as kz

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_vs_vela.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_vs_vela", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def figures(bench, tmp_path: Path, model: bytes):
    path = tmp_path / "layer.tflite"
    path.write_bytes(model)
    out = tmp_path / "vela"
    out.mkdir()
    return bench.vela(path, out), bench.ours(model)


@pytest.mark.parametrize(
    ("kind", "size", "cin", "cout", "vela_macs", "our_macs"),
    [
        # 1x1 on 8x8: every tap is inside the image
        ("pointwise", 8, 16, 32, 8 * 8 * 16 * 32, 8 * 8 * 16 * 32),
        ("dense", 1, 64, 10, 64 * 10, 64 * 10),
        # 3x3 "same" on 6x6: 9 taps at each of 36 outputs for Vela; inside the image, a
        # row of n outputs sees 3n - 2 of its taps' rows (the two edges lose one each)
        ("conv3x3", 6, 16, 8, 6 * 6 * 9 * 16 * 8, (3 * 6 - 2) ** 2 * 16 * 8),
    ],
)
def test_mac_counts_agree_with_vela(bench, tmp_path, kind, size, cin, cout, vela_macs, our_macs):
    model = kz.single_layer(kind, size=size, channels=cin, filters=cout)
    theirs, ours = figures(bench, tmp_path, model)
    assert theirs.macs == vela_macs
    assert ours.macs == our_macs
    assert theirs.cpu_ops == 0 and theirs.cycles >= theirs.npu_cycles > 0
    assert ours.cycles > 0 and set(ours.host_ops) <= {"tosa.reshape"}  # dense: [1, C] views


def test_bench_row_compares_the_same_mac_count(bench, tmp_path) -> None:
    model = kz.single_layer("pointwise", size=8, channels=16)
    stock, ours = figures(bench, tmp_path, model)
    like = bench.vela(tmp_path / "layer.tflite", tmp_path, our_memory=True)
    # the second system is faster memory only: never more cycles than the stock one
    assert like.macs == stock.macs and like.cycles <= stock.cycles
    cells = dict(zip(bench.HEADER, bench.row("p", stock, like, ours), strict=True))
    assert cells["Vela util"] == f"{ours.macs / (stock.cycles * 256):.1%}"
    assert cells["our util"] == f"{ours.macs / (ours.cycles * 256):.1%}"
    assert cells["ours/Vela, our memory"] == f"{ours.cycles / like.cycles:.2f}"
