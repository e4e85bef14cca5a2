"""Rows of strings as a plain-text or markdown table: what the benches print."""

from __future__ import annotations

from collections.abc import Sequence


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]], *, markdown: bool = False,
                 right: bool = False) -> str:  # fmt: skip
    """Columns padded to their widest cell (right-aligned with `right`), or a markdown
    table when `markdown`."""
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        pad = [c.rjust(w) if right else c.ljust(w) for c, w in zip(cells, widths, strict=True)]
        return "  ".join(pad).rstrip()

    return "\n".join([line(header), *(line(r) for r in rows)])
