"""Parse errors reworded as MLIR's parser words them (`qdialect.ir.parse_messages`)."""

from __future__ import annotations

import pytest

from qdialect.ir.parse_messages import mlir_wording, unclosed_opener

DIALECTS = ["builtin", "func", "stablehlo"]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Expected ':'", "expected ':'"),
        ("Expected ':' after block argument name!", "expected ':' after block argument name!"),
        ("Expected integer literal", "expected integer value"),
        ("Expected float literal", "expected floating point literal"),
        ("'[' expected", "expected '['"),
        ("operation name expected", "expected operation name in quotes"),
        ("SSA value %0 is already defined", "redefinition of SSA value '%0'"),
        ("undefined symbol alias '!q'", "undefined symbol alias id 'q'"),
        ("'quant.foobar' is not registered", "unknown quantized type foobar"),
        ("'stablehlo.foobar' is not registered", "unknown stablehlo type: foobar"),
        ("something else entirely", "something else entirely"),
    ],
)
def test_common_messages_take_mlir_wording(message: str, expected: str) -> None:
    assert mlir_wording(message, "", 0, DIALECTS) == (expected, 0)


def test_type_mismatch_names_the_value_at_the_use() -> None:
    text = "return %a#1 : i16"
    message = "operand is used with type i16, but has been previously used or defined with type i8"
    assert mlir_wording(message, text, 7, DIALECTS) == (
        "use of value '%a#1' expects different type than prior uses: 'i16' vs 'i8'",
        7,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  stablehlo.nope\n  ret", ("custom op 'stablehlo.nope' is unknown", 2)),
        ("  nope\n  ret", ("custom op 'nope' is unknown (tried 'func.nope' as well)", 2)),
        ("  foo.bar\n  ret", ("Dialect `foo' not found for custom op 'foo.bar' ", 2)),
        (
            '  "stablehlo.nope"() ',
            (
                "unregistered operation 'stablehlo.nope' found in dialect ('stablehlo') "
                "that does not allow unknown operations",
                2,
            ),
        ),
    ],
)
def test_unknown_ops_are_reported_at_their_name(text: str, expected: tuple[str, int]) -> None:
    name = text.split()[0].split('"')[-2] if '"' in text else text.split()[0]
    offset = text.index(name) + len(name) + 1
    message = f"Operation {name} is not registered"
    assert mlir_wording(message, text, offset, DIALECTS, "func") == expected


def test_custom_form_of_an_unregistered_op() -> None:
    text = "%0 = chlo.tan %a : t"
    message = "Operation builtin.unregistered does not have a custom format."
    assert mlir_wording(message, text, text.index("%a"), DIALECTS) == (
        "Dialect `chlo' not found for custom op 'chlo.tan' ",
        5,
    )


def test_unbalanced_reports_the_innermost_open_bracket() -> None:
    assert unclosed_opener("!q.u<i8:f32, 1.0)", 16) == "<"
    assert unclosed_opener("!q.u<i8:{1.0, (2)]", 17) == "{"
    message = "Unbalanced ')' in dialect symbol body"
    text = "!q.u<i8:f32, 1.0)"
    assert mlir_wording(message, text, 16)[0] == "unbalanced '<' character in pretty dialect name"
