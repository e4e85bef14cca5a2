"""A zoo of classic float CNNs (and an MLP) as ONNX exporters write them, for testing `qimport`.

Users of the ONNX importer bring real networks — ResNet, MobileNet, SqueezeNet, VGG… —
exported by torch.onnx, tf2onnx or Caffe2 and quantized by ONNX Runtime's
`quantize_static`. The hand-written blocks of `onnx_models` show that each operator
imports exactly; this zoo shows whether whole networks do: their real shapes and sizes,
and the graph idioms exporters actually emit and quantization then has to get through —
BatchNormalization left unfolded, ReLU6 as Clip with constant inputs, LRN, ceil-mode and
asymmetrically padded pooling, grouped and depthwise convolutions, Dropout (with and
without its ratio input and mask output), channel shuffle as Reshape/Transpose/Reshape,
Split with a sizes input, BatchNormalization decomposed into Mul/Add of Unsqueezed
vectors, torch's Shape/Gather/Unsqueeze/Concat/Reshape flatten, a Reshape whose shape is
itself a Reshape of an initializer, initializers also listed as graph inputs, GELU as
Erf arithmetic or the opset-20 `Gelu` op.

Every builder takes `seed` and `opset` (13..21) and returns the serialized float model.
Weights are drawn from `numpy.random.default_rng(seed)` with He-like spreads (and small
last-BatchNormalization scales on residual branches, as trained ResNets have), so that on
a standard-normal input activations stay of order one through the whole depth: finite,
not collapsing to zero, not piling up at ReLU6's bound — which is what calibration needs
to pick meaningful scales. `ZOO` lists the builders by name; `quantize` runs ONNX
Runtime's `quantize_static` (optionally after its `quant_pre_process`) on one of them.
Needs onnxruntime (the `oracle` extra) for `quantize` only.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

MIN_OPSET, MAX_OPSET = 13, 21
IMAGE = (1, 3, 224, 224)


class _Graph:
    """The nodes and initializers of one model under construction, with weights drawn from
    one seeded generator. Node and tensor names follow torch.onnx (`/layer1/0/conv1/Conv`,
    `/layer1/0/conv1/Conv_output_0`, `layer1.0.conv1.weight`) unless a builder names them."""

    def __init__(self, seed: int, opset: int):
        if not MIN_OPSET <= opset <= MAX_OPSET:
            raise ValueError(f"opset {opset} is outside the supported {MIN_OPSET}..{MAX_OPSET}")
        self.rng = np.random.default_rng(seed)
        self.opset = opset
        # Built in place: copying a VGG-16's 550 MB of weights between protobuf messages
        # costs seconds each time.
        self.proto = onnx.ModelProto()
        self._names: dict[str, int] = {}

    # -- plumbing -------------------------------------------------------------------------

    def _unique(self, name: str) -> str:
        """`name`, or `name_1`, `name_2`… when a node of that name exists (torch's scheme)."""
        count = self._names.get(name, 0)
        self._names[name] = count + 1
        return name if count == 0 else f"{name}_{count}"

    def op(self, op_type: str, inputs: Sequence[str], scope: str, *, out: str | None = None,
           outputs: int = 1, **attrs) -> str:  # fmt: skip
        """Append one node; returns its first output's name. Torch-style names from `scope`
        unless `out` names the (first) output."""
        name = self._unique(f"/{scope.replace('.', '/')}/{op_type}" if scope else f"/{op_type}")
        first = out or f"{name}_output_0"
        names = [first] + [f"{name}_output_{i}" for i in range(1, outputs)]
        node = helper.make_node(op_type, list(inputs), names, name=name, **attrs)
        self.proto.graph.node.add().CopyFrom(node)
        return first

    def init(self, name: str, array: np.ndarray) -> str:
        """An initializer (raw little-endian data, as exporters write them)."""
        array = np.asarray(array)
        array = array.astype(array.dtype.newbyteorder("<"), copy=False)  # tobytes: C order
        tensor = self.proto.graph.initializer.add()
        tensor.name = name
        tensor.data_type = helper.np_dtype_to_tensor_dtype(array.dtype)
        tensor.dims.extend(array.shape)
        tensor.raw_data = array.tobytes()
        return name

    def constant(self, scope: str, array: np.ndarray) -> str:
        """A Constant node, which is how torch.onnx writes the small constants of shape
        arithmetic and elementwise formulas."""
        array = np.asarray(array)
        return self.op("Constant", [], scope, value=numpy_helper.from_array(array))

    def normal(self, std: float, *shape: int) -> np.ndarray:
        """float32 N(0, std) samples (drawn in float32: a VGG-16 takes 138 M of them)."""
        return self.rng.standard_normal(shape, dtype=np.float32) * np.float32(std)

    # -- layers ---------------------------------------------------------------------------

    def conv(self, x: str, cin: int, cout: int, k: int, scope: str, *, stride: int = 1,
             pads: int | Sequence[int] = 0, group: int = 1, bias: bool = True, gain: float = 2.0,
             spread: float = 0.0, weight: str | None = None, bias_name: str | None = None,
             out: str | None = None) -> str:  # fmt: skip
        """Conv with He-like weights (std sqrt(gain / fan_in)). `spread` multiplies each output
        channel by exp(N(0, spread)): the uneven per-channel ranges BatchNormalization
        folding leaves, which is what makes per-channel weight quantization matter."""
        fan_in = cin // group * k * k
        w = self.normal(math.sqrt(gain / fan_in), cout, cin // group, k, k)
        if spread:
            w *= np.exp(self.rng.normal(0.0, spread, cout)).astype(np.float32)[:, None, None, None]
        inputs = [x, self.init(weight or f"{scope}.weight", w)]
        if bias:
            inputs.append(self.init(bias_name or f"{scope}.bias", self.normal(0.1, cout)))
        pads = [pads] * 4 if isinstance(pads, int) else list(pads)
        return self.op("Conv", inputs, scope, out=out, dilations=[1, 1], group=group,
                       kernel_shape=[k, k], pads=pads, strides=[stride, stride])  # fmt: skip

    def bn_params(self, c: int, gamma: tuple[float, float]) -> tuple[np.ndarray, ...]:
        """scale, bias, mean, var of an inference BatchNormalization: running statistics near
        what a He-initialised convolution produces, so its output has about unit spread."""
        scale = self.rng.uniform(*gamma, c).astype(np.float32)
        bias = self.normal(0.1, c)
        mean = self.normal(0.1, c)
        var = self.rng.uniform(0.6, 1.4, c).astype(np.float32)
        return scale, bias, mean, var

    def bn(self, x: str, c: int, scope: str, gamma: tuple[float, float] = (0.7, 1.3)) -> str:
        """An inference BatchNormalization node left in the graph, as torch.onnx writes it
        without constant folding (and older exporters always did)."""
        s, b, m, v = self.bn_params(c, gamma)
        names = [self.init(f"{scope}.{n}", a) for n, a in
                 (("weight", s), ("bias", b), ("running_mean", m), ("running_var", v))]  # fmt: skip
        return self.op("BatchNormalization", [x, *names], scope, epsilon=1e-5, momentum=0.9)

    def bn_mul_add(self, x: str, c: int, scope: str) -> str:
        """BatchNormalization as tf2onnx writes a decomposed (fused-away) one: x * k + c with
        k = gamma / sqrt(var + eps), c = beta - mean * k kept as 1-D initializers and
        broadcast over H, W by Unsqueeze nodes (axes as an input, opset 13+)."""
        s, b, m, v = self.bn_params(c, (0.7, 1.3))
        k = (s / np.sqrt(v + np.float32(1e-3))).astype(np.float32)
        axes = self.init(f"{scope}/axes", np.array([1, 2], np.int64))
        mul = self.op("Unsqueeze", [self.init(f"{scope}/mul", k), axes], f"{scope}/mul")
        add = self.op("Unsqueeze", [self.init(f"{scope}/sub", (b - m * k).astype(np.float32)),
                                    axes], f"{scope}/sub")  # fmt: skip
        return self.op("Add", [self.op("Mul", [x, mul], scope), add], scope)

    def relu(self, x: str, scope: str, out: str | None = None) -> str:
        return self.op("Relu", [x], scope, out=out)

    def maxpool(self, x: str, k: int, stride: int, scope: str, *, pads: int | Sequence[int] = 0,
                ceil_mode: int = 0, out: str | None = None) -> str:  # fmt: skip
        pads = [pads] * 4 if isinstance(pads, int) else list(pads)
        return self.op("MaxPool", [x], scope, out=out, ceil_mode=ceil_mode, dilations=[1, 1],
                       kernel_shape=[k, k], pads=pads, strides=[stride, stride])  # fmt: skip

    def gemm(self, x: str, fin: int, fout: int, scope: str, *, gain: float = 2.0,
             weight: str | None = None, bias_name: str | None = None,
             out: str | None = None) -> str:  # fmt: skip
        """Gemm with an (out, in) weight and transB=1, as torch.onnx and Caffe2 write Linear."""
        w = self.init(weight or f"{scope}.weight", self.normal(math.sqrt(gain / fin), fout, fin))
        b = self.init(bias_name or f"{scope}.bias", self.normal(0.1, fout))
        return self.op("Gemm", [x, w, b], scope, out=out, alpha=1.0, beta=1.0, transB=1)

    def torch_flatten(self, x: str, scope: str) -> str:
        """`x.view(x.size(0), -1)` as torch.onnx writes it: the batch size read from the
        tensor's Shape, Gathered, Unsqueezed, Concatenated with -1, then Reshape."""
        shape = self.op("Shape", [x], scope)
        n = self.op("Gather", [shape, self.constant(scope, np.array(0, np.int64))], scope, axis=0)
        n = self.op("Unsqueeze", [n, self.constant(scope, np.array([0], np.int64))], scope)
        target = self.op("Concat", [n, self.constant(scope, np.array([-1], np.int64))], scope,
                         axis=0)  # fmt: skip
        return self.op("Reshape", [x, target], scope)

    # -- the model ------------------------------------------------------------------------

    def model(self, name: str, inputs: Sequence[tuple[str, Sequence[int]]], output: str, *,
              producer: str = "pytorch", initializers_as_inputs: bool = False,
              output_shape: Sequence[int] | None = None, doc: str = "") -> bytes:  # fmt: skip
        """The serialized model: opset `self.opset` at the lowest IR version that allows it
        (what ONNX Runtime and the exporters of that opset use), the output's shape from
        ONNX shape inference, or `output_shape` where a computed Reshape shape hides it
        from inference (exporters, tracing real tensors, still declare it). With
        `initializers_as_inputs` every initializer is also a graph input, as IR version 3
        required and old exporters still write."""
        graph = self.proto.graph
        graph.name = name
        graph.input.extend(helper.make_tensor_value_info(n, TensorProto.FLOAT, list(s))
                           for n, s in inputs)  # fmt: skip
        if initializers_as_inputs:
            graph.input.extend(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims))
                               for t in graph.initializer)  # fmt: skip
        opsets = [helper.make_opsetid("", self.opset)]
        self.proto.ir_version = helper.find_min_ir_version_for(opsets)
        self.proto.opset_import.extend(opsets)
        self.proto.producer_name = producer
        self.proto.doc_string = doc
        inferred = self._inferred(output)
        if output_shape is not None:
            dims = inferred.type.tensor_type.shape.dim
            if len(dims) != len(output_shape) or any(
                d.HasField("dim_value") and d.dim_value != n
                for d, n in zip(dims, output_shape, strict=True)
            ):
                raise AssertionError(f"{output}: inferred {dims}, declared {output_shape}")
            inferred = helper.make_tensor_value_info(output, TensorProto.FLOAT, list(output_shape))
        graph.output.append(inferred)
        return self.proto.SerializeToString()

    def _inferred(self, output: str) -> onnx.ValueInfoProto:
        """`output`'s type and shape by strict ONNX shape inference — run on a skeleton
        where the big initializers are typed graph inputs instead, which is as good for
        shapes and does not serialize the weights."""
        skeleton = onnx.ModelProto(ir_version=self.proto.ir_version)
        skeleton.opset_import.extend(self.proto.opset_import)
        skeleton.graph.node.extend(self.proto.graph.node)
        skeleton.graph.input.extend(self.proto.graph.input)
        known = {vi.name for vi in self.proto.graph.input}
        for t in self.proto.graph.initializer:
            if math.prod(t.dims) <= 64:  # shapes, axes, split sizes: values matter
                skeleton.graph.initializer.add().CopyFrom(t)
            elif t.name not in known:
                skeleton.graph.input.append(
                    helper.make_tensor_value_info(t.name, t.data_type, list(t.dims))
                )
        skeleton.graph.output.append(helper.make_tensor_value_info(output, TensorProto.FLOAT, None))
        inferred = onnx.shape_inference.infer_shapes(skeleton, strict_mode=True)
        return inferred.graph.output[0]


# -- 1. ResNet-50 ------------------------------------------------------------------------


def resnet50(seed: int = 0, opset: int = 17, *, torch_flatten: bool = False,
             initializers_as_inputs: bool = False) -> bytes:  # fmt: skip
    """torchvision's ResNet-50 (v1.5: the stride on the 3x3 of each bottleneck), 25.6 M
    parameters, exported without folding BatchNormalization into the convolutions:
    Conv 7x7/2, BN, Relu, MaxPool 3x3/2 pad 1, bottlenecks 3-4-6-3 (1x1, 3x3, 1x1 each
    followed by BN, a Conv+BN downsample shortcut on each stage's first block, residual
    Add, Relu), GlobalAveragePool, Flatten, Gemm 2048->1000 (transB=1). Input 1x3x224x224.

    `torch_flatten`: flatten with torch's Shape/Gather/Unsqueeze/Concat/Reshape subgraph
    (`x.view(x.size(0), -1)`) instead of Flatten. `initializers_as_inputs`: every weight is
    also a graph input (IR version 3 style). The last BN of each residual branch has a
    small scale, like trained ResNets, so 16 residual Adds do not compound the spread."""
    g = _Graph(seed, opset)
    x = g.relu(g.bn(g.conv("input", 3, 64, 7, "conv1", stride=2, pads=3, bias=False), 64, "bn1"),
               "relu")  # fmt: skip
    x = g.maxpool(x, 3, 2, "maxpool", pads=1)
    cin = 64
    for stage, (blocks, width, stride) in enumerate(((3, 64, 1), (4, 128, 2), (6, 256, 2),
                                                     (3, 512, 2)), 1):  # fmt: skip
        for b in range(blocks):
            p = f"layer{stage}.{b}"
            s = stride if b == 0 else 1
            y = g.relu(g.bn(g.conv(x, cin, width, 1, f"{p}.conv1", bias=False), width, f"{p}.bn1"),
                       f"{p}.relu")  # fmt: skip
            y = g.conv(y, width, width, 3, f"{p}.conv2", stride=s, pads=1, bias=False)
            y = g.relu(g.bn(y, width, f"{p}.bn2"), f"{p}.relu")
            y = g.bn(g.conv(y, width, 4 * width, 1, f"{p}.conv3", bias=False), 4 * width,
                     f"{p}.bn3", gamma=(0.1, 0.4))  # fmt: skip
            if b == 0:
                x = g.conv(x, cin, 4 * width, 1, f"{p}.downsample.0", stride=s, bias=False)
                x = g.bn(x, 4 * width, f"{p}.downsample.1")
            x = g.relu(g.op("Add", [y, x], p), f"{p}.relu")
            cin = 4 * width
    x = g.op("GlobalAveragePool", [x], "avgpool")
    x = g.torch_flatten(x, "") if torch_flatten else g.op("Flatten", [x], "", axis=1)
    x = g.gemm(x, 2048, 1000, "fc", gain=1.0, out="output")
    return g.model("resnet50", [("input", IMAGE)], x, output_shape=(1, 1000),
                   initializers_as_inputs=initializers_as_inputs)  # fmt: skip


# -- 2. MobileNetV2 ----------------------------------------------------------------------

# (expansion t, channels c, repeats n, first stride s) per stage
_MOBILENET_V2 = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                 (6, 160, 3, 2), (6, 320, 1, 1))  # fmt: skip


def mobilenet_v2(seed: int = 0, opset: int = 17) -> bytes:
    """torchvision's MobileNetV2 (width 1.0, 3.5 M parameters) as torch.onnx exports it in
    eval mode with constant folding: BatchNormalization folded into each Conv's weights and
    bias, ReLU6 as Clip with min 0 and max 6 initializer inputs, 3x3 depthwise convolutions
    (group = channels), linear 1x1 projections, residual Add where stride is 1 and the width
    is kept, a 1x1 Conv to 1280, GlobalAveragePool, Flatten, Gemm 1280->1000 (Dropout is
    dropped in eval mode). Input 1x3x224x224.

    Folded weights get uneven per-channel ranges (what folding BN scales does), and the
    linear projections a gain below one, so the residual sums grow slowly and only a few
    percent of the ReLU6 outputs sit at 6, as in trained networks."""
    g = _Graph(seed, opset)
    lo, hi = (
        g.init("clip.min", np.array(0, np.float32)),
        g.init("clip.max", np.array(6, np.float32)),
    )

    def conv_relu6(x: str, cin: int, cout: int, k: int, scope: str, stride: int = 1,
                   group: int = 1) -> str:  # fmt: skip
        x = g.conv(x, cin, cout, k, f"{scope}.0", stride=stride, pads=k // 2, group=group,
                   gain=2.0, spread=0.3)  # fmt: skip
        return g.op("Clip", [x, lo, hi], f"{scope}.2")

    x = conv_relu6("input", 3, 32, 3, "features.0", stride=2)
    cin, index = 32, 1
    for t, c, n, s in _MOBILENET_V2:
        for i in range(n):
            stride, hidden, p = (s if i == 0 else 1), cin * t, f"features.{index}.conv"
            y, layer = x, 0
            if t != 1:
                y, layer = conv_relu6(y, cin, hidden, 1, f"{p}.0"), 1
            y = conv_relu6(y, hidden, hidden, 3, f"{p}.{layer}", stride=stride, group=hidden)
            y = g.conv(y, hidden, c, 1, f"{p}.{layer + 1}", gain=0.7, spread=0.3)
            x = g.op("Add", [x, y], f"features.{index}") if stride == 1 and cin == c else y
            cin, index = c, index + 1
    x = conv_relu6(x, 320, 1280, 1, "features.18")
    x = g.op("Flatten", [g.op("GlobalAveragePool", [x], "")], "", axis=1)
    x = g.gemm(x, 1280, 1000, "classifier.1", gain=1.0, out="output")
    return g.model("mobilenet_v2", [("input", IMAGE)], x)


# -- 3. SqueezeNet 1.1 -------------------------------------------------------------------


def squeezenet1_1(seed: int = 0, opset: int = 17, *, initializers_as_inputs: bool = False) -> bytes:
    """torchvision's SqueezeNet 1.1 (1.24 M parameters): Conv 3x3/2, Relu, MaxPool 3x3/2
    with ceil_mode=1 (55 -> 27 -> 13 as torchvision pools), eight fire modules (1x1
    squeeze + Relu, then 1x1 and 3x3 expands + Relu concatenated on channels), Dropout
    (with its ratio as an initializer input, as a training-mode export writes it) before
    the final 1x1 Conv to 1000 classes, Relu, GlobalAveragePool, Flatten. Input
    1x3x224x224. `initializers_as_inputs`: every weight is also a graph input."""
    g = _Graph(seed, opset)
    x = g.relu(g.conv("input", 3, 64, 3, "features.0", stride=2), "features.1")
    cin = 64
    fires = {3: (16, 64), 4: (16, 64), 6: (32, 128), 7: (32, 128), 9: (48, 192), 10: (48, 192),
             11: (64, 256), 12: (64, 256)}  # fmt: skip
    for index in range(2, 13):
        if index in (2, 5, 8):
            x = g.maxpool(x, 3, 2, f"features.{index}", ceil_mode=1)
            continue
        squeeze, expand = fires[index]
        p = f"features.{index}"
        s = g.relu(g.conv(x, cin, squeeze, 1, f"{p}.squeeze"), f"{p}.squeeze_activation")
        e1 = g.relu(g.conv(s, squeeze, expand, 1, f"{p}.expand1x1"), f"{p}.expand1x1_activation")
        e3 = g.relu(g.conv(s, squeeze, expand, 3, f"{p}.expand3x3", pads=1),
                    f"{p}.expand3x3_activation")  # fmt: skip
        x, cin = g.op("Concat", [e1, e3], p, axis=1), 2 * expand
    x = g.op("Dropout", [x, g.init("classifier.0.ratio", np.array(0.5, np.float32))],
             "classifier.0")  # fmt: skip
    x = g.relu(g.conv(x, 512, 1000, 1, "classifier.1", gain=1.0), "classifier.2")
    x = g.op("GlobalAveragePool", [x], "classifier.3")
    x = g.op("Flatten", [x], "", axis=1, out="output")
    return g.model("squeezenet1_1", [("input", IMAGE)], x,
                   initializers_as_inputs=initializers_as_inputs)  # fmt: skip


# -- 4. DenseNet-121, first dense block and transition -----------------------------------


def densenet121_block(seed: int = 0, opset: int = 17) -> bytes:
    """DenseNet-121's first dense block and transition at their real size: input
    1x64x56x56 (the stem's output); six layers, each BN-Relu-Conv1x1 (to 4 x growth = 128)
    -BN-Relu-Conv3x3 (to growth 32) on the Concat of all earlier features; the block's
    output the Concat of all seven (256 channels); the transition BN-Relu-Conv1x1 (to 128)
    -AveragePool 2x2/2 -> 1x128x28x28.

    Every BatchNormalization is tf2onnx's decomposition: Mul and Add by per-channel 1-D
    initializers brought to Cx1x1 by Unsqueeze nodes."""
    g = _Graph(seed, opset)
    features, growth = ["input"], 32
    for layer in range(1, 7):
        p = f"denseblock1/denselayer{layer}"
        cin = 64 + growth * (layer - 1)
        x = features[0] if len(features) == 1 else g.op("Concat", features, p, axis=1)
        x = g.relu(g.bn_mul_add(x, cin, f"{p}/norm1"), f"{p}/relu1")
        x = g.conv(x, cin, 4 * growth, 1, f"{p}/conv1", bias=False, weight=f"{p}/conv1/kernel")
        x = g.relu(g.bn_mul_add(x, 4 * growth, f"{p}/norm2"), f"{p}/relu2")
        x = g.conv(x, 4 * growth, growth, 3, f"{p}/conv2", pads=1, bias=False,
                   weight=f"{p}/conv2/kernel")  # fmt: skip
        features.append(x)
    x = g.op("Concat", features, "denseblock1", axis=1)
    x = g.relu(g.bn_mul_add(x, 256, "transition1/norm"), "transition1/relu")
    x = g.conv(x, 256, 128, 1, "transition1/conv", bias=False, weight="transition1/conv/kernel")
    x = g.op("AveragePool", [x], "transition1/pool", out="output", ceil_mode=0,
             count_include_pad=0, kernel_shape=[2, 2], pads=[0, 0, 0, 0], strides=[2, 2])  # fmt: skip
    return g.model("densenet121_block", [("input", (1, 64, 56, 56))], x, producer="tf2onnx")


# -- 5. Inception-v1 (GoogLeNet) stem and module 3a -------------------------------------


def _lrn(g: _Graph, x: str, out: str) -> str:
    """LRN as Caffe's AlexNet and GoogLeNet use it: size 5, alpha 1e-4, beta 0.75, bias 1."""
    return g.op("LRN", [x], "", out=out, size=5, alpha=1e-4, beta=0.75, bias=1.0)


def _caffe2_conv(g: _Graph, x: str, cin: int, cout: int, k: int, name: str, *, stride: int = 1,
                 pads: int = 0, group: int = 1) -> str:  # fmt: skip
    """Conv + Relu named as Caffe2's export names them (`name_w_0`, `name_1`, `name_2`)."""
    x = g.conv(x, cin, cout, k, name, stride=stride, pads=pads, group=group,
               weight=f"{name}_w_0", bias_name=f"{name}_b_0", out=f"{name}_1")  # fmt: skip
    return g.relu(x, name, out=f"{name}_2")


def inception_block(seed: int = 0, opset: int = 17) -> bytes:
    """The ONNX model zoo's Caffe2-exported GoogLeNet (bvlc_googlenet), stem and first
    inception module: Conv 7x7/2 + Relu, MaxPool 3x3/2 with pads [0, 0, 1, 1] (Caffe's
    ceil-mode pooling as Caffe2 writes it: 112 -> 56), LRN, Conv 1x1, Conv 3x3, LRN,
    MaxPool (-> 28), then inception_3a: 1x1 (64), 1x1 (96) -> 3x3 (128), 1x1 (16) -> 5x5
    (32), MaxPool 3x3/1 -> 1x1 (32), concatenated to 256 channels; then AveragePool over
    the whole 28x28 map, a Reshape to 1x256 whose shape input is itself the output of a
    Reshape of an initializer (Caffe2's OC2_DUMMY shape tensors), Gemm to 1000 and Softmax.
    Input `data_0` 1x3x224x224, output `prob_1`."""
    g = _Graph(seed, opset)
    asym = [0, 0, 1, 1]
    x = _caffe2_conv(g, "data_0", 3, 64, 7, "conv1/7x7_s2", stride=2, pads=3)
    x = g.maxpool(x, 3, 2, "pool1/3x3_s2", pads=asym, out="pool1/3x3_s2_1")
    x = _lrn(g, x, "pool1/norm1_1")
    x = _caffe2_conv(g, x, 64, 64, 1, "conv2/3x3_reduce")
    x = _caffe2_conv(g, x, 64, 192, 3, "conv2/3x3", pads=1)
    x = _lrn(g, x, "conv2/norm2_1")
    x = g.maxpool(x, 3, 2, "pool2/3x3_s2", pads=asym, out="pool2/3x3_s2_1")
    p = "inception_3a"
    b1 = _caffe2_conv(g, x, 192, 64, 1, f"{p}/1x1")
    b2 = _caffe2_conv(g, _caffe2_conv(g, x, 192, 96, 1, f"{p}/3x3_reduce"), 96, 128, 3,
                      f"{p}/3x3", pads=1)  # fmt: skip
    b3 = _caffe2_conv(g, _caffe2_conv(g, x, 192, 16, 1, f"{p}/5x5_reduce"), 16, 32, 5,
                      f"{p}/5x5", pads=2)  # fmt: skip
    b4 = g.maxpool(x, 3, 1, f"{p}/pool", pads=1, out=f"{p}/pool_1")
    b4 = _caffe2_conv(g, b4, 192, 32, 1, f"{p}/pool_proj")
    x = g.op("Concat", [b1, b2, b3, b4], p, out=f"{p}/output_1", axis=1)
    x = g.op("AveragePool", [x], "", out="pool5/7x7_s1_1", kernel_shape=[28, 28],
             pads=[0, 0, 0, 0], strides=[1, 1])  # fmt: skip
    shape = g.op("Reshape", [g.init("OC2_DUMMY_1", np.array([[1, 256]], np.int64)),
                             g.init("OC2_DUMMY_3", np.array([2], np.int64))], "",
                 out="OC2_DUMMY_0")  # fmt: skip
    x = g.op("Reshape", [x, shape], "", out="OC2_DUMMY_2")
    x = g.gemm(x, 256, 1000, "loss3/classifier", gain=1.0, weight="loss3/classifier_w_0",
               bias_name="loss3/classifier_b_0", out="loss3/classifier_1")  # fmt: skip
    x = g.op("Softmax", [x], "", out="prob_1", axis=1)
    return g.model("inception_block", [("data_0", IMAGE)], x, producer="onnx-caffe2",
                   output_shape=(1, 1000))  # fmt: skip


# -- 6. ShuffleNet-v2 stem and stage 2 ---------------------------------------------------


def shufflenet_block(seed: int = 0, opset: int = 17) -> bytes:
    """torchvision's ShuffleNet-v2 x1.0 stem and stage 2 with BatchNormalization left in the
    graph: Conv 3x3/2 (24) + BN + Relu, MaxPool 3x3/2 pad 1, then four units at 116
    channels -> 1x116x28x28. The first unit downsamples on both branches (depthwise 3x3/2 +
    BN, 1x1 + BN + Relu | 1x1 + BN + Relu, depthwise 3x3/2 + BN, 1x1 + BN + Relu); the others
    Split the input in two halves (Split with a sizes input, opset 13+, as torch writes
    `chunk`) and transform one. Each unit Concats its branches and shuffles channels as
    torch.onnx writes `view`-`transpose`-`view`: Reshape to 1x2x58x28x28, Transpose
    (0, 2, 1, 3, 4), Reshape to 1x116x28x28, with constant shape initializers. Input
    1x3x224x224."""
    g = _Graph(seed, opset)

    def cbr(x: str, cin: int, cout: int, k: int, scope: str, i: int, *, stride: int = 1,
            group: int = 1, relu: bool = True, gain: float = 2.0) -> str:  # fmt: skip
        """Conv, BN and optionally Relu at indices i, i+1, i+2 of a torch Sequential; `gain`
        1 where the Conv's input has no Relu before it."""
        x = g.conv(x, cin, cout, k, f"{scope}.{i}", stride=stride, pads=k // 2, group=group,
                   bias=False, gain=gain)  # fmt: skip
        x = g.bn(x, cout, f"{scope}.{i + 1}")
        return g.relu(x, f"{scope}.{i + 2}") if relu else x

    x = cbr("input", 3, 24, 3, "conv1", 0, stride=2)
    x = g.maxpool(x, 3, 2, "maxpool", pads=1)
    out, half = 116, 58
    first = g.init("stage2.shuffle.shape0", np.array([1, 2, half, 28, 28], np.int64))
    merged = g.init("stage2.shuffle.shape1", np.array([1, out, 28, 28], np.int64))
    split = g.init("stage2.split", np.array([half, half], np.int64))
    for unit in range(4):
        p = f"stage2.{unit}"
        if unit == 0:
            a = cbr(x, 24, 24, 3, f"{p}.branch1", 0, stride=2, group=24, relu=False)
            a = cbr(a, 24, half, 1, f"{p}.branch1", 2, gain=1.0)
            b = cbr(x, 24, half, 1, f"{p}.branch2", 0)
        else:
            a = g.op("Split", [x, split], p, outputs=2, axis=1)
            b = a.replace("_output_0", "_output_1")
            b = cbr(b, half, half, 1, f"{p}.branch2", 0)
        b = cbr(b, half, half, 3, f"{p}.branch2", 3, stride=2 if unit == 0 else 1, group=half,
                relu=False)  # fmt: skip
        b = cbr(b, half, half, 1, f"{p}.branch2", 5, gain=1.0)
        x = g.op("Concat", [a, b], p, axis=1)
        x = g.op("Reshape", [x, first], p)
        x = g.op("Transpose", [x], p, perm=[0, 2, 1, 3, 4])
        x = g.op("Reshape", [x, merged], p, out="output" if unit == 3 else None)
    return g.model("shufflenet_block", [("input", IMAGE)], x)


# -- 7. VGG-16 ---------------------------------------------------------------------------

_VGG16 = (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M")


def vgg16(seed: int = 0, opset: int = 17, *, width: float = 1.0) -> bytes:
    """torchvision's VGG-16 (138 M parameters at width 1): 13 Conv 3x3 + Relu, 5 MaxPool
    2x2/2, Flatten, Gemm 25088->4096, Relu, Dropout, Gemm 4096->4096, Relu, Dropout, Gemm
    ->1000. Input 1x3x224x224. `width` scales every channel count and the hidden Gemm sizes
    (0.25: 9.4 M parameters, for tests); the spatial sizes stay real."""
    g = _Graph(seed, opset)
    x, cin, index = "input", 3, 0
    for v in _VGG16:
        if v == "M":
            x = g.maxpool(x, 2, 2, f"features.{index}")
            index += 1
            continue
        cout = max(1, round(v * width))
        x = g.relu(g.conv(x, cin, cout, 3, f"features.{index}", pads=1), f"features.{index + 1}")
        cin, index = cout, index + 2
    hidden = max(1, round(4096 * width))
    x = g.op("Flatten", [x], "", axis=1)
    x = g.relu(g.gemm(x, cin * 49, hidden, "classifier.0"), "classifier.1")
    x = g.op("Dropout", [x], "classifier.2")
    x = g.relu(g.gemm(x, hidden, hidden, "classifier.3"), "classifier.4")
    x = g.op("Dropout", [x], "classifier.5")
    x = g.gemm(x, hidden, 1000, "classifier.6", gain=1.0, out="output")
    return g.model("vgg16", [("input", IMAGE)], x)


# -- 8. AlexNet --------------------------------------------------------------------------


def alexnet(seed: int = 0, opset: int = 17, *, width: float = 1.0) -> bytes:
    """The ONNX model zoo's Caffe2-exported BVLC AlexNet (61 M parameters at width 1): Conv
    11x11/4 (96) + Relu, LRN, MaxPool 3x3/2 pads [0, 0, 1, 1] (54 -> 27), Conv 5x5 (256,
    group 2) + Relu, LRN, MaxPool (-> 13), Conv 3x3 (384), Conv 3x3 (384, group 2), Conv 3x3
    (256, group 2), each + Relu, MaxPool (-> 6), Reshape to 1x9216 by a constant shape
    initializer, Gemm 9216->4096, Relu, Dropout, Gemm 4096->4096, Relu, Dropout, Gemm
    ->1000, Softmax. Dropout keeps Caffe2's second, mask, output. Input `data_0` 1x3x224x224, output `prob_1`. `width` scales the channel counts
    (kept even for the 2 groups) and the hidden Gemm sizes."""
    g = _Graph(seed, opset)

    def ch(v: int) -> int:
        return max(2, 2 * round(v * width / 2))

    asym = [0, 0, 1, 1]
    c1, c2, c3, c4, c5 = ch(96), ch(256), ch(384), ch(384), ch(256)
    x = _caffe2_conv(g, "data_0", 3, c1, 11, "conv1", stride=4)
    x = g.maxpool(_lrn(g, x, "norm1_1"), 3, 2, "pool1", pads=asym, out="pool1_1")
    x = _caffe2_conv(g, x, c1, c2, 5, "conv2", pads=2, group=2)
    x = g.maxpool(_lrn(g, x, "norm2_1"), 3, 2, "pool2", pads=asym, out="pool2_1")
    x = _caffe2_conv(g, x, c2, c3, 3, "conv3", pads=1)
    x = _caffe2_conv(g, x, c3, c4, 3, "conv4", pads=1, group=2)
    x = _caffe2_conv(g, x, c4, c5, 3, "conv5", pads=1, group=2)
    x = g.maxpool(x, 3, 2, "pool5", pads=asym, out="pool5_1")
    hidden, fin = max(1, round(4096 * width)), c5 * 36
    x = g.op("Reshape", [x, g.init("OC2_DUMMY_1", np.array([1, fin], np.int64))], "",
             out="OC2_DUMMY_0")  # fmt: skip
    for i, (layer, n) in enumerate((("fc6", fin), ("fc7", hidden))):
        x = g.gemm(x, n, hidden, layer, weight=f"{layer}_w_0", bias_name=f"{layer}_b_0",
                   out=f"{layer}_1")  # fmt: skip
        x = g.relu(x, layer, out=f"{layer}_2")
        x = g.op("Dropout", [x], f"drop{i + 6}", out=f"{layer}_3", outputs=2)
    x = g.gemm(x, hidden, 1000, "fc8", gain=1.0, weight="fc8_w_0", bias_name="fc8_b_0",
               out="fc8_1")  # fmt: skip
    x = g.op("Softmax", [x], "", out="prob_1", axis=1)
    return g.model("alexnet", [("data_0", IMAGE)], x, producer="onnx-caffe2")


# -- 9. GELU MLP -------------------------------------------------------------------------


def gelu_mlp(seed: int = 0, opset: int = 17, *, gelu_op: bool = False,
             tokens: int | None = 128) -> bytes:  # fmt: skip
    """A transformer-style MLP without LayerNorm, as torch.onnx writes `nn.Linear` on a
    1 x tokens x 256 input (1x256 with tokens=None): MatMul by the transposed weight, then
    Add(bias, product) with the bias first; 256 -> 1024, GELU, 1024 -> 1024, GELU,
    1024 -> 256. GELU is torch's exact form before opset 20, Div by sqrt(2), Erf, Add 1,
    Mul by x, Mul by 0.5 with Constant-node operands; with `gelu_op`, the opset-20 `Gelu`
    op (needs opset >= 20)."""
    if gelu_op and opset < 20:
        raise ValueError(f"the Gelu op needs opset 20 or later, not {opset}")
    g = _Graph(seed, opset)

    def linear(x: str, fin: int, fout: int, scope: str, gain: float,
               out: str | None = None) -> str:  # fmt: skip
        w = g.init(f"onnx::MatMul_{scope}", g.normal(math.sqrt(gain / fin), fin, fout))
        b = g.init(f"{scope}.bias", g.normal(0.1, fout))
        return g.op("Add", [b, g.op("MatMul", [x, w], scope)], scope, out=out)

    def gelu(x: str, scope: str) -> str:
        if gelu_op:
            return g.op("Gelu", [x], scope, approximate="none")
        d = g.op("Div", [x, g.constant(scope, np.array(1.4142135381698608, np.float32))], scope)
        e = g.op("Add", [g.op("Erf", [d], scope), g.constant(scope, np.array(1, np.float32))],
                 scope)  # fmt: skip
        return g.op("Mul", [g.op("Mul", [x, e], scope), g.constant(scope, np.array(0.5, np.float32))],
                    scope)  # fmt: skip

    x = gelu(linear("input", 256, 1024, "fc1", 2.0), "act1")
    x = gelu(linear(x, 1024, 1024, "fc2", 2.0), "act2")
    x = linear(x, 1024, 256, "fc3", 1.0, out="output")
    shape = (1, tokens, 256) if tokens else (1, 256)
    return g.model("gelu_mlp_op" if gelu_op else "gelu_mlp", [("input", shape)], x)


def gelu_op_mlp(seed: int = 0, opset: int = 20, *, tokens: int | None = 128) -> bytes:
    """`gelu_mlp` with the opset-20 `Gelu` op (opset 20 or 21)."""
    return gelu_mlp(seed, opset, gelu_op=True, tokens=tokens)


ZOO: dict[str, Callable[..., bytes]] = {
    "resnet50": resnet50,
    "resnet50_torch_flatten": partial(resnet50, torch_flatten=True),
    "resnet50_init_inputs": partial(resnet50, initializers_as_inputs=True),
    "mobilenet_v2": mobilenet_v2,
    "squeezenet1_1": squeezenet1_1,
    "squeezenet1_1_init_inputs": partial(squeezenet1_1, initializers_as_inputs=True),
    "densenet121_block": densenet121_block,
    "inception_block": inception_block,
    "shufflenet_block": shufflenet_block,
    "vgg16": vgg16,
    "alexnet": alexnet,
    "gelu_mlp": gelu_mlp,
    "gelu_mlp_op": gelu_op_mlp,
}


# -- quantization ------------------------------------------------------------------------


def input_shapes(model: bytes | onnx.ModelProto) -> dict[str, tuple[int, ...]]:
    """The float inputs a caller feeds (graph inputs that are not initializers) and their
    shapes, symbolic dimensions taken as 1."""
    if isinstance(model, bytes):
        model = onnx.load_from_string(model)
    constants = {t.name for t in model.graph.initializer}
    return {vi.name: tuple(d.dim_value if d.HasField("dim_value") else 1
                           for d in vi.type.tensor_type.shape.dim)
            for vi in model.graph.input if vi.name not in constants}  # fmt: skip


def random_inputs(model: bytes | onnx.ModelProto, seed: int = 0) -> dict[str, np.ndarray]:
    """One standard-normal float32 sample for each input of `model`."""
    rng = np.random.default_rng(seed)
    return {n: rng.normal(0, 1, s).astype(np.float32) for n, s in input_shapes(model).items()}


def quantize(model: bytes, *, qdq: bool, per_channel: bool, preprocess: bool, seed: int = 0,
             samples: int = 4) -> bytes:  # fmt: skip
    """`model` quantized by ONNX Runtime's `quantize_static` as its users run it: QDQ or
    QOperator format, int8 activations and weights, per-channel or per-tensor weights,
    calibrated (MinMax) on `samples` standard-normal inputs drawn from `seed`; with
    `preprocess`, after `quant_pre_process` (symbolic shape inference and ONNX Runtime's
    graph optimizations, which fold constants and fuse Conv+BN), as ORT's docs advise."""
    feeds = [random_inputs(model, seed + 1 + i) for i in range(samples)]
    return ort_quantize_static(model, feeds, qdq=qdq, per_channel=per_channel,
                               preprocess=preprocess)  # fmt: skip


def ort_quantize_static(model: bytes, feeds: Sequence[dict[str, np.ndarray]], *,
                        qdq: bool = True, per_channel: bool = True, preprocess: bool = True,
                        method: str = "MinMax", reduce_range: bool = False) -> bytes:  # fmt: skip
    """ONNX Runtime's `quantize_static` of `model` (int8 activations and weights),
    calibrated by `method` (its `CalibrationMethod`: MinMax, Percentile, Entropy) on
    `feeds`, after `quant_pre_process` when `preprocess`. `reduce_range` (7-bit weights)
    is ONNX Runtime's advice for x86 CPUs without VNNI, whose u8 x s8 kernels can saturate
    16-bit intermediate sums. Needs onnxruntime (the oracle extra)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.feeds = iter(feeds)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.feeds, None)

    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "float.onnx", Path(folder) / "quantized.onnx"
        source.write_bytes(model)
        if preprocess:
            prepared = Path(folder) / "prepared.onnx"
            quant_pre_process(str(source), str(prepared))
            source = prepared
        quantize_static(str(source), str(target), Reader(),
                        quant_format=QuantFormat.QDQ if qdq else QuantFormat.QOperator,
                        per_channel=per_channel, activation_type=QuantType.QInt8,
                        weight_type=QuantType.QInt8, reduce_range=reduce_range,
                        calibrate_method=getattr(CalibrationMethod, method))  # fmt: skip
        return target.read_bytes()


def quantized(name: str, cache: Path | None = None, *, qdq: bool = True, per_channel: bool = True,
              preprocess: bool = True, **builder_kwargs) -> bytes:  # fmt: skip
    """`ZOO[name](**builder_kwargs)` quantized by `quantize`, kept in the directory `cache`
    (when given) under a name that says how, so benches quantize each variant once."""
    if cache is None:
        return quantize(ZOO[name](**builder_kwargs), qdq=qdq, per_channel=per_channel,
                        preprocess=preprocess)  # fmt: skip
    how = f"{'qdq' if qdq else 'qop'}-{'pc' if per_channel else 'pt'}-{'pre' if preprocess else 'raw'}"
    extra = "".join(f"-{k}{v}" for k, v in sorted(builder_kwargs.items()))
    path = Path(cache) / f"{name}{extra}-{how}.onnx"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(quantized(name, qdq=qdq, per_channel=per_channel,
                                   preprocess=preprocess, **builder_kwargs))  # fmt: skip
    return path.read_bytes()
