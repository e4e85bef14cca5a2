"""The debugging tools on a real-shaped network with one wrong scale planted.

torchvision's MobileNetV2 at full size (224x224, 3.5 M parameters; `onnx_zoo`) is
calibrated, then one tensor's calibrated range — the output of block 3's linear
projection, which block 3's residual add reads — is cut to 1/20: its scale is twenty
times too small, so it clips. Then:

* `qcompare` (quantized, TOSA and NPU stages) names that tensor as the first below the
  thresholds — thresholds the healthy network passes;
* a cut of the quantized program around that layer, fed its inputs from the dump,
  reproduces the error alone, while the same cut of a healthy layer does not;
* the sensitivity search ranks the projection and the add that reads the tensor
  first, and the qtable the bisection writes (both kept in float) brings the output
  back to within 1 dB of the healthy network's SQNR, measured on the real integer
  program.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from qdialect.calibration.calibrate import calibrate, tensor_keys
from qdialect.calibration.mixed import sqnr
from qdialect.calibration.qtable import QTable
from qdialect.calibration.workflow import optimize_float
from qdialect.debug.cut import cut, inputs_from_dump
from qdialect.debug.layer_table import Thresholds, build_table
from qdialect.debug.names import named_values
from qdialect.debug.sensitivity import analyze, bisect, evaluate
from qdialect.debug.stages import Programs, entry, run_all
from qdialect.importers.onnx_import import import_onnx
from qdialect.interpreter import Interpreter
from qdialect.ir.printer import module_text
from qdialect.models import onnx_zoo
from qdialect.tools import qcompare

PLANTED = "/features/3/conv/2/Conv_output_0"  # block 3's projection: the add reads it
ADD = "/features/3/Add_output_0"
HEALTHY = "/features/2/conv/2/Conv_output_0"  # block 2's projection
THRESHOLDS = Thresholds(min_sqnr_db=8.0, min_cosine=0.9)


@pytest.fixture(scope="module")
def network():
    module = import_onnx(onnx_zoo.mobilenet_v2())
    optimize_float(module)
    rng = np.random.default_rng(21)
    images = rng.standard_normal((5, 1, 3, 224, 224)).astype(np.float32)
    cal = calibrate(module, ([x] for x in images[:4]))
    func = entry(module, "main")
    key = tensor_keys(func)[named_values(func)[PLANTED]]
    wrong = copy.deepcopy(cal)
    wrong.stats[key].lo *= 0.05
    wrong.stats[key].hi *= 0.05
    return module, cal, wrong, [[images[4]]]


def test_qcompare_names_the_planted_tensor_first(network, tmp_path, capsys) -> None:
    module, cal, wrong, inputs = network
    healthy = build_table(run_all(Programs.from_float(module, cal, ["float", "quant"]),
                                  ["float", "quant"], inputs), THRESHOLDS)  # fmt: skip
    assert healthy.first_below() is None  # the thresholds are ones the network passes
    (tmp_path / "model.mlir").write_text(module_text(module, debuginfo=True))
    wrong.save(tmp_path / "wrong.json")
    np.savez(tmp_path / "eval.npz", input=inputs[0][0])
    status = qcompare.main([
        str(tmp_path / "model.mlir"), "--calibration", str(tmp_path / "wrong.json"),
        "--data", str(tmp_path / "eval.npz"), "--samples", "1", "--stages", "quant,tosa,npu",
        "--min-sqnr", "8", "--min-cosine", "0.9", "--dump", str(tmp_path / "dumps"),
    ])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 1
    assert f"qcompare: first below the thresholds: '{PLANTED}' in the quant stage" in out
    assert "where npu differs from tosa" not in out  # the NPU computed what TOSA did
    with (
        np.load(tmp_path / "dumps" / "npu.npz") as npu,
        np.load(tmp_path / "dumps" / "tosa.npz") as tosa,
    ):
        assert np.array_equal(npu[ADD], tosa[ADD])  # full size, bit for bit


def _cut_sqnr(module, cal, inputs, into: str, out: str) -> float:
    """The quantized program's layer `into -> out` alone, fed the quantized stage's
    dumped input, against the float program's same cut fed the float dump."""
    programs = Programs.from_float(module, cal, ["float", "quant"])
    traces = run_all(programs, ["float", "quant"], inputs)
    results = {}
    for stage in ("float", "quant"):
        source = programs.module(stage)
        dump = {n: np.stack(o.arrays) for n, o in traces[stage].values.items() if o.arrays}
        part = cut(source, [into], [out])
        args = inputs_from_dump(part, source, dump)
        (value,) = Interpreter(part).call("main", [args["arg0"]])
        results[stage] = value
    q = traces["quant"].values[out].quant
    assert q is not None
    return sqnr([results["float"]], [q.real(results["quant"])])


def test_a_cut_reproduces_the_error_alone(network) -> None:
    module, cal, wrong, inputs = network
    planted = _cut_sqnr(module, wrong, inputs, "/features/3/conv/1/2/Clip_output_0", PLANTED)
    healthy = _cut_sqnr(module, wrong, inputs, "/features/2/conv/1/2/Clip_output_0", HEALTHY)
    fixed = _cut_sqnr(module, cal, inputs, "/features/3/conv/1/2/Clip_output_0", PLANTED)
    assert planted < 5.0 < 20.0 < healthy  # the planted layer alone loses the signal
    assert fixed > 20.0  # with its right scale, the same cut is fine


def test_sensitivity_ranks_it_first_and_its_qtable_restores_the_target(network) -> None:
    module, cal, wrong, inputs = network
    reference = [Interpreter(module).call("main", inputs[0])[0]]
    target = evaluate(module, cal, inputs, QTable(), reference) - 1.0  # the healthy network
    found = analyze(module, wrong, inputs)
    assert found.all_quantized < target - 3.0  # the planted scale costs the output
    ranked = found.ranked()
    func = entry(module, "main")
    values = named_values(func)
    keys = tensor_keys(func)
    touching = {keys[values[ADD]], keys[values[PLANTED].owner.operands[0]]}  # add; conv
    assert {u.key for u in ranked[:2]} == touching, found.report(5)
    result = bisect(module, wrong, inputs, [u.key for u in ranked], target, promote="float")
    assert result.reached and touching <= set(result.qtable.entries)
    assert len(result.qtable.entries) <= 3, result.probes
    # the qtable as the quantize pass reads it, from its text, on the integer program
    table = QTable.parse(result.qtable.to_text())
    assert evaluate(module, wrong, inputs, table, reference) >= target
