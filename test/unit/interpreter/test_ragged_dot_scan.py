"""chlo.ragged_dot and chlo.scan in the interpreter, against JAX's own implementations
(`jax.lax.ragged_dot_general` in its three modes, `jax.lax.scan`), which XLA computes
independently of this project. Values are small integers held in float32, so every sum
is exact and the comparison is bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    ModuleOp,
    TensorType,
    f32,
    i32,
    i64,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Region

from qdialect.dialects import stablehlo as sh
from qdialect.dialects.chlo_ragged_dot import (
    ChloPrecisionAttr,
    RaggedDotDimensionNumbersAttr,
    RaggedDotDims,
    RaggedDotOp,
)
from qdialect.dialects.chlo_scan import ScanOp
from qdialect.dialects.stablehlo_attrs import Precision
from qdialect.interpreter import Interpreter

jax = pytest.importorskip("jax", reason="the reference is JAX (the qat extra)")
lax = jax.lax


def _tensor(shape: tuple[int, ...], element: Attribute = f32) -> TensorType:
    return TensorType(element, shape)


def _run_ragged_dot(dims: RaggedDotDims, lhs, rhs, sizes, result_shape) -> np.ndarray:
    types = [_tensor(lhs.shape), _tensor(rhs.shape), _tensor(sizes.shape, i32)]
    func = FuncOp("main", (types, [_tensor(result_shape)]))
    a, b, g = func.body.block.args
    op = RaggedDotOp.create(
        operands=[a, b, g],
        result_types=[_tensor(result_shape)],
        properties={
            "ragged_dot_dimension_numbers": RaggedDotDimensionNumbersAttr(dims),
            "precision_config": ArrayAttr([ChloPrecisionAttr(Precision.DEFAULT)] * 2),
        },
    )
    func.body.block.add_ops([op, ReturnOp(op.result)])
    module = ModuleOp([func])
    module.verify()
    (out,) = Interpreter(module).call("main", [lhs, rhs, sizes])
    return out


def _jax_ragged_dot(dims: RaggedDotDims, lhs, rhs, sizes) -> np.ndarray:
    numbers = lax.RaggedDotDimensionNumbers(
        dot_dimension_numbers=(
            (dims.lhs_contracting_dimensions, dims.rhs_contracting_dimensions),
            (dims.lhs_batching_dimensions, dims.rhs_batching_dimensions),
        ),
        lhs_ragged_dimensions=dims.lhs_ragged_dimensions,
        rhs_group_dimensions=dims.rhs_group_dimensions,
    )
    return np.asarray(lax.ragged_dot_general(lhs, rhs, sizes, numbers))


def _ints(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.integers(-4, 5, size=shape).astype(np.float32)


CASES = {
    # [m,k] x [g,k,n] -> [m,n]; the groups cover 9 of 11 rows, the rest are zero
    "rows": (RaggedDotDims((), (), (1,), (1,), (0,), (0,)), (11, 5), (3, 5, 7), [4, 0, 5]),
    # [b,m,k] x [g,b,k,n] -> [b,m,n], groups per batch entry ([b,g] group sizes)
    "rows-per-batch": (
        RaggedDotDims((0,), (1,), (2,), (2,), (1,), (0,)),
        (2, 11, 5),
        (3, 2, 5, 7),
        [[4, 4, 3], [1, 6, 2]],
    ),
    # [m,k] x [k,n] -> [g,m,n]: one product per group of the contraction
    "contraction": (RaggedDotDims((), (), (1,), (0,), (1,), ()), (11, 6), (6, 7), [2, 3, 1]),
    # [b,m,k] x [b,k,n] -> [g,b,m,n], groups per batch entry
    "contraction-per-batch": (
        RaggedDotDims((0,), (0,), (2,), (1,), (2,), ()),
        (2, 4, 6),
        (2, 6, 3),
        [[2, 3, 1], [0, 4, 2]],
    ),
    # [b,m,k] x [b,k,n] -> [b,m,n]: groups of batch entries; the entry past them is
    # computed all the same (a plain batched product, as XLA computes it)
    "batch": (RaggedDotDims((0,), (0,), (2,), (1,), (0,), ()), (4, 3, 5), (4, 5, 2), [1, 2]),
}


@pytest.mark.parametrize("name", CASES)
def test_ragged_dot_matches_jax(name: str):
    dims, lhs_shape, rhs_shape, sizes = CASES[name]
    rng = np.random.default_rng(7)
    lhs, rhs = _ints(rng, lhs_shape), _ints(rng, rhs_shape)
    group_sizes = np.array(sizes, dtype=np.int32)
    theirs = _jax_ragged_dot(dims, lhs, rhs, group_sizes)
    ours = _run_ragged_dot(dims, lhs, rhs, group_sizes, theirs.shape)
    assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs)


def test_ragged_contraction_keeps_infinities_out_of_other_groups():
    """An infinity in the rhs rows of group 0 gives inf in group 0's product only; the
    other groups never multiply it (by zero or otherwise)."""
    dims = RaggedDotDims((), (), (1,), (0,), (1,), ())
    lhs = np.ones((2, 4), np.float32)
    rhs = np.ones((4, 3), np.float32)
    rhs[0, 1] = np.inf
    sizes = np.array([1, 3], np.int32)
    ours = _run_ragged_dot(dims, lhs, rhs, sizes, (2, 2, 3))
    assert np.array_equal(ours, _jax_ragged_dot(dims, lhs, rhs, sizes))
    assert not np.isnan(ours).any() and np.isinf(ours[0, :, 1]).all()


def _scan_module(xs: np.ndarray, init: np.ndarray, reverse: bool) -> ModuleOp:
    """`chlo.scan` computing (running sum, running max) as outputs, the sum as carry."""
    x_t, c_t = _tensor(xs.shape), _tensor(init.shape)
    func = FuncOp("main", ([x_t, c_t], [x_t, x_t, c_t]))
    xs_arg, init_arg = func.body.block.args
    slice_t = _tensor(xs.shape[1:])
    body = Block(arg_types=[slice_t, c_t])
    total = sh.AddOp(body.args[0], body.args[1])
    peak = sh.MaximumOp(body.args[0], body.args[1])
    body.add_ops([total, peak, sh.ReturnOp(total.result, peak.result, total.result)])
    props: dict[str, Attribute] = {
        "dimension": IntegerAttr(0, i64),
        "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1]),
        "resultSegmentSizes": DenseArrayBase.from_list(i32, [2, 1]),
    }
    if reverse:
        props["is_reverse"] = BoolAttr.from_bool(True)
    scan = ScanOp.create(
        operands=[xs_arg, init_arg],
        result_types=[x_t, x_t, c_t],
        properties=props,
        regions=[Region(body)],
    )
    func.body.block.add_ops([scan, ReturnOp(*scan.results)])
    return ModuleOp([func])


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_matches_jax(reverse: bool):
    rng = np.random.default_rng(5)
    xs = _ints(rng, (6, 3))
    init = _ints(rng, (3,))

    def step(carry, x):
        total = x + carry
        return total, (total, jax.numpy.maximum(x, carry))

    carry, (sums, peaks) = lax.scan(step, init, xs, reverse=reverse)
    module = _scan_module(xs, init, reverse)
    module.verify()
    ours = Interpreter(module).call("main", [xs, init])
    for a, b in zip(ours, (sums, peaks, carry), strict=True):
        assert np.array_equal(a, np.asarray(b))
