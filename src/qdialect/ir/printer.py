"""xDSL's printer with two MLIR habits, so `qopt` output matches `mlir-opt`'s.

* Attribute dictionaries (discardable attributes, properties, `{...}`
  dictionary attributes) print sorted by name: MLIR keeps them sorted.
* Floats print as MLIR's AsmPrinter prints them (`1.000000e-01`,
  `3.14159274`, `4.28657869E+9`, `0xFF800000`), for every float width.
* An op with several anonymous results prints them as one group, `%0:2 = ...`,
  used as `%0#0`, `%0#1`, as MLIR does (xDSL would print `%0, %1 = ...`).
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from qdialect.ir.float_format import FLOAT_FORMATS, format_mlir_float


class QPrinter(Printer):
    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def print_float(self, value: float, type) -> None:
        fmt = FLOAT_FORMATS.get(str(type))
        if fmt is None:
            super().print_float(value, type)
        else:
            self.print_string(format_mlir_float(value, fmt))

    def _print_results(self, op: Operation) -> None:
        results = op.results
        if len(results) > 1 and not any(r.name_hint for r in results):
            if not any(r in self._ssa_values for r in results):
                base = self._get_new_valid_name_id()
                for index, result in enumerate(results):
                    self._ssa_values[result] = f"{base}#{index}"
                self.print_string(f"%{base}:{len(results)} = ")
                return
        super()._print_results(op)
