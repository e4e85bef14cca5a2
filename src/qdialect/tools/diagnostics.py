"""Diagnostics as MLIR prints them, and MLIR's `--verify-diagnostics` checking.

A diagnostic prints as `file:line:col: error: message` (or `error: message`
when it has no location). With `--verify-diagnostics`, the source's
`// expected-error @+1 {{text}}` comments (also `expected-warning`,
`expected-note`, `expected-remark`; locations `@+N`, `@-N`, `@N`, `@above`,
`@below`, or none for the comment's own line) must each be matched by a
produced diagnostic of that severity on that line whose message contains
`text`; every produced diagnostic must be expected. Locations are compared by
line, as MLIR does.

As in MLIR, one expectation per line: its text runs from the first `{{` to the
last `}}` on the line. The `-re` forms (`expected-error-re {{op {{[0-9]+}} x}}`)
mix literal text with `{{regex}}` groups; the message must contain a match of
the whole (literal parts matched exactly).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import TextIO

__all__ = ["Diagnostic", "Expectation", "check_expectations", "parse_expectations"]


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error", "warning", "note", "remark"
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None

    follow_ups: tuple[Diagnostic, ...] = ()  # MLIR's further errors for the same failure

    def all(self) -> list[Diagnostic]:
        """This diagnostic and its follow-ups, in the order MLIR emits them."""
        return [self, *self.follow_ups]

    def format(self) -> str:
        if self.file is not None and self.line is not None:
            return f"{self.file}:{self.line}:{self.col or 1}: {self.severity}: {self.message}"
        return f"{self.severity}: {self.message}"

    def emit(self, stream: TextIO | None = None) -> None:
        """Print this diagnostic (callers print `all()` for the follow-ups too)."""
        print(self.format(), file=stream or sys.stderr)


@dataclass
class Expectation:
    severity: str
    text: str
    line: int  # the line the diagnostic is expected on
    source_line: int  # where the expected-* comment is
    matched: bool = field(default=False)
    pattern: re.Pattern[str] | None = None  # the `-re` forms: searched for in the message

    def matches(self, message: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message


_EXPECT_RE = re.compile(
    r"expected-(error|warning|note|remark)(-re)?\s*(@(?:[+-]?[0-9]+|above|below))?"
    r"\s*\{\{(.*)\}\}\s*$"
)


def expectation_pattern(text: str) -> re.Pattern[str] | str:
    """The regex of an `-re` expectation's text: literal parts escaped, `{{...}}` groups as
    written; or why it is malformed (an unclosed group, an invalid regex)."""
    parts: list[str] = []
    rest = text
    while (start := rest.find("{{")) != -1:
        end = rest.find("}}", start + 2)
        if end == -1:
            return "found start of regex with no end '}}'"
        parts.append(re.escape(rest[:start]))
        parts.append(f"(?:{rest[start + 2 : end]})")
        rest = rest[end + 2 :]
    parts.append(re.escape(rest))
    try:
        return re.compile("".join(parts))
    except re.error as err:
        return f"invalid regex: {err}"


def parse_expectations(
    text: str, line_offset: int = 0, file: str | None = None
) -> list[Expectation] | Diagnostic:
    """Expected diagnostics of a source chunk; a Diagnostic if a designator is malformed."""
    lines = text.split("\n")
    expectations: list[Expectation] = []
    designator_lines = {i for i, line in enumerate(lines) if _EXPECT_RE.search(line)}
    for index, source in enumerate(lines):
        for match in _EXPECT_RE.finditer(source):
            severity, where, message = match.group(1), match.group(3), match.group(4)
            target = index
            if where is not None:
                spec = where[1:]
                if spec == "above":
                    target = index - 1
                    while target in designator_lines:
                        target -= 1
                elif spec == "below":
                    target = index + 1
                    while target in designator_lines:
                        target += 1
                elif spec[0] in "+-":
                    target = index + int(spec)
                else:
                    target = int(spec) - 1 - line_offset
            if not 0 <= target < len(lines):
                return Diagnostic(
                    "error",
                    f"expected-{severity} location points outside the input",
                    file,
                    index + 1 + line_offset,
                    match.start() + 1,
                )
            pattern = expectation_pattern(message) if match.group(2) else None
            if isinstance(pattern, str):
                return Diagnostic(
                    "error", pattern, file, index + 1 + line_offset, match.start() + 1
                )
            expectations.append(
                Expectation(
                    severity,
                    message,
                    target + 1 + line_offset,
                    index + 1 + line_offset,
                    pattern=pattern,
                )
            )
    return expectations


def check_expectations(
    expectations: list[Expectation], produced: list[Diagnostic], file: str
) -> list[Diagnostic]:
    """Match produced diagnostics against expectations; returns the failures to report."""
    failures: list[Diagnostic] = []
    for diag in produced:
        for exp in expectations:
            if (
                not exp.matched
                and exp.severity == diag.severity
                and exp.line == diag.line
                and exp.matches(diag.message)
            ):
                exp.matched = True
                break
        else:
            failures.append(
                Diagnostic(
                    "error",
                    f"unexpected {diag.severity}: {diag.message}",
                    diag.file or file,
                    diag.line,
                    diag.col,
                )
            )
    for exp in expectations:
        if not exp.matched:
            failures.append(
                Diagnostic(
                    "error",
                    f'expected {exp.severity} "{exp.text}" was not produced',
                    file,
                    exp.source_line,
                    1,
                )
            )
    return failures
