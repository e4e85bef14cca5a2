"""xDSL's printer with two MLIR habits, so `qopt` output matches `mlir-opt`'s.

* Attribute dictionaries (discardable attributes, properties, `{...}`
  dictionary attributes) print sorted by name: MLIR keeps them sorted.
* Floats print as MLIR's AsmPrinter prints them (`1.000000e-01`,
  `3.14159274`, `4.28657869E+9`, `0xFF800000`), for every float width.
* An op with several anonymous results prints them as one group, `%0:2 = ...`,
  used as `%0#0`, `%0#1`, as MLIR does (xDSL would print `%0, %1 = ...`).
* Large dense constants print from their bytes (a splat as its one value, anything
  else over 100 elements as MLIR's hex form) without unpacking every element into
  Python numbers: a 25-million-weight model prints in a fraction of a second.
* Op names drop the default dialect's prefix as `mlir-opt` drops it (`module`,
  `return`, `call`): the default dialect is `builtin` at the top and in a module's
  body, `func` in a function's body, and inherited elsewhere. xDSL's parser resolves
  a prefix-less name against the enclosing ops' dialects, so the output parses back.
  The generic form (`--print-op-generic`) keeps full names.
* Array elements of the default types, `i64` and `f64`, print without their type
  (`[1, 2 : i32]`), as MLIR prints them.
* A function declaration without results prints as MLIR prints it,
  `func.func private @f(i8)` (xDSL would add `-> ()`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    f64,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.utils import print_func_op_like
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from qdialect.ir import xdsl_private as xp
from qdialect.ir.float_format import FLOAT_FORMATS, format_mlir_float
from qdialect.ir.upstream_names import upstream_names

DEFAULT_DIALECT_OF_BODY = {"builtin.module": "builtin", "func.func": "func"}
"""Ops whose regions set the default dialect (MLIR's `OpAsmOpInterface::getDefaultDialect`);
any other op's regions inherit the enclosing default."""


def short_op_name(name: str, default_dialect: str) -> str:
    """`name` as MLIR prints it where `default_dialect` is the default: without the prefix
    when that is the default dialect and the rest has no further `.`."""
    prefix = default_dialect + "."
    rest = name[len(prefix) :]
    return rest if name.startswith(prefix) and "." not in rest else name


class QPrinter(Printer):
    def __init__(self, *args: Any, upstream_names: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._default_dialects = ["builtin"]
        self._pending_name: tuple[str, str] | None = None
        self._upstream_names = upstream_names
        """Name values as mlir-opt does (`qdialect.ir.upstream_names`) instead of
        keeping the input's names."""

    def print_op(self, op: Operation) -> None:
        if self._upstream_names:
            self._upstream_names = False  # once, for the outermost op printed
            xp.ssa_names(self).update(upstream_names(op))
        short = short_op_name(op.name, self._default_dialects[-1])
        custom = not self.print_generic_format and type(op).print is not Operation.print
        if custom and short != op.name and op.name == type(op).name:
            self._pending_name = (op.name, short)  # print_string swaps it in
        if custom and isinstance(op, FuncOp) and not op.body.blocks:
            self._print_declaration(op, short)
            return
        body_dialect = DEFAULT_DIALECT_OF_BODY.get(op.name, self._default_dialects[-1])
        self._default_dialects.append(body_dialect)
        try:
            super().print_op(op)
        finally:
            self._default_dialects.pop()
            self._pending_name = None

    def _print_declaration(self, op: FuncOp, name: str) -> None:
        """A function declaration: no `-> ()` when it has no results, as MLIR prints it."""
        self.print_string(name)
        if op.sym_visibility:
            self.print_string(f" {op.sym_visibility.data}")
        print_func_op_like(
            self,
            op.sym_name,
            op.function_type,
            op.body,
            op.attributes,
            res_attrs=op.res_attrs,
            reserved_attr_names=("sym_name", "function_type", "sym_visibility", "arg_attrs"),
            print_empty_outputs=False,
        )
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)

    def print_string(self, text: str, *, indent: int | None = None) -> None:
        if self._pending_name is not None and text == self._pending_name[0]:
            text = self._pending_name[1]
            self._pending_name = None
        super().print_string(text, indent=indent)

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr) and self._print_dense(attribute):
            return
        if isinstance(attribute, ArrayAttr):
            self.print_string("[")
            self.print_list(attribute.data, self._print_array_element)
            self.print_string("]")
            return
        super().print_attribute(attribute)

    def _print_array_element(self, attr: Attribute) -> None:
        """An array element as MLIR prints it: the default types, `i64` and `f64`, left out."""
        if isinstance(attr, IntegerAttr) and attr.type == i64:
            self.print_string(str(attr.value.data))
        elif isinstance(attr, FloatAttr) and attr.type == f64:
            self.print_float(attr.value.data, f64)
        else:
            self.print_attribute(attr)

    def _print_dense(self, attr: DenseIntOrFPElementsAttr) -> bool:
        """xDSL's dense printing (splat as one value, hex above 100 elements) decided on the
        bytes, as MLIR decides it: xDSL compares values, so it would print `[-0.0, 0.0]` as
        the splat `-0.0` and a repeated NaN as a list. False where xDSL prints it right."""
        raw = attr.data.data
        size = getattr(attr.get_element_type(), "compile_time_size", 0)
        if not size or not raw or len(raw) % size:
            return False
        rows = np.frombuffer(raw, np.uint8).reshape(-1, size)
        splat = bool((rows == rows[0]).all())
        small = len(rows) <= 100
        if small and (
            isinstance(attr.get_element_type(), IntegerType | IndexType) or splat == attr.is_splat()
        ):
            return False
        self.print_string("dense<")
        if splat:
            xp.print_dense_element(attr, attr.get_element_type().unpack(raw[:size], 1)[0], self)
        elif small:
            xp.print_dense_list(attr, self)
        else:
            self.print_string(f'"0x{raw.hex().upper()}"')
        self.print_string("> : ")
        self.print_attribute(attr.get_type())
        return True

    def print_float(self, value: float, type) -> None:
        fmt = FLOAT_FORMATS.get(str(type))
        if fmt is None:
            super().print_float(value, type)
        else:
            self.print_string(format_mlir_float(value, fmt))

    def _print_results(self, op: Operation) -> None:
        results = op.results
        named = [xp.ssa_names(self).get(r) for r in results]
        if len(results) > 1 and all(n is not None and "#" in n for n in named):
            base = str(named[0]).split("#")[0]  # an upstream-named group: `%0:2 = `
            self.print_string(f"%{base}:{len(results)} = ")
            return
        if len(results) > 1 and not any(r.name_hint for r in results):
            if not any(r in xp.ssa_names(self) for r in results):
                base = xp.new_ssa_name(self)
                for index, result in enumerate(results):
                    xp.ssa_names(self)[result] = f"{base}#{index}"
                self.print_string(f"%{base}:{len(results)} = ")
                return
        super()._print_results(op)


def module_text(op: Operation, debuginfo: bool = False, upstream_names: bool = False) -> str:
    """`op` printed as `qopt` prints it (with `loc(...)` on every op when `debuginfo`;
    values named as mlir-opt names them when `upstream_names`)."""
    from io import StringIO

    out = StringIO()
    QPrinter(stream=out, print_debuginfo=debuginfo, upstream_names=upstream_names).print_op(op)
    out.write("\n")
    return out.getvalue()


def attribute_text(attr: Attribute) -> str:
    """`attr` as qopt prints it (`2.000000e+00 : f32`, a NaN's bits as `0xFFFFFFFF`), for
    diagnostics that quote attributes as MLIR does."""
    from io import StringIO

    out = StringIO()
    QPrinter(stream=out).print_attribute(attr)
    return out.getvalue()
