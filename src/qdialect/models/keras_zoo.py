"""Int8 TFLite models made the way users make them: Keras models through TFLiteConverter.

Needs TensorFlow (`pip install tensorflow-cpu`; not a dependency of qdialect, an optional
extra like the `oracle` one). TensorFlow is imported inside the functions, so this module
imports without it; `builtin_ops` and `resize_options` need only ai-edge-litert.

Why these models: almost every int8 .tflite file in the wild comes out of
`tf.lite.TFLiteConverter.from_keras_model` with post-training quantization, and that
converter writes its own operator mix — Keras preprocessing layers become MUL/ADD,
`hard_swish` becomes HARD_SWISH, a Keras `Dense` on a 4-D tensor or a `Flatten` becomes
RESHAPE + FULLY_CONNECTED, `GlobalAveragePooling2D` becomes MEAN without keep_dims,
`ZeroPadding2D` PAD unless the convolution after it can take the padding,
`tf.image.resize` RESIZE_BILINEAR with `half_pixel_centers`, and so on — which the
hand-built models of `tflite_builder` do not reproduce. So each builder here is exactly
the user's recipe: a Keras model with random weights (seeded with
`tf.keras.utils.set_random_seed`, `weights=None` for the applications), converted with
`optimizations=[tf.lite.Optimize.DEFAULT]`, a representative dataset of a few seeded
random inputs in the model's input range, `supported_ops=[TFLITE_BUILTINS_INT8]` and
int8 input and output (`float_io=True` keeps float32 I/O: the converter then adds
QUANTIZE and DEQUANTIZE at the edges). Each returns the .tflite bytes; `float32=True`
returns the unquantized conversion instead, the float model a user quantizes with
qdialect (docs/quantization.md).

One step is not the user's: random weights with Keras' initial batch-norm statistics make a
degenerate network (the signal vanishes layer by layer, every output is the same, and
LiteRT's reference kernels abort on the resulting softmax scale), so the applications' batch
norms get the statistics of one training-mode pass over seeded inputs (`fit_batchnorm`), as
training would leave them; `fit_bn=False` skips that.

The applications take `input_size` (224 as users have them; 96 or 128 keep tests fast)
and have 10 classes; Keras gives them an unknown batch size, so a Flatten or Reshape in
them becomes SHAPE, STRIDED_SLICE, PACK, RESHAPE. The small models together cover
RESIZE_BILINEAR (all three coordinate modes), RESIZE_NEAREST_NEIGHBOR (likewise),
TRANSPOSE, SPLIT, SPLIT_V, STRIDED_SLICE, SQUEEZE, EXPAND_DIMS, MEAN, PAD, HARD_SWISH,
LOGISTIC, TANH, SOFTMAX, CONCATENATION, QUANTIZE, DEQUANTIZE, MAX_POOL_2D,
AVERAGE_POOL_2D, CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD, SUB, MUL and RESHAPE.
Each builder's docstring ends its description with "Ops: ...": the exact set of builtin
operators in its model with default arguments, read from the converted flatbuffers
(TensorFlow 2.21, Keras 3.15; the applications' sets are the same at 96, 128 and 224) and
checked by test/unit/models/test_keras_zoo.py. `BUILDERS` maps a name to each builder.
"""

from __future__ import annotations

import functools
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, cast

import numpy as np

if TYPE_CHECKING:  # imported in the functions at run time (see _run_in_worker's note)
    from ai_edge_litert.schema_py_generated import (
        ResizeBilinearOptionsT,
        ResizeNearestNeighborOptionsT,
    )

# Builders run TensorFlow in one worker process of their own. TensorFlow's converter and
# ai-edge-litert each register a pybind11 type named CalibrationWrapper; in one process
# the second to load fails ("already registered"), so a test process that has used
# LiteRT's calibrator (tflite_builder) could not convert a Keras model afterwards. The
# worker also keeps TensorFlow's threads and memory out of the caller.
_POOL: ProcessPoolExecutor | None = None
_IN_WORKER = False


def _run_in_worker(name: str, args: tuple, kwargs: dict) -> bytes:
    global _IN_WORKER
    _IN_WORKER = True
    return globals()[name].__wrapped__(*args, **kwargs)


def _isolated(builder: Callable[..., bytes]) -> Callable[..., bytes]:
    """`builder`, run in the TensorFlow worker process (see `_POOL`)."""

    @functools.wraps(builder)
    def run(*args, **kwargs) -> bytes:
        global _POOL
        if _IN_WORKER:
            return builder(*args, **kwargs)
        if _POOL is None:
            _POOL = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        return _POOL.submit(_run_in_worker, builder.__name__, args, kwargs).result()

    return run


RESIZE_MODES = ("half_pixel", "align_corners", "asymmetric")


def _tf():
    try:
        import tensorflow as tf
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "qdialect.models.keras_zoo builds models with TensorFlow's TFLiteConverter: "
            "pip install tensorflow-cpu"
        ) from None
    return tf


def convert(model, low: float = -1.0, high: float = 1.0, *, float_io: bool = False,
            float32: bool = False, samples: int = 4, seed: int = 0,
            sample_shape: tuple[int, ...] | None = None) -> bytes:  # fmt: skip
    """The int8 .tflite bytes of a one-or-more-input Keras model, quantized as users do:
    DEFAULT optimizations, `samples` seeded uniform [low, high) inputs as the representative
    dataset (batch 1; `sample_shape` for a model with unknown dimensions), int8 builtins
    only, int8 input and output unless `float_io`. With `float32` the plain conversion
    instead (no optimizations): the float model users quantize themselves."""
    tf = _tf()
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    if float32:
        return bytes(converter.convert())
    rng = np.random.default_rng(seed)
    shapes = [sample_shape or (1, *tuple(t.shape)[1:]) for t in model.inputs]
    data = [[rng.uniform(low, high, s).astype(np.float32) for s in shapes] for _ in range(samples)]
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    converter.representative_dataset = lambda: iter(data)
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    if not float_io:
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    return bytes(converter.convert())


# --- tf.keras.applications -----------------------------------------------------------------


def fit_batchnorm(model, low: float, high: float, *, batch: int = 8, seed: int = 0) -> None:
    """Set every BatchNormalization layer's moving mean and variance to the batch statistics
    of one training-mode pass over `batch` seeded uniform [low, high) inputs (momentum 0
    for that pass), as training would leave them.

    Keras' initial statistics (mean 0, variance 1) make batch norm the identity, and
    Glorot-initialized convolutions then shrink the signal by about half at every ReLU: in
    MobileNetV2 the logits come out about 1e-6 wide, the quantized softmax input scale
    about 8e-9, every output the same, and LiteRT's reference SOFTMAX aborts the process
    in Prepare. With fitted statistics every layer's activations are of unit order, as
    in a trained network, while the weights stay random."""
    tf = _tf()
    norm = tf.keras.layers.BatchNormalization
    layers = [la for la in _all_layers(model) if isinstance(la, norm)]
    if not layers:
        return
    rng = np.random.default_rng(seed + 1)
    x = rng.uniform(low, high, (batch, *tuple(model.inputs[0].shape)[1:])).astype(np.float32)
    saved = [la.momentum for la in layers]
    for la in layers:
        la.momentum = 0.0
    model(x, training=True)
    for la, momentum in zip(layers, saved, strict=True):
        la.momentum = momentum


def _all_layers(layer):
    for child in getattr(layer, "layers", []):
        yield child
        yield from _all_layers(child)


def _application(make, input_size: int, low: float, high: float, float_io: bool,
                 fit_bn: bool, seed: int, float32: bool = False, **kwargs) -> bytes:  # fmt: skip
    tf = _tf()
    tf.keras.utils.set_random_seed(seed)
    model = make(input_shape=(input_size, input_size, 3), weights=None, **kwargs)
    if fit_bn:
        fit_batchnorm(model, low, high, seed=seed)
    return convert(model, low, high, float_io=float_io, float32=float32, seed=seed)


@_isolated
def mobilenet_v2(input_size: int = 224, *, classes: int = 10, alpha: float = 1.0,
                 float_io: bool = False, float32: bool = False, fit_bn: bool = True, seed: int = 0) -> bytes:  # fmt: skip
    """`tf.keras.applications.MobileNetV2`, inputs in [-1, 1] (its `preprocess_input`).
    `fit_bn`: `fit_batchnorm` before converting (the default; False keeps Keras' initial
    statistics and makes a degenerate model, see there) — so for every application.

    Ops: CONV_2D, DEPTHWISE_CONV_2D, ADD, MEAN, FULLY_CONNECTED, SOFTMAX.
    (The converter folds each ZeroPadding2D into the strided depthwise convolution after
    it, batch norm and ReLU6 into the convolutions; GlobalAveragePooling2D is MEAN;
    `float_io` adds QUANTIZE and DEQUANTIZE.)"""
    tf = _tf()
    return _application(tf.keras.applications.MobileNetV2, input_size, -1.0, 1.0, float_io,
                        fit_bn, seed, float32=float32, alpha=alpha, classes=classes)  # fmt: skip


def _mobilenet_v3(large: bool, input_size: int, classes: int, include_preprocessing: bool,
                  minimalistic: bool, float_io: bool, fit_bn: bool, seed: int,
                  float32: bool = False) -> bytes:  # fmt: skip
    tf = _tf()
    apps = tf.keras.applications
    make = apps.MobileNetV3Large if large else apps.MobileNetV3Small
    low, high = (0.0, 255.0) if include_preprocessing else (-1.0, 1.0)
    return _application(make, input_size, low, high, float_io, fit_bn, seed, float32=float32, classes=classes,
                        include_preprocessing=include_preprocessing,
                        minimalistic=minimalistic)  # fmt: skip


@_isolated
def mobilenet_v3_small(input_size: int = 224, *, classes: int = 10,
                       include_preprocessing: bool = True, minimalistic: bool = False,
                       float_io: bool = False, float32: bool = False, fit_bn: bool = True, seed: int = 0) -> bytes:  # fmt: skip
    """`tf.keras.applications.MobileNetV3Small`; with `include_preprocessing` (the default,
    as users have it) its Rescaling layer takes inputs in [0, 255], else inputs in [-1, 1].

    Ops: CONV_2D, DEPTHWISE_CONV_2D, HARD_SWISH, ADD, MUL, MEAN, SHAPE, STRIDED_SLICE, PACK,
    RESHAPE, SOFTMAX.
    (HARD_SWISH is Keras' hard_swish activation; each squeeze-and-excite block is MEAN, two
    1x1 CONV_2D, the hard sigmoid as ADD (ReLU6 fused) and MUL by 1/6, and a MUL;
    `include_preprocessing` adds the Rescaling layer's MUL and ADD at the input; the
    classifier is 1x1 convolutions and a Flatten, which on Keras' unknown batch size is
    SHAPE, STRIDED_SLICE, PACK, RESHAPE; `float_io` adds QUANTIZE and DEQUANTIZE.)"""
    return _mobilenet_v3(False, input_size, classes, include_preprocessing, minimalistic,
                         float_io, fit_bn, seed, float32)  # fmt: skip


@_isolated
def mobilenet_v3_large(input_size: int = 224, *, classes: int = 10,
                       include_preprocessing: bool = True, minimalistic: bool = False,
                       float_io: bool = False, float32: bool = False, fit_bn: bool = True, seed: int = 0) -> bytes:  # fmt: skip
    """`tf.keras.applications.MobileNetV3Large`, inputs as for `mobilenet_v3_small`.

    Ops: CONV_2D, DEPTHWISE_CONV_2D, HARD_SWISH, ADD, MUL, MEAN, SHAPE, STRIDED_SLICE, PACK,
    RESHAPE, SOFTMAX. (The same operators as `mobilenet_v3_small`, more of them.)"""
    return _mobilenet_v3(True, input_size, classes, include_preprocessing, minimalistic,
                         float_io, fit_bn, seed, float32)  # fmt: skip


@_isolated
def efficientnet_b0(input_size: int = 224, *, classes: int = 10, float_io: bool = False, float32: bool = False,
                    fit_bn: bool = True, seed: int = 0) -> bytes:  # fmt: skip
    """`tf.keras.applications.EfficientNetB0`; its built-in Rescaling and Normalization
    layers take inputs in [0, 255].

    Ops: CONV_2D, DEPTHWISE_CONV_2D, LOGISTIC, MUL, ADD, MEAN, SHAPE, STRIDED_SLICE, PACK,
    RESHAPE, FULLY_CONNECTED, SOFTMAX.
    (Swish is LOGISTIC and MUL; each of the 16 squeeze-and-excite blocks reshapes with
    Keras' unknown batch size: SHAPE, STRIDED_SLICE, PACK, RESHAPE; the preprocessing
    layers fold into the first convolution; `float_io` adds QUANTIZE and DEQUANTIZE.)"""
    tf = _tf()
    return _application(tf.keras.applications.EfficientNetB0, input_size, 0.0, 255.0,
                        float_io, fit_bn, seed, float32=float32, classes=classes)  # fmt: skip


@_isolated
def resnet50(input_size: int = 224, *, classes: int = 10, float_io: bool = False, float32: bool = False,
             fit_bn: bool = True, seed: int = 0) -> bytes:  # fmt: skip
    """`tf.keras.applications.ResNet50`, inputs in [-128, 128] (roughly its caffe-style
    `preprocess_input`: BGR less the ImageNet means).

    Ops: PAD, CONV_2D, MAX_POOL_2D, ADD, MEAN, FULLY_CONNECTED, SOFTMAX.
    (The two ZeroPadding2D layers, before the 7x7 convolution and the max pool, stay PAD;
    batch normalization and ReLU fold into the convolutions; `float_io` adds QUANTIZE and
    DEQUANTIZE.)"""
    tf = _tf()
    return _application(tf.keras.applications.ResNet50, input_size, -128.0, 128.0, float_io,
                        fit_bn, seed, float32=float32, classes=classes)  # fmt: skip


# --- small Keras models ----------------------------------------------------------------------


@_isolated
def resize_bilinear(mode: str = "half_pixel", *, size: int = 8, scale: int = 2,
                    float_io: bool = False, float32: bool = False, seed: int = 0) -> bytes:  # fmt: skip
    """Conv, bilinear upsampling by `scale`, conv. `mode`: "half_pixel" (what Keras'
    Resizing / UpSampling2D / `tf.image.resize` write: half_pixel_centers=True),
    "align_corners" (`tf.compat.v1.image.resize(..., align_corners=True)`) or
    "asymmetric" (the TF1 default: both false).

    Ops: CONV_2D, RESIZE_BILINEAR."""
    return _resize("bilinear", mode, size, scale, float_io, seed, float32)


@_isolated
def resize_nearest(mode: str = "half_pixel", *, size: int = 8, scale: int = 2,
                   float_io: bool = False, float32: bool = False, seed: int = 0) -> bytes:  # fmt: skip
    """As `resize_bilinear` with nearest-neighbour resizing (`Resizing(interpolation=
    "nearest")` for "half_pixel").

    Ops: CONV_2D, RESIZE_NEAREST_NEIGHBOR."""
    return _resize("nearest", mode, size, scale, float_io, seed, float32)


def _resize(
    method: str, mode: str, size: int, scale: int, float_io: bool, seed: int, float32: bool = False
) -> bytes:
    if mode not in RESIZE_MODES:
        raise ValueError(f"mode {mode!r} is not one of {RESIZE_MODES}")
    tf = _tf()
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    out = (size * scale, size * scale)
    x = inp = keras.Input((size, size, 3), batch_size=1)
    x = keras.layers.Conv2D(8, 3, padding="same", activation="relu")(x)
    if mode == "half_pixel":
        x = keras.layers.Resizing(*out, interpolation=method)(x)
    else:
        v1 = tf.compat.v1.image
        fn = v1.resize_bilinear if method == "bilinear" else v1.resize_nearest_neighbor
        corners = mode == "align_corners"
        x = keras.layers.Lambda(lambda t: fn(t, out, align_corners=corners,
                                             half_pixel_centers=False))(x)  # fmt: skip
    x = keras.layers.Conv2D(4, 3, padding="same")(x)
    return convert(keras.Model(inp, x), float_io=float_io, float32=float32, seed=seed)


@_isolated
def tensor_ops(
    *, size: int = 8, float_io: bool = False, float32: bool = False, seed: int = 0
) -> bytes:
    """Data movement: Permute (TRANSPOSE), `tf.split` into equal parts (SPLIT) and into
    sizes (SPLIT_V), a strided slice (STRIDED_SLICE), `tf.squeeze` (SQUEEZE), Concatenate
    (CONCATENATION), Reshape (RESHAPE), ZeroPadding2D (PAD), GlobalAveragePooling2D and
    `reduce_mean` over one axis (MEAN). (A ZeroPadding2D before a valid convolution that
    it makes "same" folds into the convolution; the one here does not. `tf.squeeze` of a
    static shape becomes RESHAPE: see `dynamic_size` for SQUEEZE.)

    Ops: CONV_2D, SPLIT, SPLIT_V, TRANSPOSE, STRIDED_SLICE, PAD, CONCATENATION, MEAN,
    RESHAPE, FULLY_CONNECTED."""
    tf = _tf()
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    L = keras.layers
    x = inp = keras.Input((size, size, 8), batch_size=1)
    x = L.Conv2D(12, 3, padding="same")(x)
    a, b, c = L.Lambda(lambda t: tf.split(t, 3, axis=-1))(x)  # SPLIT
    d, e = L.Lambda(lambda t: tf.split(t, [3, 1], axis=-1))(c)  # SPLIT_V
    p = L.Permute((2, 1, 3))(a)  # TRANSPOSE
    s = L.Lambda(lambda t: t[:, ::2, 1:, :])(b)  # STRIDED_SLICE
    s = L.ZeroPadding2D(((0, 0), (1, 0)))(s)
    y = L.Concatenate()([p, d, e])
    y = L.ZeroPadding2D(1)(y)  # PAD
    y = L.Conv2D(8, 3)(y)
    m = L.Lambda(lambda t: tf.reduce_mean(t, axis=1, keepdims=True))(y)  # MEAN over H
    m = L.Lambda(lambda t: tf.squeeze(t, axis=1))(m)  # SQUEEZE
    m = L.Reshape((size * 8,))(m)  # RESHAPE
    g = L.GlobalAveragePooling2D()(s)  # MEAN over H, W
    z = L.Concatenate()([m, g])
    z = L.Dense(10)(z)
    return convert(keras.Model(inp, z), float_io=float_io, float32=float32, seed=seed)


@_isolated
def activations(
    *, size: int = 8, float_io: bool = False, float32: bool = False, seed: int = 0
) -> bytes:
    """Activations: hard_swish (HARD_SWISH), sigmoid (LOGISTIC), tanh (TANH), a swish
    (LOGISTIC, MUL), Add and Subtract, softmax (SOFTMAX).

    Ops: CONV_2D, HARD_SWISH, LOGISTIC, TANH, MUL, ADD, SUB, SOFTMAX."""
    tf = _tf()
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    L = keras.layers
    x = inp = keras.Input((size, size, 3), batch_size=1)
    x = L.Conv2D(8, 3, padding="same")(x)
    h = L.Activation("hard_swish")(x)
    s = L.Activation("sigmoid")(x)
    t = L.Activation("tanh")(x)
    w = L.Multiply()([x, L.Activation("sigmoid")(L.Conv2D(8, 1)(x))])
    y = L.Add()([h, s])
    y = L.Subtract()([y, t])
    y = L.Add()([y, w])
    y = L.Conv2D(4, 1)(y)
    y = L.Softmax()(y)
    return convert(keras.Model(inp, y), float_io=float_io, float32=float32, seed=seed)


@_isolated
def small_cnn(
    *, size: int = 16, float_io: bool = True, float32: bool = False, seed: int = 0
) -> bytes:
    """A small classifier with float input and output by default (QUANTIZE, DEQUANTIZE):
    Conv2D, DepthwiseConv2D, MaxPooling2D, AveragePooling2D, a residual Add, a Multiply,
    Flatten, Dense, softmax. (ReLU and ReLU6 fold into the convolutions.)

    Ops: QUANTIZE, CONV_2D, MAX_POOL_2D, DEPTHWISE_CONV_2D, ADD, AVERAGE_POOL_2D, MUL,
    RESHAPE, FULLY_CONNECTED, SOFTMAX, DEQUANTIZE. (With `float_io=False`, int8 I/O, the
    same without QUANTIZE and DEQUANTIZE.)"""
    tf = _tf()
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    L = keras.layers
    x = inp = keras.Input((size, size, 3), batch_size=1)
    x = L.Conv2D(8, 3, padding="same", activation="relu")(x)
    x = L.MaxPooling2D(2)(x)
    y = L.DepthwiseConv2D(3, padding="same", activation="relu6")(x)
    x = L.Add()([x, y])
    x = L.AveragePooling2D(2)(x)
    z = L.Conv2D(8, 1, activation="relu")(x)
    x = L.Multiply()([x, z])
    x = L.Flatten()(x)
    x = L.Dense(16, activation="relu")(x)
    x = L.Dense(10, activation="softmax")(x)
    return convert(keras.Model(inp, x), float_io=float_io, float32=float32, seed=seed)


@_isolated
def branch_concat(
    *, size: int = 8, float_io: bool = False, float32: bool = False, seed: int = 0
) -> bytes:
    """A two-branch head, Inception-style: Conv2D, then a 1x1 and a 3x3 Conv2D branch, each
    GlobalAveragePooling2D (MEAN without keep_dims: an [1, C] result), Concatenate, Dense.

    Ops: CONV_2D, MEAN, CONCATENATION, FULLY_CONNECTED."""
    tf = _tf()
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    L = keras.layers
    x = inp = keras.Input((size, size, 3))
    x = L.Conv2D(8, 3, padding="same", activation="relu")(x)
    a = L.GlobalAveragePooling2D()(L.Conv2D(8, 1, activation="relu")(x))
    b = L.GlobalAveragePooling2D()(L.Conv2D(8, 3, padding="same", activation="relu")(x))
    y = L.Dense(10)(L.Concatenate()([a, b]))
    return convert(keras.Model(inp, y), float_io=float_io, float32=float32, seed=seed)


@_isolated
def dynamic_size(
    *, size: int = 8, float_io: bool = False, float32: bool = False, seed: int = 0
) -> bytes:
    """A fully convolutional model of unknown image size, `Input((None, None, 8))`
    (calibrated on size x size): Conv2D, the mean over H, `tf.squeeze` of H, Conv1D.
    The converter keeps SQUEEZE only here: on static shapes it rewrites SQUEEZE as RESHAPE.
    The .tflite input's `shape` is [1, 1, 1, 8] (`shape_signature` [-1, -1, -1, 8]): an
    interpreter is resized to the real input shape before it runs.

    Ops: CONV_2D, MEAN, SQUEEZE, EXPAND_DIMS."""
    tf = _tf()
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    L = keras.layers
    x = inp = keras.Input((None, None, 8))
    x = L.Conv2D(8, 3, padding="same", activation="relu")(x)
    x = L.Lambda(lambda t: tf.squeeze(tf.reduce_mean(t, axis=1, keepdims=True), axis=1))(x)
    x = L.Conv1D(4, 3, padding="same")(x)
    return convert(keras.Model(inp, x), float_io=float_io, float32=float32, seed=seed,
                   sample_shape=(1, size, size, 8))  # fmt: skip


@_isolated
def conv1d(
    *, length: int = 32, float_io: bool = False, float32: bool = False, seed: int = 0
) -> bytes:
    """A keyword-spotting-style 1-D CNN with an unknown batch size, as Keras models have it:
    Conv1D-ReLU, MaxPooling1D, Conv1D-ReLU, GlobalAveragePooling1D, Dense. The converter
    writes each 1-D layer as EXPAND_DIMS, its 2-D operator, RESHAPE.

    Ops: EXPAND_DIMS, CONV_2D, RESHAPE, MAX_POOL_2D, MEAN, FULLY_CONNECTED."""
    tf = _tf()
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    L = keras.layers
    x = inp = keras.Input((length, 8))
    x = L.Conv1D(8, 3, padding="same", activation="relu")(x)
    x = L.MaxPooling1D(2)(x)
    x = L.Conv1D(8, 3, padding="same", activation="relu")(x)
    x = L.GlobalAveragePooling1D()(x)
    x = L.Dense(4)(x)
    return convert(keras.Model(inp, x), float_io=float_io, float32=float32, seed=seed)


LAYER_KINDS = ("conv3x3", "depthwise3x3", "pointwise", "dense")


@_isolated
def single_layer(
    kind: str, *, size: int = 16, channels: int = 16, filters: int = 16,
    stride: int = 1, seed: int = 0,
) -> bytes:  # fmt: skip
    """One layer alone, ReLU fused, int8 in and out: the unit the NPU comparisons measure.
    `kind` is one of `LAYER_KINDS`: "conv3x3" (Conv2D 3x3, same padding, `channels` to
    `filters`), "depthwise3x3" (DepthwiseConv2D 3x3, same padding, `channels`),
    "pointwise" (Conv2D 1x1) on a `size` x `size` image, or "dense" (Dense on a
    [1, `channels`] input, `filters` outputs).

    Ops: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED."""
    if kind not in LAYER_KINDS:
        raise ValueError(f"single_layer: kind {kind!r} is not one of {', '.join(LAYER_KINDS)}")
    tf = _tf()
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    L = keras.layers
    if kind == "dense":
        inp = keras.Input((channels,))
        return convert(keras.Model(inp, L.Dense(filters, activation="relu")(inp)), seed=seed)
    inp = keras.Input((size, size, channels))
    if kind == "depthwise3x3":
        layer = L.DepthwiseConv2D(3, stride, padding="same", activation="relu")
    else:
        k = 3 if kind == "conv3x3" else 1
        layer = L.Conv2D(filters, k, stride, padding="same", activation="relu")
    return convert(keras.Model(inp, layer(inp)), seed=seed)


@_isolated
def strided_slices(
    *, size: int = 9, float_io: bool = False, float32: bool = False, seed: int = 0
) -> bytes:
    """Conv2D, every second row and every third column of a window (`t[:, ::2, 1:8:3]`),
    Conv2D: a STRIDED_SLICE with steps other than 1.

    Ops: CONV_2D, STRIDED_SLICE."""
    tf = _tf()
    keras = tf.keras
    keras.utils.set_random_seed(seed)
    L = keras.layers
    x = inp = keras.Input((size, size, 4))
    x = L.Conv2D(8, 3, padding="same", activation="relu")(x)
    x = L.Lambda(lambda t: t[:, ::2, 1:8:3, :])(x)
    x = L.Conv2D(4, 1)(x)
    return convert(keras.Model(inp, x), float_io=float_io, float32=float32, seed=seed)


# --- reading the result ----------------------------------------------------------------------


def _schema():
    from ai_edge_litert import schema_py_generated

    return schema_py_generated


def builtin_ops(model: bytes) -> list[str]:
    """The builtin operator names of a .tflite model's first subgraph, in order."""
    s = _schema()
    m = s.ModelT.InitFromPackedBuf(model, 0)
    names = {v: k for k, v in vars(s.BuiltinOperator).items() if k.isupper()}
    codes = [max(c.builtinCode, c.deprecatedBuiltinCode) for c in m.operatorCodes]
    return [names.get(codes[op.opcodeIndex], str(codes[op.opcodeIndex]))
            for op in m.subgraphs[0].operators or []]  # fmt: skip


def resize_options(model: bytes) -> list[tuple[str, bool, bool]]:
    """(operator, align_corners, half_pixel_centers) of each RESIZE_* operator."""
    s = _schema()
    m = s.ModelT.InitFromPackedBuf(model, 0)
    names = {v: k for k, v in vars(s.BuiltinOperator).items() if k.isupper()}
    codes = [max(c.builtinCode, c.deprecatedBuiltinCode) for c in m.operatorCodes]
    found = []
    for op in m.subgraphs[0].operators or []:
        name = names.get(codes[op.opcodeIndex], "")
        if name.startswith("RESIZE_"):
            # a RESIZE_* operator's options; the field's type is the union of all options
            o = cast("ResizeBilinearOptionsT | ResizeNearestNeighborOptionsT", op.builtinOptions)
            found.append((name, bool(o.alignCorners), bool(o.halfPixelCenters)))
    return found


BUILDERS: dict[str, Callable[..., bytes]] = {
    "mobilenet_v2": mobilenet_v2,
    "mobilenet_v3_small": mobilenet_v3_small,
    "mobilenet_v3_large": mobilenet_v3_large,
    "efficientnet_b0": efficientnet_b0,
    "resnet50": resnet50,
    "resize_bilinear": resize_bilinear,
    "resize_nearest": resize_nearest,
    "tensor_ops": tensor_ops,
    "activations": activations,
    "small_cnn": small_cnn,
    "branch_concat": branch_concat,
    "dynamic_size": dynamic_size,
    "conv1d": conv1d,
    "strided_slices": strided_slices,
    "single_layer": single_layer,
}
