"""`stablehlo-quantize`: the integer program it leads to against integer arithmetic
written out here from the formulas (docs/quantization.md), the simulated (QDQ) program
against the integer one, and float zoo networks quantized all the way to the NPU.

The reference arithmetic follows the StableHLO spec's quantized semantics with float32
as the expressed type: dequantize = float32(q - zp) * scale, quantize = round half to
even of x / scale, plus zp, saturated."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from qdialect.calibration.calibrate import Calibration, calibrate, tensor_keys
from qdialect.calibration.qtable import QTable
from qdialect.calibration.workflow import integer, optimize_float, quantized
from qdialect.context import make_context
from qdialect.dialects import hlo_types as ht
from qdialect.dialects import stablehlo as sh
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.transforms.quantize import Options, plan

F32 = np.float32


def parse(text: str) -> ModuleOp:
    return QParser(make_context(), text).parse_module()


def dense(a: np.ndarray) -> str:
    return f"dense<{np.asarray(a, np.float32).tolist()}>"


def conv_relu_program(w: np.ndarray, b: np.ndarray) -> str:
    """NHWC 3x3 convolution (padding 1) + per-channel bias + ReLU."""
    kh, kw, ci, co = w.shape
    return f"""
func.func @main(%x: tensor<1x5x5x{ci}xf32>) -> tensor<1x5x5x{co}xf32> {{
  %w = stablehlo.constant {dense(w)} : tensor<{kh}x{kw}x{ci}x{co}xf32>
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], pad = [[1, 1], [1, 1]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x5x5x{ci}xf32>, tensor<{kh}x{kw}x{ci}x{co}xf32>) -> tensor<1x5x5x{co}xf32>
  %b = stablehlo.constant {dense(b)} : tensor<{co}xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<{co}xf32>) -> tensor<1x5x5x{co}xf32>
  %s = stablehlo.add %c, %bb : tensor<1x5x5x{co}xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<1x5x5x{co}xf32>
  %r = stablehlo.maximum %s, %zb : tensor<1x5x5x{co}xf32>
  func.return %r : tensor<1x5x5x{co}xf32>
}}"""


def run(module: ModuleOp, *args: np.ndarray) -> list[np.ndarray]:
    return [np.asarray(r) for r in Interpreter(module).call("main", list(args))]


def quantize_ref(x: np.ndarray, scale, zp: int, lo: int, hi: int) -> np.ndarray:
    q = np.round(np.asarray(x, F32) / F32(scale)).astype(np.int64) + zp
    return np.clip(q, lo, hi)


def stats_of(cal: Calibration, module: ModuleOp, op_name: str):
    func = next(f for f in module.walk() if isinstance(f, FuncOp))
    keys = tensor_keys(func)
    return [cal.stats[k] for v, k in keys.items()
            if getattr(v.owner, "name", "") == op_name]  # fmt: skip


def test_conv_bias_relu_is_the_integer_arithmetic_of_the_formulas() -> None:
    rng = np.random.default_rng(0)
    w = (rng.normal(0, 0.3, (3, 3, 3, 4)) * np.array([1.0, 0.1, 2.0, 0.5])).astype(F32)
    b = rng.normal(0, 0.2, 4).astype(F32)
    module = parse(conv_relu_program(w, b))
    batches = [rng.normal(0, 1, (1, 5, 5, 3)).astype(F32) for _ in range(4)]
    cal = calibrate(module, ([x] for x in batches))
    program = integer(quantized(module, cal))
    x = rng.normal(0, 1.2, (1, 5, 5, 3)).astype(F32)  # beyond the calibrated range too
    got = run(program, x)[0]

    # Input: symmetric, t = the calibration data's largest magnitude.
    s_x = F32(max(np.abs(a).max() for a in batches) / 127)
    x_q = quantize_ref(x, s_x, 0, -128, 127)
    # Weights: per output channel, symmetric on [-127, 127].
    s_w = (np.abs(w).reshape(-1, 4).max(axis=0) / 127).astype(F32)
    w_q = quantize_ref(w / s_w, 1.0, 0, -127, 127)
    # Bias: i32 at s_x * s_w (the product exact in float64).
    s_acc = np.float64(s_x) * s_w.astype(np.float64)
    b_q = np.round(b.astype(np.float64) / s_acc).astype(np.int64)
    # The accumulator: exact integers.
    padded = np.pad(x_q[0], ((1, 1), (1, 1), (0, 0)))
    acc = np.zeros((5, 5, 4), np.int64)
    for i in range(3):
        for j in range(3):
            acc += np.einsum("hwc,co->hwo", padded[i : i + 5, j : j + 5], w_q[i, j])
    acc += b_q
    # Output: one type for the bias add and the ReLU, the ReLU's range (symmetric).
    (relu,) = stats_of(cal, module, "stablehlo.maximum")
    s_y = F32(relu.range("minmax")[1] / 127)
    y = quantize_ref(acc.astype(F32) * s_acc.astype(F32), s_y, 0, -128, 127)
    want = (np.maximum(y, 0).astype(F32) * s_y)[None]
    assert np.array_equal(got, want)


def residual_program() -> str:
    """conv -> ReLU feeding both a second conv and a residual add, then a concat and a
    mean: a ReLU whose input has one reader, a value with two readers, a concat."""
    rng = np.random.default_rng(3)
    w1, w2 = (rng.normal(0, 0.4, (1, 1, 4, 4)).astype(F32) for _ in range(2))
    return f"""
func.func @main(%x: tensor<1x3x3x4xf32>) -> tensor<1x8xf32> {{
  %w1 = stablehlo.constant {dense(w1)} : tensor<1x1x4x4xf32>
  %w2 = stablehlo.constant {dense(w2)} : tensor<1x1x4x4xf32>
  %c1 = stablehlo.convolution(%x, %w1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], pad = [[0, 0], [0, 0]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x3x3x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x3x3x4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<1x3x3x4xf32>
  %r1 = stablehlo.maximum %c1, %zb : tensor<1x3x3x4xf32>
  %c2 = stablehlo.convolution(%r1, %w2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [1, 1], pad = [[0, 0], [0, 0]]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64}} : (tensor<1x3x3x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x3x3x4xf32>
  %s = stablehlo.add %c2, %x : tensor<1x3x3x4xf32>
  %r2 = stablehlo.maximum %s, %zb : tensor<1x3x3x4xf32>
  %cat = stablehlo.concatenate %r2, %r1, dim = 3 : (tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>) -> tensor<1x3x3x8xf32>
  %sum = stablehlo.reduce(%cat init: %z) applies stablehlo.add across dimensions = [1, 2] : (tensor<1x3x3x8xf32>, tensor<f32>) -> tensor<1x8xf32>
  %n = stablehlo.constant dense<9.0> : tensor<f32>
  %nb = stablehlo.broadcast_in_dim %n, dims = [] : (tensor<f32>) -> tensor<1x8xf32>
  %mean = stablehlo.divide %sum, %nb : tensor<1x8xf32>
  func.return %mean : tensor<1x8xf32>
}}"""


def test_plan_shares_types_only_where_no_reader_is_clipped() -> None:
    module = parse(residual_program())
    func = next(f for f in module.walk() if isinstance(f, FuncOp))
    p = plan(func)
    ops = {op.results[0].name_hint: op for op in func.body.block.ops if op.results}
    root = p.classes.find
    v = {name: op.results[0] for name, op in ops.items()}
    # r2 reads the residual add alone: one type. r1 and the concat's operands: one type.
    assert root(v["s"]) is root(v["r2"]) is root(v["cat"]) is root(v["r1"])
    # c1 is read by the ReLU alone: it requantizes straight into the ReLU's type.
    assert root(v["c1"]) is root(v["r1"])
    # The mean's input and output are separate points; the sum is inside the island.
    assert v["sum"] not in p.points and v["mean"] in p.points
    assert root(v["mean"]) is not root(v["cat"])
    assert [layer.op for layer in p.layers] == [ops["c1"], ops["c2"]]


def test_relu_of_a_value_with_other_readers_keeps_its_own_type() -> None:
    text = residual_program().replace("%s = stablehlo.add %c2, %x", "%s = stablehlo.add %c2, %c1")
    module = parse(text)
    func = next(f for f in module.walk() if isinstance(f, FuncOp))
    p = plan(func)
    v = {op.results[0].name_hint: op.results[0] for op in func.body.block.ops if op.results}
    assert p.classes.find(v["c1"]) is not p.classes.find(v["r1"])


def calibrated_residual(rng) -> tuple[ModuleOp, Calibration, np.ndarray]:
    module = parse(residual_program())
    batches = [rng.normal(0, 1, (1, 3, 3, 4)).astype(F32) for _ in range(3)]
    return module, calibrate(module, ([x] for x in batches)), batches[0]


OPTIONS = [
    Options(),
    Options(scheme="affine"),
    Options(method="entropy", per_channel=False),
    Options(method="percentile", percentile=99.9, scheme="affine"),
    Options(method="mse", formula="cambricon"),
    Options(activation_bits=16),
    Options(weight_bits=4),
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: repr(o)[8:-1].replace(" ", ""))
def test_simulated_quantization_is_the_integer_program(options: Options) -> None:
    """The QDQ program run in float and the folded integer program agree exactly: each
    quantized op is defined as dequantize -> op -> quantize."""
    module, cal, x = calibrated_residual(np.random.default_rng(1))
    qdq = quantized(module, cal, options)
    program = integer(qdq)
    simulated, exact = run(qdq, x)[0], run(program, x)[0]
    assert np.array_equal(simulated, exact)
    float_out = run(module, x)[0]
    err = np.abs(exact.astype(np.float64) - float_out).max() / np.abs(float_out).max()
    print(f"{options}: max error {err:.3g} of the largest output")
    if options.method == "minmax":  # the others clip: 108 calibration values are too few
        assert err < (0.2 if options.weight_bits < 8 else 0.06)
    types = [ht.quant_type(r.type) for op in program.walk() for r in op.results]
    types = [t for t in types if t is not None]
    widths = {t.storage_width for t in types}
    assert options.activation_bits in widths and widths <= {8, 32, options.activation_bits}
    limit = (1 << (options.weight_bits - 1)) - 1
    conv_weights = [t for op in program.walk() if isinstance(op, sh.ConvolutionOp)
                    if (t := ht.quant_type(op.rhs.type)) is not None]  # fmt: skip
    assert len(conv_weights) == 2
    assert all((t.storage_min, t.storage_max) == (-limit, limit) for t in conv_weights)
    # StableHLO takes one storage type for both operands: i16 beside 16-bit activations.
    assert all(t.storage_width == options.activation_bits for t in conv_weights)
    assert all(t.is_per_axis == options.per_channel for t in conv_weights)
    if options.formula == "cambricon":
        scales = [s for t in types for s in t.scales if t.storage_width != 32]
        assert all(np.log2(s) == round(np.log2(s)) for s in scales)
    if options.scheme == "affine":
        relu = [t for t in types if t.storage_width == 8 and t.zero_points[0] == -128]
        assert relu, "a ReLU's range [0, t] puts the zero point at the storage minimum"


def test_calibration_of_another_program_is_refused() -> None:
    _, cal, _ = calibrated_residual(np.random.default_rng(2))
    other = parse(conv_relu_program(np.ones((3, 3, 3, 4), F32), np.zeros(4, F32)))
    with pytest.raises(ValueError, match="does not match @main"):
        quantized(other, cal)


def sqnr(reference: np.ndarray, got: np.ndarray) -> float:
    ref = reference.astype(np.float64)
    noise = ((ref - got.astype(np.float64)) ** 2).sum()
    return float(10 * np.log10((ref**2).sum() / max(noise, 1e-30)))


@pytest.mark.parametrize("name, floor", [("squeezenet1_1", 30.0), ("mobilenet_v2", 24.0)])
def test_float_zoo_network_quantized_to_the_npu(name: str, floor: float) -> None:
    """A float ONNX network from what users start with to the NPU: import, float
    optimizations, calibration on four standard-normal batches, quantization (minmax,
    symmetric, per-channel), integer TOSA, and the host + NPU bundle — whose outputs must
    equal the interpreter's on the same TOSA program."""
    pytest.importorskip("onnxruntime", reason="the float zoo needs the oracle extra")
    from qdialect.importers.onnx_import import import_onnx
    from qdialect.models import onnx_zoo

    from ..runtime.bundled import run_bundled

    model = getattr(onnx_zoo, name)(0)
    module = import_onnx(model, "stablehlo")
    optimize_float(module)
    rng = np.random.default_rng(1)
    shape = next(iter(onnx_zoo.input_shapes(model).values()))
    cal = calibrate(module, ([rng.normal(0, 1, shape).astype(F32)] for _ in range(4)))
    x = next(iter(onnx_zoo.random_inputs(model, 0).values()))
    qdq = quantized(module, cal)
    tosa_program = integer(qdq, target="tosa")
    float_out, simulated = run(module, x)[0], run(qdq, x)[0]
    on_tosa = run(tosa_program, x)[0]
    print(f"{name}: SQNR against float: simulated {sqnr(float_out, simulated):.1f} dB, "
          f"integer TOSA {sqnr(float_out, on_tosa):.1f} dB")  # fmt: skip
    assert sqnr(float_out, simulated) > floor and sqnr(float_out, on_tosa) > floor
    bundled = run_bundled(tosa_program, [x])
    assert all(np.array_equal(g, w) for g, w in zip(bundled.got, bundled.want, strict=True))
    assert bundled.npu_functions()
    assert not {"tosa.conv2d", "tosa.depthwise_conv2d", "tosa.matmul"} & set(bundled.host_ops())


def test_qtable_widens_an_op_and_keeps_another_in_float() -> None:
    module, cal, x = calibrated_residual(np.random.default_rng(4))
    func = next(f for f in module.walk() if isinstance(f, FuncOp))
    keys = {v.name_hint: k for v, k in tensor_keys(func).items()}
    table = QTable({keys["c2"]: "i16", keys["mean"]: "float"})
    program = integer(quantized(module, cal, qtable=table))
    convs = [op for op in program.walk() if isinstance(op, sh.ConvolutionOp)]
    widths = [ht.quant_type(op.lhs.type).storage_width for op in convs]  # type: ignore[union-attr]
    assert widths == [8, 16]  # c2 reads r1, widened with it (r1's other readers too)
    cat = next(op for op in program.walk() if isinstance(op, sh.ConcatenateOp))
    assert ht.quant_type(cat.results[0].type).storage_width == 16  # type: ignore[union-attr]
    divide = next(op for op in program.walk() if isinstance(op, sh.DivideOp))
    assert not ht.is_quantized(divide.results[0].type)
    assert not any(isinstance(op, sh.UniformQuantizeOp) and op.operand is divide.results[0]
                   for op in program.walk())  # fmt: skip
    simulated = run(quantized(module, cal, qtable=table), x)[0]
    assert np.array_equal(simulated, run(program, x)[0])


def test_qtable_naming_no_op_is_refused() -> None:
    module, cal, _ = calibrated_residual(np.random.default_rng(4))
    with pytest.raises(ValueError, match="no op result '99:0'"):
        quantized(module, cal, qtable=QTable({"99:0": "i16"}))


SOFTMAX_HEAD = """
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %lo = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%x init: %lo) applies stablehlo.maximum across dimensions = [1] : (tensor<1x4xf32>, tensor<f32>) -> tensor<1xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<1xf32>) -> tensor<1x4xf32>
  %s = stablehlo.subtract %x, %mb : tensor<1x4xf32>
  %e = stablehlo.READER %s : tensor<1x4xf32>
  func.return %e : tensor<1x4xf32>
}"""


def test_an_elementwise_op_only_float_ops_read_stays_float() -> None:
    """Softmax's x - max(x) feeds exp, which stays float: quantizing it would only add
    rounding (and, with all logits equal, a zero-width range next to a wide one)."""
    for reader, quantized_sub in (("exponential", False), ("negate", True)):
        module = parse(SOFTMAX_HEAD.replace("READER", reader))
        func = next(f for f in module.walk() if isinstance(f, FuncOp))
        sub = next(op for op in func.body.block.ops if isinstance(op, sh.SubtractOp))
        assert (sub in plan(func).units) is quantized_sub
