"""`tosa-to-npu` as a whole: the NPU simulator's output equals the TOSA interpreter's.

Also the TOSA programs the lowering's tests share (MLPs, convolutions, pools,
random networks, the small ResNet block): the per-stage tests
(test_npu_graph.py, test_npu_plan.py, test_npu_window.py, ...) and the golden
digests (test_tosa_to_npu_golden.py) compile these same cases.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.func import FuncOp
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect import numerics
from qdialect.context import make_context
from qdialect.dialects import tosa as tosa_dialect
from qdialect.dialects.npu import ProgramOp, program_binary
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.lowering.npu_assemble import assemble_program
from qdialect.lowering.npu_emit import emit_program
from qdialect.lowering.npu_graph import form_layers
from qdialect.lowering.npu_plan import plan_program
from qdialect.lowering.tosa_to_npu import TosaToNpu
from qdialect.models import networks
from qdialect.npu.machine import load_machine
from qdialect.npu.simulator import Simulator, check_synchronization
from qdialect.transforms.legalize_to_tosa import LegalizeToTosa
from unit.transforms import test_legalize_to_tosa as legalize_cases

INPUTS = Path(__file__).parents[2] / "filecheck" / "lowering" / "Inputs"


def dense(a: np.ndarray) -> str:
    return f"dense<{a.tolist()}>"


def fc_layer(name: str, x: str, m: int, k: int, n: int, rng, relu: bool) -> tuple[str, str]:
    w = rng.integers(-127, 128, (1, k, n)).astype(np.int8)
    zp_x, zp_out = int(rng.integers(-20, 20)), int(rng.integers(-10, 10))
    scales = rng.uniform(0.5, 2.0, n) / (k * 64)
    mult, shift = zip(*(numerics.quantize_multiplier(float(s)) for s in scales), strict=True)
    body = (
        f"  %{name}_w = tosa.const values({dense(w)} : tensor<1x{k}x{n}xi8>) : () -> tensor<1x{k}x{n}xi8>\n"
        f"  %{name}_s1 = tosa.const_shape values(dense<[1, {m}, {k}]> : tensor<3xindex>) : () -> !tosa.shape<3>\n"
        f"  %{name}_a = tosa.reshape %{x}, %{name}_s1 : (tensor<{m}x{k}xi8>, !tosa.shape<3>) -> tensor<1x{m}x{k}xi8>\n"
        f"  %{name}_za = tosa.const values(dense<{zp_x}> : tensor<1xi8>) : () -> tensor<1xi8>\n"
        f"  %{name}_zb = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>\n"
        f"  %{name}_acc = tosa.matmul %{name}_a, %{name}_w, %{name}_za, %{name}_zb : (tensor<1x{m}x{k}xi8>, tensor<1x{k}x{n}xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x{m}x{n}xi32>\n"
        f"  %{name}_s2 = tosa.const_shape values(dense<[{m}, {n}]> : tensor<2xindex>) : () -> !tosa.shape<2>\n"
        f"  %{name}_acc2 = tosa.reshape %{name}_acc, %{name}_s2 : (tensor<1x{m}x{n}xi32>, !tosa.shape<2>) -> tensor<{m}x{n}xi32>\n"
        f"  %{name}_m = tosa.const values({dense(np.array(mult))} : tensor<{n}xi32>) : () -> tensor<{n}xi32>\n"
        f"  %{name}_sh = tosa.const values({dense(np.array(shift))} : tensor<{n}xi8>) : () -> tensor<{n}xi8>\n"
        f"  %{name}_iz = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>\n"
        f"  %{name}_oz = tosa.const values(dense<{zp_out}> : tensor<1xi8>) : () -> tensor<1xi8>\n"
        f"  %{name}_r = tosa.rescale %{name}_acc2, %{name}_m, %{name}_sh, %{name}_iz, %{name}_oz scale32(true) "
        f"rounding_mode<DOUBLE_ROUND> per_channel(true) input_unsigned(false) output_unsigned(false) : "
        f"(tensor<{m}x{n}xi32>, tensor<{n}xi32>, tensor<{n}xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<{m}x{n}xi8>\n"
    )
    out = f"{name}_r"
    if relu:
        body += f"  %{name}_c = tosa.clamp %{name}_r min_val({zp_out} : i8) max_val(127 : i8) : (tensor<{m}x{n}xi8>) -> tensor<{m}x{n}xi8>\n"
        out = f"{name}_c"
    return body, out


def mlp(m: int, sizes: list[int], seed: int) -> str:
    rng = np.random.default_rng(seed)
    body, x = "", "x"
    for i in range(len(sizes) - 1):
        text, x = fc_layer(f"l{i}", x, m, sizes[i], sizes[i + 1], rng, relu=i < len(sizes) - 2)
        body += text
    return (
        f"func.func @main(%x: tensor<{m}x{sizes[0]}xi8>) -> tensor<{m}x{sizes[-1]}xi8> {{\n{body}"
        f"  func.return %{x} : tensor<{m}x{sizes[-1]}xi8>\n}}"
    )


def compile_and_run(src: str, machine_name: str, *xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ctx = make_context()
    reference = QParser(ctx, src).parse_module()
    reference.verify()
    want = Interpreter(reference).call("main", list(xs))[0]
    module = QParser(ctx, src).parse_module()
    TosaToNpu(machine=machine_name).apply(ctx, module)
    module.verify()
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    machine = load_machine(machine_name)
    binary = program_binary(program, machine.digest())

    def setup(sim: Simulator) -> None:
        sim.load_sections(binary)
        sim.set_inputs(binary, {f"arg{i}": x for i, x in enumerate(xs)})

    out = binary.outputs[0]
    raw = check_synchronization(machine, binary.code, setup, [(out.address, out.nbytes)], orders=3)
    got = np.frombuffer(raw, np.int8).reshape(out.shape)
    return got, want


def conv_program(h, w, c, cout, k, stride, pad, seed, relu=True, dilation=(1, 1),
                 depthwise=0, zp_w=0) -> str:  # fmt: skip
    """One TOSA convolution layer (depthwise with multiplier `depthwise` when non-zero),
    its per-channel rescale to i8 and optionally a ReLU clamp."""
    rng = np.random.default_rng(seed)
    sh, sw = (stride, stride) if isinstance(stride, int) else stride
    if depthwise:
        cout = c * depthwise
        w_shape = (k, k, c, depthwise)
    else:
        w_shape = (cout, k, k, c)
    lo, hi = (-128 + max(zp_w, 0), 127 + min(zp_w, 0))  # w - zp_w fits int8
    weights = rng.integers(lo, hi + 1, w_shape).astype(np.int8)
    bias = rng.integers(-2000, 2000, cout)
    zp_x, zp_out = int(rng.integers(-20, 20)), int(rng.integers(-10, 10))
    oh = (h + pad[0] + pad[1] - (k - 1) * dilation[0] - 1) // sh + 1
    ow = (w + pad[2] + pad[3] - (k - 1) * dilation[1] - 1) // sw + 1
    pad, x_in, x_t = _exact_window((h, w, c), (k, k), (sh, sw), pad, dilation)
    x_name = "%x_exact" if x_in else "%x"
    fan_in = k * k * (1 if depthwise else c)
    scales = rng.uniform(0.5, 2.0, cout) / (fan_in * 64)
    mult, shift = zip(*(numerics.quantize_multiplier(float(s)) for s in scales), strict=True)
    out_t = f"tensor<1x{oh}x{ow}x{cout}xi8>"
    w_t = f"tensor<{'x'.join(map(str, w_shape))}xi8>"
    op = "tosa.depthwise_conv2d" if depthwise else "tosa.conv2d"
    clamp = (
        f"  %c = tosa.clamp %r min_val({zp_out} : i8) max_val(127 : i8) : ({out_t}) -> {out_t}\n"
        if relu
        else ""
    )
    return (
        f"func.func @main(%x: tensor<1x{h}x{w}x{c}xi8>) -> {out_t} {{\n"
        f"{x_in}"
        f"  %w = tosa.const values({dense(weights)} : {w_t}) : () -> {w_t}\n"
        f"  %b = tosa.const values({dense(bias)} : tensor<{cout}xi32>) : () -> tensor<{cout}xi32>\n"
        f"  %zx = tosa.const values(dense<{zp_x}> : tensor<1xi8>) : () -> tensor<1xi8>\n"
        f"  %zw = tosa.const values(dense<{zp_w}> : tensor<1xi8>) : () -> tensor<1xi8>\n"
        f"  %acc = {op} {x_name}, %w, %b, %zx, %zw pad({list(pad)}) stride([{sh}, {sw}]) dilation({list(dilation)}) acc_type(i32)  : "
        f"({x_t}, {w_t}, tensor<{cout}xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x{oh}x{ow}x{cout}xi32>\n"
        f"  %m = tosa.const values({dense(np.array(mult))} : tensor<{cout}xi32>) : () -> tensor<{cout}xi32>\n"
        f"  %s = tosa.const values({dense(np.array(shift))} : tensor<{cout}xi8>) : () -> tensor<{cout}xi8>\n"
        f"  %iz = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>\n"
        f"  %oz = tosa.const values(dense<{zp_out}> : tensor<1xi8>) : () -> tensor<1xi8>\n"
        f"  %r = tosa.rescale %acc, %m, %s, %iz, %oz scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(true) "
        f"input_unsigned(false) output_unsigned(false) : (tensor<1x{oh}x{ow}x{cout}xi32>, tensor<{cout}xi32>, "
        f"tensor<{cout}xi8>, tensor<1xi32>, tensor<1xi8>) -> {out_t}\n"
        f"{clamp}"
        f"  func.return %{'c' if relu else 'r'} : {out_t}\n}}"
    )


CONV_VARIANTS = {
    "dilated": dict(h=9, w=9, c=5, cout=6, k=3, stride=1, pad=(2, 2, 2, 2), dilation=(2, 2)),
    "dilated-strided-asymmetric": dict(
        h=10, w=11, c=3, cout=4, k=3, stride=(1, 2), pad=(0, 1, 3, 2), dilation=(1, 3)
    ),
    "weight-zero-point": dict(h=6, w=6, c=5, cout=7, k=3, stride=1, pad=(1, 1, 1, 1), zp_w=9),
    "depthwise": dict(h=8, w=8, c=20, cout=0, k=3, stride=1, pad=(1, 1, 1, 1), depthwise=1),
    "depthwise-strided": dict(h=9, w=7, c=6, cout=0, k=3, stride=2, pad=(1, 1, 0, 1), depthwise=1),
    "depthwise-multiplier": dict(
        h=6, w=6, c=3, cout=0, k=3, stride=1, pad=(0, 0, 1, 1), depthwise=3
    ),
    # 96 input channels: 24 tiles on the small machine, of which one output row's input
    # needs more than half its input buffer, so they are split into accumulating groups.
    "channel-groups": dict(h=6, w=6, c=96, cout=8, k=3, stride=1, pad=(1, 1, 1, 1)),
    # padding wider than the kernel: the corner outputs' taps are all padding (the
    # lowering skips taps on padding, so those sums are filled with 0 and the bias of
    # each border class takes back the missing taps)
    "padding-wider-than-kernel": dict(h=5, w=4, c=20, cout=5, k=2, stride=1, pad=(2, 3, 2, 2)),
}


def _exact_window(hwc, kernel, stride, pad, dilation=(1, 1)):
    """TOSA v1.0 wants the window arithmetic to divide exactly: cut the trailing padding
    and input rows no window reaches (a `tosa.slice` of the input). Returns the padding,
    the slice's text (binding `%x_exact`; empty when nothing is cut) and the type of what
    the window op reads."""
    h, w, c = hwc
    pad, trims = tosa_dialect.exact_window_pad((h, w), kernel, stride, list(pad), dilation)
    eh, ew = h - trims[0], w - trims[1]
    x_t = f"tensor<1x{eh}x{ew}x{c}xi8>"
    if not any(trims):
        return pad, "", x_t
    text = (
        f"  %st = tosa.const_shape values(dense<0> : tensor<4xindex>) : () -> !tosa.shape<4>\n"
        f"  %sz = tosa.const_shape values(dense<[1, {eh}, {ew}, {c}]> : tensor<4xindex>) : () -> !tosa.shape<4>\n"
        f"  %xe = tosa.slice %x, %st, %sz : (tensor<1x{h}x{w}x{c}xi8>, !tosa.shape<4>, !tosa.shape<4>) -> {x_t}\n"
    )
    return pad, text.replace("%xe", "%x_exact"), x_t


def pool_program(kind, h, w, c, kernel, stride, pad, seed) -> str:
    rng = np.random.default_rng(seed)
    oh = (h + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (w + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    pad, x_in, x_t = _exact_window((h, w, c), kernel, stride, pad)
    x_name = "%x_exact" if x_in else "%x"
    out_t = f"tensor<1x{oh}x{ow}x{c}xi8>"
    attrs = f"kernel({list(kernel)}) stride({list(stride)}) pad({list(pad)})"
    if kind == "max":
        body = f"{x_in}  %p = tosa.max_pool2d {x_name} {attrs} : ({x_t}) -> {out_t}\n"
    else:
        zi, zo = (int(z) for z in rng.integers(-20, 20, 2))
        body = (
            f"{x_in}"
            f"  %zi = tosa.const values(dense<{zi}> : tensor<1xi8>) : () -> tensor<1xi8>\n"
            f"  %zo = tosa.const values(dense<{zo}> : tensor<1xi8>) : () -> tensor<1xi8>\n"
            f"  %p = tosa.avg_pool2d {x_name}, %zi, %zo {attrs} acc_type(i32) : "
            f"({x_t}, tensor<1xi8>, tensor<1xi8>) -> {out_t}\n"
        )
    return f"func.func @main(%x: tensor<1x{h}x{w}x{c}xi8>) -> {out_t} {{\n{body}  func.return %p : {out_t}\n}}"


LEGALIZED_KINDS = sorted(set(legalize_cases.KINDS) - {"batched_dot"})


def run_legalized(src: str, machine: str, inputs: list[np.ndarray]):
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    LegalizeToTosa().apply(ctx, module)
    CanonicalizePass().apply(ctx, module)  # cancels the transpose pairs around NCHW rescales
    return compile_and_run(str(module), machine, *inputs)


def random_network(seed: int) -> tuple[str, np.ndarray]:
    """A random chain of convolutions (any kernel, stride, depthwise or not), activations
    and residual adds in quantized StableHLO: shapes the hand-written cases do not cover."""
    rng = np.random.default_rng(seed)
    b = networks.Builder(rng)
    hw, c = int(rng.integers(5, 12)), int(rng.choice([3, 8, 16, 20]))
    x = networks.Act("%input", (1, hw, hw, c), 0.05, int(rng.integers(-10, 10)))
    y = x
    for _ in range(int(rng.integers(2, 5))):
        kind = rng.choice(["conv", "depthwise", "relu", "residual"])
        if kind == "conv":
            k = int(rng.choice([1, 3, 5]))
            stride = int(rng.choice([1, 1, 2])) if y.shape[1] > k else 1
            y = b.conv(y, int(rng.choice([4, 8, 17, 32])), k, stride)
        elif kind == "depthwise":
            y = b.conv(y, y.shape[3], 3, depthwise=True)
        elif kind == "relu":
            y = b.clamp(y, None if rng.integers(0, 2) else 6.0)
        else:
            z = b.conv(y, y.shape[3], 3)
            y = b.add(z, y)
    data = rng.integers(-128, 128, x.shape).astype(np.int8)
    source = (
        f"func.func @main({x.name}: {x.type}) -> {y.type} {{\n"
        + "\n".join(b.lines)
        + f"\n  func.return {y.name} : {y.type}\n}}\n"
    )
    return source, data


def entry(source: str) -> FuncOp:
    """The first function of a TOSA module's text, for the stages as library calls."""
    module = QParser(make_context(), source).parse_module()
    return next(op for op in module.walk() if isinstance(op, FuncOp))


def resnet_tosa() -> str:
    """The small ResNet block (conv -> conv -> residual add) legalized to TOSA: its
    intermediates stay on chip, so every stage has something to decide."""
    ctx = make_context()
    module = QParser(ctx, networks.build("resnet_block", "small", seed=2).source).parse_module()
    LegalizeToTosa().apply(ctx, module)
    return str(module)


@pytest.mark.parametrize("machine", ["default", "small"])
def test_conv_then_fully_connected_network(machine: str) -> None:
    """A conv layer with ReLU, flattened (a free reshape), into a classifier layer."""
    h, w, c, cout, oh = 6, 6, 3, 8, 6
    conv = conv_program(h, w, c, cout, 3, 1, (1, 1, 1, 1), seed=11)
    body = conv.split("\n  func.return")[0].split("{\n", 1)[1]
    k = oh * oh * cout
    flat = (
        f"  %fs = tosa.const_shape values(dense<[1, {k}]> : tensor<2xindex>) : () -> !tosa.shape<2>\n"
        f"  %flat = tosa.reshape %c, %fs : (tensor<1x{oh}x{oh}x{cout}xi8>, !tosa.shape<2>) -> tensor<1x{k}xi8>\n"
    )
    fc, out = fc_layer("fc", "flat", 1, k, 10, np.random.default_rng(3), relu=False)
    src = (
        f"func.func @main(%x: tensor<1x{h}x{w}x{c}xi8>) -> tensor<1x10xi8> {{\n"
        f"{body}\n{flat}{fc}  func.return %{out} : tensor<1x10xi8>\n}}"
    )
    x = np.random.default_rng(4).integers(-128, 128, (1, h, w, c)).astype(np.int8)
    got, want = compile_and_run(src, machine, x)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize("name", networks.NETWORKS)
def test_network_from_stablehlo_is_bit_exact(machine: str, name: str) -> None:
    """A quantized StableHLO block through stablehlo-legalize-to-tosa and tosa-to-npu:
    the simulator's output equals the TOSA interpreter's on the legalized program."""
    net = networks.build(name, "small", seed=1)
    ctx = make_context()
    module = QParser(ctx, net.source).parse_module()
    LegalizeToTosa().apply(ctx, module)
    got, want = compile_and_run(str(module), machine, *net.inputs)
    assert np.array_equal(got, np.asarray(want).view(np.int8))
    assert len(np.unique(want)) > 4  # the block's output is not saturated to a few values


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize("kind", LEGALIZED_KINDS)
def test_every_legalized_layer_kind_is_bit_exact(machine: str, kind: str) -> None:
    """Each layer stablehlo-legalize-to-tosa produces (conv in NHWC and NCHW, depthwise,
    dot, add, multiply, pools, reductions, ReLUs, tables, data movement) runs on the NPU."""
    src, inputs, _ = legalize_cases.layer(kind, np.random.default_rng(len(kind)))
    got, want = run_legalized(src, machine, inputs)
    assert np.array_equal(got, np.asarray(want).view(np.int8))


@pytest.mark.parametrize("name", ["resnet_block", "mobilenet_v2_block"])
def test_intermediates_kept_on_chip_are_exact_and_skip_dram(name: str) -> None:
    """conv -> conv -> residual add (ResNet) and expand -> depthwise -> project -> add
    (MobileNetV2, a chain: consecutive tensors sit at opposite ends of the buffer) stay in
    the output buffer: the same bits as through DRAM, and those tensors are never stored."""
    net = networks.build(name, "small", seed=2)
    ctx = make_context()
    module = QParser(ctx, net.source).parse_module()
    LegalizeToTosa().apply(ctx, module)
    tosa_text = str(module)
    want = np.asarray(Interpreter(module).call("main", net.inputs)[0]).view(np.int8)
    machine = load_machine("default")
    written, outputs, reads_on_chip = {}, {}, {}
    for keep in (True, False):
        compiled = QParser(ctx, tosa_text).parse_module()
        TosaToNpu(keep_on_chip=keep).apply(ctx, compiled)
        (program,) = [op for op in compiled.walk() if isinstance(op, ProgramOp)]
        binary = program_binary(program, machine.digest())
        reads_on_chip[keep] = sum(
            1
            for i in binary.code
            if i.opcode.mnemonic in ("matmul", "widen") and i.values["buf"] == 3
        )
        sim = Simulator(machine, binary.code)
        sim.load_sections(binary)
        sim.set_inputs(binary, {"arg0": net.inputs[0]})
        written[keep] = sim.run().dram_written
        outputs[keep] = sim.get_outputs(binary)["result0"]
    assert np.array_equal(outputs[True], want.reshape(outputs[True].shape))
    assert np.array_equal(outputs[False], outputs[True])
    assert reads_on_chip[True] > 0 and reads_on_chip[False] == 0
    # ResNet: both convolutions' outputs (the second feeds the residual add on chip);
    # MobileNetV2: expand and depthwise outputs, and the projection feeding the add.
    kept = 2 * 8 * 8 * 8 if name == "resnet_block" else 2 * 8 * 8 * 24 + 8 * 8 * 8
    assert written[False] - written[True] == kept


@pytest.mark.parametrize("machine", ["default", "small"])
def test_elementwise_operands_scaled_in_their_widen_are_exact(machine: str) -> None:
    """A sub whose operands each have an i32 -> i32 rescale (one SINGLE_ROUND, one
    DOUBLE_ROUND): each operand's `widen` applies its rescale and the second subtracts
    itself; the result equals the interpreter's on inputs that reach every rounding."""
    src = (INPUTS / "npu-residual-sub.mlir").read_text()
    rng = np.random.default_rng(5)
    a, b = (rng.integers(-128, 128, (1, 4, 4, 16)).astype(np.int8) for _ in range(2))
    got, want = compile_and_run(src, machine, a, b)
    assert np.array_equal(got, np.asarray(want).view(np.int8))
    assert len(np.unique(got)) > 20


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize("seed", range(10))
def test_random_networks_are_bit_exact(machine: str, seed: int) -> None:
    source, data = random_network(seed)
    ctx = make_context()
    module = QParser(ctx, source).parse_module()
    LegalizeToTosa().apply(ctx, module)
    got, want = compile_and_run(str(module), machine, data)
    assert np.array_equal(got, np.asarray(want).view(np.int8))


def test_stages_chained_by_hand_give_the_pass_program() -> None:
    """The pass is its four stages in order (`compile_function`)."""
    source = resnet_tosa()
    machine = load_machine("small")
    graph = form_layers(entry(source))
    plan = plan_program(graph, machine)
    emitted = emit_program(graph, plan, machine)
    assert emitted.code[-1].opcode.mnemonic == "halt"
    assert len(emitted.layer_starts) == len(graph.layers) == len(plan.layers)
    by_hand = assemble_program(emitted, plan, "small", graph)  # with the layer map
    ctx = make_context()
    module = QParser(ctx, source).parse_module()
    TosaToNpu(machine="small").apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    assert by_hand.instructions() == program.instructions() == list(emitted.code)
    assert str(by_hand) == str(program)


def test_layer_seconds_name_each_layer_of_the_map_and_do_not_change_the_program() -> None:
    """`compile_function(layer_seconds=...)` (bench_compile --layers): one figure per
    layer of the program's layer map, within the stages' total, and the same program."""
    from qdialect.lowering.tosa_to_npu import compile_function

    machine = load_machine("small")
    plain = compile_function(entry(resnet_tosa()), machine, "small")
    timings: dict[str, float] = {}
    seconds: list[float] = []
    timed = compile_function(entry(resnet_tosa()), machine, "small", timings=timings,
                             layer_seconds=seconds)  # fmt: skip
    assert str(timed) == str(plain)
    layers = json.loads(timed.attributes["npu.layers"].data)  # type: ignore[attr-defined]
    assert len(seconds) == len(layers) > 1
    assert all(s >= 0 for s in seconds)
    assert sum(seconds) <= timings["plan"] + timings["code"] + timings["assemble"]
