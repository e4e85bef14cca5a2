"""Interpreter speed on a quantized CNN, against the same computation written directly in numpy.

The network: an f32 input [1, 56, 56, 64] quantized to i8, then 10 layers of
3x3 convolution (per-output-channel i8 weights, padding 1) into an i32
accumulator type and a requantization back to i8, then a dequantization. The
interpreter runs it with StableHLO semantics (dequantize -> float op ->
quantize). The baseline computes exactly that, hand-written with numpy
(sliding windows + one float32 matmul per layer). When onnxruntime is
installed, the equivalent QDQ ONNX model runs there too.

    python bench/bench_interpreter.py [--layers 10] [--size 56] [--channels 64] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser

ACT_SCALE, ACT_ZP = 0.05, -3


def make_weights(layers: int, channels: int, rng: np.random.Generator):
    weights = [
        rng.integers(-127, 128, (3, 3, channels, channels)).astype(np.int8) for _ in range(layers)
    ]
    scales = [rng.uniform(0.0005, 0.002, channels) for _ in range(layers)]
    return weights, scales


def program(layers: int, size: int, channels: int, scales: list[np.ndarray]) -> str:
    act = f"!quant.uniform<i8:f32, {ACT_SCALE}:{ACT_ZP}>"
    t_act = f"tensor<1x{size}x{size}x{channels}x{act}>"
    lines = []
    args = [f"%x: tensor<1x{size}x{size}x{channels}xf32>"]
    for i, s in enumerate(scales):
        w = "!quant.uniform<i8<-127:127>:f32:3, {" + ",".join(repr(float(v)) for v in s) + "}>"
        acc = "!quant.uniform<i32:f32:3, {" + ",".join(repr(float(v) * ACT_SCALE) for v in s) + "}>"
        args.append(f"%w{i}: tensor<3x3x{channels}x{channels}x{w}>")
        src = "%q" if i == 0 else f"%a{i - 1}"
        lines.append(
            f"  %c{i} = stablehlo.convolution({src}, %w{i}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], "
            f"window = {{pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : "
            f"({t_act}, tensor<3x3x{channels}x{channels}x{w}>) -> tensor<1x{size}x{size}x{channels}x{acc}>"
        )
        lines.append(
            f"  %a{i} = stablehlo.uniform_quantize %c{i} : (tensor<1x{size}x{size}x{channels}x{acc}>) -> {t_act}"
        )
    head = f"func.func @main({', '.join(args)}) -> tensor<1x{size}x{size}x{channels}xf32> {{"
    first = f"  %q = stablehlo.uniform_quantize %x : (tensor<1x{size}x{size}x{channels}xf32>) -> {t_act}"
    last = f"  %y = stablehlo.uniform_dequantize %a{layers - 1} : ({t_act}) -> tensor<1x{size}x{size}x{channels}xf32>"
    return "\n".join(
        [
            head,
            first,
            *lines,
            last,
            f"  func.return %y : tensor<1x{size}x{size}x{channels}xf32>",
            "}",
        ]
    )


def direct_numpy(x: np.ndarray, weights: list[np.ndarray], scales: list[np.ndarray]) -> np.ndarray:
    """The same computation, written straight: quantize, 10x (dequantize, conv, quantize i32, requantize i8)."""
    f32 = np.float32
    q = np.clip(np.rint(x / f32(ACT_SCALE) + f32(ACT_ZP)), -128, 127).astype(np.int8)
    for w, s in zip(weights, scales, strict=True):
        xf = (q.astype(f32) - f32(ACT_ZP)) * f32(ACT_SCALE)
        wf = w.astype(f32) * s.astype(f32)
        xp = np.pad(xf, ((0, 0), (1, 1), (1, 1), (0, 0)))
        patches = sliding_window_view(xp, (3, 3), axis=(1, 2))  # 1, H, W, C, 3, 3
        patches = patches.transpose(0, 1, 2, 4, 5, 3).reshape(-1, 9 * xf.shape[-1])
        y = (patches @ wf.reshape(-1, wf.shape[-1])).reshape((*xf.shape[:3], wf.shape[-1]))
        acc_scale = (s * ACT_SCALE).astype(f32)
        acc = np.clip(np.rint(y / acc_scale), -(2**31), 2**31 - 1).astype(np.int32)
        y = acc.astype(f32) * acc_scale
        q = np.clip(np.rint(y / f32(ACT_SCALE) + f32(ACT_ZP)), -128, 127).astype(np.int8)
    return (q.astype(f32) - f32(ACT_ZP)) * f32(ACT_SCALE)


def onnxruntime_session(weights, scales, size: int, channels: int):
    """The equivalent QDQ model in ONNX Runtime, or None when it is not installed."""
    try:
        import onnxruntime as ort
    except ImportError:
        return None
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    inits += [
        numpy_helper.from_array(np.array(ACT_SCALE, np.float32), "s_act"),
        numpy_helper.from_array(np.array(ACT_ZP, np.int8), "z_act"),
    ]
    nodes.append(helper.make_node("QuantizeLinear", ["x", "s_act", "z_act"], ["q0"]))
    for i, (w, s) in enumerate(zip(weights, scales, strict=True)):
        inits += [
            numpy_helper.from_array(w.transpose(3, 2, 0, 1).copy(), f"w{i}"),  # OIHW
            numpy_helper.from_array(s.astype(np.float32), f"ws{i}"),
            numpy_helper.from_array(np.zeros(channels, np.int8), f"wz{i}"),
        ]
        nodes += [
            helper.make_node("DequantizeLinear", [f"q{i}", "s_act", "z_act"], [f"d{i}"]),
            helper.make_node("DequantizeLinear", [f"w{i}", f"ws{i}", f"wz{i}"], [f"wd{i}"], axis=0),
            helper.make_node("Conv", [f"d{i}", f"wd{i}"], [f"c{i}"], pads=[1, 1, 1, 1]),
            helper.make_node("QuantizeLinear", [f"c{i}", "s_act", "z_act"], [f"q{i + 1}"]),
        ]
    nodes.append(
        helper.make_node("DequantizeLinear", [f"q{len(weights)}", "s_act", "z_act"], ["y"])
    )
    graph = helper.make_graph(
        nodes,
        "qcnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, size, size])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, channels, size, size])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=10)
    parser.add_argument("--size", type=int, default=56)
    parser.add_argument("--channels", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    weights, scales = make_weights(args.layers, args.channels, rng)
    x = rng.standard_normal((1, args.size, args.size, args.channels)).astype(np.float32)
    module = QParser(
        make_context(), program(args.layers, args.size, args.channels, scales)
    ).parse_module()
    module.verify()
    interp = Interpreter(module)

    ours = interp.call("main", [x, *weights])[0]
    direct = direct_numpy(x, weights, scales)
    t_interp = best(lambda: interp.call("main", [x, *weights]), args.repeat)
    t_direct = best(lambda: direct_numpy(x, weights, scales), args.repeat)
    macs = args.layers * args.size * args.size * 9 * args.channels * args.channels
    print(
        f"network: {args.layers} x conv3x3 {args.size}x{args.size}x{args.channels}, {macs / 1e9:.2f} GMAC"
    )
    print(f"interpreter : {t_interp * 1000:8.1f} ms")
    print(
        f"direct numpy: {t_direct * 1000:8.1f} ms   ratio interpreter/direct = {t_interp / t_direct:.2f}"
    )
    print(f"outputs identical: {np.array_equal(ours, direct)}")
    session = onnxruntime_session(weights, scales, args.size, args.channels)
    if session is None:
        print("onnxruntime: not installed (pip install onnxruntime) - skipped")
    else:
        feed = {"x": x.transpose(0, 3, 1, 2).copy()}
        t_ort = best(lambda: session.run(None, feed), args.repeat)
        print(
            f"onnxruntime : {t_ort * 1000:8.1f} ms   ratio interpreter/onnxruntime = {t_interp / t_ort:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
