"""The MLIR context every qdialect tool and library user starts from."""

from __future__ import annotations

from xdsl.context import Context

from qdialect.dialects import get_all_dialects


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with exactly the dialects of `get_all_dialects()` registered (lazily)."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
