"""`--verify-diagnostics` expectations: MLIR's designators, `-re` patterns, the op prefix."""

from __future__ import annotations

from xdsl.dialects import test as xdsl_test

from qdialect.tools.common import op_message
from qdialect.tools.diagnostics import (
    Diagnostic,
    Expectation,
    check_expectations,
    expectation_pattern,
    parse_expectations,
)


def expectations(text: str) -> list[Expectation]:
    parsed = parse_expectations(text, 0, "f.mlir")
    assert isinstance(parsed, list), parsed
    return parsed


def failures(text: str, *produced: tuple[int, str]) -> list[str]:
    diags = [Diagnostic("error", message, "f.mlir", line, 1) for line, message in produced]
    return [d.message for d in check_expectations(expectations(text), diags, "f.mlir")]


def test_plain_text_is_a_substring_of_the_message() -> None:
    text = "// expected-error @+1 {{requires the same}}\nop"
    assert failures(text, (2, "'x.y' op requires the same element type")) == []
    assert failures(text, (2, "requires a different thing")) == [
        "unexpected error: requires a different thing",
        'expected error "requires the same" was not produced',
    ]


def test_text_runs_to_the_last_closing_braces_on_the_line() -> None:
    [exp] = expectations("// expected-error {{a {{b}} c}}")
    assert exp.text == "a {{b}} c" and exp.pattern is None


def test_re_form_mixes_literal_text_and_regex_groups() -> None:
    text = "// expected-error-re @+1 {{operand #{{[0-9]+}} must be (ranked) {{.*}}, got}}\nop"
    [exp] = expectations(text)
    assert exp.line == 2 and exp.pattern is not None
    # The literal parts match exactly (parentheses are not a regex group there).
    assert failures(text, (2, "'a.b' op operand #12 must be (ranked) tensor, got i8")) == []
    assert failures(text, (2, "operand #x must be (ranked) tensor, got i8")) != []
    assert failures(text, (2, "operand #1 must be ranked tensor, got i8")) != []


def test_re_form_for_every_severity() -> None:
    parsed = expectations(
        "op\n"
        "op // expected-warning-re {{w{{.}}}}\n"
        "// expected-note-re@-1 {{n}}\n"
        "// expected-remark-re @above {{r}}"
    )
    assert [(e.severity, e.line, e.pattern is not None) for e in parsed] == [
        ("warning", 2, True),
        ("note", 2, True),
        ("remark", 1, True),  # @above skips the lines that hold expectations
    ]


def test_malformed_re_patterns_are_reported_at_the_comment() -> None:
    assert str(expectation_pattern("a {{[0-9}} b")).startswith("invalid regex: unterminated")
    unclosed = parse_expectations("x\n// expected-error-re {{a {{b}}", 0, "f.mlir")
    assert isinstance(unclosed, Diagnostic)
    assert (unclosed.line, unclosed.message) == (2, "found start of regex with no end '}}'")


def test_op_message_prefixes_the_quoted_op_name_once() -> None:
    op = xdsl_test.TestOp()
    assert op_message(op, "requires x") == "'test.op' op requires x"
    assert op_message(op, "'test.op' requires x") == "'test.op' op requires x"
    assert op_message(op, "'test.op': requires x") == "'test.op' op requires x"
    assert op_message(op, "'test.op' op requires x") == "'test.op' op requires x"
    # A pass's error that does not name its op first reads as MLIR's plain emitError.
    assert op_message(op, "cannot lower this", always=False) == "cannot lower this"
    assert op_message(op, "'test.op' cannot", always=False) == "'test.op' op cannot"
