"""Mesh-axes replica groups: a collective's groups named by device-mesh axes.

    replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @mesh,
        axes = [#stablehlo.axis_ref<name = "x">, #stablehlo.axis_ref<name = "y">]>
    #stablehlo.mesh<axes=[<name = "x", size = 2>, <name = "y", size = 2>],
                    device_ids=dense<[0, 2, 1, 3]> : tensor<4xi64>>
    #stablehlo.axis_ref<name = "x", sub_axis_info = (1)2>

The mesh is inline (`#stablehlo.mesh`) or a symbol the collective must be able to
find in its module. The groups
are the devices that share every coordinate but the named axes (`mesh_groups`), as
upstream's reference flattening defines them. Parsing, printing and messages follow
upstream's; an empty mesh axis list is refused as upstream refuses it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from qdialect.ir import xdsl_private as xp
from qdialect.ir.errors import add_follow_up


def _parse_struct(
    parser: AttrParser, parsers: dict[str, Callable[[], Attribute]], required: Sequence[str]
) -> dict[str, Attribute]:
    """`name = value, ...` in any order, as MLIR's `struct(params)` reads it: each
    parameter once; the optional ones may be left out."""
    values: dict[str, Attribute] = {}
    while True:
        start = parser.pos
        key = parser.parse_optional_identifier()
        if key is None or key not in parsers or key in values:
            parser.raise_error("expected a parameter name in struct", start, start)
        parser.parse_punctuation("=")
        values[key] = parsers[key]()
        if all(k in values for k in required) and xp.current_token(parser).kind == (
            MLIRTokenKind.GREATER
        ):
            return values
        parser.parse_punctuation(",")


def _parse_int(parser: AttrParser) -> IntAttr:
    return IntAttr(parser.parse_integer(allow_boolean=False))


def _parse_nested(parser: AttrParser, cls: type[ParametrizedAttribute]) -> Attribute:
    """A parameter of attribute type `cls`: its body alone, or the whole `#dialect.name<...>`."""
    if xp.current_token(parser).kind == MLIRTokenKind.HASH_IDENT:
        start = parser.pos
        attr = parser.parse_attribute()
        if not isinstance(attr, cls):
            parser.raise_error(f"expected #{cls.name}", start, parser.pos)
        return attr
    return cls.new(cls.parse_parameters(parser))


@irdl_attr_definition
class SubAxisInfoAttr(ParametrizedAttribute):
    """`(pre_size)size`: which part of a split mesh axis an axis reference means."""

    name = "stablehlo.sub_axis_info"
    pre_size: IntAttr
    size: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        parser.parse_punctuation("(")
        pre_size = _parse_int(parser)
        parser.parse_punctuation(")")
        return [pre_size, _parse_int(parser)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"({self.pre_size.data}){self.size.data}")


@irdl_attr_definition
class AxisRefAttr(ParametrizedAttribute):
    """`#stablehlo.axis_ref<name = "x"[, sub_axis_info = (1)2]>`: a mesh axis, or part of one."""

    name = "stablehlo.axis_ref"
    axis_name: StringAttr
    sub_axis_info: SubAxisInfoAttr | NoneAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            values = _parse_struct(
                parser,
                {
                    "name": lambda: StringAttr(parser.parse_str_literal()),
                    "sub_axis_info": lambda: SubAxisInfoAttr.new(
                        SubAxisInfoAttr.parse_parameters(parser)
                    ),
                },
                ("name",),
            )
        return [values["name"], values.get("sub_axis_info", NoneAttr())]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<name = ")
        printer.print_string_literal(self.axis_name.data)
        if isinstance(self.sub_axis_info, SubAxisInfoAttr):
            printer.print_string(", sub_axis_info = ")
            self.sub_axis_info.print_parameters(printer)
        printer.print_string(">")


@irdl_attr_definition
class MeshAxisAttr(ParametrizedAttribute):
    """`#stablehlo.mesh_axis<name = "x", size = 2>`: one axis of a device mesh."""

    name = "stablehlo.mesh_axis"
    axis_name: StringAttr
    size: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            values = _parse_struct(
                parser,
                {
                    "name": lambda: StringAttr(parser.parse_str_literal()),
                    "size": lambda: _parse_int(parser),
                },
                ("name", "size"),
            )
        return [values["name"], values["size"]]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<name = ")
        printer.print_string_literal(self.axis_name.data)
        printer.print_string(f", size = {self.size.data}>")


@irdl_attr_definition
class MeshAttr(ParametrizedAttribute):
    """`#stablehlo.mesh<axes=[<name = "x", size = 2>], device_ids=dense<...> : tensor<2xi64>>`:
    the devices as a row-major grid of named axes; `device_ids` (default 0, 1, ...) says
    which device sits at each point."""

    name = "stablehlo.mesh"
    axes: ArrayAttr[MeshAxisAttr]
    device_ids: DenseIntOrFPElementsAttr | NoneAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            parser.parse_keyword("axes")
            parser.parse_punctuation("=")
            try:
                parser.parse_punctuation("[")
                if xp.current_token(parser).kind == MLIRTokenKind.R_SQUARE:
                    parser.raise_error("expected '<'", parser.pos, parser.pos)  # none: refused
                axes = parser.parse_comma_separated_list(
                    parser.Delimiter.NONE, lambda: _parse_nested(parser, MeshAxisAttr)
                )
                parser.parse_punctuation("]")
            except ParseError as err:
                at = parser.pos
                follow = ParseError(
                    Span(at, at, xp.current_token(parser).span.input),
                    "failed to parse StableHLO_Mesh parameter 'axes' which is to be a "
                    "`::llvm::ArrayRef<stablehlo::MeshAxisAttr>`",
                )
                raise add_follow_up(err, follow) from None
            device_ids: Attribute = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("device_ids")
                parser.parse_punctuation("=")
                start = parser.pos
                device_ids = parser.parse_attribute()
                if not (
                    isinstance(device_ids, DenseIntOrFPElementsAttr)
                    and isinstance(device_ids.get_element_type(), IntegerType)
                ):
                    parser.raise_error("invalid kind of attribute specified", start, parser.pos)
        return [ArrayAttr(axes), device_ids]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<axes=[")
        printer.print_list(self.axes.data, lambda a: a.print_parameters(printer))
        printer.print_string("]")
        if isinstance(self.device_ids, DenseIntOrFPElementsAttr):
            printer.print_string(", device_ids=")
            printer.print_attribute(self.device_ids)
        printer.print_string(">")

    def device_grid(self) -> np.ndarray:
        """The device at each point of the mesh, an array shaped like the mesh."""
        sizes = [a.size.data for a in self.axes.data]
        if any(size <= 0 for size in sizes):
            raise ValueError(f"mesh axis sizes must be positive, got {sizes}")
        count = int(np.prod(sizes, dtype=np.int64))
        if isinstance(self.device_ids, NoneAttr) or not self.device_ids.get_values():
            return np.arange(count, dtype=np.int64).reshape(sizes)
        ids = np.asarray(self.device_ids.get_values(), dtype=np.int64)
        if ids.size != count:
            raise ValueError(f"the mesh has {count} devices but device_ids lists {ids.size}")
        return ids.reshape(sizes)


@irdl_attr_definition
class ReplicaGroupMeshAxesAttr(ParametrizedAttribute):
    """`#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [...]>`: one group per
    combination of the other axes' coordinates, ordered along the named axes."""

    name = "stablehlo.replica_group_mesh_axes"
    mesh: Attribute
    axes: ArrayAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            values = _parse_struct(
                parser,
                {"mesh": parser.parse_attribute, "axes": lambda: _parse_array(parser)},
                ("mesh", "axes"),
            )
        mesh, axes = values["mesh"], values["axes"]
        assert isinstance(axes, ArrayAttr)
        if (message := _mesh_axes_problem(mesh, axes)) is not None:
            parser.raise_error(message, start, start + 1)
        return [mesh, axes]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<mesh = ")
        printer.print_attribute(self.mesh)
        printer.print_string(", axes = ")
        printer.print_attribute(self.axes)
        printer.print_string(">")

    def verify(self) -> None:
        if (message := _mesh_axes_problem(self.mesh, self.axes)) is not None:
            raise VerifyException(message)

    def symbol_problem(self, op: Operation) -> str | None:
        """Upstream's verifySymbolUses: a symbol mesh must name a symbol `op` can see."""
        if isinstance(self.mesh, SymbolRefAttr) and not _symbol_visible(
            op, self.mesh.string_value()
        ):
            return f"replica_groups: mesh symbol '{self.mesh.string_value()}' not found"
        return None


def _parse_array(parser: AttrParser) -> ArrayAttr:
    start = parser.pos
    attr = parser.parse_attribute()
    if not isinstance(attr, ArrayAttr):
        parser.raise_error("invalid kind of attribute specified", start, parser.pos)
    return attr


def _mesh_axes_problem(mesh: Attribute, axes: ArrayAttr) -> str | None:
    """Upstream's ReplicaGroupMeshAxesAttr::verify, in its words."""
    if not (isinstance(mesh, SymbolRefAttr) and not mesh.nested_references.data) and not isinstance(
        mesh, MeshAttr
    ):
        return "mesh must be a FlatSymbolRefAttr or MeshAttr"
    if isinstance(mesh, MeshAttr):
        names = {a.axis_name.data for a in mesh.axes.data}
        for axis in axes.data:
            if not isinstance(axis, AxisRefAttr):
                return "expected AxisRefAttr in axes list"
            if axis.axis_name.data not in names:
                return f"axis '{axis.axis_name.data}' not found in mesh definition"
    return None


def _symbol(op: Operation, name: str) -> Operation | None:
    """MLIR's lookupNearestSymbolFrom: the symbol op named `name` in the closest symbol
    table enclosing `op` (an unregistered op is no symbol, as in MLIR)."""
    try:
        return SymbolTable.lookup_symbol(op, name)
    except ValueError:  # no enclosing symbol table
        return None


def _symbol_visible(op: Operation, name: str) -> bool:
    """The symbol resolves; an op outside any module has nothing to check against."""
    return op.parent_op() is None or _symbol(op, name) is not None


def resolve_mesh(attr: ReplicaGroupMeshAxesAttr, op: Operation | None = None) -> MeshAttr:
    """The mesh `attr` means: inline, or a #stablehlo.mesh the symbol it names carries
    as its `mesh` or `stablehlo.mesh` attribute (where upstream's compatibility
    expander looks for it)."""
    if isinstance(attr.mesh, MeshAttr):
        return attr.mesh
    assert isinstance(attr.mesh, SymbolRefAttr)
    name = attr.mesh.string_value()
    symbol = None if op is None else _symbol(op, name)
    if symbol is None:
        raise ValueError(f"replica_groups: mesh symbol '{name}' not found")
    for key in ("mesh", "stablehlo.mesh"):
        found = symbol.attributes.get(key) or symbol.properties.get(key)
        if isinstance(found, MeshAttr):
            return found
    raise ValueError(f"mesh symbol '{name}' carries no #stablehlo.mesh attribute")


def mesh_groups(attr: ReplicaGroupMeshAxesAttr, op: Operation | None = None) -> list[list[int]]:
    """The device groups `attr` names (on `op`, where a mesh symbol is looked up): the devices sharing every coordinate but
    the named axes, each group ordered along the named axes in their order. Sub-axes
    are refused, as upstream's reference flattening refuses them; any failure is a
    ValueError saying why."""
    mesh = resolve_mesh(attr, op)
    names = [a.axis_name.data for a in mesh.axes.data]
    named: list[int] = []
    for axis in attr.axes.data:
        if not isinstance(axis, AxisRefAttr) or axis.axis_name.data not in names:
            raise ValueError(f"replica_groups: {axis} is not an axis of the mesh")
        if isinstance(axis.sub_axis_info, SubAxisInfoAttr):
            raise ValueError(
                f"replica_groups name a sub-axis of '{axis.axis_name.data}'; "
                "sub-axes cannot be expanded into groups"
            )
        if names.index(axis.axis_name.data) in named:
            raise ValueError(f"replica_groups name mesh axis '{axis.axis_name.data}' twice")
        named.append(names.index(axis.axis_name.data))
    grid = mesh.device_grid()
    others = [i for i in range(len(names)) if i not in named]
    group_size = int(np.prod([grid.shape[i] for i in named], dtype=np.int64))
    return grid.transpose(others + named).reshape(-1, group_size).tolist()


MESH_ATTRS = [SubAxisInfoAttr, AxisRefAttr, MeshAxisAttr, MeshAttr, ReplicaGroupMeshAxesAttr]
