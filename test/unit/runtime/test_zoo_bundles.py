"""Whole networks from bundles: every network of the ONNX zoo (`qdialect.models.onnx_zoo`),
quantized by ONNX Runtime's `quantize_static` as users run it, imported with
`--target tosa`, partitioned, compiled to a `.qbundle`, read back and run by the host +
NPU executor, equals the reference interpreter on the same TOSA program
(`np.array_equal`). Classifiers ending in Softmax, LRN and BatchNormalization left
float (no `quant_pre_process`) keep those on the host.

Full size (224 x 224 inputs), except VGG-16 and AlexNet at a quarter of their width
(same graph and spatial sizes; the full ones are 550 MB and 240 MB of weights). The zoo's
`*_torch_flatten` / `*_init_inputs` entries are the same networks written with other
exporter idioms; `importers/test_onnx_import_zoo.py` checks they import, and this file
runs each network once. The simulator executes every instruction, so a network takes
from seconds to minutes here; `bench/bench_compile.py` times the compiler."""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("onnxruntime", reason="the zoo is quantized by onnxruntime (oracle extra)")

from qdialect.importers.onnx_import import import_onnx
from qdialect.models.onnx_zoo import ZOO, quantize

from .bundled import run_bundled

NETWORKS = {
    # name: (builder keyword arguments, quant_pre_process, ops the host must keep)
    "resnet50": ({}, True, set()),
    "mobilenet_v2": ({}, True, set()),
    "squeezenet1_1": ({}, True, set()),
    "densenet121_block": ({}, True, set()),
    "inception_block": ({}, False, {"stablehlo.reduce", "stablehlo.power"}),  # Softmax, LRN
    "shufflenet_block": ({}, False, {"stablehlo.multiply"}),  # BatchNormalization left float
    "vgg16": ({"width": 0.25}, True, set()),
    "alexnet": ({"width": 0.25}, True, {"stablehlo.reduce", "stablehlo.power"}),  # Softmax, LRN
    "gelu_mlp": ({}, True, {"stablehlo.multiply"}),  # GELU as Erf arithmetic, float
    "gelu_mlp_op": ({}, True, {"stablehlo.multiply"}),  # the opset-20 Gelu op
}


@functools.cache
def quantized(name: str) -> bytes:
    kwargs, preprocess, _ = NETWORKS[name]
    return quantize(ZOO[name](**kwargs), qdq=True, per_channel=True, preprocess=preprocess)


def test_every_zoo_network_is_listed() -> None:
    """A network added to the zoo is added here (its exporter-idiom variants excepted)."""
    variants = {n for n in ZOO if n.endswith(("_torch_flatten", "_init_inputs"))}
    assert set(ZOO) - variants == set(NETWORKS)


@pytest.mark.parametrize("name", list(NETWORKS))
def test_zoo_network_runs_exactly_from_its_bundle(name: str) -> None:
    run = run_bundled(import_onnx(quantized(name), "tosa"))
    assert len(run.got) == len(run.want)
    for got, want in zip(run.got, run.want, strict=True):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    assert run.npu_functions(), "nothing ran on the NPU"
    stats = run.executor.stats
    assert sum(s.macs for s in stats.values()) > 0
    host = set(run.host_ops())
    assert NETWORKS[name][2] <= host, f"expected on the host: {NETWORKS[name][2] - host}"
    # Every convolution and matrix product runs on the NPU: none is left to the host.
    assert not {"tosa.conv2d", "tosa.depthwise_conv2d", "tosa.matmul"} & host


KERAS = ["mobilenet_v2", "mobilenet_v3_small", "mobilenet_v3_large", "efficientnet_b0", "resnet50"]


@pytest.mark.parametrize("name", KERAS)
def test_keras_application_runs_exactly_from_its_bundle(name: str) -> None:
    """The Keras applications as TFLiteConverter makes them (at the 96-pixel size the
    TFLite importer's tests convert them at, shared with those tests), softmax and all:
    from the bundle, equal to the interpreter on the imported TOSA."""
    pytest.importorskip("tensorflow", reason="the models are made by TFLiteConverter")
    from qdialect.importers.tflite import import_tflite

    from ..importers.test_tflite_keras import APPLICATIONS, application

    assert set(APPLICATIONS) == set(KERAS)
    run = run_bundled(import_tflite(application(name)))
    for got, want in zip(run.got, run.want, strict=True):
        assert got.dtype == want.dtype and np.array_equal(got, want)
    assert run.npu_functions()
    assert "tosa.reduce_max" in run.host_ops()  # the softmax's row maximum
    assert not {"tosa.conv2d", "tosa.depthwise_conv2d", "tosa.matmul"} & set(run.host_ops())
