"""Window layers of `tosa-to-npu` (npu_window): convolutions (strided, dilated, depthwise,
split into channel groups) and pools, bit-exact with the TOSA interpreter, including a
pool that reads its input where the convolution before it left it on chip."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.dialects.npu import ProgramOp, program_binary
from qdialect.ir.parser import QParser
from qdialect.lowering.tosa_to_npu import TosaToNpu
from qdialect.npu.machine import load_machine
from qdialect.npu.simulator import Simulator
from unit.lowering.test_tosa_to_npu import (
    CONV_VARIANTS,
    compile_and_run,
    conv_program,
    pool_program,
)


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize(
    "h, w, c, cout, k, stride, pad",
    [
        (6, 6, 3, 8, 3, 1, (1, 1, 1, 1)),  # same padding, fewer channels than the array
        (7, 5, 20, 6, 3, 2, (0, 1, 2, 0)),  # strided, asymmetric padding, two input-channel tiles
        (5, 5, 4, 20, 1, 1, (0, 0, 0, 0)),  # pointwise, two output-channel blocks
        (8, 8, 5, 4, 5, 2, (2, 2, 2, 2)),  # wide kernel
        # 32 x 32 padded rows x 2 channel tiles do not fit the small machine's 1024 input
        # rows: it streams the input an output row at a time (the default keeps it on chip).
        (30, 30, 8, 4, 3, 1, (1, 1, 1, 1)),
    ],
)
def test_conv2d_is_bit_exact(machine, h, w, c, cout, k, stride, pad) -> None:
    src = conv_program(h, w, c, cout, k, stride, pad, seed=h * w + c)
    x = np.random.default_rng(c).integers(-128, 128, (1, h, w, c)).astype(np.int8)
    got, want = compile_and_run(src, machine, x)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize("variant", sorted(CONV_VARIANTS))
def test_conv_variants_are_bit_exact(machine: str, variant: str) -> None:
    params = CONV_VARIANTS[variant]
    src = conv_program(**params, seed=len(variant))
    shape = (1, params["h"], params["w"], params["c"])
    x = np.random.default_rng(5).integers(-128, 128, shape).astype(np.int8)
    got, want = compile_and_run(src, machine, x)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize("kind", ["max", "avg"])
@pytest.mark.parametrize(
    "h, w, c, kernel, stride, pad",
    [
        (8, 8, 5, (2, 2), (2, 2), (0, 0, 0, 0)),
        (7, 9, 20, (3, 3), (2, 2), (1, 1, 1, 1)),  # edge windows count fewer taps
        (6, 5, 3, (3, 2), (1, 2), (2, 0, 1, 1)),  # asymmetric everything
        (5, 5, 4, (5, 5), (1, 1), (0, 0, 0, 0)),  # a global pool
    ],
)
def test_pooling_is_bit_exact(machine, kind, h, w, c, kernel, stride, pad) -> None:
    src = pool_program(kind, h, w, c, kernel, stride, pad, seed=h * w)
    x = np.random.default_rng(c).integers(-128, 128, (1, h, w, c)).astype(np.int8)
    got, want = compile_and_run(src, machine, x)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool_reads_its_input_on_chip(machine: str, kind: str) -> None:
    """conv -> pool: the pool's taps read the conv's output from the output buffer."""
    conv = conv_program(6, 6, 5, 8, 3, 1, (1, 1, 1, 1), seed=21)
    body = conv.split("\n  func.return")[0].split("{\n", 1)[1]
    pool = pool_program(kind, 6, 6, 8, (3, 3), (1, 1), (1, 1, 1, 1), seed=3)
    pool_body = pool.split("{\n", 1)[1].replace("%x", "%c")
    src = f"func.func @main(%x: tensor<1x6x6x5xi8>) -> tensor<1x6x6x8xi8> {{\n{body}\n{pool_body}"
    x = np.random.default_rng(8).integers(-128, 128, (1, 6, 6, 5)).astype(np.int8)
    got, want = compile_and_run(src, machine, x)
    assert np.array_equal(got, want)
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    TosaToNpu(machine=machine).apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    binary = program_binary(program, load_machine(machine).digest())
    assert any(i.opcode.mnemonic == "pool" and i.values["buf"] == 3 for i in binary.code)


@pytest.mark.parametrize("layer", ["depthwise", "max"])
def test_a_layer_whose_blocks_read_their_own_tiles_reads_its_input_once(layer: str) -> None:
    """Depthwise output block j reads input tile j only (as a pool's does): with the whole
    image in the one input slot, going band by band across the blocks would load every
    tile once per band. Block by block, DRAM sees the input once, in 2-D loads."""
    h, c = 40, 64
    src = (
        conv_program(h, h, c, 0, 3, 2, (1, 1, 1, 1), seed=4, depthwise=1)
        if layer == "depthwise"
        else pool_program("max", h, h, c, (3, 3), (2, 2), (1, 1, 1, 1), seed=4)
    )
    x = np.random.default_rng(4).integers(-128, 128, (1, h, h, c)).astype(np.int8)
    got, want = compile_and_run(src, "default", x)
    assert np.array_equal(got, want)
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    TosaToNpu().apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    code = program_binary(program, load_machine("default").digest()).code
    loads = [i.values for i in code if i.opcode.mnemonic in ("load", "load2d")]
    read = sum(v.get("blocks", 1) * v["rows"] * v["row_bytes"] for v in loads if v["buf"] == 0)
    assert read == h * h * c
    assert any(i.opcode.mnemonic == "load2d" for i in code)


@pytest.mark.parametrize(
    "h, w, k, stride, pad",
    [
        (9, 7, 3, 1, (1, 1, 1, 1)),  # "same": a row and a column of taps lost at each edge
        (8, 8, 5, 2, (2, 1, 2, 1)),  # strided, asymmetric
    ],
)
def test_padded_convolution_computes_only_taps_inside_the_image(h, w, k, stride, pad) -> None:
    """A padded convolution skips the taps on padding (a matmul per output row, cut where
    the in-bounds taps change), so with whole channel tiles the array executes exactly
    the taps inside the image, counted here from the window's definition, and the output
    still equals the interpreter's (the border pixels' records take the missing taps'
    zero-point products back)."""
    c = cout = 16  # whole tiles: executed MACs are useful MACs
    src = conv_program(h, w, c, cout, k, stride, pad, seed=7)
    x = np.random.default_rng(3).integers(-128, 128, (1, h, w, c)).astype(np.int8)
    got, want = compile_and_run(src, "default", x)
    assert np.array_equal(got, want)
    ctx = make_context()
    module = QParser(ctx, src).parse_module()
    TosaToNpu(machine="default").apply(ctx, module)
    (program,) = [op for op in module.walk() if isinstance(op, ProgramOp)]
    machine = load_machine("default")
    binary = program_binary(program, machine.digest())
    sim = Simulator(machine, binary.code)
    sim.load_sections(binary)
    sim.set_inputs(binary, {"arg0": x})
    stats = sim.run()
    oh = (h + pad[0] + pad[1] - k) // stride + 1
    ow = (w + pad[2] + pad[3] - k) // stride + 1
    inside = sum(
        0 <= y * stride - pad[0] + i < h and 0 <= z * stride - pad[2] + j < w
        for y in range(oh) for z in range(ow) for i in range(k) for j in range(k)
    )  # fmt: skip
    assert stats.macs == inside * c * cout
