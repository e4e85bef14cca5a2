"""The instruction-set table: the generated ISA reference stays in step with it."""

from __future__ import annotations

from pathlib import Path

from qdialect.npu.isa import reference_markdown

ROOT = Path(__file__).resolve().parents[3]


def test_isa_reference_in_docs_is_generated_from_the_table() -> None:
    assert (ROOT / "docs" / "npu-isa.md").read_text() == reference_markdown()
