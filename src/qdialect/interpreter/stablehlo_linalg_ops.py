"""Semantics of fft, triangular_solve and the legacy einsum ops (numpy's FFTs, a
batched solve, numpy's einsum).

`fft` transforms the trailing `len(fft_length)` dimensions: FFT/IFFT complex to complex,
RFFT real to the non-redundant half (`n // 2 + 1` entries), IRFFT back to `fft_length`
real values. `triangular_solve` reads only the triangle `lower` names (and takes its
diagonal as ones when `unit_diagonal`), applies `transpose_a`, and solves
`op(a) x = b` (left side) or `x op(a) = b`. Both compute in float64/complex128 and
round once to the result type.
"""

from __future__ import annotations

import numpy as np

from qdialect.dialects import stablehlo_einsum as se
from qdialect.dialects import stablehlo_linalg as sl
from qdialect.dialects.hlo_syntax import dense_values
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.values import InterpreterError


@implements(sl.FftOp, quantized="none")
def _fft(interp: Interpreter, op: sl.FftOp, args: Arrays, types: Types) -> Arrays:
    (x,) = args
    length = dense_values(op.fft_length)
    axes = tuple(range(x.ndim - len(length), x.ndim))
    wide = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)
    kind = op.fft_type.data
    if kind == sl.FftType.FFT:
        out = np.fft.fftn(wide, s=length, axes=axes)
    elif kind == sl.FftType.IFFT:
        out = np.fft.ifftn(wide, s=length, axes=axes)
    elif kind == sl.FftType.RFFT:
        out = np.fft.rfftn(wide, s=length, axes=axes)
    else:
        out = np.fft.irfftn(wide, s=length, axes=axes)
    return [out.astype(v.dtype_of(types[0]))]


@implements(sl.TriangularSolveOp, quantized="none")
def _triangular_solve(
    interp: Interpreter, op: sl.TriangularSolveOp, args: Arrays, types: Types
) -> Arrays:
    a, b = args
    wide = np.complex128 if np.iscomplexobj(a) else np.float64
    a, b = a.astype(wide), b.astype(wide)
    a = np.tril(a) if op.lower.value.data else np.triu(a)
    if op.unit_diagonal.value.data:
        n = a.shape[-1]
        a = a.copy()
        a[..., np.arange(n), np.arange(n)] = 1
    transpose = op.transpose_a.data
    if transpose != sl.Transpose.NO_TRANSPOSE:
        a = np.swapaxes(a, -1, -2)
        if transpose == sl.Transpose.ADJOINT:
            a = np.conj(a)
    try:
        if op.left_side.value.data:
            x = np.linalg.solve(a, b)
        else:  # x a = b  <=>  a^T x^T = b^T
            x = np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
    except np.linalg.LinAlgError as err:
        raise InterpreterError(f"'{op.name}': the triangular matrix is singular ({err})") from None
    return [x.astype(v.dtype_of(types[0]))]


@implements(sl.CholeskyOp)
def _cholesky(interp: Interpreter, op: sl.CholeskyOp, args: Arrays, types: Types) -> Arrays:
    """The lower (or upper) Cholesky factor of each matrix, the other triangle zero (the
    spec leaves it implementation-defined, as it leaves a matrix that is not Hermitian
    positive-definite: such a matrix is an error here, not NaNs)."""
    a = args[0]
    lower = op.lower is not None and bool(op.lower.value.data)
    try:
        factor = np.linalg.cholesky(a if lower else np.conj(np.swapaxes(a, -1, -2)))
    except np.linalg.LinAlgError:
        raise InterpreterError(
            f"'{op.name}': a matrix of the operand is not Hermitian positive-definite"
        ) from None
    result = factor if lower else np.conj(np.swapaxes(factor, -1, -2))
    return [result.astype(a.dtype)]


@implements(se.EinsumOp, se.UnaryEinsumOp)
def _einsum(
    interp: Interpreter, op: se.EinsumOp | se.UnaryEinsumOp, args: Arrays, types: Types
) -> Arrays:
    """numpy's einsum on the operands converted to the result's element type, computed in
    it (integers wrap at its width, as dot_general's accumulation would)."""
    dtype = v.dtype_of(types[0])
    parsed = se.parse_config(op.einsum_config.data, len(args))
    if parsed is None:
        raise InterpreterError(f"'{op.name}' has an invalid einsum_config")
    inputs, output = parsed
    spec = ",".join(inputs) + "->" + output
    with np.errstate(over="ignore"):
        return [np.einsum(spec, *(a.astype(dtype) for a in args), dtype=dtype)]
