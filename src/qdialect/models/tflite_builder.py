"""Build float TFLite models without TensorFlow and quantize them to int8 with LiteRT.

Uses ai-edge-litert (an optional dependency, in the `oracle` extra): its
flatbuffer object API (`schema_py_generated`) writes the float model, and its
calibration wrapper — the post-training quantizer TFLite's converter uses —
calibrates on sample inputs and writes the int8 model (int8 input and output,
per-channel weights, int32 biases). Used by the tests, benches and examples.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def _schema():
    from ai_edge_litert import schema_py_generated

    return schema_py_generated


@dataclass
class FloatModel:
    """A single-subgraph float model under construction; tensors are NHWC float32."""

    rng: np.random.Generator
    tensors: list = field(default_factory=list)
    buffers: list = field(default_factory=list)
    operators: list = field(default_factory=list)
    codes: dict[int, int] = field(default_factory=dict)
    shapes: list[tuple[int, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        s = _schema()
        self.buffers.append(s.BufferT())

    def tensor(self, shape: tuple[int, ...], data: np.ndarray | None = None,
               int32: bool = False) -> int:  # fmt: skip
        s = _schema()
        t = s.TensorT()
        t.name = f"t{len(self.tensors)}"
        t.shape = list(shape)
        t.type = s.TensorType.INT32 if int32 else s.TensorType.FLOAT32
        t.buffer = 0
        if data is not None:
            b = s.BufferT()
            dtype = np.int32 if int32 else np.float32
            b.data = np.frombuffer(np.ascontiguousarray(data, dtype).tobytes(), np.uint8)
            self.buffers.append(b)
            t.buffer = len(self.buffers) - 1
        self.tensors.append(t)
        self.shapes.append(tuple(shape))
        return len(self.tensors) - 1

    def op(self, code: int, inputs: list[int], out_shape, options_type=0, options=None) -> int:
        s = _schema()
        if code not in self.codes:
            self.codes[code] = len(self.codes)
        y = self.tensor(out_shape)
        o = s.OperatorT()
        o.opcodeIndex = self.codes[code]
        o.inputs = inputs
        o.outputs = [y]
        o.builtinOptionsType = options_type
        o.builtinOptions = options
        self.operators.append(o)
        return y

    # ---- layers -------------------------------------------------------------------------

    def conv(self, x: int, cout: int, k: int, stride: int = 1, act: str = "NONE",
             depthwise: bool = False, padding: str = "SAME") -> int:  # fmt: skip
        s = _schema()
        n, h, w, c = self.shapes[x]
        fan_in = k * k * (1 if depthwise else c)
        if depthwise:
            weights = self.rng.normal(0, 1 / np.sqrt(fan_in), (1, k, k, cout))
        else:
            weights = self.rng.normal(0, 1 / np.sqrt(fan_in), (cout, k, k, c))
        bias = self.rng.normal(0, 0.1, cout)
        same = padding == "SAME"
        oh = -(-h // stride) if same else (h - k) // stride + 1
        ow = -(-w // stride) if same else (w - k) // stride + 1
        opts = s.DepthwiseConv2DOptionsT() if depthwise else s.Conv2DOptionsT()
        opts.padding = s.Padding.SAME if same else s.Padding.VALID
        opts.strideH = opts.strideW = stride
        opts.dilationHFactor = opts.dilationWFactor = 1
        opts.fusedActivationFunction = getattr(s.ActivationFunctionType, act)
        if depthwise:
            opts.depthMultiplier = cout // c
        code = s.BuiltinOperator.DEPTHWISE_CONV_2D if depthwise else s.BuiltinOperator.CONV_2D
        kind = (
            s.BuiltinOptions.DepthwiseConv2DOptions if depthwise else s.BuiltinOptions.Conv2DOptions
        )
        return self.op(code, [x, self.tensor(weights.shape, weights), self.tensor((cout,), bias)],
                       (n, oh, ow, cout), kind, opts)  # fmt: skip

    def dense(self, x: int, n_out: int, act: str = "NONE") -> int:
        s = _schema()
        shape = self.shapes[x]
        k = shape[-1]
        weights = self.rng.normal(0, 1 / np.sqrt(k), (n_out, k))
        bias = self.rng.normal(0, 0.1, n_out)
        opts = s.FullyConnectedOptionsT()
        opts.fusedActivationFunction = getattr(s.ActivationFunctionType, act)
        return self.op(s.BuiltinOperator.FULLY_CONNECTED,
                       [x, self.tensor(weights.shape, weights), self.tensor((n_out,), bias)],
                       (int(np.prod(shape)) // k, n_out), s.BuiltinOptions.FullyConnectedOptions, opts)  # fmt: skip

    def add(self, a: int, b: int, act: str = "NONE") -> int:
        s = _schema()
        opts = s.AddOptionsT()
        opts.fusedActivationFunction = getattr(s.ActivationFunctionType, act)
        return self.op(
            s.BuiltinOperator.ADD, [a, b], self.shapes[a], s.BuiltinOptions.AddOptions, opts
        )

    def sub(self, a: int, b: int, act: str = "NONE") -> int:
        s = _schema()
        opts = s.SubOptionsT()
        opts.fusedActivationFunction = getattr(s.ActivationFunctionType, act)
        return self.op(
            s.BuiltinOperator.SUB, [a, b], self.shapes[a], s.BuiltinOptions.SubOptions, opts
        )

    def max_pool(self, x: int, k: int, stride: int) -> int:
        s = _schema()
        n, h, w, c = self.shapes[x]
        opts = s.Pool2DOptionsT()
        opts.padding = s.Padding.VALID
        opts.strideH = opts.strideW = stride
        opts.filterHeight = opts.filterWidth = k
        out = (n, (h - k) // stride + 1, (w - k) // stride + 1, c)
        return self.op(
            s.BuiltinOperator.MAX_POOL_2D, [x], out, s.BuiltinOptions.Pool2DOptions, opts
        )

    def avg_pool(self, x: int, k: int, stride: int, padding: str = "VALID") -> int:
        s = _schema()
        n, h, w, c = self.shapes[x]
        opts = s.Pool2DOptionsT()
        same = padding == "SAME"
        opts.padding = s.Padding.SAME if same else s.Padding.VALID
        opts.strideH = opts.strideW = stride
        opts.filterHeight = opts.filterWidth = k
        oh = -(-h // stride) if same else (h - k) // stride + 1
        ow = -(-w // stride) if same else (w - k) // stride + 1
        return self.op(s.BuiltinOperator.AVERAGE_POOL_2D, [x], (n, oh, ow, c),
                       s.BuiltinOptions.Pool2DOptions, opts)  # fmt: skip

    def activation(self, x: int, kind: str) -> int:
        """A standalone RELU or RELU6 operator."""
        s = _schema()
        return self.op(getattr(s.BuiltinOperator, kind), [x], self.shapes[x])

    def mul(self, a: int, b: int, act: str = "NONE") -> int:
        s = _schema()
        opts = s.MulOptionsT()
        opts.fusedActivationFunction = getattr(s.ActivationFunctionType, act)
        return self.op(
            s.BuiltinOperator.MUL, [a, b], self.shapes[a], s.BuiltinOptions.MulOptions, opts
        )

    def pad(self, x: int, pads: list[tuple[int, int]]) -> int:
        s = _schema()
        shape = tuple(d + lo + hi for d, (lo, hi) in zip(self.shapes[x], pads, strict=True))
        amounts = self.tensor((len(pads), 2), np.array(pads), int32=True)
        return self.op(s.BuiltinOperator.PAD, [x, amounts], shape, s.BuiltinOptions.PadOptions,
                       s.PadOptionsT())  # fmt: skip

    def concat(self, xs: list[int], axis: int) -> int:
        s = _schema()
        shape = list(self.shapes[xs[0]])
        shape[axis] = sum(self.shapes[x][axis] for x in xs)
        opts = s.ConcatenationOptionsT()
        opts.axis = axis
        return self.op(s.BuiltinOperator.CONCATENATION, xs, tuple(shape),
                       s.BuiltinOptions.ConcatenationOptions, opts)  # fmt: skip

    def mean(self, x: int, axes: list[int]) -> int:
        """MEAN over `axes`, keeping them as size 1."""
        s = _schema()
        shape = tuple(1 if i in axes else d for i, d in enumerate(self.shapes[x]))
        opts = s.ReducerOptionsT()
        opts.keepDims = True
        axis = self.tensor((len(axes),), np.array(axes), int32=True)
        return self.op(
            s.BuiltinOperator.MEAN, [x, axis], shape, s.BuiltinOptions.ReducerOptions, opts
        )

    def reshape(self, x: int, shape: tuple[int, ...]) -> int:
        s = _schema()
        opts = s.ReshapeOptionsT()
        opts.newShape = list(shape)
        return self.op(s.BuiltinOperator.RESHAPE, [x], shape, s.BuiltinOptions.ReshapeOptions, opts)

    def softmax(self, x: int, beta: float = 1.0) -> int:
        s = _schema()
        opts = s.SoftmaxOptionsT()
        opts.beta = beta
        return self.op(
            s.BuiltinOperator.SOFTMAX, [x], self.shapes[x], s.BuiltinOptions.SoftmaxOptions, opts
        )

    def finish(self, inputs: list[int], outputs: list[int]) -> bytes:
        import flatbuffers

        s = _schema()
        m = s.ModelT()
        m.version = 3
        m.description = "qdialect test model"
        m.buffers = self.buffers
        m.operatorCodes = []
        for code in sorted(self.codes, key=self.codes.get):
            oc = s.OperatorCodeT()
            oc.builtinCode = code
            oc.deprecatedBuiltinCode = min(code, 127)
            oc.version = 1
            m.operatorCodes.append(oc)
        g = s.SubGraphT()
        g.tensors, g.operators, g.inputs, g.outputs = self.tensors, self.operators, inputs, outputs
        m.subgraphs = [g]
        b = flatbuffers.Builder(1024)
        b.Finish(m.Pack(b), file_identifier=b"TFL3")
        return bytes(b.Output())


def quantize(model: bytes, samples: list[np.ndarray], io_type=np.int8,
             per_channel_dense: bool = True) -> bytes:  # fmt: skip
    """Post-training int8 quantization of a one-input float model, calibrated on `samples`;
    `io_type` int8 or float32 for the model's input and output."""
    from ai_edge_litert import _pywrap_tensorflow_lite_calibration_wrapper as calibration

    wrapper = calibration.CalibrationWrapper(model, [], [])
    wrapper.Prepare([list(samples[0].shape)])
    for sample in samples:
        wrapper.FeedTensor([sample.astype(np.float32)])
    io, i8, i32 = (np.dtype(t).num for t in (io_type, np.int8, np.int32))
    return bytes(wrapper.QuantizeModel(io, io, False, i8, i32, False, not per_channel_dense))


def legacy_uint8(model: bytes) -> bytes:
    """The legacy asymmetric uint8 form of an int8 model (LiteRT's converter no longer
    writes it, its kernels still run it): per-channel weights requantized to one scale per
    tensor (the uint8 kernels take one), their int32 biases rescaled to match, then every
    int8 tensor shifted to uint8 (data and zero point + 128)."""
    import flatbuffers

    s = _schema()
    m = s.ModelT.InitFromPackedBuf(model, 0)
    g = m.subgraphs[0]

    def data(t) -> np.ndarray:
        dtype = np.int32 if t.type == s.TensorType.INT32 else np.int8
        return np.frombuffer(np.asarray(m.buffers[t.buffer].data, np.uint8).tobytes(), dtype)

    def store(t, values: np.ndarray) -> None:
        m.buffers[t.buffer].data = np.frombuffer(values.tobytes(), np.uint8)

    weighted = (s.BuiltinOperator.CONV_2D, s.BuiltinOperator.DEPTHWISE_CONV_2D,
                s.BuiltinOperator.FULLY_CONNECTED)  # fmt: skip
    codes = [max(c.builtinCode, c.deprecatedBuiltinCode) for c in m.operatorCodes]
    for op in g.operators:
        if codes[op.opcodeIndex] not in weighted:
            continue
        w = g.tensors[op.inputs[1]]
        scales = np.asarray(w.quantization.scale, np.float32)
        if scales.size > 1:
            axis = w.quantization.quantizedDimension
            common = np.float32(scales.max())
            shape = [1] * len(w.shape)
            shape[axis] = -1
            q = data(w).reshape(w.shape).astype(np.float64) * (scales / common).reshape(shape)
            store(w, np.clip(np.round(q), -127, 127).astype(np.int8))
            w.quantization.scale, w.quantization.zeroPoint = [float(common)], [0]
            w.quantization.quantizedDimension = 0
            if len(op.inputs) > 2 and op.inputs[2] >= 0:
                b = g.tensors[op.inputs[2]]
                ratio = scales.astype(np.float64) / float(common)
                store(b, np.round(data(b).astype(np.float64) * ratio).astype(np.int32))
                s_in = float(g.tensors[op.inputs[0]].quantization.scale[0])
                b.quantization.scale = [s_in * float(common)]
                b.quantization.zeroPoint = [0]
    for t in g.tensors:
        if t.type == s.TensorType.INT8:
            t.type = s.TensorType.UINT8
            t.quantization.zeroPoint = [int(z) + 128 for z in t.quantization.zeroPoint]
            if t.buffer and m.buffers[t.buffer].data is not None and len(m.buffers[t.buffer].data):
                store(t, (data(t).astype(np.int16) + 128).astype(np.uint8))
    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def mobilenet_like(seed: int = 0) -> tuple[bytes, tuple[int, ...]]:
    """Float model: conv3x3-ReLU6, depthwise3x3-ReLU6, 1x1 project, residual add, max pool,
    flatten, classifier."""
    f = FloatModel(np.random.default_rng(seed))
    x = f.tensor((1, 8, 8, 8))
    y = f.conv(x, 24, 1, act="RELU6")
    y = f.conv(y, 24, 3, act="RELU6", depthwise=True)
    y = f.conv(y, 8, 1)
    y = f.add(y, x)
    y = f.max_pool(y, 2, 2)
    y = f.reshape(y, (1, 4 * 4 * 8))
    y = f.dense(y, 10)
    return f.finish([x], [y]), (1, 8, 8, 8)


def mobilenet_avgpool(seed: int = 0) -> tuple[bytes, tuple[int, ...]]:
    """Float model: strided conv3x3-ReLU6, depthwise3x3-ReLU6, 1x1 project, global average
    pool over the 3x3 map, flatten, classifier."""
    f = FloatModel(np.random.default_rng(seed))
    x = f.tensor((1, 6, 6, 4))
    y = f.conv(x, 16, 3, stride=2, act="RELU6")
    y = f.conv(y, 16, 3, act="RELU6", depthwise=True)
    y = f.conv(y, 8, 1)
    y = f.avg_pool(y, 3, 1)
    y = f.reshape(y, (1, 8))
    y = f.dense(y, 10)
    return f.finish([x], [y]), (1, 6, 6, 4)


def mixed_ops(seed: int = 0) -> tuple[bytes, tuple[int, ...]]:
    """Float model: conv, standalone RELU, a gate (conv, RELU6, MUL), a difference (SUB with
    ReLU), zero padding, concatenation of two branches, spatial MEAN, classifier."""
    f = FloatModel(np.random.default_rng(seed))
    x = f.tensor((1, 6, 6, 4))
    a = f.activation(f.conv(x, 8, 3), "RELU")
    gate = f.activation(f.conv(x, 8, 1), "RELU6")
    y = f.mul(a, gate)
    y = f.pad(y, [(0, 0), (1, 1), (1, 1), (0, 0)])
    z = f.pad(f.sub(f.conv(x, 8, 1), a, act="RELU"), [(0, 0), (1, 1), (1, 1), (0, 0)])
    y = f.concat([y, z], 3)
    y = f.mean(y, [1, 2])
    y = f.reshape(y, (1, 16))
    y = f.dense(y, 10)
    return f.finish([x], [y]), (1, 6, 6, 4)


def activations(seed: int = 0) -> tuple[bytes, tuple[int, ...]]:
    """Float model: conv, HARD_SWISH, depthwise, TANH, flatten, classifier, LOGISTIC."""
    from ai_edge_litert import schema_py_generated as s

    f = FloatModel(np.random.default_rng(seed))
    x = f.tensor((1, 6, 6, 3))
    y = f.conv(x, 8, 3)
    y = f.op(s.BuiltinOperator.HARD_SWISH, [y], f.shapes[y])
    y = f.conv(y, 8, 3, depthwise=True)
    y = f.op(s.BuiltinOperator.TANH, [y], f.shapes[y])
    y = f.reshape(y, (1, 6 * 6 * 8))
    y = f.dense(y, 10)
    y = f.op(s.BuiltinOperator.LOGISTIC, [y], f.shapes[y])
    return f.finish([x], [y]), (1, 6, 6, 3)


def mlp(seed: int = 0) -> tuple[bytes, tuple[int, ...]]:
    f = FloatModel(np.random.default_rng(seed))
    x = f.tensor((4, 32))
    y = f.dense(x, 48, act="RELU")
    y = f.dense(y, 24, act="RELU6")
    y = f.dense(y, 10)
    return f.finish([x], [y]), (4, 32)


def classifier(seed: int = 0) -> tuple[bytes, tuple[int, ...]]:
    """Float model: conv3x3-ReLU6, depthwise3x3-ReLU6, global MEAN, classifier, SOFTMAX
    (beta 1, or 0.5 for odd seeds)."""
    f = FloatModel(np.random.default_rng(seed))
    x = f.tensor((1, 8, 8, 3))
    y = f.conv(x, 16, 3, act="RELU6")
    y = f.conv(y, 16, 3, act="RELU6", depthwise=True)
    y = f.mean(y, [1, 2])
    y = f.reshape(y, (1, 16))
    y = f.dense(y, 10)
    y = f.softmax(y, 0.5 if seed % 2 else 1.0)
    return f.finish([x], [y]), (1, 8, 8, 3)


def quantized(name: str, seed: int = 0) -> tuple[bytes, tuple[int, ...]]:
    """An int8 model (one of the builders above, by name) calibrated on normal samples."""
    builders = {
        "mobilenet_like": mobilenet_like,
        "mobilenet_avgpool": mobilenet_avgpool,
        "mixed_ops": mixed_ops,
        "activations": activations,
        "mlp": mlp,
        "classifier": classifier,
    }
    model, shape = builders[name](seed)
    rng = np.random.default_rng(seed + 100)
    return quantize(model, [rng.normal(size=shape).astype(np.float32) for _ in range(16)]), shape
