"""Random inputs for qrun --random-inputs: errors instead of numpy exceptions."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import Float32Type, TensorType

from qdialect.interpreter.values import InterpreterError, random_value


class _NoMemory:
    """A generator that cannot allocate (a declared shape too large for the machine)."""

    def standard_normal(self, shape):
        raise MemoryError


def test_out_of_memory_is_an_interpreter_error():
    t = TensorType(Float32Type(), [1 << 30, 8])
    with pytest.raises(
        InterpreterError,
        match=r"out of memory making a random input of type tensor<1073741824x8xf32>",
    ):
        random_value(t, _NoMemory())  # type: ignore[arg-type]


def test_rank_above_numpys_limit_is_an_interpreter_error():
    t = TensorType(Float32Type(), [1] * 33)
    with pytest.raises(InterpreterError, match="rank above 32"):
        random_value(t, np.random.default_rng(0))
    assert random_value(TensorType(Float32Type(), [2, 3]), np.random.default_rng(0)).shape == (2, 3)
