"""Keras applications as users convert them (TFLiteConverter, full-integer int8), imported
and run: the interpreter equals LiteRT's reference kernels (BUILTIN_REF) bit for bit.
The distance to LiteRT's default XNNPACK kernels is measured and printed (`-s`).

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

from qdialect.importers.tflite import import_tflite  # noqa: E402
from qdialect.interpreter import Interpreter  # noqa: E402
from qdialect.models import keras_zoo as kz  # noqa: E402

SIZE = 96  # pixels: the full 224 runs the same code (docs/tflite.md has its figures)
APPLICATIONS = {
    "mobilenet_v2": kz.mobilenet_v2,
    "mobilenet_v3_small": kz.mobilenet_v3_small,
    "mobilenet_v3_large": kz.mobilenet_v3_large,
    "efficientnet_b0": kz.efficientnet_b0,
    "resnet50": kz.resnet50,
}


@functools.cache
def application(name: str) -> bytes:
    return APPLICATIONS[name](SIZE)


def litert_run(model: bytes, x: np.ndarray, reference: bool) -> np.ndarray:
    resolver = (litert.OpResolverType.BUILTIN_REF if reference
                else litert.OpResolverType.AUTO)  # fmt: skip
    it = litert.Interpreter(model_content=model, experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])


def check(model: bytes, label: str, samples: int = 2) -> None:
    module = import_tflite(model)
    it = litert.Interpreter(model_content=model)
    shape = tuple(it.get_input_details()[0]["shape"])
    worst = 0
    for seed in range(samples):
        x = np.random.default_rng(seed).integers(-128, 128, shape).astype(np.int8)
        got = Interpreter(module).call("main", [x])[0]
        assert np.array_equal(got, litert_run(model, x, reference=True))
        default = litert_run(model, x, reference=False)
        worst = max(worst, int(np.abs(got.astype(np.int32) - default).max()))
    print(f"{label}: equal to BUILTIN_REF; at most {worst} steps from LiteRT's default kernels")


@pytest.mark.parametrize("name", list(APPLICATIONS))
def test_keras_application_matches_litert_reference(name: str) -> None:
    check(application(name), f"{name} {SIZE}x{SIZE}")


@pytest.mark.parametrize(
    "build",
    [kz.activations, kz.branch_concat, kz.small_cnn, kz.strided_slices, kz.tensor_ops, kz.conv1d],
    ids=lambda f: f.__name__,
)
def test_small_keras_models_match_litert_reference(build) -> None:
    check(build(float_io=False), build.__name__)


def test_dynamic_image_size_is_refused_and_a_dynamic_batch_is_not() -> None:
    """`Input((None, None, 8))` declares [1, 1, 1, 8] with signature [-1, -1, -1, 8]: a
    program fixed at 1x1 would be silently wrong for the sizes the user runs, so it is an
    error; the applications' dynamic batch imports at the declared batch (as LiteRT runs)."""
    from qdialect.importers.tflite import TFLiteImportError

    with pytest.raises(TFLiteImportError, match=r"dynamic axes \[-1, -1, -1, 8\]"):
        import_tflite(kz.dynamic_size())


@pytest.mark.parametrize("method", ["nearest", "bilinear"])
@pytest.mark.parametrize("mode", kz.RESIZE_MODES)
@pytest.mark.parametrize("size, scale", [(8, 2), (7, 3)])
def test_resize_matches_litert_reference(method: str, mode: str, size: int, scale: int) -> None:
    """RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR in each coordinate mode (half-pixel
    centres, aligned corners, asymmetric): TFLite's index map, and for bilinear its 10-bit
    weights and 2^20 rounding, reproduced exactly."""
    build = kz.resize_nearest if method == "nearest" else kz.resize_bilinear
    check(build(mode, size=size, scale=scale), f"{method} {mode} {size}x{scale}", samples=6)
