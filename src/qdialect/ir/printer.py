"""xDSL's printer with MLIR's dictionary order.

MLIR keeps every attribute dictionary (discardable attributes, properties,
`{...}` dictionary attributes) sorted by name, so that is the order it prints.
xDSL prints insertion order; printing sorted makes `qopt` output match
`mlir-opt`/`stablehlo-opt` byte for byte whatever order the input used.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.ir import Attribute
from xdsl.printer import Printer


class QPrinter(Printer):
    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))
