"""MLIR's SSA dominance rule on parsed modules."""

from __future__ import annotations

from qdialect.context import make_context
from qdialect.ir.dominance import dominance_error
from qdialect.ir.parser import QParser


def error(text: str) -> tuple[str, str] | None:
    module = QParser(make_context(allow_unregistered=True), text).parse_module()
    found = dominance_error(module)
    return None if found is None else (found[0].name, found[1])


def test_use_before_definition_in_one_block():
    text = """func.func @f() -> i32 {
      %1 = arith.addi %0, %0 : i32
      %0 = arith.constant 1 : i32
      func.return %1 : i32
    }"""
    assert error(text) == ("arith.addi", "operand #0 does not dominate this use")


def test_value_escaping_a_nested_region():
    # A forward reference resolved by a definition inside a later op's region.
    text = """func.func @f() {
      %1 = arith.addi %0, %0 : i32
      "test.op"() ({
        %0 = arith.constant 1 : i32
        "test.yield"() : () -> ()
      }) : () -> ()
      func.return
    }"""
    assert error(text) == ("arith.addi", "operand #0 does not dominate this use")


def test_value_from_an_enclosing_block_must_precede_the_regions_op():
    before = """func.func @f() {
      %0 = arith.constant 1 : i32
      "test.op"() ({ %1 = arith.addi %0, %0 : i32 }) : () -> ()
      func.return
    }"""
    after = """func.func @f() {
      "test.op"() ({ %1 = arith.addi %0, %0 : i32 }) : () -> ()
      %0 = arith.constant 1 : i32
      func.return
    }"""
    assert error(before) is None
    assert error(after) == ("arith.addi", "operand #0 does not dominate this use")


def test_graph_regions_are_exempt_from_ordering():
    # The module body, and regions of unregistered ops (MLIR cannot know their kind).
    text = """"test.graph"() ({
      %1 = arith.addi %0, %0 : i32
      %0 = arith.constant 1 : i32
    }) : () -> ()"""
    assert error(text) is None


def test_other_blocks_of_one_region_are_not_judged():
    text = """func.func @f() {
      %0 = arith.constant 1 : i32
      func.return
    ^bb1:
      %1 = arith.addi %0, %0 : i32
      func.return
    }"""
    assert error(text) is None


def test_many_ops_check_in_one_pass():
    body = "\n".join(f"  %v{i} = arith.addi %v{i - 1}, %v{i - 1} : i32" for i in range(1, 20000))
    text = f"func.func @f(%v0: i32) {{\n{body}\n  func.return\n}}"
    assert error(text) is None
