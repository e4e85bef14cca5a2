"""Pass registry: the one place that lists every pass `qopt` can run.

Each project pass lives in its own module, named after the pass; generic
clean-up passes come from xDSL.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass CLI name -> factory returning the pass class (imported lazily)."""

    def get_canonicalize() -> type[ModulePass]:
        from xdsl.transforms.canonicalize import CanonicalizePass

        return CanonicalizePass

    def get_cse() -> type[ModulePass]:
        from xdsl.transforms.common_subexpression_elimination import (
            CommonSubexpressionElimination,
        )

        return CommonSubexpressionElimination

    def get_dce() -> type[ModulePass]:
        from xdsl.transforms.dead_code_elimination import DeadCodeElimination

        return DeadCodeElimination

    return {
        "canonicalize": get_canonicalize,
        "cse": get_cse,
        "dce": get_dce,
    }
