"""QParser on hostile text: located errors, stated limits, linear time, splats kept small."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import ParseError

from qdialect.context import make_context
from qdialect.ir import parser as qparser
from qdialect.ir.constants import constant_array
from qdialect.ir.parser import MAX_NESTING, QParser, nesting_error


def parse(text: str) -> ModuleOp:
    return QParser(make_context(allow_unregistered=True), text, "t.mlir").parse_module()


def error_of(text: str) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse(text)
    return info.value


def test_unterminated_string_is_linear():
    # xDSL's pattern backtracked 2^n ways over n characters: this never finished.
    for text in [
        '"' + "a b" * 5000,
        '"' + "a\\n" * 3000 + "\n}",
        '"test.op"() {s = "' + "\\\\" * 4000,
    ]:
        assert "before closing string literal" in error_of(text).msg


def test_first_token_error_is_a_parse_error():
    with pytest.raises(ParseError):
        QParser(make_context(), '"unterminated', "t.mlir")


@pytest.mark.parametrize(
    "text",
    [
        "func.func @f(%a: " + "tensor<" * 5000 + "i8" + ">" * 5000 + ") { func.return }",
        "func.func @f(%a: " + "tensor<" * 40000 + ") { func.return }",
        '"test.op"() ({' * 300 + "}) : () -> ()" * 300,
        '"test.op"() {a = ' + "[" * 1000 + "]" * 1000 + "} : () -> ()",
    ],
)
def test_deep_nesting_is_a_located_error(text):
    err = error_of(text)
    assert err.msg == f"brackets nest deeper than {MAX_NESTING} levels"
    # At the opening bracket one past the limit, not at the end of the input.
    before = text[: err.span.start]
    depth = sum(before.count(c) for c in "<([{") - sum(before.count(c) for c in ">)]}")
    assert depth == MAX_NESTING and text[err.span.start] in "<([{"


def test_nesting_at_the_limit_parses_and_prints():
    depth = MAX_NESTING - 2  # func.func @f( ... ) adds one level
    text = "func.func @f(%a: " + "tensor<" * depth + "i8" + ">" * depth + ") { func.return }"
    module = parse(text)
    assert module.ops.first is not None
    from qdialect.ir.printer import module_text

    assert "tensor<" * depth in module_text(module)


def test_brackets_in_strings_and_comments_do_not_count():
    text = '"test.op"() {s = "' + "<" * 1000 + '"} : () -> ()\n// ' + "(" * 1000 + "\n"
    assert nesting_error(text) is None
    parse(text)


def test_recursion_error_becomes_a_parse_error(monkeypatch):
    # A safety net below the bracket limit: whatever recursion remains is an error.
    monkeypatch.setattr(qparser, "MAX_NESTING", 10**6)
    monkeypatch.setattr(qparser, "RECURSION_LIMIT", 0)  # QParser leaves the limit alone
    text = "func.func @f(%a: " + "tensor<" * 3000 + "i8" + ">" * 3000 + ") { func.return }"
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        err = error_of(text)
    finally:
        sys.setrecursionlimit(previous)
    assert err.msg == "input nests too deeply for the parser"


def test_empty_input_is_an_empty_module():
    assert len(parse("// only a comment\n").ops) == 0


def test_shaped_type_element_limit():
    """A count past int64 is refused (shape arithmetic would overflow); any count int64
    holds is a valid declaration."""
    err = error_of("func.func @f(%a: tensor<4294967296x4294967296xi8>) { func.return }")
    assert err.msg == "tensor type declares 18446744073709551616 elements; the limit is 2^63 - 1"
    parse(
        "func.func @f(%a: tensor<65536x32768x?xi8>, %c: tensor<4294967296x2147483647xi8>, "
        "%b: tensor<0x99999999999xi8>) { func.return }"
    )


def test_splat_is_packed_once():
    n = 1 << 24
    module = parse(
        f"func.func @f() -> tensor<{n}xi16> {{\n"
        f"  %0 = stablehlo.constant dense<-2> : tensor<{n}xi16>\n"
        f"  func.return %0 : tensor<{n}xi16>\n}}"
    )
    const = next(op for op in module.walk() if op.name == "stablehlo.constant")
    assert const.properties["value"].data.data[:4] == b"\xfe\xff\xfe\xff"
    values = constant_array(const.results[0])
    assert values is not None and values.shape == (n,) and values.dtype == np.int64
    assert (values == -2).all()


@pytest.mark.parametrize(
    "literal, type_, message",
    [
        ("256", "i8", "integer literal 256 does not fit in i8"),
        ("-129", "i8", "integer literal -129 does not fit in i8"),
        ("[1, 70000]", "i16", "integer literal 70000 does not fit in i16"),
        ("-1", "ui8", "expected non-negative integer values"),
        (
            "18446744073709551616",
            "index",
            "integer literal 18446744073709551616 does not fit in index",
        ),
        ("1", "i128", "dense constants of i128 are not supported (integers of at most 64 bits)"),
        ("1.0", "f80", "dense constants of f80 are not supported"),
    ],
)
def test_dense_values_that_do_not_fit(literal, type_, message):
    err = error_of(f'"test.op"() {{v = dense<{literal}> : tensor<2x{type_}>}} : () -> ()')
    assert err.msg == message


def test_dense_values_that_fit():
    module = parse(
        '"test.op"() {v = dense<[255, -128]> : tensor<2xi8>, w = dense<255> : tensor<2xui8>} : () -> ()'
    )
    op = module.ops.first
    assert op is not None
    assert op.attributes["v"].get_values() == (-1, -128)
    assert op.attributes["w"].get_values() == (255, 255)


def test_location_alias_chain_is_resolved_in_linear_work(monkeypatch):
    # Aliases defined in reverse dependency order were retried pass after pass (n^2 parses).
    from xdsl.parser import Parser

    calls = []
    original = Parser.parse_optional_location

    def counting(self):
        calls.append(1)
        return original(self)

    monkeypatch.setattr(Parser, "parse_optional_location", counting)
    n = 300
    lines = ["func.func @f() { func.return } loc(#l0)"]
    lines += [f"#l{i} = loc(#l{i + 1})" for i in range(n)]
    lines += [f'#l{n} = loc("a.py":7:1)', "#c1 = loc(#c2)", "#c2 = loc(#c1)"]
    with pytest.raises(ParseError, match="undefined symbol alias id 'c"):
        parse("\n".join(lines))  # the cycle is left to the parse, which reports it
    calls.clear()
    module = parse("\n".join(lines[:-2]))
    assert str(module.ops.first.location) == 'loc("a.py":7:1)'
    assert len(calls) <= 4 * n  # the parse itself included; the old passes made ~n^2/2
