"""ONNX import (QOperator format) against ONNX Runtime: the interpreter reproduces its
outputs bit for bit; bad files are clear errors."""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime", reason="onnxruntime (the oracle extra) is not installed")

import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnxruntime.quantization import QuantFormat  # noqa: E402

from qdialect.context import make_context  # noqa: E402
from qdialect.importers.onnx_import import ONNXImportError, import_onnx  # noqa: E402
from qdialect.interpreter import Interpreter  # noqa: E402
from qdialect.ir.parser import QParser  # noqa: E402
from qdialect.ir.printer import module_text  # noqa: E402
from qdialect.models import onnx_models  # noqa: E402
from qdialect.tools import qimport  # noqa: E402

NETWORKS = ["residual_cnn", "mobilenet_v2_block", "mlp", "branchy_cnn", "classifier"]
# The TOSA target's distance to ONNX Runtime, in output steps: one unit from a fixed-point
# requantization. The QDQ branchy CNN averages 2x2 windows without changing scale, so a
# quarter of its pool outputs sit at exact ties that ONNX Runtime's float32 arithmetic
# resolves by rounding noise; the Gemm after it adds those up (measured at most 3 by
# bench_onnx_npu.py, docs/onnx.md).
NPU_TOLERANCE = {"cnn": 1, "residual_cnn": 1, "mobilenet_v2_block": 1, "mlp": 1, "branchy_cnn": 3}


def imported(data: bytes, target: str = "stablehlo"):
    """The imported module as `qimport` writes it (with locations), parsed back: every
    model checks that the printed form reads back."""
    text = module_text(import_onnx(data, target), debuginfo=True)
    return QParser(make_context(), text).parse_module()


def model_of(nodes, inputs, outputs, initializers) -> bytes:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model.SerializeToString()


def ort_run(data: bytes, feeds: dict[str, np.ndarray]) -> np.ndarray:
    """The oracle: ONNX Runtime's CPU session with its int8 QDQ groups fused into its integer
    kernels (docs/onnx.md says why the default session is not the reference)."""
    return onnx_models.ort_session(data).run(None, feeds)[0]


def test_u8s8_kernel_saturates_pairs_where_the_cpu_does() -> None:
    """MLAS's uint8 x int8 GEMM on AVX2 without VNNI adds adjacent products in int16 with
    saturation (vpmaddubsw); elsewhere it is exact. Whichever this CPU does, ONNX Runtime's
    MatMulInteger equals one of the two models on operands that overflow int16 pairs."""
    rng = np.random.default_rng(3)
    a = rng.integers(200, 256, (3, 16)).astype(np.uint8)
    b = rng.integers(100, 128, (16, 2)).astype(np.int8)
    node = helper.make_node("MatMulInteger", ["a", "b"], ["y"])
    data = model_of([node], [helper.make_tensor_value_info("a", TensorProto.UINT8, [3, 16])],
                    [helper.make_tensor_value_info("y", TensorProto.INT32, [3, 2])],
                    [numpy_helper.from_array(b, "b")])  # fmt: skip
    got = ort_run(data, {"a": a})
    products = a.astype(np.int64)[:, :, None] * b.astype(np.int64)[None, :, :]
    exact = products.sum(axis=1)
    pairs = np.clip(products[:, 0::2] + products[:, 1::2], -32768, 32767).sum(axis=1)
    assert not np.array_equal(exact, pairs)
    expected = pairs if onnx_models.ort_u8s8_saturates() else exact
    assert np.array_equal(got, expected)


def float_cnn(tmp_path, per_channel: bool, fmt=QuantFormat.QOperator):
    """The shipped test CNN (Conv-ReLU x2, MaxPool, Flatten, MatMul), quantized by
    ONNX Runtime's quantize_static."""
    return onnx_models.quantized_cnn(fmt == QuantFormat.QDQ, per_channel), onnx_models.CNN_INPUT


@pytest.mark.parametrize("fmt", [QuantFormat.QOperator, QuantFormat.QDQ], ids=["QOperator", "QDQ"])
@pytest.mark.parametrize("per_channel", [False, True])
def test_quantize_static_cnn_matches_onnxruntime(tmp_path, per_channel: bool, fmt) -> None:
    data, shape = float_cnn(tmp_path, per_channel, fmt)
    ops = [n.op_type for n in onnx.load_from_string(data).graph.node]
    assert "MaxPool" in ops
    if fmt == QuantFormat.QOperator:
        assert "QLinearConv" in ops and "QLinearMatMul" in ops
    else:
        assert "Conv" in ops and "DequantizeLinear" in ops and "QLinearConv" not in ops
    module = imported(data)
    module.verify()
    for k in range(8):
        x = np.random.default_rng(k).normal(0, 1.5, shape).astype(np.float32)
        want = ort_run(data, {"x": x})
        assert np.array_equal(Interpreter(module).call("main", [x])[0], want)


def qlinear_conv_model(rng, group: int, dilation: int, per_channel: bool) -> bytes:
    c, k = 8, 8
    arr = numpy_helper.from_array
    w = rng.integers(-127, 128, (k, c // group, 3, 3)).astype(np.int8)
    w_s = (rng.uniform(0.5, 1.5, k if per_channel else 1) * 0.01).astype(np.float32)
    inits = [arr(np.array(np.float32(0.02)), "xs"), arr(np.array(np.int8(3)), "xz"), arr(w, "w"),
             arr(w_s if per_channel else w_s.reshape(()), "ws"),
             arr(np.zeros(k if per_channel else (), np.int8), "wz"),
             arr(np.array(np.float32(0.1)), "ys"), arr(np.array(np.int8(-7)), "yz"),
             arr(rng.integers(-2000, 2000, k).astype(np.int32), "b")]  # fmt: skip
    conv = helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
                            ["y"], group=group, dilations=[dilation, dilation], pads=[2, 1, 0, 2],
                            strides=[1, 2])  # fmt: skip
    oh = (9 + 2 + 0 - 2 * dilation - 1) // 1 + 1
    ow = (9 + 1 + 2 - 2 * dilation - 1) // 2 + 1
    return model_of(
        [conv],
        [helper.make_tensor_value_info("x", TensorProto.INT8, [1, c, 9, 9])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [1, k, oh, ow])],
        inits,
    )


@pytest.mark.parametrize(
    "group, dilation, per_channel", [(1, 1, True), (8, 1, True), (2, 2, False), (1, 2, True)]
)
def test_qlinear_conv_variants_match_onnxruntime(group, dilation, per_channel) -> None:
    data = qlinear_conv_model(np.random.default_rng(group + dilation), group, dilation, per_channel)
    module = imported(data)
    for k in range(4):
        x = np.random.default_rng(k).integers(-128, 128, (1, 8, 9, 9)).astype(np.int8)
        assert np.array_equal(Interpreter(module).call("main", [x])[0], ort_run(data, {"x": x}))


def test_qlinear_matmul_of_two_runtime_operands() -> None:
    arr = numpy_helper.from_array
    inits = [arr(np.array(np.float32(0.03)), "as"), arr(np.array(np.int8(5)), "az"),
             arr(np.array(np.float32(0.02)), "bs"), arr(np.array(np.int8(-3)), "bz"),
             arr(np.array(np.float32(0.2)), "ys"), arr(np.array(np.int8(2)), "yz")]  # fmt: skip
    node = helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])
    data = model_of(
        [node],
        [helper.make_tensor_value_info("a", TensorProto.INT8, [4, 16]),
         helper.make_tensor_value_info("b", TensorProto.INT8, [16, 6])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [4, 6])],
        inits,
    )  # fmt: skip
    module = imported(data)
    rng = np.random.default_rng(1)
    for _ in range(4):
        a = rng.integers(-128, 128, (4, 16)).astype(np.int8)
        b = rng.integers(-128, 128, (16, 6)).astype(np.int8)
        assert np.array_equal(
            Interpreter(module).call("main", [a, b])[0], ort_run(data, {"a": a, "b": b})
        )


def bad_models() -> list[tuple[bytes, str]]:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    unsupported = model_of([helper.make_node("Hardmax", ["x"], ["y"], name="sm")], [x], [y], [])
    undefined = model_of([helper.make_node("Relu", ["nowhere"], ["y"], name="r")], [x], [y], [])
    huge = model_of(
        [helper.make_node("Relu", ["x"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1 << 20, 1 << 20])], [y], [],
    )  # fmt: skip
    external = onnx.load_from_string(
        model_of([helper.make_node("Relu", ["x"], ["y"])], [x], [y], [])
    )
    weight = numpy_helper.from_array(np.zeros(4, np.float32), "w")
    weight.data_location = TensorProto.EXTERNAL
    weight.ClearField("raw_data")
    weight.external_data.add(key="location", value="../../etc/passwd")
    external.graph.initializer.append(weight)
    return [
        (b"\x08\x07garbage that is not a protobuf" * 3, "malformed ONNX protobuf"),
        (unsupported, r"Hardmax: 1 node, first 'sm'"),
        (undefined, "reads 'nowhere' before anything defines it"),
        (huge, "static, bounded shape"),
        (external.SerializeToString(), "lives in an external file"),
    ]


@pytest.mark.parametrize("data, message", bad_models())
def test_bad_models_are_clear_errors(data: bytes, message: str) -> None:
    with pytest.raises(ONNXImportError, match=message):
        import_onnx(data)


def test_qimport_reads_onnx(tmp_path, capsys) -> None:
    data, _ = float_cnn(tmp_path, True)
    path = tmp_path / "model.onnx"
    path.write_bytes(data)
    assert qimport.main([str(path), "-o", str(tmp_path / "model.mlir")]) == 0
    assert "stablehlo.convolution" in (tmp_path / "model.mlir").read_text()
    (tmp_path / "bad.onnx").write_bytes(b"\xff" * 10)
    assert qimport.main([str(tmp_path / "bad.onnx")]) == 1
    assert "qimport: error:" in capsys.readouterr().err


def test_qdq_conv_relu_group_matches_onnxruntime() -> None:
    """DequantizeLinear -> Conv -> Relu -> QuantizeLinear with an output zero point above
    the minimum: the ReLU is fused as a lower bound at the zero point."""
    rng = np.random.default_rng(0)
    arr = numpy_helper.from_array
    w = rng.integers(-127, 128, (8, 4, 3, 3)).astype(np.int8)
    inits = [arr(np.array(np.float32(0.02)), "xs"), arr(np.array(np.int8(3)), "xz"), arr(w, "wq"),
             arr((rng.uniform(0.5, 1.5, 8) * 0.01).astype(np.float32), "ws"),
             arr(np.zeros(8, np.int8), "wz"), arr(np.array(np.float32(0.05)), "ys"),
             arr(np.array(np.int8(-20)), "yz")]  # fmt: skip
    nodes = [
        helper.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"], axis=0),
        helper.make_node("Conv", ["xd", "wd"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "ys", "yz"], ["y"]),
    ]
    data = model_of(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.INT8, [1, 4, 6, 6])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 8, 6, 6])],
        inits,
    )
    module = imported(data)
    for k in range(6):
        x = np.random.default_rng(k).integers(-128, 128, (1, 4, 6, 6)).astype(np.int8)
        got = Interpreter(module).call("main", [x])[0]
        assert np.array_equal(got, ort_run(data, {"x": x}))
        assert got.min() >= -20  # the ReLU held at the zero point


@pytest.mark.parametrize("fmt", [QuantFormat.QOperator, QuantFormat.QDQ], ids=["QOperator", "QDQ"])
@pytest.mark.parametrize("per_channel", [False, True])
@pytest.mark.parametrize("name", NPU_TOLERANCE)
def test_tosa_target_runs_on_the_npu_within_one_unit(name: str, per_channel: bool, fmt) -> None:
    """`target="tosa"`: fixed-point requantization for the NPU. The simulator equals the
    TOSA interpreter exactly and ONNX Runtime within one unit of the output's storage."""
    from xdsl.transforms.canonicalize import CanonicalizePass

    from qdialect.dialects.npu import ProgramOp, program_binary
    from qdialect.lowering.tosa_to_npu import TosaToNpu
    from qdialect.npu.machine import load_machine
    from qdialect.npu.simulator import Simulator

    data, shape = onnx_models.quantized(name, fmt == QuantFormat.QDQ, per_channel)
    ctx = make_context()
    module = imported(data, "tosa")
    CanonicalizePass().apply(ctx, module)
    func = next(iter(module.body.block.ops))
    s_in, z_in = (a.value.data for a in func.arg_attrs.data[0].data["qdialect.quantize"].data)
    s_out, z_out = (a.value.data for a in func.res_attrs.data[0].data["qdialect.dequantize"].data)
    reference = QParser(make_context(), str(module)).parse_module()
    TosaToNpu().apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    machine = load_machine("default")
    binary = program_binary(program, machine.digest())
    for k in range(4):
        x = np.random.default_rng(k).normal(0, 1.5, shape).astype(np.float32)
        v = x / np.float32(s_in)  # ONNX's QuantizeLinear: half to even
        q = np.clip(np.rint(v) + z_in, -128, 127).astype(np.int8)
        sim = Simulator(machine, binary.code)
        sim.load_sections(binary)
        sim.set_inputs(binary, {"arg0": q})
        sim.run()
        got = sim.get_outputs(binary)["result0"]
        assert np.array_equal(got, Interpreter(reference).call("main", [q])[0])
        ort_out = onnx_models.ort_session(data).run(None, {"x": x})[0]
        want = np.clip(np.rint(ort_out / np.float32(s_out)) + z_out, -128, 127)
        assert np.abs(got.astype(np.int64) - want.astype(np.int64)).max() <= NPU_TOLERANCE[name]


BACKEND_CASES = [
    "test_convinteger_with_padding",
    "test_convinteger_without_padding",
    "test_matmulinteger",
    "test_qlinearconv",
    "test_qlinearmatmul_2D_int8_float32",
    "test_qlinearmatmul_2D_uint8_float32",
    "test_quantizelinear",
    "test_dequantizelinear",
    "test_dynamicquantizelinear",
    "test_dynamicquantizelinear_max_adjusted",
    "test_dynamicquantizelinear_min_adjusted",
]


@functools.lru_cache(maxsize=1)
def backend_cases() -> dict:
    from onnx.backend.test.case.node import collect_testcases

    with warnings.catch_warnings():  # the collection evaluates unrelated cases noisily
        warnings.simplefilter("ignore")
        return {c.name: c for c in collect_testcases() if c.name in BACKEND_CASES}


@pytest.mark.parametrize("name", BACKEND_CASES)
def test_onnx_backend_node_cases(name: str) -> None:
    """ONNX's own backend test cases (shipped inside the onnx package, expected outputs from
    its reference implementation): scales, zero points and weights become initializers,
    the first input stays the model's input."""
    case = backend_cases()[name]
    for inputs, outputs in case.data_sets:
        model = onnx.ModelProto()
        model.CopyFrom(case.model)
        graph = model.graph
        for info, value in list(zip(graph.input, inputs, strict=False))[1:]:
            graph.initializer.append(numpy_helper.from_array(np.asarray(value), info.name))
        del graph.input[1:]
        module = imported(model.SerializeToString())
        results = Interpreter(module).call("main", [np.asarray(inputs[0])])
        assert len(results) == len(outputs)
        for got, want in zip(results, outputs, strict=True):
            assert got.dtype == np.asarray(want).dtype
            assert np.array_equal(got, np.asarray(want))


@pytest.mark.parametrize("auto_pad", ["SAME_UPPER", "SAME_LOWER", "VALID"])
def test_auto_pad_and_shape_ops_match_onnxruntime(auto_pad: str) -> None:
    """QLinearConv with auto_pad (stride 2 on an odd size, so SAME pads unevenly), then
    Identity, Unsqueeze and Squeeze on the int8 result."""
    rng = np.random.default_rng(3)
    arr = numpy_helper.from_array
    w = rng.integers(-127, 128, (6, 4, 3, 3)).astype(np.int8)
    inits = [arr(np.array(np.float32(0.02)), "xs"), arr(np.array(np.int8(3)), "xz"), arr(w, "w"),
             arr(np.array(np.float32(0.01)), "ws"), arr(np.array(np.int8(0)), "wz"),
             arr(np.array(np.float32(0.1)), "ys"), arr(np.array(np.int8(-7)), "yz"),
             arr(np.array([0], np.int64), "axes")]  # fmt: skip
    out = 5 if auto_pad != "VALID" else 4
    nodes = [
        helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["c"],
                         auto_pad=auto_pad, strides=[2, 2]),
        helper.make_node("Identity", ["c"], ["i"]),
        helper.make_node("Unsqueeze", ["i", "axes"], ["u"]),
        helper.make_node("Squeeze", ["u", "axes"], ["y"]),
    ]  # fmt: skip
    data = model_of(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.INT8, [1, 4, 9, 9])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 6, out, out])],
        inits,
    )
    module = imported(data)
    for k in range(3):
        x = np.random.default_rng(k).integers(-128, 128, (1, 4, 9, 9)).astype(np.int8)
        assert np.array_equal(Interpreter(module).call("main", [x])[0], ort_run(data, {"x": x}))


# ---- the networks, and ONNX Runtime's com.microsoft kernels one by one -----------

EXPECTED_QOPERATOR = {
    "residual_cnn": {"QLinearConv", "QLinearAdd", "QLinearGlobalAveragePool", "QGemm"},
    "mobilenet_v2_block": {"QLinearConv", "HardSwish", "QLinearAdd"},
    "mlp": {"QLinearMatMul", "QLinearAdd", "QLinearSigmoid"},
    "branchy_cnn": {"QLinearConcat", "QLinearAveragePool", "Pad", "Transpose", "QGemm"},
    "classifier": {"QLinearConcat", "QLinearAveragePool", "QGemm", "QLinearSoftmax"},
}


def program(data: bytes):
    module = imported(data)
    module.verify()
    return module


@pytest.mark.parametrize("uint8", [False, True], ids=["int8", "uint8"])
@pytest.mark.parametrize("per_channel", [False, True], ids=["per-tensor", "per-channel"])
@pytest.mark.parametrize("qdq", [True, False], ids=["QDQ", "QOperator"])
@pytest.mark.parametrize("name", NETWORKS)
def test_networks_match_onnxruntime(name: str, qdq: bool, per_channel: bool, uint8: bool) -> None:
    # Where ONNX Runtime's uint8 x int8 kernel saturates int16 pairs, 7-bit weights (its
    # advice for such CPUs) keep every pair in range, so the comparison stays exact.
    reduce = uint8 and onnx_models.ort_u8s8_saturates()
    data, shape = onnx_models.quantized(name, qdq, per_channel, uint8, reduce_range=reduce)
    ops = {n.op_type for n in onnx.load_from_string(data).graph.node}
    assert ("DequantizeLinear" in ops) if qdq else EXPECTED_QOPERATOR[name] <= ops
    session, module = onnx_models.ort_session(data), program(data)
    for k in range(4):
        x = np.random.default_rng(k).normal(0, 1, shape).astype(np.float32)
        want = session.run(None, {"x": x})[0]
        assert len(np.unique(want)) > 5
        assert np.array_equal(Interpreter(module).call("main", [x])[0], want)


def test_default_int8_qdq_session_is_within_one_unit() -> None:
    """ONNX Runtime's default x86-64 session converts int8 QDQ groups to uint8 where it can
    and runs the ones that then cannot fuse in float32 (MLAS's summation order). The
    import follows the fused integer kernels: equal to the fused session (above), within
    one output step of the default one."""
    data, shape = onnx_models.quantized("mobilenet_v2_block", qdq=True, per_channel=False)
    graph = onnx.load_from_string(data).graph
    (last,) = [n for n in graph.node if n.output[0] == "out"]
    step = float(
        numpy_helper.to_array(next(t for t in graph.initializer if t.name == last.input[1]))
    )
    module, default = program(data), onnx_models.ort_session(data, fuse_int8_qdq=False)
    for k in range(8):
        x = np.random.default_rng(k).normal(0, 1, shape).astype(np.float32)
        got = Interpreter(module).call("main", [x])[0]
        assert np.abs(got - default.run(None, {"x": x})[0]).max() <= step * 1.0001


def com_microsoft_model(nodes, inputs, outputs, initializers) -> bytes:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])  # fmt: skip
    model.ir_version = 8
    return model.SerializeToString()


def quant_params(names_values, dtype) -> list:
    """Scalar initializers: float scales and `dtype` zero points."""
    return [
        numpy_helper.from_array(np.array(v, np.float32 if n.startswith("s") else dtype), n)
        for n, v in names_values
    ]


@pytest.mark.parametrize("op", ["QLinearAdd", "QLinearMul"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_qlinear_add_and_mul_match_onnxruntime_on_every_pair(op: str, dtype) -> None:
    """Every pair of 8-bit inputs, three random quantizations, and a constant row broadcast
    along the leading axis (a bias); the rare elements where MLAS's arithmetic differs from
    the ONNX float formula are the point."""
    elem = TensorProto.INT8 if dtype == np.int8 else TensorProto.UINT8
    info = np.iinfo(dtype)
    grid = np.stack(np.meshgrid(np.arange(info.min, info.max + 1),
                                np.arange(info.min, info.max + 1)), -1).reshape(-1, 2)  # fmt: skip
    a, b = grid[:, 0].astype(dtype), grid[:, 1].astype(dtype)
    rng = np.random.default_rng(7)
    for _ in range(3):
        s_a, s_b = rng.uniform(0.005, 0.2, 2)
        s_c = s_a * s_b * rng.uniform(20, 200) if op == "QLinearMul" else rng.uniform(0.01, 0.3)
        zeros = rng.integers(info.min // 2 + 64, info.max // 2, 3)
        params = quant_params([("sa", s_a), ("za", zeros[0]), ("sb", s_b), ("zb", zeros[1]),
                               ("sc", s_c), ("zc", zeros[2])], dtype)  # fmt: skip
        node = helper.make_node(op, ["a", "sa", "za", "b", "sb", "zb", "sc", "zc"], ["y"],
                                domain="com.microsoft")  # fmt: skip
        data = com_microsoft_model(
            [node],
            [helper.make_tensor_value_info("a", elem, [a.size]),
             helper.make_tensor_value_info("b", elem, [b.size])],
            [helper.make_tensor_value_info("y", elem, [a.size])], params,
        )  # fmt: skip
        got = Interpreter(program(data)).call("main", [a, b])[0]
        assert np.array_equal(got, ort_run(data, {"a": a, "b": b}))
        row = rng.integers(info.min, info.max + 1, 32).astype(dtype)
        matrix = rng.integers(info.min, info.max + 1, (64, 32)).astype(dtype)
        data = com_microsoft_model(
            [node], [helper.make_tensor_value_info("a", elem, [64, 32])],
            [helper.make_tensor_value_info("y", elem, [64, 32])],
            [*params, numpy_helper.from_array(row, "b")],
        )  # fmt: skip
        got = Interpreter(program(data)).call("main", [matrix])[0]
        assert np.array_equal(got, ort_run(data, {"a": matrix}))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_activations_match_onnxruntime_on_every_input(dtype) -> None:
    """QLinearSigmoid, and Sigmoid / Tanh / HardSwish / HardSigmoid between Q/DQ, as 256-entry
    tables of ONNX Runtime's float32 arithmetic: every input, four quantizations each."""
    elem = TensorProto.INT8 if dtype == np.int8 else TensorProto.UINT8
    info = np.iinfo(dtype)
    x = np.arange(info.min, info.max + 1).astype(dtype)
    rng = np.random.default_rng(3)
    for kind in ("QLinearSigmoid", "Sigmoid", "Tanh", "HardSwish", "HardSigmoid"):
        for _ in range(4):
            s_x, s_y = rng.uniform(0.005, 0.15), rng.uniform(0.002, 0.03)
            z_x, z_y = rng.integers(info.min, info.max + 1, 2)
            params = quant_params([("sx", s_x), ("zx", z_x), ("sy", s_y), ("zy", z_y)], dtype)
            if kind == "QLinearSigmoid":
                nodes = [helper.make_node(kind, ["x", "sx", "zx", "sy", "zy"], ["y"],
                                          domain="com.microsoft")]  # fmt: skip
            else:
                extra = {"alpha": 0.3, "beta": 0.4} if kind == "HardSigmoid" else {}
                nodes = [helper.make_node("DequantizeLinear", ["x", "sx", "zx"], ["f"]),
                         helper.make_node(kind, ["f"], ["g"], **extra),
                         helper.make_node("QuantizeLinear", ["g", "sy", "zy"], ["y"])]  # fmt: skip
            data = com_microsoft_model(
                nodes, [helper.make_tensor_value_info("x", elem, [x.size])],
                [helper.make_tensor_value_info("y", elem, [x.size])], params,
            )  # fmt: skip
            want = ort_run(data, {"x": x})
            assert len(np.unique(want)) > 5
            assert np.array_equal(Interpreter(program(data)).call("main", [x])[0], want), kind


@pytest.mark.parametrize("channels_last", [0, 1])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_qlinear_global_average_pool_matches_onnxruntime(channels_last: int, dtype) -> None:
    elem = TensorProto.INT8 if dtype == np.int8 else TensorProto.UINT8
    info = np.iinfo(dtype)
    shape = (2, 7, 5, 6) if channels_last else (2, 6, 7, 5)
    out = (2, 1, 1, 6) if channels_last else (2, 6, 1, 1)
    rng = np.random.default_rng(5)
    for _ in range(3):
        params = quant_params([("sx", rng.uniform(0.01, 0.1)), ("zx", rng.integers(info.min, info.max)),
                               ("sy", rng.uniform(0.005, 0.05)), ("zy", rng.integers(info.min, info.max))],
                              dtype)  # fmt: skip
        node = helper.make_node("QLinearGlobalAveragePool", ["x", "sx", "zx", "sy", "zy"], ["y"],
                                domain="com.microsoft", channels_last=channels_last)  # fmt: skip
        data = com_microsoft_model([node], [helper.make_tensor_value_info("x", elem, list(shape))],
                                   [helper.make_tensor_value_info("y", elem, list(out))], params)  # fmt: skip
        x = rng.integers(info.min, info.max + 1, shape).astype(dtype)
        assert np.array_equal(
            Interpreter(program(data)).call("main", [x])[0], ort_run(data, {"x": x})
        )


@pytest.mark.parametrize("trans_b, alpha, bias, per_column", [
    (1, 1.0, True, False), (0, 0.5, True, True), (1, 2.0, False, True)])  # fmt: skip
def test_qgemm_matches_onnxruntime(
    trans_b: int, alpha: float, bias: bool, per_column: bool
) -> None:
    rng = np.random.default_rng(11)
    m, k, n = 5, 24, 7
    b = rng.integers(-127, 128, (n, k) if trans_b else (k, n)).astype(np.int8)
    s_b = rng.uniform(0.005, 0.02, n if per_column else ()).astype(np.float32)
    inits = [*quant_params([("sa", 0.03), ("za", 4), ("sy", 0.05), ("zy", -3)], np.int8),
             numpy_helper.from_array(b, "b"), numpy_helper.from_array(s_b, "sb"),
             numpy_helper.from_array(np.zeros(s_b.shape, np.int8), "zb"),
             numpy_helper.from_array(rng.integers(-3000, 3000, n).astype(np.int32), "c")]  # fmt: skip
    node = helper.make_node("QGemm", ["a", "sa", "za", "b", "sb", "zb", "c" if bias else "", "sy", "zy"],
                            ["y"], domain="com.microsoft", transB=trans_b, alpha=alpha)  # fmt: skip
    data = com_microsoft_model([node], [helper.make_tensor_value_info("a", TensorProto.INT8, [m, k])],
                               [helper.make_tensor_value_info("y", TensorProto.INT8, [m, n])], inits)  # fmt: skip
    for _ in range(4):
        a = rng.integers(-128, 128, (m, k)).astype(np.int8)
        assert np.array_equal(
            Interpreter(program(data)).call("main", [a])[0], ort_run(data, {"a": a})
        )


@pytest.mark.parametrize("kind", ["QLinearAdd", "QLinearMul"])
@pytest.mark.parametrize("b_shape", [(1,), (1, 1, 1, 1), (3, 1, 1), (1, 3, 1, 1), (5,), (4, 5)])
def test_qlinear_broadcasts_match_onnxruntime(kind: str, b_shape) -> None:
    """A scalar, per-channel [C,1,1] or trailing operand: MLAS's scalar and span paths
    compute what the elementwise formula does, over many parameter draws."""
    rng = np.random.default_rng(len(b_shape) + sum(b_shape))
    node = helper.make_node(kind, ["a", "sa", "za", "b", "sb", "zb", "sc", "zc"], ["y"],
                            domain="com.microsoft")  # fmt: skip
    for _ in range(6):
        s_a, s_b, s_c = rng.uniform(0.01, 0.2, 3)
        z_a, z_b, z_c = rng.integers(-128, 128, 3)
        params = quant_params([("sa", s_a), ("za", z_a), ("sb", s_b), ("zb", z_b), ("sc", s_c),
                               ("zc", z_c)], np.int8)  # fmt: skip
        data = com_microsoft_model(
            [node], [helper.make_tensor_value_info("a", TensorProto.INT8, [2, 3, 4, 5]),
                     helper.make_tensor_value_info("b", TensorProto.INT8, list(b_shape))],
            [helper.make_tensor_value_info("y", TensorProto.INT8, [2, 3, 4, 5])], params,
        )  # fmt: skip
        module = program(data)
        a = rng.integers(-128, 128, (2, 3, 4, 5)).astype(np.int8)
        b = rng.integers(-128, 128, b_shape).astype(np.int8)
        want = ort_run(data, {"a": a, "b": b})
        assert np.array_equal(Interpreter(module).call("main", [a, b])[0], want)


@pytest.mark.parametrize("kind", ["QLinearAdd", "QLinearMul"])
@pytest.mark.parametrize("b_shape", [(1,), (3, 1, 1), (1, 3, 1, 1), (16,)])
def test_tosa_target_keeps_broadcast_constants_small(kind: str, b_shape) -> None:
    """`target="tosa"`: a constant operand that broadcasts stays its own size in the IR
    (rank raised, never tiled to the activation), and the NPU back end, which tiles it
    into the weights section, still equals the TOSA interpreter exactly."""
    from xdsl.transforms.canonicalize import CanonicalizePass

    from qdialect.dialects import tosa
    from qdialect.dialects.npu import ProgramOp, program_binary
    from qdialect.ir.constants import constant_array
    from qdialect.lowering.tosa_to_npu import TosaToNpu
    from qdialect.npu.machine import load_machine
    from qdialect.npu.simulator import Simulator

    rng = np.random.default_rng(sum(b_shape))
    shape = (1, 3, 8, 16)
    node = helper.make_node(kind, ["a", "sa", "za", "b", "sb", "zb", "sc", "zc"], ["y"],
                            domain="com.microsoft")  # fmt: skip
    s_c = 0.05 * 0.07 * 40 if kind == "QLinearMul" else 0.09
    params = quant_params([("sa", 0.05), ("za", 3), ("sb", 0.07), ("zb", -5), ("sc", s_c),
                           ("zc", 2)], np.int8)  # fmt: skip
    b = numpy_helper.from_array(rng.integers(-128, 128, b_shape).astype(np.int8), "b")
    data = com_microsoft_model(
        [node], [helper.make_tensor_value_info("a", TensorProto.INT8, list(shape))],
        [helper.make_tensor_value_info("y", TensorProto.INT8, list(shape))], [*params, b],
    )  # fmt: skip
    ctx = make_context()
    module = imported(data, "tosa")
    CanonicalizePass().apply(ctx, module)
    consts = [constant_array(op.results[0]) for op in module.walk() if isinstance(op, tosa.ConstOp)]
    assert max(c.size for c in consts if c is not None) <= max(16, math.prod(b_shape))
    reference = QParser(make_context(), str(module)).parse_module()
    TosaToNpu().apply(ctx, module)
    (npu_program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    machine = load_machine("default")
    binary = program_binary(npu_program, machine.digest())
    for k in range(3):
        a = np.random.default_rng(k).integers(-128, 128, shape).astype(np.int8)
        sim = Simulator(machine, binary.code)
        sim.load_sections(binary)
        sim.set_inputs(binary, {"arg0": a})
        sim.run()
        want = Interpreter(reference).call("main", [a])[0]
        assert np.array_equal(sim.get_outputs(binary)["result0"], want)
        ort = ort_run(data, {"a": a}).astype(np.int64)
        assert np.abs(want.astype(np.int64) - ort).max() <= 1


def test_unsupported_broadcast_and_unnamed_nodes_are_named_errors() -> None:
    params = quant_params(
        [("sa", 0.1), ("za", 0), ("sb", 0.1), ("zb", 0), ("sc", 0.2), ("zc", 0)], np.int8
    )
    node = helper.make_node("QLinearAdd", ["a", "sa", "za", "b", "sb", "zb", "sc", "zc"], ["y"],
                            domain="com.microsoft")  # fmt: skip
    data = com_microsoft_model(
        [node], [helper.make_tensor_value_info("a", TensorProto.INT8, [1, 3, 4, 4]),
                 helper.make_tensor_value_info("b", TensorProto.INT8, [2, 1, 1])],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 3, 4, 4])], params,
    )  # fmt: skip
    with pytest.raises(ONNXImportError, match=r"node 'QLinearAdd_0'.*do not broadcast"):
        import_onnx(data)
    node = helper.make_node("QLinearWhere", ["a"], ["y"], domain="com.microsoft")
    data = com_microsoft_model([node], [helper.make_tensor_value_info("a", TensorProto.INT8, [2, 3])],
                               [helper.make_tensor_value_info("y", TensorProto.INT8, [2, 3])], [])  # fmt: skip
    with pytest.raises(
        ONNXImportError,
        match=r"unsupported op type.*\n  com.microsoft.QLinearWhere: 1 node, first 'QLinearWhere_0'",
    ):
        import_onnx(data)


@pytest.mark.parametrize("qdq", [False, True], ids=["QOperator", "QDQ"])
def test_softmax_stays_float_on_the_host_on_the_tosa_target(qdq: bool) -> None:
    """`target="tosa"`: the classifier's softmax has no integer form; it is imported as the
    exact target imports it (StableHLO float32, ONNX Runtime's arithmetic), partitioned to
    the host, and the whole model runs from a bundle exactly as the interpreter runs the
    TOSA; within one unit of ONNX Runtime (the NPU's fixed-point requantization)."""
    from ..runtime.bundled import run_bundled

    data, shape = onnx_models.quantized("classifier", qdq=qdq, per_channel=False)
    module = imported(data, "tosa")
    main = next(iter(module.body.block.ops))
    s_in, z_in = (a.value.data for a in main.arg_attrs.data[0].data["qdialect.quantize"].data)
    s_out, z_out = (a.value.data for a in main.res_attrs.data[0].data["qdialect.dequantize"].data)
    x = np.random.default_rng(0).normal(0, 1.5, shape).astype(np.float32)
    q = np.clip(np.rint(x / np.float32(s_in)) + z_in, -128, 127).astype(np.int8)
    run = run_bundled(module, [q])
    assert np.array_equal(run.got[0], run.want[0])
    assert "stablehlo.reduce" in run.host_ops() and run.npu_functions()  # row max, sum
    ort_out = onnx_models.ort_session(data).run(None, {"x": x})[0]
    want = np.clip(np.rint(ort_out / np.float32(s_out)) + z_out, -128, 127)
    assert np.abs(run.got[0].astype(np.int64) - want.astype(np.int64)).max() <= 1


@pytest.mark.parametrize(
    "kernel, strides, pads, count_include_pad, channels_last",
    [([2, 2], [2, 2], [0, 0, 0, 0], 0, 0), ([3, 3], [1, 1], [1, 1, 1, 1], 0, 0),
     ([3, 3], [2, 1], [1, 0, 1, 2], 1, 0), ([2, 3], [1, 2], [1, 1, 0, 1], 0, 1),
     ([7, 5], [1, 1], [0, 0, 0, 0], 0, 0)],
)  # fmt: skip
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_qlinear_average_pool_matches_onnxruntime(kernel, strides, pads, count_include_pad,
                                                  channels_last, dtype) -> None:  # fmt: skip
    """Float32 window sums in ONNX Runtime's order, in-bounds counts or the kernel size,
    NHWC, and the whole-image window that falls back to the global pool."""
    elem = TensorProto.INT8 if dtype == np.int8 else TensorProto.UINT8
    info = np.iinfo(dtype)
    shape = (2, 7, 5, 3) if channels_last else (2, 3, 7, 5)
    node = helper.make_node("QLinearAveragePool", ["x", "sx", "zx", "sy", "zy"], ["y"],
                            domain="com.microsoft", kernel_shape=kernel, strides=strides,
                            pads=pads, count_include_pad=count_include_pad,
                            channels_last=channels_last)  # fmt: skip
    oh = (7 + pads[0] + pads[2] - kernel[0]) // strides[0] + 1
    ow = (5 + pads[1] + pads[3] - kernel[1]) // strides[1] + 1
    out = (2, oh, ow, 3) if channels_last else (2, 3, oh, ow)
    rng = np.random.default_rng(sum(kernel) + sum(pads))
    for same in (True, False):
        s_x = rng.uniform(0.01, 0.1)
        params = quant_params([("sx", s_x), ("zx", rng.integers(info.min, info.max)),
                               ("sy", s_x if same else rng.uniform(0.01, 0.1)),
                               ("zy", rng.integers(info.min, info.max))], dtype)  # fmt: skip
        data = com_microsoft_model([node], [helper.make_tensor_value_info("x", elem, list(shape))],
                                   [helper.make_tensor_value_info("y", elem, list(out))], params)  # fmt: skip
        module = program(data)
        for _ in range(3):
            x = rng.integers(info.min, info.max + 1, shape).astype(dtype)
            assert np.array_equal(Interpreter(module).call("main", [x])[0], ort_run(data, {"x": x}))


def test_qlinear_concat_and_pad_match_onnxruntime() -> None:
    """QLinearConcat of one input sharing the output's parameters (a copy) and two that do
    not (tables), along axis 2; then an int8 Pad with a constant value."""
    rng = np.random.default_rng(9)
    params = quant_params([("sy", 0.05), ("zy", 3), ("s0", 0.05), ("z0", 3), ("s1", 0.031),
                           ("z1", -20), ("s2", 0.2), ("z2", 100), ("pv", 7)], np.int8)  # fmt: skip
    params.append(numpy_helper.from_array(np.array([0, 0, 2, 1, 0, 1, 0, 0], np.int64), "pads"))
    nodes = [
        helper.make_node("QLinearConcat", ["sy", "zy", "a", "s0", "z0", "b", "s1", "z1", "c", "s2",
                                           "z2"], ["cat"], domain="com.microsoft", axis=2),
        helper.make_node("Pad", ["cat", "pads", "pv"], ["y"], mode="constant"),
    ]  # fmt: skip
    shapes = [(1, 2, 3, 4), (1, 2, 5, 4), (1, 2, 1, 4)]
    data = com_microsoft_model(
        nodes,
        [helper.make_tensor_value_info(n, TensorProto.INT8, list(s)) for n, s in zip("abc", shapes, strict=True)],
        [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 3, 9, 5])], params,
    )  # fmt: skip
    module = program(data)
    for _ in range(4):
        xs = [rng.integers(-128, 128, s).astype(np.int8) for s in shapes]
        want = ort_run(data, dict(zip("abc", xs, strict=True)))
        assert np.array_equal(Interpreter(module).call("main", xs)[0], want)


@pytest.mark.parametrize(
    "shape, axis, opset", [((3, 10), -1, 13), ((2, 6, 5), 1, 13), ((2, 3, 4), 1, 12), ((2, 1000), 1, 13)]
)  # fmt: skip
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_qlinear_softmax_matches_onnxruntime(shape, axis: int, opset: int, dtype) -> None:
    """Rows along an inner axis (transposed, opset 13) or flattened from it (opset 12), and a
    1,000-entry row, int8 and uint8."""
    elem = TensorProto.INT8 if dtype == np.int8 else TensorProto.UINT8
    info = np.iinfo(dtype)
    zero = -128 if dtype == np.int8 else 0
    params = quant_params([("sx", 0.03), ("zx", zero // 2), ("sy", 1 / 256), ("zy", zero)], dtype)
    node = helper.make_node("QLinearSoftmax", ["x", "sx", "zx", "sy", "zy"], ["y"],
                            domain="com.microsoft", axis=axis, opset=opset)  # fmt: skip
    data = com_microsoft_model([node], [helper.make_tensor_value_info("x", elem, list(shape))],
                               [helper.make_tensor_value_info("y", elem, list(shape))], params)  # fmt: skip
    module = program(data)
    rng = np.random.default_rng(len(shape) + opset)
    x = rng.integers(info.min, info.max + 1, shape).astype(dtype)
    x.reshape(-1)[: shape[-1]] = info.min
    x.reshape(-1)[0] = info.max
    want = ort_run(data, {"x": x})
    assert len(np.unique(want)) > 3
    assert np.array_equal(Interpreter(module).call("main", [x])[0], want)


def test_dynamic_quantize_linear_matches_onnxruntime() -> None:
    """Parameters from the data (all three outputs): mixed signs, all positive, all
    negative, all zero (scale 1), and values whose zero point lands on a half."""
    node = helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])
    data = model_of(
        [node], [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 7])],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, [3, 7]),
         helper.make_tensor_value_info("s", TensorProto.FLOAT, []),
         helper.make_tensor_value_info("z", TensorProto.UINT8, [])], [],
    )  # fmt: skip
    session = onnx_models.ort_session(data)
    module = program(data)
    rng = np.random.default_rng(4)
    cases = [rng.normal(0, 3, (3, 7)), rng.uniform(0.5, 9, (3, 7)), -rng.uniform(0.5, 9, (3, 7)),
             np.zeros((3, 7)), np.linspace(-1.0, 254.0, 21).reshape(3, 7)]  # fmt: skip
    for x in (c.astype(np.float32) for c in cases):
        want = session.run(None, {"x": x})
        got = Interpreter(module).call("main", [x])
        for g, w in zip(got, want, strict=True):
            assert g.dtype == w.dtype and np.array_equal(g, w)


def test_per_channel_weights_along_another_axis_are_refused() -> None:
    """A DequantizeLinear's axis decides which weights share a scale; only the output
    channels can become a per-channel requantization, so any other axis is an error
    (never a silently misapplied scale)."""
    data, _ = onnx_models.quantized("residual_cnn", qdq=True, per_channel=True)
    model = onnx.load_from_string(data)
    (dq,) = [n for n in model.graph.node if n.output[0] == "w1_DequantizeLinear_Output"]
    for attribute in dq.attribute:
        if attribute.name == "axis":
            attribute.i = 1
    _set_init(model, dq.input[1], np.full(3, 0.01, np.float32))  # one per input channel
    _set_init(model, dq.input[2], np.zeros(3, np.int8))
    with pytest.raises(
        ONNXImportError,
        match=r"quantized along axis 1; per-channel weights must use the output-channel axis 0",
    ):
        import_onnx(model.SerializeToString())


def test_float_elementwise_ops_match_onnxruntime() -> None:
    """Between and after Q/DQ: LeakyRelu and Clip on dequantized values, then Sub, Mul (by a
    Constant node), Div and a broadcast Add on the float result — each one float32
    operation per element, so exactly ONNX Runtime's."""
    arr = numpy_helper.from_array
    inits = [arr(np.array(np.float32(0.05)), "s"), arr(np.array(np.int8(-3)), "z"),
             arr(np.array(np.float32(0.04)), "s2"), arr(np.array(np.int8(5)), "z2"),
             arr(np.array(np.float32(-1.5)), "lo"), arr(np.array(np.float32(2.25)), "hi"),
             arr(np.float32([0.1, -0.2, 0.3, 0.05, -0.7, 0.9]), "row"),
             arr(np.array(np.float32(3.0)), "three")]  # fmt: skip
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"]),
        helper.make_node("LeakyRelu", ["d"], ["l"], alpha=0.15),
        helper.make_node("Clip", ["l", "lo", "hi"], ["c"]),
        helper.make_node("QuantizeLinear", ["c", "s2", "z2"], ["q2"]),
        helper.make_node("DequantizeLinear", ["q2", "s2", "z2"], ["d2"]),
        helper.make_node("Constant", [], ["k"], value=arr(np.array(np.float32(1.7)), "k")),
        helper.make_node("Sub", ["d2", "row"], ["a"]),
        helper.make_node("Mul", ["a", "k"], ["b"]),
        helper.make_node("Div", ["b", "three"], ["e"]),
        helper.make_node("Add", ["e", "row"], ["y"]),
    ]
    data = model_of(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 6])],
                    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 6])], inits)  # fmt: skip
    module = program(data)
    rng = np.random.default_rng(8)
    for _ in range(6):
        x = rng.normal(0, 3, (4, 6)).astype(np.float32)
        assert np.array_equal(Interpreter(module).call("main", [x])[0], ort_run(data, {"x": x}))


def test_batch_normalization_matches_onnxruntime() -> None:
    """Inference BatchNormalization on dequantized values: ONNX Runtime's per-channel
    factor and offset in float32, then one multiply and one add per element."""
    rng = np.random.default_rng(12)
    arr = numpy_helper.from_array
    inits = [arr(rng.uniform(0.5, 2, 6).astype(np.float32), "g"),
             arr(rng.normal(0, 1, 6).astype(np.float32), "b"),
             arr(rng.normal(0, 1, 6).astype(np.float32), "m"),
             arr(rng.uniform(0.1, 3, 6).astype(np.float32), "v"),
             arr(np.array(np.float32(0.05)), "s"), arr(np.array(np.int8(2)), "z")]  # fmt: skip
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"]),
             helper.make_node("BatchNormalization", ["d", "g", "b", "m", "v"], ["y"], epsilon=1e-3)]  # fmt: skip
    data = model_of(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 6, 5, 5])],
                    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 6, 5, 5])], inits)  # fmt: skip
    module = program(data)
    for _ in range(6):
        x = rng.normal(0, 3, (2, 6, 5, 5)).astype(np.float32)
        assert np.array_equal(Interpreter(module).call("main", [x])[0], ort_run(data, {"x": x}))


def test_clip_without_an_upper_bound_keeps_the_largest_floats() -> None:
    """A missing bound is ONNX Runtime's: the largest finite float (so +inf clips to it),
    not a rounder stand-in that would clip the largest floats."""
    node = helper.make_node("Clip", ["x", "lo"], ["y"])
    data = model_of([node], [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
                    [numpy_helper.from_array(np.array(np.float32(-1.0)), "lo")])  # fmt: skip
    x = np.array([np.finfo(np.float32).max, 3.401e38, -5.0, np.inf], np.float32)
    got = Interpreter(program(data)).call("main", [x])[0]
    assert np.array_equal(got, ort_run(data, {"x": x}))
    assert got[0] == got[3] == np.finfo(np.float32).max and got[1] == x[1]


def test_every_op_is_located_at_a_tensor_of_the_model() -> None:
    """Each imported op carries the name of the ONNX tensor it computes (`loc("...")`),
    arguments the input names, so later tools can speak in the model's names; the
    printed form keeps them."""
    from xdsl.dialects.builtin import NameLoc

    data = onnx_models.quantized_cnn(qdq=True, per_channel=True)
    graph = onnx.load_from_string(data).graph
    tensors = {name for node in graph.node for name in node.output}
    module = imported(data)
    (func,) = [op for op in module.walk() if op.name == "func.func"]
    assert [a.location.desc.data for a in func.body.block.args] == [graph.input[0].name]
    located = [op for op in func.body.block.ops if op.name != "func.return"]
    assert located and all(isinstance(op.location, NameLoc) for op in located)
    assert {op.location.desc.data for op in located} <= tensors
    assert len({op.location.desc.data for op in located}) > 5


def test_an_importer_bug_is_one_internal_error_line(tmp_path, monkeypatch, capsys) -> None:
    """An op the importer builds wrong is caught by verification and reported by qimport
    as one 'internal error' line naming the op and tensor, exit status 2, no traceback."""
    from qdialect.importers import emitter

    def wrong_clamp(self, lo, x, hi):  # a deliberately ill-typed clamp
        return self.op(emitter.hlo.ClampOp, [lo, x, hi], x.shape, "i32")

    monkeypatch.setattr(emitter.Emitter, "clamp", wrong_clamp)
    path = tmp_path / "cnn.onnx"
    path.write_bytes(onnx_models.quantized_cnn(qdq=False, per_channel=False))
    assert qimport.main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("qimport: internal error: InvalidIRError: 'stablehlo.clamp' built for '")
    assert len(err.strip().splitlines()) == 1


# ---- hostile models: each malformed field is one ONNXImportError naming it ----------------


def _qdq_pool(op: str = "AveragePool", size: int = 8, **attrs) -> onnx.ModelProto:
    """float x -> QuantizeLinear -> DequantizeLinear -> `op` -> QuantizeLinear ->
    DequantizeLinear: a QDQ group both targets import."""
    s = numpy_helper.from_array(np.array(0.05, np.float32), "s")
    z = numpy_helper.from_array(np.array(0, np.int8), "z")
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"], name="q0"),
        helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["xd"], name="dq0"),
        helper.make_node(op, ["xd"], ["p"], name="pool", **attrs),
        helper.make_node("QuantizeLinear", ["p", "s", "z"], ["pq"], name="q1"),
        helper.make_node("DequantizeLinear", ["pq", "s", "z"], ["y"], name="dq1"),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, size, size])
    y = helper.make_empty_tensor_value_info("y")
    return onnx.load_from_string(model_of(nodes, [x], [y], [s, z]))


def _set_init(m: onnx.ModelProto, name: str, array: np.ndarray) -> None:
    (t,) = [t for t in m.graph.initializer if t.name == name]
    t.CopyFrom(numpy_helper.from_array(array, name))


def _hostile_onnx() -> list:
    cases = []

    def case(label, edit, message, pool: dict | None = None, op: str = "AveragePool"):
        m = _qdq_pool(op, **(pool if pool is not None else {"kernel_shape": [2, 2]}))
        edit(m)
        cases.append(pytest.param(m.SerializeToString(), message, id=label))

    nothing = lambda m: None  # noqa: E731
    for value in (0.0, float("nan"), -1.0, float("inf")):
        case(f"scale {value}", lambda m, v=value: _set_init(m, "s", np.array(v, np.float32)),
             "scales must be finite and positive")  # fmt: skip
    case("empty scale", lambda m: _set_init(m, "s", np.zeros(0, np.float32)),
         "scales must be finite and positive")  # fmt: skip
    case("empty zero point", lambda m: _set_init(m, "z", np.zeros(0, np.int8)),
         "0 zero points of type int8 for 1 scales")  # fmt: skip
    case("2^40 kernel", nothing, "'kernel_shape' holds an integer beyond",
         {"kernel_shape": [1 << 40, 1 << 40]})  # fmt: skip
    case("2^20 kernel", nothing, r"'kernel_shape' values must lie in \[1, 65536\]",
         {"kernel_shape": [1 << 20, 1 << 20]})  # fmt: skip
    case("window larger than the input", nothing, "window .* does not fit the padded input",
         {"kernel_shape": [9, 9]})  # fmt: skip
    case("missing kernel_shape", nothing, r"node 'pool' \(AveragePool\): needs kernel_shape", {})
    case("short kernel_shape", nothing, "'kernel_shape' needs 2 values", {"kernel_shape": [2]})
    case("short pads", nothing, "'pads' needs 4 values", {"kernel_shape": [2, 2], "pads": [1]})
    case("zero stride", nothing, r"'strides' values must lie in \[1",
         {"kernel_shape": [2, 2], "strides": [0, 1]})  # fmt: skip
    case("MaxPool without kernel_shape", nothing, r"node 'pool' \(MaxPool\): needs kernel_shape",
         {}, op="MaxPool")  # fmt: skip
    case("kernel_shape of the wrong type", nothing, "'kernel_shape' must be a list of integers",
         {"kernel_shape": 3})  # fmt: skip
    case("Transpose perm too short", nothing, r"perm \[1, 0\] is not a permutation of 4 axes",
         {"perm": [1, 0]}, op="Transpose")  # fmt: skip
    case("Concat without axis", nothing, r"node 'pool' \(Concat\): needs an axis", {},
         op="Concat")  # fmt: skip
    case("Concat axis out of range", nothing, "axis 7 is out of range for rank 4", {"axis": 7},
         op="Concat")  # fmt: skip

    def drop_inputs(m):
        del m.graph.node[1].input[1:]

    case("DequantizeLinear without its scale", drop_inputs,
         r"node 'dq0' \(DequantizeLinear\) has 1 inputs .* takes 2 to 3 inputs")  # fmt: skip

    def dq_axis_list(m):
        m.graph.node[1].attribute.append(helper.make_attribute("axis", [1, 2]))

    case("axis of the wrong type", dq_axis_list, "'axis' must be an integer")

    def no_outputs(m):
        del m.graph.output[:]

    case("no graph outputs", no_outputs, "the graph has no outputs")

    def cycle(m):
        m.graph.node[0].input[0] = "y"

    case("cycle", cycle, "undefined, or on a cycle")
    return cases


@pytest.mark.parametrize("target", ["stablehlo", "tosa"])
@pytest.mark.parametrize("data, message", _hostile_onnx())
def test_hostile_models_are_one_clear_error(data: bytes, message: str, target: str) -> None:
    """Malformed attributes, quantization parameters, arities and graphs are refused where
    they enter, with the node and field named, on both targets."""
    with pytest.raises(ONNXImportError, match=message):
        import_onnx(data, target)


def test_non_utf8_names_are_refused() -> None:
    data = _qdq_pool(kernel_shape=[2, 2]).SerializeToString().replace(b"pool", b"\xffool")
    with pytest.raises(ONNXImportError, match="is not valid UTF-8 text"):
        import_onnx(data)


def test_matrix_products_of_mismatched_shapes_are_named() -> None:
    a = helper.make_tensor_value_info("a", TensorProto.INT8, [2, 5])
    y = helper.make_empty_tensor_value_info("y")
    b = numpy_helper.from_array(np.ones((4, 3), np.int8), "b")
    data = model_of([helper.make_node("MatMulInteger", ["a", "b"], ["y"], name="mm")], [a], [y],
                    [b])  # fmt: skip
    with pytest.raises(ONNXImportError, match=r"node 'mm' \(MatMulInteger\): \[2, 5\] by \[4, 3\]"):
        import_onnx(data)


def test_an_unexpected_error_in_one_op_names_the_node(monkeypatch) -> None:
    """A residual importer bug inside one op's handler is reported naming that node."""
    from qdialect.importers.onnx_import import Importer

    def broken(self, node):
        raise IndexError("list index out of range")

    monkeypatch.setattr(Importer, "_op_AveragePool", broken)
    with pytest.raises(ONNXImportError, match=r"ONNX node 'pool' \(AveragePool\): unexpected "
                                              "IndexError"):  # fmt: skip
        import_onnx(_qdq_pool(kernel_shape=[2, 2]).SerializeToString())


def test_an_int8_zero_point_out_of_range_is_named_on_the_tosa_target() -> None:
    """An int32 zero point (allowed for biases) given to int8 data is refused by name."""
    m = onnx.load_from_string(onnx_models.quantized_cnn(qdq=False, per_channel=False))
    conv = next(n for n in m.graph.node if n.op_type == "QLinearConv")
    _set_init(m, conv.input[2], np.array(1000, np.int32))
    with pytest.raises(ONNXImportError, match="zero point 1000 of int8 data is out of range"):
        import_onnx(m.SerializeToString(), "tosa")


@pytest.mark.parametrize("target", ["stablehlo", "tosa"])
@pytest.mark.parametrize(
    "bias, message",
    [
        (np.full(8, 1 << 40, np.int64), "the bias must hold int32 values"),
        (np.zeros((2, 3), np.int32), r"a bias of shape \[2, 3\] for 8 channels"),
    ],
)
def test_conv_biases_that_do_not_fit_are_named(bias, message: str, target: str) -> None:
    m = onnx.load_from_string(onnx_models.quantized_cnn(qdq=False, per_channel=False))
    conv = next(n for n in m.graph.node if n.op_type == "QLinearConv")
    _set_init(m, conv.input[8], bias)
    with pytest.raises(ONNXImportError, match=message):
        import_onnx(m.SerializeToString(), target)


def test_an_int8_output_zero_point_out_of_range_is_named_on_the_tosa_target() -> None:
    m = onnx.load_from_string(onnx_models.quantized_cnn(qdq=False, per_channel=False))
    conv = next(n for n in m.graph.node if n.op_type == "QLinearConv")
    _set_init(m, conv.input[7], np.array(1000, np.int32))
    with pytest.raises(ONNXImportError, match=r"node 'QLinearConv_\d+' \(QLinearConv\): zero point "
                                              "1000 of int8 data is out of range"):  # fmt: skip
        import_onnx(m.SerializeToString(), "tosa")


def test_per_axis_scales_of_the_wrong_length_are_named() -> None:
    m = onnx.load_from_string(onnx_models.quantized_cnn(qdq=True, per_channel=True))
    dq = next(n for n in m.graph.node
              if n.op_type == "DequantizeLinear" and n.input[0] in {t.name for t in m.graph.initializer}
              and len(n.input) > 1)  # fmt: skip
    n = int(np.prod(next(t for t in m.graph.initializer if t.name == dq.input[1]).dims)) + 3
    _set_init(m, dq.input[1], np.full(n, 0.1, np.float32))
    _set_init(m, dq.input[2], np.zeros(n, np.int8))
    with pytest.raises(ONNXImportError, match=r"\(DequantizeLinear\): \d+ scales along axis 0"):
        import_onnx(m.SerializeToString())


def test_arity_is_checked_with_the_latest_schema_outside_the_opset() -> None:
    """opset 1 has no DequantizeLinear; its arity is still checked (by its latest schema)."""
    m = _qdq_pool(kernel_shape=[2, 2])
    del m.graph.node[1].input[1:]
    m.opset_import[0].version = 1
    with pytest.raises(ONNXImportError, match=r"node 'dq0' \(DequantizeLinear\) has 1 inputs"):
        import_onnx(m.SerializeToString())
