"""Quantization-aware training end to end on scikit-learn's bundled digits: a float CNN
trained, fine-tuned with fake quantization, frozen, exported by `jax.export` (debug
locations and all), legalized to `!quant.uniform` types, compiled to TOSA and the NPU —
the simulator's predictions equal the interpreter's, and every rewrite on the way keeps
the exported program's numbers bit for bit."""

from __future__ import annotations

import time

import numpy as np
import pytest

pytest.importorskip("jax", reason="QAT needs the qat extra (jax)")
pytest.importorskip("sklearn", reason="the digits data come with scikit-learn")

from qdialect.calibration.workflow import integer
from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.models import digits
from qdialect.qat import cnn, export
from qdialect.qat.quantizer import Scheme
from qdialect.transforms import get_all_passes

from ..runtime.bundled import run_bundled


@pytest.fixture(scope="module")
def data():
    d = digits.load()
    return (d.x_train.transpose(0, 2, 3, 1), d.y_train, d.x_test.transpose(0, 2, 3, 1), d.y_test)


@pytest.fixture(scope="module")
def float_params(data):
    x, y, _, _ = data
    p, _ = cnn.train(cnn.DIGITS_CNN, cnn.init_params(cnn.DIGITS_CNN), x, y, epochs=6, lr=3e-3)
    return p


def legalized(text: str):
    module = QParser(make_context(), text).parse_module()
    exported = module.clone()
    get_all_passes()["stablehlo-legalize-fake-quant"]()().apply(make_context(), module)
    return exported, module


def test_qat_trains_freezes_exports_and_runs_on_the_npu(data, float_params) -> None:
    x, y, x_test, y_test = data
    start = time.perf_counter()
    config = cnn.QatConfig(weights=Scheme(8, per_channel=True), activations=Scheme(8))
    p, state = cnn.train(cnn.DIGITS_CNN, float_params, x, y, config=config, epochs=2, lr=5e-4)
    assert state is not None
    frozen = cnn.freeze(cnn.DIGITS_CNN, p, config, state)
    print(f"QAT fine-tuning and freeze: {time.perf_counter() - start:.1f} s")
    assert all(f.weights.min() >= -128 and f.weights.max() <= 127 for f in frozen.weighted.values())

    text = export.to_stablehlo(frozen, batch=len(x_test))
    assert 'loc("' in text and " to " in text  # JAX's source ranges: they must parse
    exported, qdq = legalized(text)
    assert "stablehlo.composite" not in str(qdq) and "quant.uniform" in str(qdq)
    # The exported program runs its composites' decompositions; the legalized one the
    # quantize/dequantize pairs: the same numbers, and so are the integer program's.
    want = Interpreter(exported).call("main", [x_test])[0]
    assert np.array_equal(Interpreter(qdq).call("main", [x_test])[0], want)
    program = integer(qdq, target="stablehlo")
    assert np.array_equal(Interpreter(program).call("main", [x_test])[0], want)
    accuracy = digits.top1(want, y_test)
    print(f"QAT int8 (per channel, google) on held-out digits: {accuracy:.3f}")
    assert accuracy > 0.93

    # TOSA and the NPU: one image a run, the simulator equal to the interpreter.
    _, one = legalized(export.to_stablehlo(frozen, batch=1))
    tosa = integer(one, target="tosa")
    for i in range(3):
        run = run_bundled(tosa.clone(), [x_test[i : i + 1]])
        assert np.array_equal(run.got[0], run.want[0])
        assert "tosa.conv2d" not in run.host_ops() and run.npu_functions()


@pytest.mark.parametrize("weights, activations", [
    (Scheme(4, per_channel=True), Scheme(8)),
    (Scheme(8, formula="cambricon"), Scheme(8, formula="cambricon")),
    (Scheme(8, per_channel=True), Scheme(8, scheme="affine")),
])  # fmt: skip
def test_ptq_int4_cambricon_and_affine_reach_the_npu_bit_exactly(
    data, float_params, weights, activations
) -> None:
    x, _, x_test, y_test = data
    config = cnn.QatConfig(weights=weights, activations=activations)
    frozen = cnn.freeze(cnn.DIGITS_CNN, float_params, config,
                        cnn.calibrate(cnn.DIGITS_CNN, float_params, config, x[:128]))  # fmt: skip
    lo, hi = weights.qmin, weights.qmax
    assert all(f.weights.min() >= lo and f.weights.max() <= hi for f in frozen.weighted.values())
    if weights.formula == "cambricon":  # power-of-two scales everywhere but the accumulators
        for f in frozen.weighted.values():
            assert np.all(
                np.log2(f.weight_params.scale) == np.round(np.log2(f.weight_params.scale))
            )
    _, one = legalized(export.to_stablehlo(frozen, batch=1))
    run = run_bundled(integer(one, target="tosa"), [x_test[:1]])
    assert np.array_equal(run.got[0], run.want[0])
    _, all_test = legalized(export.to_stablehlo(frozen, batch=len(x_test)))
    assert digits.top1(Interpreter(all_test).call("main", [x_test])[0], y_test) > 0.8


def test_relu_folds_into_the_storage_range(data, float_params) -> None:
    """ReLU / ReLU6 outputs are quantized into a type whose storage range stops at the
    zero point (and at 6.0): the same integers as quantizing the activation's output."""
    x = data[0]
    config = cnn.QatConfig(weights=Scheme(8), activations=Scheme(8))  # symmetric: zp 0
    state = cnn.calibrate(cnn.DIGITS_CNN, float_params, config, x[:64])
    frozen = cnn.freeze(cnn.DIGITS_CNN, float_params, config, state)
    conv1, conv2 = frozen.weighted["conv1"].output, frozen.weighted["conv2"].output
    assert (conv1.qmin, conv1.qmax) == (0, 127)
    six = int(np.rint(np.float32(6.0) / np.float32(conv2.scale[0])))
    assert conv2.qmin == 0 and conv2.qmax == min(127, six)
