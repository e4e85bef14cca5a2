"""Checks on lists of dimension numbers, worded as upstream StableHLO words them
(checkDimsInBounds, checkDimsDistinct), shared by gather and scatter."""

from __future__ import annotations

from collections.abc import Sequence


def dims_text(dims: Sequence[int]) -> str:
    return ", ".join(str(d) for d in dims)


def out_of_range(dims: Sequence[int], bound: int, name: str, bound_name: str) -> str | None:
    """The first entry of `dims` outside [0, bound), as an error message, else None."""
    for dim in dims:
        if not 0 <= dim < bound:
            return (
                f"Expects each element of {name} to be in range [0, {bound_name}) i.e. "
                f"[0, {bound}). got: {dim}."
            )
    return None


def repeated(a: Sequence[int], b: Sequence[int], a_name: str, b_name: str) -> str | None:
    """The first dimension listed twice across `a` and `b`, as an error message, else None."""
    seen: set[int] = set()
    for dim in (*a, *b):
        if dim in seen:
            return f"has duplicated dimension from {a_name} and {b_name}: {dim}"
        seen.add(dim)
    return None
