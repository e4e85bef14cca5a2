"""Parse errors in MLIR's words, so upstream's `expected-error` lines match them.

xDSL's parser words its errors its own way (`Expected ':'`, `'[' expected`,
`Operation foo.bar is not registered`, `values used but not defined: [%x]` at the
end of the input). `QParser.parse_module` passes every parse error through
`mlir_wording`, which rewrites the common ones as MLIR's parser words them (same
case, same text) and, where MLIR reports them elsewhere, moves them to MLIR's
location: an undeclared value is reported at its first use, not at the end.
Errors with no MLIR counterpart keep xDSL's text, with a lower-case first word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]

_DYNAMIC_DENSE = "elements literal type must have static shape"
_RAGGED = "tensor literal is invalid; ranks are not consistent between elements"

_RULES: list[_Rule] = [
    (re.compile(r"Expected integer literal$"), lambda m: "expected integer value"),
    (re.compile(r"Expected float literal$"), lambda m: "expected floating point literal"),
    (re.compile(r"'(.+)' expected(.*)$"), lambda m: f"expected '{m[1]}'{m[2]}"),
    (re.compile(r"operation name expected$"), lambda m: "expected operation name in quotes"),
    (re.compile(r"type expected$"), lambda m: "expected non-function type"),
    (re.compile(r"identifier expected$"), lambda m: "expected valid keyword"),
    (re.compile(r"expect symbol name$"), lambda m: "expected valid '@'-identifier for symbol name"),
    (
        re.compile(r"SSA value (%\S+) is already defined$"),
        lambda m: f"redefinition of SSA value '{m[1]}'",
    ),
    (
        re.compile(r"undefined symbol alias '[#!](.+)'$"),
        lambda m: f"undefined symbol alias id '{m[1]}'",
    ),
    (
        re.compile(r"Dense literal attribute should have a static shape\.$"),
        lambda m: _DYNAMIC_DENSE,
    ),
    (
        re.compile(
            r"Shape mismatch in dense literal\. Expected (\[.*\]) shape from the type, "
            r"but got (\[.*\]) shape\.$"
        ),
        lambda m: f"inferred shape of elements literal ({m[2]}) does not match type ({m[1]})",
    ),
    (
        re.compile(r"Tensor literal has inconsistent ranks between elements$"),
        lambda m: _RAGGED,
    ),
    # Unknown types of the dialects whose type parsers upstream tests exercise.
    (re.compile(r"'quant\.(.+)' is not registered$"), lambda m: f"unknown quantized type {m[1]}"),
    (
        re.compile(r"'stablehlo\.(.+)' is not registered$"),
        lambda m: f"unknown stablehlo type: {m[1]}",
    ),
]

_OP_NOT_REGISTERED = re.compile(r"Operation (\S+) is not registered$")
_NO_CUSTOM_FORMAT = re.compile(r"Operation builtin\.unregistered does not have a custom format")
_LAST_NAME = re.compile(r"([A-Za-z_][\w$.]*)\s*$")
_TYPE_MISMATCH = re.compile(
    r"operand is used with type (.+), but has been previously used or defined with type (.+)$"
)
_UNBALANCED = re.compile(r"Unbalanced '(.)' in dialect symbol body$")
_CLOSERS = {">": "<", ")": "(", "]": "[", "}": "{"}
# Dialect parsers upstream words with a capital (StableHLO's convolution syntax): kept.
_UPSTREAM_CAPITALIZED = ("Expected array with ", "Expected dimensions ", "Expected spatial ")


def unknown_op_message(
    name: str, generic: bool, dialects: Sequence[str], default_dialect: str
) -> str:
    """MLIR's error for an op name no dialect defines (custom or generic form)."""
    dialect = name.split(".", 1)[0] if "." in name else None
    if generic:
        if dialect in dialects:
            return (
                f"unregistered operation '{name}' found in dialect ('{dialect}') "
                "that does not allow unknown operations"
            )
        return (
            "operation being parsed with an unregistered dialect. If this is intended, "
            "please use -allow-unregistered-dialect with the MLIR tool used"
        )
    if dialect is None:
        return f"custom op '{name}' is unknown (tried '{default_dialect}.{name}' as well)"
    if dialect not in dialects:
        return f"Dialect `{dialect}' not found for custom op '{name}' "
    return f"custom op '{name}' is unknown"


def unclosed_opener(text: str, offset: int) -> str:
    """The innermost bracket still open before `offset` (scanning back), or '<'."""
    depth = 0
    for char in reversed(text[:offset]):
        if char in _CLOSERS:
            depth += 1
        elif char in "<([{":
            if depth == 0:
                return char
            depth -= 1
    return "<"


def mlir_wording(
    message: str,
    text: str,
    offset: int,
    dialects: Sequence[str] = (),
    default_dialect: str = "builtin",
) -> tuple[str, int]:
    """`message` (a parse error at character `offset` of `text`) as MLIR words it, and the
    offset MLIR reports it at."""
    if (match := _OP_NOT_REGISTERED.match(message)) is not None:
        # xDSL reports it after the name; MLIR at the name (the quote of a generic one).
        at = text.rfind(match[1], 0, offset + len(match[1]))
        generic = at > 0 and text[at - 1] == '"'
        at = at - 1 if generic else at
        return unknown_op_message(match[1], generic, dialects, default_dialect), max(at, 0)
    if _NO_CUSTOM_FORMAT.match(message) and (name := _LAST_NAME.search(text[:offset])):
        # --allow-unregistered-dialect accepts only the generic form of an unknown op.
        return unknown_op_message(name[1], False, dialects, default_dialect), name.start(1)
    reworded = _reworded(message, text, offset)
    at_dense = reworded == _DYNAMIC_DENSE or reworded.startswith("inferred shape of elements")
    if at_dense and (at := text.rfind("dense", 0, offset)) != -1:
        return reworded, at  # xDSL reports it after the type; MLIR at `dense`
    if reworded == _RAGGED and (at := text.rfind("]", 0, offset)) != -1:
        return reworded, at  # xDSL reports it after the literal's `]`; MLIR at it
    if _PUNCTUATION_EXPECTED.match(reworded):
        offset = wrong_token_offset(text, offset)
    return reworded, offset


#: The errors of MLIR's `parseToken` (a missing `>`, `)`, `,`, `->`, ...), which it
#: reports through `emitWrongTokenError`.
_PUNCTUATION_EXPECTED = re.compile(r"^expected '[<>()\[\]{},:=\-|*?+]+'")


def wrong_token_offset(text: str, offset: int) -> int:
    """Where MLIR's `emitWrongTokenError` reports an unexpected token at `offset`: at the
    end of the previous line's last token when the token starts its line (blank lines and
    `//` comments skipped back over), else at the token itself."""
    if offset >= len(text):
        offset = max(len(text) - 1, 0)
    end = offset
    while True:
        end = len(text[:end].rstrip(" \t"))
        if end == 0:
            return offset
        if text[end - 1] not in "\n\r":
            return end
        end -= 1
        line_start = max(text.rfind("\n", 0, end), text.rfind("\r", 0, end)) + 1
        comment = text.find("//", line_start, end)
        if comment != -1:
            end = comment


def _reworded(message: str, text: str, offset: int) -> str:
    for pattern, rewrite in _RULES:
        if (match := pattern.match(message)) is not None:
            return rewrite(match)
    if (match := _TYPE_MISMATCH.match(message)) is not None:
        name = re.match(r"%[\w$.\-]+(#\d+)?", text[offset:])
        value = name.group() if name else "value"
        return (
            f"use of value '{value}' expects different type than prior uses: "
            f"'{match[1]}' vs '{match[2]}'"
        )
    if (match := _UNBALANCED.match(message)) is not None:
        return f"unbalanced '{unclosed_opener(text, offset)}' character in pretty dialect name"
    if message.startswith("Expected ") and not message.startswith(_UPSTREAM_CAPITALIZED):
        return "e" + message[1:]
    return message
