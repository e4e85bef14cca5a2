"""Writing and reading integer constants: `integer_attr` from bytes reads back through
`constant_array` as the same values, refuses values its type cannot hold, and
`erase_if_unused` removes a constant only once nothing reads it."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerType

from qdialect.context import make_context
from qdialect.dialects import tosa
from qdialect.ir.constants import constant_array, erase_if_unused, integer_attr
from qdialect.ir.parser import QParser


@pytest.mark.parametrize("width", [8, 16, 32, 64])
def test_integer_attr_reads_back(width: int) -> None:
    info = np.iinfo(f"int{width}")
    values = np.array([[info.min, -1, 0], [1, 7, info.max]], np.int64)
    const = tosa.ConstOp(integer_attr(values, IntegerType(width)))
    got = constant_array(const.results[0])
    assert got is not None and got.shape == (2, 3) and np.array_equal(got, values)


def test_integer_attr_refuses_what_does_not_fit() -> None:
    with pytest.raises(ValueError, match="outside the range of i8"):
        integer_attr(np.array([128]), IntegerType(8))


def test_erase_if_unused_waits_for_the_last_reader() -> None:
    module = QParser(
        make_context(),
        """func.func @main(%x: tensor<2xi8>) -> tensor<2xi8> {
  %c = tosa.const values(dense<[1, 2]> : tensor<2xi8>) : () -> tensor<2xi8>
  %y = tosa.add %x, %c : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
  func.return %y : tensor<2xi8>
}""",
    ).parse_module()
    (const,) = [op for op in module.walk() if isinstance(op, tosa.ConstOp)]
    (add,) = [op for op in module.walk() if isinstance(op, tosa.AddOp)]
    erase_if_unused(const.results[0])
    assert const.parent_block() is not None  # still read by the add
    add.results[0].replace_all_uses_with(add.operands[0])
    add.detach()
    add.erase()
    erase_if_unused(const.results[0])
    assert not [op for op in module.walk() if isinstance(op, tosa.ConstOp)]
