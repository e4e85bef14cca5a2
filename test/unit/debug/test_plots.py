"""Plots (`qcompare --plot`): SQNR along the network, and for each tensor asked for (and
the first below the thresholds) its histograms — files that exist, are not empty and
are as many as asked."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.ir.printer import module_text
from qdialect.tools import qcompare

pytest.importorskip("matplotlib", reason="plots need the plot extra (pip install 'qdialect[plot]')")


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_plots_are_written_and_listed(digits_float, tmp_path, capsys, fmt) -> None:
    module, cal, inputs = digits_float
    (tmp_path / "m.mlir").write_text(module_text(module, debuginfo=True))
    cal.save(tmp_path / "cal.json")
    np.savez(tmp_path / "in.npz", input=np.stack([a[0] for a in inputs]))
    status = qcompare.main([
        str(tmp_path / "m.mlir"), "--calibration", str(tmp_path / "cal.json"),
        "--data", str(tmp_path / "in.npz"), "--stages", "quant",
        "--plot", str(tmp_path / "plots"), "--plot-tensor", "c2", "--plot-tensor", "p2",
        "--plot-format", fmt, "--min-sqnr", "100",  # all below: r1 first (c1 is fused)
    ])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 1
    files = sorted(p.name for p in (tmp_path / "plots").iterdir())
    assert files == sorted([f"sqnr.{fmt}", f"histogram-r1.{fmt}", f"histogram-c2.{fmt}",
                            f"histogram-p2.{fmt}"]), files  # fmt: skip
    for name in files:
        path = tmp_path / "plots" / name
        assert path.stat().st_size > 1000
        assert f"qcompare: wrote {path}" in out
    head = (tmp_path / "plots" / f"sqnr.{fmt}").read_bytes()[:8]
    assert head.startswith(b"\x89PNG") if fmt == "png" else b"<?xml" in head


def test_an_unknown_tensor_to_plot_is_an_error(digits_float, tmp_path, capsys) -> None:
    module, cal, _ = digits_float
    (tmp_path / "m.mlir").write_text(module_text(module, debuginfo=True))
    cal.save(tmp_path / "cal.json")
    status = qcompare.main([
        str(tmp_path / "m.mlir"), "--calibration", str(tmp_path / "cal.json"),
        "--random-inputs", "0", "--samples", "1", "--stages", "quant",
        "--plot", str(tmp_path / "plots"), "--plot-tensor", "nope",
    ])  # fmt: skip
    assert status == 1
    assert "no tensor 'nope' in the float program" in capsys.readouterr().err
