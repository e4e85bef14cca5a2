"""The MLIR context every qdialect tool and library user starts from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from xdsl.context import Context
from xdsl.ir import Attribute, Operation, TypeAttribute

from qdialect.dialects import get_all_dialects
from qdialect.ir.closed_dialects import CLOSED_DIALECTS

_T = TypeVar("_T")


@dataclass
class QContext(Context):
    """xDSL's context, with `CLOSED_DIALECTS` closed to unregistered names."""

    def _closed(self, name: str) -> bool:
        return self.allow_unregistered and name.partition(".")[0] in CLOSED_DIALECTS

    def _lookup(self, name: str, lookup: Callable[[], _T]) -> _T:
        """`lookup()`, with unregistered names refused when `name` is in a closed dialect."""
        if not self._closed(name):
            return lookup()
        self.allow_unregistered = False
        try:
            return lookup()
        finally:
            self.allow_unregistered = True

    def get_optional_op(
        self, name: str, *, dialect_stack: Sequence[str] = ()
    ) -> type[Operation] | None:
        return self._lookup(
            name, lambda: super(QContext, self).get_optional_op(name, dialect_stack=dialect_stack)
        )

    def get_optional_type(self, name: str) -> type[TypeAttribute] | None:
        return self._lookup(name, lambda: super(QContext, self).get_optional_type(name))

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
        return self._lookup(name, lambda: super(QContext, self).get_optional_attr(name))

    def clone(self) -> QContext:
        return QContext(
            self.allow_unregistered,
            self._loaded_dialects.copy(),
            self._loaded_ops.copy(),
            self._loaded_attrs.copy(),
            self._loaded_types.copy(),
            self._registered_dialects.copy(),
        )


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with exactly the dialects of `get_all_dialects()` registered (lazily)."""
    ctx = QContext(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
