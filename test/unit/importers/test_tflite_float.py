"""Float32 TFLite models as users convert them (`TFLiteConverter.from_keras_model(m).convert()`,
no quantization) import as float StableHLO that the interpreter runs: its outputs against
LiteRT's reference kernels and its default (XNNPACK) ones, the measured maximum difference
printed (`pytest -s`). Then the user's next step: the float Keras model quantized by
qdialect down to the NPU.

Not bit-exact, on purpose: a float32 convolution's sum depends on the order of its
additions (the kernels block and vectorize them; the interpreter sums in NumPy's order),
and LiteRT's default LOGISTIC and TANH are approximations. Each output is held to 3e-5 of
its largest magnitude; measured, ResNet-50 (53 layers, inputs up to 128) comes to 1.3e-5
of it against the default kernels, 6e-6 against the reference ones, the others less.

Needs TensorFlow to make the models (skipped without it, saying so)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip(
    "tensorflow", reason="the models are made by TFLiteConverter (pip install tensorflow-cpu)"
)
litert = pytest.importorskip(
    "ai_edge_litert.interpreter", reason="ai-edge-litert (the oracle extra) is not installed"
)

from qdialect.importers.tflite import TFLiteImportError, import_tflite  # noqa: E402
from qdialect.interpreter import Interpreter  # noqa: E402
from qdialect.models import keras_zoo as kz  # noqa: E402

from .test_tflite_keras import litert_run  # noqa: E402

SIZE = 96  # pixels, as test_tflite_keras.py: the full 224 runs the same code
RELATIVE = 3e-5
# Each application with the input range its preprocessing expects.
APPLICATIONS = {
    "mobilenet_v2": (-1.0, 1.0),
    "mobilenet_v3_small": (0.0, 255.0),
    "mobilenet_v3_large": (0.0, 255.0),
    "efficientnet_b0": (0.0, 255.0),
    "resnet50": (-128.0, 128.0),
}
SMALL = ["activations", "small_cnn", "tensor_ops", "branch_concat", "strided_slices", "conv1d"]


@functools.cache
def float_model(name: str) -> bytes:
    build = getattr(kz, name)
    return build(SIZE, float32=True) if name in APPLICATIONS else build(float32=True)


def input_shape(model: bytes) -> tuple[int, ...]:
    it = litert.Interpreter(model_content=model)
    return tuple(int(d) for d in it.get_input_details()[0]["shape"])


def check(name: str, low: float, high: float) -> None:
    model = float_model(name)
    module = import_tflite(model)
    assert "tosa." not in str(module)
    x = np.random.default_rng(0).uniform(low, high, input_shape(model)).astype(np.float32)
    got = Interpreter(module).call("main", [x])[0]
    assert got.dtype == np.float32
    for reference in (True, False):
        want = litert_run(model, x, reference)
        scale = float(np.abs(want).max())
        diff = float(np.abs(got.astype(np.float64) - want).max())
        kernels = "reference" if reference else "default"
        print(f"{name}: max |ours - LiteRT {kernels}| = {diff:.3g} (outputs up to {scale:.3g})")
        assert scale > 0 and diff <= RELATIVE * scale


@pytest.mark.parametrize("name", list(APPLICATIONS))
def test_float_keras_application_matches_litert(name: str) -> None:
    check(name, *APPLICATIONS[name])


@pytest.mark.parametrize("name", SMALL)
def test_float_small_keras_model_matches_litert(name: str) -> None:
    check(name, -1.0, 1.0)


def test_a_float_model_imports_as_stablehlo_only() -> None:
    """No TOSA op and no quantized type: the float program qdialect quantizes itself."""
    text = str(import_tflite(float_model("small_cnn")))
    assert "tosa." not in text and "quant.uniform" not in text
    for op in ("stablehlo.convolution", "stablehlo.reduce_window", "stablehlo.dot_general"):
        assert op in text


def sqnr(reference: np.ndarray, got: np.ndarray) -> float:
    ref = reference.astype(np.float64)
    return float(10 * np.log10((ref**2).sum() / ((ref - got.astype(np.float64)) ** 2).sum()))


def test_float_keras_model_quantized_by_qdialect_runs_on_the_npu() -> None:
    """Keras MobileNetV2 as a float .tflite -> float StableHLO -> calibration on the four
    inputs TFLiteConverter's representative dataset holds (kz.convert's) -> int8
    (stablehlo-quantize, affine) -> TOSA -> host + NPU bundle. On a held-out input the
    integer program is at least as close to the float model as the converter's own int8
    model from the same Keras model and data, and the NPU bundle equals the interpreter
    on the TOSA program bit for bit, every convolution on the NPU."""
    from qdialect.calibration.calibrate import calibrate
    from qdialect.calibration.workflow import integer, optimize_float, quantized
    from qdialect.transforms.quantize import Options

    from ..runtime.bundled import run_bundled

    model = float_model("mobilenet_v2")
    module = import_tflite(model)
    optimize_float(module)
    shape = input_shape(model)
    rng = np.random.default_rng(0)  # kz.convert's representative dataset, in its order
    cal = calibrate(module, ([rng.uniform(-1, 1, shape).astype(np.float32)] for _ in range(4)))
    tosa_program = integer(quantized(module, cal, Options(scheme="affine")), target="tosa")
    x = np.random.default_rng(7).uniform(-1, 1, shape).astype(np.float32)
    reference = Interpreter(module).call("main", [x])[0]
    ours = sqnr(reference, Interpreter(tosa_program).call("main", [x])[0])
    converter = sqnr(litert_run(model, x, True),
                     litert_run(kz.mobilenet_v2(SIZE, float_io=True), x, True))  # fmt: skip
    print(
        f"mobilenet_v2 {SIZE}x{SIZE}, SQNR against float: qdialect int8 TOSA {ours:.1f} dB, "
        f"TFLiteConverter int8 {converter:.1f} dB"
    )
    assert ours >= converter
    bundled = run_bundled(tosa_program, [x])
    assert all(np.array_equal(g, w) for g, w in zip(bundled.got, bundled.want, strict=True))
    assert not {"tosa.conv2d", "tosa.depthwise_conv2d"} & set(bundled.host_ops())


def test_the_importer_is_chosen_by_what_the_model_holds() -> None:
    """One Keras model, converted twice: full-integer (float I/O peeled at the QUANTIZE and
    DEQUANTIZE) imports as a TOSA integer program, plain float as StableHLO."""
    int8 = str(import_tflite(kz.small_cnn(float_io=True)))
    assert "tosa.conv2d" in int8 and "stablehlo.convolution" not in int8
    float32 = str(import_tflite(float_model("small_cnn")))
    assert "stablehlo.convolution" in float32 and "tosa." not in float32


def test_a_float_model_with_an_operator_without_a_rule_names_it() -> None:
    """Every operator kind without a float rule is listed in one error."""
    from qdialect.importers.tflite_float import FloatImporter
    from qdialect.importers.tflite_reader import TFLiteReader

    reader = TFLiteReader(float_model("small_cnn"))
    with pytest.raises(TFLiteImportError, match=r"MAX_POOL_2D: 1 operator, first operator 1"):
        importer = FloatImporter.adopt(reader)
        importer._op_max_pool_2d = None  # as if the rule were missing
        importer.run()
