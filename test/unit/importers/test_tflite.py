"""TFLite import against LiteRT's reference kernels (the oracle): the TOSA interpreter and
the NPU simulator reproduce LiteRT's int8 outputs exactly; bad files are clear errors."""

from __future__ import annotations

import numpy as np
import pytest

litert = pytest.importorskip(
    "ai_edge_litert.interpreter", reason="ai-edge-litert (the oracle extra) is not installed"
)

from qdialect.context import make_context  # noqa: E402
from qdialect.dialects import tosa as tosa_dialect  # noqa: E402
from qdialect.dialects.npu import ProgramOp, program_binary  # noqa: E402
from qdialect.importers.tflite import (  # noqa: E402
    TFLiteImportError,
    host_dequantize,
    host_quantize,
    import_tflite,
)
from qdialect.interpreter import Interpreter  # noqa: E402
from qdialect.ir.parser import QParser  # noqa: E402
from qdialect.ir.printer import module_text  # noqa: E402
from qdialect.lowering.tosa_to_npu import TosaToNpu  # noqa: E402
from qdialect.models import tflite_builder as tb  # noqa: E402
from qdialect.npu.machine import load_machine  # noqa: E402
from qdialect.npu.simulator import Simulator, check_synchronization  # noqa: E402
from qdialect.tools import qimport  # noqa: E402


def imported(model: bytes):
    """The imported module as `qimport` writes it (with locations), parsed back: every
    model checks that the printed form reads back."""
    return QParser(make_context(), module_text(import_tflite(model), debuginfo=True)).parse_module()


def litert_run(model: bytes, x: np.ndarray) -> np.ndarray:
    it = litert.Interpreter(
        model_content=model, experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF
    )
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])


def inputs(shape, count: int) -> list[np.ndarray]:
    return [
        np.random.default_rng(k).integers(-128, 128, shape).astype(np.int8) for k in range(count)
    ]


NPU_MODELS = ["mobilenet_like", "mobilenet_avgpool", "mixed_ops", "activations", "mlp"]
MODELS = [*NPU_MODELS, "classifier"]  # the classifier ends in SOFTMAX, which the NPU lacks


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", MODELS)
def test_tosa_program_matches_litert(name: str, seed: int) -> None:
    model, shape = tb.quantized(name, seed)
    module = imported(model)
    module.verify()
    for x in inputs(shape, 8):
        want = litert_run(model, x)
        assert len(np.unique(want)) > 3  # not a saturated, uninformative output
        assert np.array_equal(Interpreter(module).call("main", [x])[0], want)


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize("name", NPU_MODELS)
def test_npu_matches_litert(name: str, machine: str) -> None:
    model, shape = tb.quantized(name, 4)
    ctx = make_context()
    module = imported(model)
    TosaToNpu(machine=machine).apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    desc = load_machine(machine)
    binary = program_binary(program, desc.digest())
    out = binary.outputs[0]
    for x in inputs(shape, 2):

        def setup(sim, x=x) -> None:
            sim.load_sections(binary)
            sim.set_inputs(binary, {"arg0": x})

        raw = check_synchronization(desc, binary.code, setup, [(out.address, out.nbytes)], orders=2)
        assert np.array_equal(np.frombuffer(raw, np.int8).reshape(out.shape), litert_run(model, x))


def test_fully_connected_rounds_once_in_litert() -> None:
    """The measured fact behind the importer's SINGLE_ROUND for FULLY_CONNECTED: with
    TFLite's double rounding the MLP differs from LiteRT's reference kernel."""
    model, shape = tb.quantized("mlp", 1)
    text = module_text(import_tflite(model))
    assert "SINGLE_ROUND" in text
    double = QParser(make_context(), text.replace("SINGLE_ROUND", "DOUBLE_ROUND")).parse_module()
    differing = sum(
        int((Interpreter(double).call("main", [x])[0] != litert_run(model, x)).sum())
        for x in inputs(shape, 20)
    )
    assert differing > 0


def calibrated(model: bytes, shape, **options) -> bytes:
    rng = np.random.default_rng(0)
    samples = [rng.normal(size=shape).astype(np.float32) for _ in range(8)]
    return tb.quantize(model, samples, **options)


def test_per_tensor_dense_layers_match_litert() -> None:
    model, shape = tb.mlp(3)
    quantized = calibrated(model, shape, per_channel_dense=False)
    module = imported(quantized)
    for x in inputs(shape, 8):
        assert np.array_equal(Interpreter(module).call("main", [x])[0], litert_run(quantized, x))


def unsupported_model(*, abs_between: bool = False) -> bytes:
    """CONV_2D -> LEAKY_RELU; with `abs_between`, then ABS and LEAKY_RELU again (two
    unsupported kinds, one of them twice)."""
    from ai_edge_litert import schema_py_generated as s

    f = tb.FloatModel(np.random.default_rng(0))
    x = f.tensor((1, 4, 4, 3))
    y = f.conv(x, 4, 3)
    options = s.LeakyReluOptionsT()
    options.alpha = 0.1
    leaky = lambda y: f.op(s.BuiltinOperator.LEAKY_RELU, [y], (1, 4, 4, 4),  # noqa: E731
                           s.BuiltinOptions.LeakyReluOptions, options)  # fmt: skip
    y = leaky(y)
    if abs_between:
        y = leaky(f.op(s.BuiltinOperator.ABS, [y], (1, 4, 4, 4)))
    return tb.quantize(f.finish([x], [y]), [np.ones((1, 4, 4, 3), np.float32)])


@pytest.mark.parametrize(
    "data, message",
    [
        (b"not a model at all", "no 'TFL3' identifier"),
        (tb.quantized("mlp")[0][:400], "malformed TFLite flatbuffer"),
        (
            unsupported_model(),
            r"1 unsupported operator type:\n  LEAKY_RELU: 1 operator, first operator 1 \('t4'\)$",
        ),
    ],
)
def test_bad_models_are_clear_errors(data: bytes, message: str) -> None:
    with pytest.raises(TFLiteImportError, match=message):
        import_tflite(data)


def test_every_unsupported_operator_is_named_before_importing() -> None:
    """One error lists each unsupported kind with its count and its first operator
    (index and output tensor), so one run tells all that is missing."""
    with pytest.raises(TFLiteImportError) as info:
        import_tflite(unsupported_model(abs_between=True))
    assert str(info.value) == (
        "2 unsupported operator types:\n"
        "  ABS: 1 operator, first operator 2 ('t5')\n"
        "  LEAKY_RELU: 2 operators, first operator 1 ('t4')"
    )


def test_every_op_is_located_at_a_tensor_of_the_model() -> None:
    """Each op carries `loc("name")` of its operator's first output tensor (the boundary
    shifts of uint8 models, of the tensor they convert), and survives printing and parsing
    back; the arguments carry the input tensors' names."""
    from ai_edge_litert import schema_py_generated as s
    from xdsl.dialects import func
    from xdsl.dialects.builtin import NameLoc

    for model in (calibrated(*tb.mobilenet_like(6), io_type=np.uint8),
                  tb.quantized("classifier")[0], tb.quantized("mixed_ops")[0]):  # fmt: skip
        graph = s.ModelT.InitFromPackedBuf(model, 0).subgraphs[0]
        names = [t.name.decode() for t in graph.tensors]
        outputs = {names[int(op.outputs[0])] for op in graph.operators}
        (function,) = imported(model).body.block.ops
        ops = [op for op in function.body.block.ops if not isinstance(op, func.ReturnOp)]
        located = {op.location.desc.data for op in ops if isinstance(op.location, NameLoc)}
        assert len(located) > 3 and all(isinstance(op.location, NameLoc) for op in ops)
        assert located <= set(names) and len(located & outputs) > 3
        args = [a.location.desc.data for a in function.body.block.args]
        assert args == [names[int(i)] for i in graph.inputs]


def test_absurd_shapes_and_short_buffers_are_refused() -> None:
    from ai_edge_litert import schema_py_generated as s

    model, _ = tb.quantized("mlp")
    for edit, message in [
        (lambda m: setattr(m.subgraphs[0].tensors[3], "shape", [1 << 20, 1 << 20]), "declares"),
        (lambda m: setattr(m.buffers[m.subgraphs[0].tensors[1].buffer], "data", np.zeros(5, np.uint8)), "buffer of 5 bytes"),
    ]:  # fmt: skip
        m = s.ModelT.InitFromPackedBuf(model, 0)
        edit(m)
        import flatbuffers

        b = flatbuffers.Builder(1024)
        b.Finish(m.Pack(b), file_identifier=b"TFL3")
        with pytest.raises(TFLiteImportError, match=message):
            import_tflite(bytes(b.Output()))


def test_qimport_cli(tmp_path, capsys) -> None:
    model, _ = tb.quantized("mobilenet_like")
    path = tmp_path / "m.tflite"
    path.write_bytes(model)
    assert qimport.main([str(path), "-o", str(tmp_path / "m.mlir")]) == 0
    text = (tmp_path / "m.mlir").read_text()
    assert "tosa.depthwise_conv2d" in text and "func.func @main" in text
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(model[:200])
    assert qimport.main([str(bad)]) == 1
    assert "qimport: error:" in capsys.readouterr().err


def test_average_pool_matches_litert_at_ties() -> None:
    """LiteRT's AVERAGE_POOL_2D divides with rounding half away from zero; TOSA's
    avg_pool2d multiplies by reciprocal_scale, whose multiplier is a little over
    2^30 * 2^k / count, enough to push exact halves away from zero too. Four taps:
    windows whose sum is 2 (mod 4) are ties, of either sign, and still agree."""
    f = tb.FloatModel(np.random.default_rng(0))
    x = f.tensor((1, 8, 8, 4))
    y = f.avg_pool(x, 2, 2)
    rng = np.random.default_rng(1)
    model = tb.quantize(f.finish([x], [y]), [rng.normal(size=(1, 8, 8, 4)).astype(np.float32)])
    module = imported(model)
    ties = {"negative": 0, "positive": 0}
    for data in inputs((1, 8, 8, 4), 10):
        want = litert_run(model, data)
        assert np.array_equal(Interpreter(module).call("main", [data])[0], want)
        sums = data.astype(np.int64).reshape(1, 4, 2, 4, 2, 4).sum(axis=(2, 4))
        ties["negative"] += int(((sums < 0) & (sums % 4 == 2)).sum())
        ties["positive"] += int(((sums > 0) & (sums % 4 == 2)).sum())
    assert min(ties.values()) > 0  # both kinds of tie occurred


@pytest.mark.parametrize("uint8", [False, True], ids=["int8", "uint8"])
@pytest.mark.parametrize("op", ["LOGISTIC", "TANH", "HARD_SWISH"])
def test_activation_tables_match_litert_on_every_input(op: str, uint8: bool) -> None:
    """All 256 inputs, for input ranges from narrow to wide and off-centre; int8, and the
    legacy uint8 form (LiteRT's uint8 kernels)."""
    from ai_edge_litert import schema_py_generated as s

    every = np.arange(-128, 128, dtype=np.int8).reshape(1, 16, 16, 1)
    for std, mean in [(0.3, 0.0), (1.5, -2.0), (6.0, 1.5), (12.0, 0.0)]:
        f = tb.FloatModel(np.random.default_rng(0))
        x = f.tensor((1, 16, 16, 1))
        y = f.op(getattr(s.BuiltinOperator, op), [x], (1, 16, 16, 1))
        rng = np.random.default_rng(1)
        samples = [rng.normal(mean, std, (1, 16, 16, 1)).astype(np.float32) for _ in range(4)]
        model = tb.quantize(f.finish([x], [y]), samples)
        if uint8:
            model = tb.legacy_uint8(model)
        module = imported(model)
        fed = every.view(np.uint8) if uint8 else every
        got = Interpreter(module).call("main", [every])[0]
        assert np.array_equal(got.view(np.uint8) if uint8 else got, litert_run(model, fed))


def test_float_boundaries_are_peeled_and_documented() -> None:
    """A model with float input and output (QUANTIZE in, DEQUANTIZE out): the function
    takes and returns int8, its attributes give the conversions, and quantizing on the
    host, running the function and dequantizing on the host reproduces LiteRT's floats."""
    model, shape = tb.mobilenet_like(5)
    quantized = calibrated(model, shape, io_type=np.float32)
    module = imported(quantized)
    func = next(iter(module.body.block.ops))
    arg = func.arg_attrs.data[0].data["qdialect.quantize"]
    res = func.res_attrs.data[0].data["qdialect.dequantize"]
    (s_in, z_in), (s_out, z_out) = ((a.value.data for a in attr.data) for attr in (arg, res))
    for k in range(6):
        x = np.random.default_rng(k).normal(0, 2, shape).astype(np.float32)
        want = litert_run(quantized, x)
        got = Interpreter(module).call("main", [host_quantize(x, s_in, z_in)])[0]
        assert np.array_equal(host_dequantize(got, s_out, z_out), want)


@pytest.mark.parametrize("machine", [None, "default", "small"])
def test_uint8_models_match_litert(machine: str | None) -> None:
    """uint8 input and output (QUANTIZE uint8 <-> int8 at the edges): TOSA keeps the uint8
    bits in i8 with unsigned rescales; the NPU applies them as byte tables."""
    model, shape = tb.mobilenet_like(6)
    quantized = calibrated(model, shape, io_type=np.uint8)
    text = module_text(import_tflite(quantized))
    assert "{qdialect.uint8}" in text and "input_unsigned(true)" in text
    ctx = make_context()
    module = imported(quantized)
    run = lambda x: Interpreter(module).call("main", [x])[0]  # noqa: E731
    if machine is not None:
        TosaToNpu(machine=machine).apply(ctx, module)
        (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
        desc = load_machine(machine)
        binary = program_binary(program, desc.digest())

        def run(x):
            sim = Simulator(desc, binary.code)
            sim.load_sections(binary)
            sim.set_inputs(binary, {"arg0": x})
            sim.run()
            return sim.get_outputs(binary)["result0"]

    for k in range(4):
        x = np.random.default_rng(k).integers(0, 256, shape).astype(np.uint8)
        assert np.array_equal(run(x.view(np.int8)).view(np.uint8), litert_run(quantized, x))


def random_tflite(seed: int) -> tuple[bytes, tuple[int, ...]]:
    """A random float chain (convolutions, depthwise, activations, residual adds, pools,
    MEAN or a classifier head), quantized by LiteRT."""
    rng = np.random.default_rng(seed)
    f = tb.FloatModel(rng)
    hw, c = int(rng.integers(4, 10)), int(rng.choice([2, 4, 8]))
    x = f.tensor((1, hw, hw, c))
    y = x
    for _ in range(int(rng.integers(2, 6))):
        _, h, w, ch = f.shapes[y]
        kind = rng.choice(["conv", "depthwise", "residual", "pool", "act"])
        act = str(rng.choice(["NONE", "RELU", "RELU6"]))
        if kind == "conv":
            stride = int(rng.choice([1, 2])) if h > 2 else 1
            y = f.conv(y, int(rng.choice([4, 8, 12])), int(rng.choice([1, 3])), stride, act)
        elif kind == "depthwise":
            y = f.conv(y, ch * int(rng.choice([1, 2])), 3, act=act, depthwise=True)
        elif kind == "residual":
            y = f.add(f.conv(y, ch, 3), y, act=act)
        elif kind == "pool" and h >= 2:
            y = f.max_pool(y, 2, 2) if rng.integers(0, 2) else f.avg_pool(y, 2, 1, "SAME")
        else:
            y = f.activation(y, str(rng.choice(["RELU", "RELU6"])))
    _, h, w, ch = f.shapes[y]
    if rng.integers(0, 2):
        y = f.mean(y, [1, 2])
    else:
        y = f.dense(f.reshape(y, (1, h * w * ch)), 6)
    return calibrated(f.finish([x], [y]), (1, hw, hw, c)), (1, hw, hw, c)


@pytest.mark.parametrize("seed", range(8))
def test_random_models_match_litert_on_the_npu(seed: int) -> None:
    model, shape = random_tflite(seed)
    module = imported(model)
    ctx = make_context()
    compiled = imported(model)
    TosaToNpu(machine="default").apply(ctx, compiled)
    (program,) = [op for op in compiled.walk() if isinstance(op, ProgramOp)]
    desc = load_machine("default")
    binary = program_binary(program, desc.digest())
    for x in inputs(shape, 2):
        want = litert_run(model, x)
        assert np.array_equal(Interpreter(module).call("main", [x])[0], want)
        sim = Simulator(desc, binary.code)
        sim.load_sections(binary)
        sim.set_inputs(binary, {"arg0": x})
        sim.run()
        assert np.array_equal(sim.get_outputs(binary)["result0"], want)


# ---- SOFTMAX ---------------------------------------------------------------------------


def softmax_model(shape: tuple[int, ...], beta: float, spread: float) -> bytes:
    """A model that is one SOFTMAX of its int8 input; `spread` sets the input scale."""
    f = tb.FloatModel(np.random.default_rng(0))
    x = f.tensor(shape)
    y = f.softmax(x, beta)
    rng = np.random.default_rng(1)
    return tb.quantize(f.finish([x], [y]), [spread * rng.normal(size=shape) for _ in range(4)])


def softmax_program(model: bytes):
    module = imported(model)
    module.verify()
    return module


@pytest.mark.parametrize("beta, spread", [(1.0, 1.0), (1.0, 0.02), (0.5, 40.0), (2.0, 3.0)])
def test_softmax_matches_litert_on_every_pair(beta: float, spread: float) -> None:
    """All 65,536 two-entry rows, and random three-entry rows, at input scales from where
    every difference counts to where most fall below diff_min."""
    pairs = np.stack(np.meshgrid(np.arange(-128, 128), np.arange(-128, 128)), -1).reshape(-1, 2)
    for x in (pairs.astype(np.int8),
              np.random.default_rng(2).integers(-128, 128, (4096, 3)).astype(np.int8)):  # fmt: skip
        model = softmax_model(x.shape, beta, spread)
        want = litert_run(model, x)
        assert len(np.unique(want)) > 10
        assert np.array_equal(Interpreter(softmax_program(model)).call("main", [x])[0], want)


@pytest.mark.parametrize("shape", [(3, 1000), (2, 4095), (1, 4, 4, 8), (5, 1)])
def test_softmax_wide_and_high_rank_rows_match_litert(shape: tuple[int, ...]) -> None:
    model = softmax_model(shape, 1.0, 1.0)
    module = softmax_program(model)
    rng = np.random.default_rng(3)
    for x in (rng.integers(-128, 128, shape), np.clip(rng.normal(0, 25, shape), -128, 127),
              np.full(shape, 7)):  # fmt: skip
        x = x.astype(np.int8)
        if shape[-1] >= 512 and (x == x.max(-1, keepdims=True)).all():
            continue  # LiteRT aborts on such rows (see the next test)
        assert np.array_equal(Interpreter(module).call("main", [x])[0], litert_run(model, x))


def test_softmax_is_tosa_an_integer_target_accepts() -> None:
    """The fixed-point softmax bounds its i32 steps with maximum/minimum (TOSA's CLAMP has
    no i32 mode), so the import validates for an integer-profile target."""
    from qdialect.transforms.tosa_validate import TosaValidate

    module = softmax_program(softmax_model((3, 40), 1.0, 1.0))
    assert not any(isinstance(op, tosa_dialect.ClampOp) and "i32" in str(op.output.type)
                   for op in module.walk())  # fmt: skip
    TosaValidate(profile=("pro_int",), extension=("doubleround",)).apply(make_context(), module)


def test_softmax_rows_where_litert_aborts_round_exactly() -> None:
    """A row whose exponentials sum to 2^28 or more (512 entries tied at the maximum) makes
    LiteRT's final shift exceed 31, and its reference kernel stops on an assertion. The
    import rounds the kernel's fixed-point quotient exactly: it is below 2^31 over a divisor
    of at least 2^32 (1/512 of 256 steps is 0.5, and the Q0.31 exp(0) is just under one),
    so below half a step, and every output is the zero point."""
    for depth in (512, 1000):
        x = np.full((2, depth), 9, np.int8)
        x[1, :] = -128
        out = Interpreter(softmax_program(softmax_model((2, depth), 1.0, 1.0))).call("main", [x])
        assert np.array_equal(out[0], np.full((2, depth), -128))


def test_softmax_limits_are_clear_errors() -> None:
    from ai_edge_litert import schema_py_generated as s

    with pytest.raises(TFLiteImportError, match=r"SOFTMAX.*4096 entries can overflow"):
        import_tflite(softmax_model((1, 4096), 1.0, 1.0))
    m = s.ModelT.InitFromPackedBuf(softmax_model((2, 8), 1.0, 1.0), 0)
    out = m.subgraphs[0].outputs[0]
    m.subgraphs[0].tensors[out].quantization.zeroPoint = [0]
    import flatbuffers

    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    with pytest.raises(TFLiteImportError, match="scale 1/256 and zero point -128"):
        import_tflite(bytes(b.Output()))


def test_softmax_stops_the_npu_lowering_with_the_op_named() -> None:
    ctx = make_context()
    module = imported(tb.quantized("classifier")[0])
    with pytest.raises(Exception, match=r"tosa-to-npu: 'tosa.reduce_max' is not supported"):
        TosaToNpu().apply(ctx, module)


@pytest.mark.parametrize("name", MODELS)
def test_legacy_uint8_models_match_litert(name: str) -> None:
    """uint8 inner layers — the legacy asymmetric form of each int8 test model, which
    LiteRT runs with its uint8 kernels. The importer holds every uint8 tensor in int8
    form (value and zero point minus 128, so q - zp is unchanged) and shifts at the
    function's boundary; on the interpreter and, for the NPU models, the simulator."""
    int8_model, shape = tb.quantized(name, 1)
    model = tb.legacy_uint8(int8_model)
    text = module_text(import_tflite(model))
    assert "{qdialect.uint8}" in text
    ctx = make_context()
    module = imported(model)
    inputs_u8 = [
        np.random.default_rng(k).integers(0, 256, shape).astype(np.uint8) for k in range(4)
    ]
    for x in inputs_u8:
        got = Interpreter(module).call("main", [x.view(np.int8)])[0]
        assert np.array_equal(got.view(np.uint8), litert_run(model, x))
    if name not in NPU_MODELS:
        return
    TosaToNpu().apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    desc = load_machine("default")
    binary = program_binary(program, desc.digest())
    for x in inputs_u8[:2]:
        sim = Simulator(desc, binary.code)
        sim.load_sections(binary)
        sim.set_inputs(binary, {"arg0": x.view(np.int8)})
        sim.run()
        assert np.array_equal(
            sim.get_outputs(binary)["result0"].view(np.uint8), litert_run(model, x)
        )


# ---- hostile models: each malformed field is one TFLiteImportError naming it -------------


def _edited(edit) -> bytes:
    """mobilenet_like (0 CONV_2D, 1 DEPTHWISE_CONV_2D, 2 CONV_2D, 3 ADD, 4 MAX_POOL_2D,
    5 RESHAPE, 6 FULLY_CONNECTED) with `edit` applied to its object tree."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as s

    m = s.ModelT.InitFromPackedBuf(tb.quantized("mobilenet_like")[0], 0)
    edit(m, m.subgraphs[0], s)
    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def _quant(g, index: int):
    return g.tensors[index].quantization


def _hostile_tflite() -> list:
    def op_options(n, field, value):
        return lambda m, g, s: setattr(g.operators[n].builtinOptions, field, value)

    cases = {
        "opcode index out of range": (lambda m, g, s: setattr(g.operators[2], "opcodeIndex", 99),
                                      "operator 2 names operator code 99"),
        "input index out of range": (lambda m, g, s: setattr(g.operators[3], "inputs", [9, 1000]),
                                     "operator 3 names tensor 1000 of 16"),
        "buffer index out of range": (lambda m, g, s: setattr(g.tensors[4], "buffer", 10**6),
                                      "tensor 4 names buffer 1000000"),
        "wrong builtin options": (
            lambda m, g, s: setattr(g.operators[0], "builtinOptionsType",
                                    s.BuiltinOptions.Pool2DOptions),
            r"operator 0 \(CONV_2D\): has builtin options Pool2DOptions, expected Conv2DOptions"),
        "no builtin options": (
            lambda m, g, s: (setattr(g.operators[4], "builtinOptionsType", 0),
                             setattr(g.operators[4], "builtinOptions", None)),
            r"operator 4 \(MAX_POOL_2D\): has builtin options none"),
        "zero stride": (op_options(0, "strideW", 0), "option strideW = 0 is outside"),
        "huge filter": (op_options(4, "filterHeight", 1 << 30), "option filterHeight = 1073741824"),
        "huge shape": (lambda m, g, s: setattr(g.tensors[6], "shape", [1, 1 << 20, 1 << 20, 24]),
                       "tensor 6 declares"),
        "scales of the wrong length": (
            lambda m, g, s: setattr(_quant(g, 1), "scale", [0.1] * 23),
            "tensor 1: 23 zero points for 24 scales|tensor 1: 24 zero points for 23 scales"),
        "scales along a short axis": (
            lambda m, g, s: (setattr(_quant(g, 1), "scale", [0.1] * 3),
                             setattr(_quant(g, 1), "zeroPoint", [0] * 3)),
            r"tensor 1: 3 scales along axis 0 of shape \[24, 1, 1, 8\]"),
        "zero scale": (lambda m, g, s: setattr(_quant(g, 3), "scale", [0.0]),
                       "tensor 3: scales must be finite and positive"),
        "NaN scale": (lambda m, g, s: setattr(_quant(g, 3), "scale", [float("nan")]),
                      "tensor 3: scales must be finite and positive"),
        "negative scale": (lambda m, g, s: setattr(_quant(g, 9), "scale", [-0.5]),
                           "tensor 9: scales must be finite and positive"),
        "empty zero points": (lambda m, g, s: setattr(_quant(g, 3), "zeroPoint", []),
                              "tensor 3: 0 zero points for 1 scales"),
        "zero point out of range": (lambda m, g, s: setattr(_quant(g, 3), "zeroPoint", [1000]),
                                    r"tensor 3: zero points \[1000\] outside \[-128, 127\]"),
        "no model outputs": (lambda m, g, s: setattr(g, "outputs", []), "the model has no outputs"),
        "operator without outputs": (lambda m, g, s: setattr(g.operators[5], "outputs", []),
                                     "operator 5 has no outputs"),
        "too few inputs": (lambda m, g, s: setattr(g.operators[3], "inputs", [9]),
                           r"operator 3 \(ADD\): takes 2 inputs, got \[9\]"),
        "declared shape that does not fit": (
            lambda m, g, s: setattr(g.tensors[9], "shape", [1, 8, 5, 8]),
            r"operator 2 \(CONV_2D\): the model's shapes do not fit"),
    }  # fmt: skip
    return [pytest.param(edit, message, id=label) for label, (edit, message) in cases.items()]


@pytest.mark.parametrize("edit, message", _hostile_tflite())
def test_hostile_models_are_one_clear_error(edit, message: str) -> None:
    """Indices, option tables, window fields, shapes and quantization parameters are
    checked where they enter, each error naming the operator or tensor."""
    with pytest.raises(TFLiteImportError, match=message):
        import_tflite(_edited(edit))


def test_an_unexpected_error_in_one_operator_names_it(monkeypatch) -> None:
    from qdialect.importers import tflite

    def broken(self, op, kind):
        raise KeyError("oops")

    monkeypatch.setattr(tflite._Importer, "_op_max_pool_2d", broken)
    with pytest.raises(TFLiteImportError,
                       match=r"TFLite operator 4 \(MAX_POOL_2D\): unexpected KeyError"):  # fmt: skip
        import_tflite(tb.quantized("mobilenet_like")[0])


def test_a_filter_of_the_wrong_rank_is_named() -> None:
    def edit(m, g, s):
        g.tensors[4].shape = [1, 3, 72]
        g.tensors[4].quantization.scale, g.tensors[4].quantization.zeroPoint = [0.01], [0]

    data = _edited(edit)
    with pytest.raises(TFLiteImportError, match=r"operator 1 \(DEPTHWISE_CONV_2D\): .*wrong ranks"):
        import_tflite(data)


def test_biases_and_filters_that_do_not_fit_are_named() -> None:
    data = _edited(lambda m, g, s: setattr(g.operators[6], "inputs", [12, 13, 8]))
    with pytest.raises(TFLiteImportError,
                       match=r"operator 6 \(FULLY_CONNECTED\): 8 bias values for 10 output"):  # fmt: skip
        import_tflite(data)
    from qdialect.importers.tflite import _Importer

    for kind, x, w, n_out in [("CONV_2D", (1, 8, 8, 8), (24, 1, 1, 7), 24),
                              ("DEPTHWISE_CONV_2D", (1, 8, 8, 5), (1, 3, 3, 24), 24),
                              ("FULLY_CONNECTED", (1, 127), (10, 128), 10)]:  # fmt: skip
        with pytest.raises(TFLiteImportError, match="does not fit input"):
            _Importer._filter_fits(kind, x, w, n_out)


def test_a_float_output_from_an_operator_without_inputs_is_named() -> None:
    """The DEQUANTIZE that makes a float output, without inputs: not peeled off (DEQUANTIZE
    inside the graph is unsupported), and named."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as s

    m = s.ModelT.InitFromPackedBuf(calibrated(*tb.mlp(0), io_type=np.float32), 0)
    g = m.subgraphs[0]
    last = len(g.operators) - 1
    g.operators[last].inputs = []
    b = flatbuffers.Builder(1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    with pytest.raises(TFLiteImportError, match=rf"DEQUANTIZE: 1 operator, first operator {last}"):
        import_tflite(bytes(b.Output()))
