"""Every lit input that qopt accepts is a fixed point: print -> parse -> print is identical."""

from __future__ import annotations

from pathlib import Path

import pytest

from qdialect.context import make_context
from qdialect.ir.parser import QParser
from qdialect.ir.printer import QPrinter
from qdialect.tools.qopt import split_chunks

ROOT = Path(__file__).resolve().parents[3]


def _has_ir(text: str) -> bool:
    return any(line.strip() and not line.lstrip().startswith("//") for line in text.splitlines())


def _meant_to_fail(text: str) -> bool:
    # --verify-diagnostics files and `not qopt`/`not qrun` inputs are invalid on purpose;
    # their RUN lines check the diagnostics instead.
    return (
        "expected-error" in text
        or "RUN: not qrun %s" in text
        or ("RUN: not qopt %s" in text and "allow-unregistered" not in text)
    )


LIT_INPUTS = sorted(
    p
    for p in (ROOT / "test" / "filecheck").rglob("*.mlir")
    if "Inputs" not in p.parts and _has_ir(p.read_text()) and not _meant_to_fail(p.read_text())
)


def print_module(text: str, allow_unregistered: bool) -> str:
    from io import StringIO

    module = QParser(make_context(allow_unregistered), text).parse_module()
    module.verify()
    out = StringIO()
    QPrinter(stream=out).print_op(module)
    return out.getvalue()


@pytest.mark.parametrize("path", LIT_INPUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_lit_input_is_a_fixed_point(path: Path) -> None:
    text = path.read_text()
    unregistered = "--allow-unregistered-dialect" in text
    chunks = split_chunks(text, "// -----" in text)
    checked = 0
    for chunk in chunks:
        once = print_module(chunk.text, unregistered)
        twice = print_module(once, unregistered)
        assert twice == once
        checked += 1
    assert checked == len(chunks)


def test_the_suite_is_not_empty() -> None:
    assert len(LIT_INPUTS) >= 15
