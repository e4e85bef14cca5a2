"""Checks on lists of dimension numbers, worded as upstream StableHLO words them
(checkDimsInBounds, checkDimsDistinct, checkDotGeneralConstraints), shared by gather
and scatter, and by dot_general and chlo's ragged_dot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from qdialect.dialects.hlo_types import dims_compatible


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


def dim_out_of_bounds(dim: int, bound: int, name: str, bound_name: str) -> str | None:
    """checkDimInBounds: one dimension number outside [0, bound), as an error message."""
    if not 0 <= dim < bound:
        return f"Expects {name} to be in range [0, {bound_name}) i.e. [0, {bound}). got: {dim}."
    return None


class DotDimensionLists(Protocol):
    @property
    def lhs_batching_dimensions(self) -> Sequence[int]: ...
    @property
    def rhs_batching_dimensions(self) -> Sequence[int]: ...
    @property
    def lhs_contracting_dimensions(self) -> Sequence[int]: ...
    @property
    def rhs_contracting_dimensions(self) -> Sequence[int]: ...


def dot_general_problem(
    d: DotDimensionLists, lhs: Sequence[int] | None, rhs: Sequence[int] | None
) -> str | None:
    """checkDotGeneralConstraints (dot_general C1-C10), in its order and words: the first
    rule the dimension numbers break for operands of these shapes (None if unranked)."""
    for kind in ("batching", "contracting"):
        if len(getattr(d, f"lhs_{kind}_dimensions")) != len(getattr(d, f"rhs_{kind}_dimensions")):
            return f"lhs and rhs should have the same number of {kind} dimensions"
    for side in ("lhs", "rhs"):
        problem = repeated(
            getattr(d, f"{side}_batching_dimensions"),
            getattr(d, f"{side}_contracting_dimensions"),
            f"{side}_batching_dimensions",
            f"{side}_contracting_dimensions",
        )
        if problem is not None:
            return problem
    if lhs is None or rhs is None:
        return None
    for side, rank in (("lhs", len(lhs)), ("rhs", len(rhs))):
        for kind in ("batching", "contracting"):
            for dim in getattr(d, f"{side}_{kind}_dimensions"):
                if not 0 <= dim < rank:
                    return f"{side}_{kind}_dimensions value: {dim} is out of range: [0, {rank})"
    for kind in ("batching", "contracting"):
        lhs_dims, rhs_dims = (
            getattr(d, f"lhs_{kind}_dimensions"),
            getattr(d, f"rhs_{kind}_dimensions"),
        )
        if any(
            not dims_compatible(lhs[a], rhs[b]) for a, b in zip(lhs_dims, rhs_dims, strict=True)
        ):
            return f"{kind} dimension sizes must match for lhs/rhs"
    return None
