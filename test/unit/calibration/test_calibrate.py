"""`calibrate` and `qcalib`: every float tensor a program computes is observed over the
batches (its extremes those of the values NumPy computes for it), the file reads back,
belongs to its program only, and bad data is a clear error with exit status 1."""

from __future__ import annotations

import json

import numpy as np
import pytest

from qdialect.calibration.calibrate import Calibration, CalibrationError, calibrate
from qdialect.context import make_context
from qdialect.ir.parser import QParser
from qdialect.tools import qcalib

PROGRAM = """func.func @main(%x: tensor<2x3xf32> loc("input")) -> tensor<2x3xf32> {
  %c = stablehlo.constant dense<2.5> : tensor<2x3xf32> loc("scale")
  %m = stablehlo.multiply %x, %c : tensor<2x3xf32> loc("scaled")
  %e = stablehlo.exponential %m : tensor<2x3xf32> loc("exp")
  %s = stablehlo.subtract %e, %x : tensor<2x3xf32> loc("out")
  func.return %s : tensor<2x3xf32>
}
"""


def batches(n: int = 5) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.normal(0, 0.5 * (k + 1), (2, 3)).astype(np.float32) for k in range(n)]


def test_every_computed_float_tensor_is_observed() -> None:
    module = QParser(make_context(), PROGRAM).parse_module()
    xs = batches()
    seen: list[int] = []
    cal = calibrate(module, ([x] for x in xs), progress=seen.append)
    assert cal.batches == 5 and seen == [1, 2, 3, 4, 5]
    # the constant is not calibrated; the argument and the three results are
    assert {k: cal.info[k]["name"] for k in cal.stats} == {
        "arg:0": "input", "1:0": "scaled", "2:0": "exp", "3:0": "out",
    }  # fmt: skip
    x = np.stack(xs)
    scaled = x * np.float32(2.5)
    values = {"arg:0": x, "1:0": scaled, "2:0": np.exp(scaled), "3:0": np.exp(scaled) - x}
    for key, v in values.items():
        lo, hi = cal.stats[key].range("minmax", symmetric=False)
        assert lo == pytest.approx(float(v.min()), rel=1e-6)
        assert hi == pytest.approx(float(v.max()), rel=1e-6)
        assert cal.stats[key].count == v.size


def test_file_round_trip_and_program_check(tmp_path) -> None:
    module = QParser(make_context(), PROGRAM).parse_module()
    cal = calibrate(module, ([x] for x in batches()))
    cal.save(tmp_path / "c.json")
    again = Calibration.load(tmp_path / "c.json")
    assert again.batches == 5
    for key, stats in cal.stats.items():
        assert again.stats[key].range("entropy") == stats.range("entropy")
    func = next(op for op in module.walk() if op.name == "func.func")
    assert set(again.check_against(func).values()) >= set(cal.stats)  # type: ignore[arg-type]
    other = QParser(make_context(), PROGRAM.replace("exponential", "tanh")).parse_module()
    func2 = next(op for op in other.walk() if op.name == "func.func")
    with pytest.raises(CalibrationError, match=r"tensor 2:0 was stablehlo\.exponential"):
        again.check_against(func2)  # type: ignore[arg-type]
    data = json.loads((tmp_path / "c.json").read_text())
    data["version"] = 99
    (tmp_path / "v.json").write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="version 99"):
        Calibration.load(tmp_path / "v.json")


def test_qcalib_command(tmp_path, capsys) -> None:
    (tmp_path / "m.mlir").write_text(PROGRAM)
    np.savez(tmp_path / "stack.npz", input=np.stack(batches(4)))  # 4 batches in one array
    status = qcalib.main([str(tmp_path / "m.mlir"), "--data", str(tmp_path / "stack.npz"),
                          "-o", str(tmp_path / "c.json"), "--show", "minmax", "--quiet"])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0 and "4 tensors over 4 batches" in out and "exp" in out
    assert Calibration.load(tmp_path / "c.json").batches == 4
    folder = tmp_path / "dir"
    folder.mkdir()
    for k, x in enumerate(batches(3)):
        np.savez(folder / f"b{k}.npz", arg0=x)  # by position, one batch a file
    assert qcalib.main([str(tmp_path / "m.mlir"), "--data", str(folder),
                        "-o", str(tmp_path / "d.json"), "--quiet"]) == 0  # fmt: skip
    assert Calibration.load(tmp_path / "d.json").batches == 3


@pytest.mark.parametrize(
    "arrays, message",
    [
        ({"other": np.zeros((2, 3), np.float32)}, "has no array for input 'input'"),
        ({"input": np.zeros((3, 2), np.float32)}, "input 'input' is [3, 2]"),
    ],
)
def test_qcalib_bad_data_is_a_clear_error(tmp_path, capsys, arrays, message) -> None:
    (tmp_path / "m.mlir").write_text(PROGRAM)
    np.savez(tmp_path / "bad.npz", **arrays)
    status = qcalib.main([str(tmp_path / "m.mlir"), "--data", str(tmp_path / "bad.npz"),
                          "-o", str(tmp_path / "c.json"), "--quiet"])  # fmt: skip
    err = capsys.readouterr().err
    assert status == 1 and message in err and "Traceback" not in err


def test_qcalib_missing_data(tmp_path, capsys) -> None:
    (tmp_path / "m.mlir").write_text(PROGRAM)
    status = qcalib.main([str(tmp_path / "m.mlir"), "--data", str(tmp_path / "none"),
                          "-o", str(tmp_path / "c.json")])  # fmt: skip
    assert status == 1 and "no calibration data" in capsys.readouterr().err
