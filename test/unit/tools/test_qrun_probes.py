"""`qrun --probe-output-dir` writes each recording as a NumPy file that reads back to
the value the probe saw (bf16 as its bit pattern), listed in index.csv in run order."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np

from qdialect.tools import qrun

PROGRAM = """
func.func @main() {
  %a = stablehlo.constant dense<[[1, -2, 3]]> : tensor<1x3xi16>
  %p = interpreter.probe %a, probe_id = "ints" : tensor<1x3xi16>
  %b = stablehlo.constant dense<[1.0, -0.5, 3.25]> : tensor<3xbf16>
  %q = interpreter.probe %b, probe_id = "halves" : tensor<3xbf16>
  %c = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
  %r = interpreter.probe %c, probe_id = "complex" : tensor<1xcomplex<f32>>
  func.return
}
"""


def test_probe_files_read_back(tmp_path: Path):
    source = tmp_path / "p.mlir"
    source.write_text(PROGRAM)
    out = tmp_path / "probes"
    assert qrun.main([str(source), "--probe-output-dir", str(out)]) == 0
    lines = (out / "index.csv").read_text().splitlines()
    assert [line.split(",")[:2] for line in lines] == [
        ["ints", "tensor<1x3xi16>"],
        ["halves", "tensor<3xbf16>"],
        ["complex", "tensor<1xcomplex<f32>>"],
    ]
    ints, halves, complex_ = (np.load(line.split(",")[2]) for line in lines)
    assert ints.dtype == np.int16 and np.array_equal(ints, [[1, -2, 3]])
    expected_bits = np.array([1.0, -0.5, 3.25], dtype=ml_dtypes.bfloat16).view(np.uint16)
    assert halves.dtype == np.uint16 and np.array_equal(halves, expected_bits)
    assert complex_.dtype == np.complex64 and np.array_equal(complex_, [1 + 2j])
