"""Keras-made int8 TFLite models (qdialect.models.keras_zoo): each builder's model loads
and runs in LiteRT's reference interpreter and holds exactly the builtin operators its
docstring's "Ops:" line names. Needs TensorFlow; skipped without it.

Converting a Keras application takes 20-60 s (Keras' SavedModel export dominates), so
only MobileNetV3Small runs by default; QDIALECT_KERAS_ZOO_ALL=1 runs the other four."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

tf = pytest.importorskip(
    "tensorflow",
    reason="keras_zoo converts Keras models with TensorFlow (pip install tensorflow-cpu)",
)
litert = pytest.importorskip(
    "ai_edge_litert.interpreter", reason="ai-edge-litert (the oracle extra) is not installed"
)

from qdialect.models import keras_zoo as kz  # noqa: E402

ALL = bool(os.environ.get("QDIALECT_KERAS_ZOO_ALL"))
slow = pytest.mark.skipif(
    not ALL,
    reason="a full-size Keras application converts in 20-60 s; importers/test_tflite_keras converts "
    "and checks all five at 96 px (set QDIALECT_KERAS_ZOO_ALL=1 for their op lists at full size)",
)
QDQ = {"QUANTIZE", "DEQUANTIZE"}


def doc_ops(fn) -> set[str]:
    """The operator names of the "Ops:" sentence in `fn`'s docstring."""
    match = re.search(r"Ops:([A-Z0-9_,\s]+)\.", fn.__doc__ or "")
    assert match, f"{fn.__name__} has no 'Ops: ...' line"
    return {name.strip() for name in match.group(1).split(",") if name.strip()}


def run(model: bytes, shape: tuple[int, ...] | None = None) -> tuple[np.ndarray, dict]:
    """One invocation in LiteRT's reference kernels on a seeded random input."""
    it = litert.Interpreter(
        model_content=model, experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF
    )
    if shape is not None:
        it.resize_tensor_input(it.get_input_details()[0]["index"], shape)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    rng = np.random.default_rng(0)
    if d["dtype"] == np.float32:
        x = rng.uniform(-1, 1, d["shape"]).astype(np.float32)
    else:
        x = rng.integers(-128, 128, d["shape"]).astype(d["dtype"])
    it.set_tensor(d["index"], x)
    it.invoke()
    out = it.get_output_details()[0]
    return it.get_tensor(out["index"]), d


def case(id: str, build, doc, *, add=frozenset(), remove=frozenset(), dtype=np.int8,
         out=(1, 10), shape=None, slow_case: bool = False):  # fmt: skip
    """A builder call `build`; `doc` is the function whose docstring names its ops, `add`
    and `remove` what the call's arguments change; `dtype` the input and output type, `out`
    the output shape, `shape` the interpreter's input shape for a model of unknown size."""
    marks = [slow] if slow_case else []
    return pytest.param(build, doc, set(add), set(remove), dtype, out, shape, id=id, marks=marks)


CASES = [
    case("mobilenet_v3_small", lambda: kz.mobilenet_v3_small(96), kz.mobilenet_v3_small),
    case("mobilenet_v3_small-nopre-float_io",
         lambda: kz.mobilenet_v3_small(96, include_preprocessing=False, float_io=True),
         kz.mobilenet_v3_small, add=QDQ, dtype=np.float32, slow_case=True),
    case("mobilenet_v3_large", lambda: kz.mobilenet_v3_large(96), kz.mobilenet_v3_large,
         slow_case=True),
    case("mobilenet_v2", lambda: kz.mobilenet_v2(96), kz.mobilenet_v2, slow_case=True),
    case("efficientnet_b0", lambda: kz.efficientnet_b0(96), kz.efficientnet_b0, slow_case=True),
    case("resnet50", lambda: kz.resnet50(96), kz.resnet50, slow_case=True),
    case("tensor_ops", kz.tensor_ops, kz.tensor_ops),
    case("activations", kz.activations, kz.activations, out=(1, 8, 8, 4)),
    case("small_cnn", kz.small_cnn, kz.small_cnn, dtype=np.float32),
    case("small_cnn-int8_io", lambda: kz.small_cnn(float_io=False), kz.small_cnn, remove=QDQ),
    case("branch_concat", kz.branch_concat, kz.branch_concat),
    case("dynamic_size", kz.dynamic_size, kz.dynamic_size, out=(1, 8, 4), shape=(1, 8, 8, 8)),
    case("conv1d", kz.conv1d, kz.conv1d, out=(1, 4)),
    case("single_layer-conv3x3", lambda: kz.single_layer("conv3x3", size=6, filters=8),
         kz.single_layer, remove={"DEPTHWISE_CONV_2D", "FULLY_CONNECTED"}, out=(1, 6, 6, 8)),
    case("single_layer-depthwise3x3-stride2",
         lambda: kz.single_layer("depthwise3x3", size=6, stride=2), kz.single_layer,
         remove={"CONV_2D", "FULLY_CONNECTED"}, out=(1, 3, 3, 16)),
    case("single_layer-pointwise", lambda: kz.single_layer("pointwise", size=4, filters=8),
         kz.single_layer, remove={"DEPTHWISE_CONV_2D", "FULLY_CONNECTED"}, out=(1, 4, 4, 8)),
    case("single_layer-dense", lambda: kz.single_layer("dense", channels=32, filters=10),
         kz.single_layer, remove={"CONV_2D", "DEPTHWISE_CONV_2D"}),
]  # fmt: skip


@pytest.mark.parametrize(("build", "doc", "add", "remove", "dtype", "out", "shape"), CASES)
def test_builder_runs_with_its_documented_ops(build, doc, add, remove, dtype, out, shape) -> None:
    model = build()
    assert model[4:8] == b"TFL3"
    assert set(kz.builtin_ops(model)) == (doc_ops(doc) | add) - remove
    y, d = run(model, shape)
    assert d["dtype"] == dtype
    assert y.shape == out and y.dtype == dtype


@pytest.mark.parametrize("mode", kz.RESIZE_MODES)
@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_resize_modes(method: str, mode: str) -> None:
    fn = kz.resize_bilinear if method == "bilinear" else kz.resize_nearest
    model = fn(mode)
    name = "RESIZE_BILINEAR" if method == "bilinear" else "RESIZE_NEAREST_NEIGHBOR"
    assert set(kz.builtin_ops(model)) == doc_ops(fn)
    assert kz.resize_options(model) == [(name, mode == "align_corners", mode == "half_pixel")]
    y, _ = run(model)
    assert y.shape == (1, 16, 16, 4) and y.dtype == np.int8


def test_small_models_cover_the_listed_operators() -> None:
    """The module docstring's promise: the small models' docstrings name every operator."""
    small = [kz.resize_bilinear, kz.resize_nearest, kz.tensor_ops, kz.activations,
             kz.small_cnn, kz.dynamic_size, kz.conv1d]  # fmt: skip
    covered = set().union(*(doc_ops(fn) for fn in small))
    wanted = {
        "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR", "TRANSPOSE", "SPLIT", "SPLIT_V",
        "STRIDED_SLICE", "SQUEEZE", "MEAN", "PAD", "HARD_SWISH", "LOGISTIC", "SOFTMAX",
        "CONCATENATION", "QUANTIZE", "DEQUANTIZE", "MAX_POOL_2D", "AVERAGE_POOL_2D",
        "FULLY_CONNECTED", "ADD", "MUL", "RESHAPE",
    }  # fmt: skip
    assert wanted <= covered, wanted - covered


def test_single_layer_names_its_kinds() -> None:
    with pytest.raises(ValueError, match="'conv5x5' is not one of conv3x3, depthwise3x3"):
        kz.single_layer("conv5x5")


def test_module_imports_without_tensorflow() -> None:
    code = (
        "import sys; import qdialect.models.keras_zoo as kz; "
        "assert 'tensorflow' not in sys.modules and 'keras' not in sys.modules; print(len(kz.BUILDERS))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout) == len(kz.BUILDERS)
