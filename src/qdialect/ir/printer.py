"""xDSL's printer with two MLIR habits, so `qopt` output matches `mlir-opt`'s.

* Attribute dictionaries (discardable attributes, properties, `{...}`
  dictionary attributes) print sorted by name: MLIR keeps them sorted.
* An op with several anonymous results prints them as one group, `%0:2 = ...`,
  used as `%0#0`, `%0#1`, as MLIR does (xDSL would print `%0, %1 = ...`).
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer


class QPrinter(Printer):
    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))

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
