"""The `npu` dialect: one op per NPU instruction, generated from the ISA table.

    npu.program machine = "small" {
      npu.load [buf = input, row = 0, dram = 0, rows = 4, ...]
      npu.signal [queue = ld2cp]
      ...
      npu.halt
    }

Every op carries its instruction's fields as i64 properties (enumerated
fields print by name). An op verifies what the instruction alone determines —
field widths and which engine may touch which buffer; `npu.program` verifies
what needs the machine description — buffer and DRAM bounds, row widths — and
that the program ends in `halt`. `qopt -t npu-asm` / `-t npu-bin` emit it.
"""

from __future__ import annotations

import functools
from typing import ClassVar

from xdsl.dialects.builtin import IntegerAttr, StringAttr, i64
from xdsl.ir import Attribute, Dialect, Region
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from qdialect.npu.encoding import EncodingError, Instruction
from qdialect.npu.footprint import ACCESS, accesses, check, engine_of
from qdialect.npu.isa import OPCODES, Opcode
from qdialect.npu.machine import MachineError, load_machine


class InstructionOp(IRDLOperation):
    """Base of the instruction ops; `OPCODE` is the table entry."""

    OPCODE: ClassVar[Opcode]

    def instruction(self) -> Instruction:
        values = {}
        for f in self.OPCODE.fields:
            attr = self.properties.get(f.name)
            if not isinstance(attr, IntegerAttr):
                raise VerifyException(f"'{self.name}' needs the integer property '{f.name}'")
            values[f.name] = attr.value.data
        try:
            return Instruction(self.OPCODE, values)
        except EncodingError as err:
            raise VerifyException(
                str(err).replace(f"'{self.OPCODE.mnemonic}'", f"'{self.name}'")
            ) from None

    def verify_(self) -> None:
        inst = self.instruction()
        engine = engine_of(inst)
        program = self.parent_op()
        machine = None
        if isinstance(program, ProgramOp):
            try:
                machine = load_machine(program.machine.data)  # cached: read once, not per op
            except MachineError:
                pass  # the program reports it
        # Permissions need no machine: any shipped one gives the access list.
        for a in accesses(inst, machine or load_machine("small")):
            if a.buffer != "dram" and a.buffer not in ACCESS[engine][a.mode]:
                raise VerifyException(
                    f"'{self.name}': the {engine} engine may not {a.mode} buffer '{a.buffer}'"
                )
        if machine is not None and (fault := check(inst, machine, engine)) is not None:
            raise VerifyException(f"'{self.name}' on machine '{machine.name}': {fault}")

    @classmethod
    def parse(cls, parser: Parser):
        props: dict[str, Attribute] = {}
        fields = {f.name: f for f in cls.OPCODE.fields}

        def entry() -> None:
            start = parser.pos
            name = parser.parse_identifier()
            if name not in fields:
                parser.raise_error(
                    f"'{cls.name}' has no field '{name}' (fields: {', '.join(fields) or 'none'})",
                    start,
                    parser.pos,
                )
            if name in props:
                parser.raise_error(f"field '{name}' given twice", start, parser.pos)
            parser.parse_punctuation("=")
            f = fields[name]
            if f.names:
                at = parser.pos
                word = parser.parse_identifier()
                if word not in f.names:
                    parser.raise_error(
                        f"'{name}' must be one of {', '.join(f.names)}", at, parser.pos
                    )
                value = f.names.index(word)
            else:
                value = parser.parse_integer(allow_boolean=False)
            props[name] = IntegerAttr(value, i64)

        if fields:
            parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
        return cls.create(properties=props)

    def print(self, printer: Printer):
        if not self.OPCODE.fields:
            return
        parts = []
        for f in self.OPCODE.fields:
            attr = self.properties.get(f.name)
            value = attr.value.data if isinstance(attr, IntegerAttr) else 0
            parts.append(
                f"{f.name} = {f.names[value] if f.names and value < len(f.names) else value}"
            )
        printer.print_string(" [" + ", ".join(parts) + "]")


def _op_class(opcode: Opcode) -> type[InstructionOp]:
    name = "".join(part.title() for part in opcode.mnemonic.split("_")) + "Op"
    namespace: dict = {
        "name": f"npu.{opcode.mnemonic}",
        "OPCODE": opcode,
        "__doc__": opcode.doc,
        "__annotations__": {"OPCODE": ClassVar[Opcode]},
    }
    for f in opcode.fields:
        namespace[f.name] = prop_def(IntegerAttr)
    return irdl_op_definition(type(name, (InstructionOp,), namespace))


INSTRUCTION_OPS: tuple[type[InstructionOp], ...] = tuple(_op_class(op) for op in OPCODES)
_OP_CLASS = {cls.OPCODE.mnemonic: cls for cls in INSTRUCTION_OPS}


@functools.lru_cache(maxsize=1 << 16)
def _field(value: int) -> IntegerAttr:
    """The i64 attribute of one field value. Attributes are immutable, so ops share them:
    a network's tens of thousands of instructions hold a few thousand distinct values, and
    building (and verifying) an attribute per field dominated assembly."""
    return IntegerAttr(value, i64)


def instruction_op(inst: Instruction) -> InstructionOp:
    """The op of an instruction record (the inverse of `InstructionOp.instruction`)."""
    return _OP_CLASS[inst.opcode.mnemonic].create(
        properties={name: _field(value) for name, value in inst.values.items()}
    )


@irdl_op_definition
class ProgramOp(IRDLOperation):
    """`npu.program machine = "NAME" { instructions }`: one program for one machine description."""

    name = "npu.program"
    machine = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, machine: str, body: Region):
        super().__init__(properties={"machine": StringAttr(machine)}, regions=[body])

    def instructions(self) -> list[Instruction]:
        return [op.instruction() for op in self.body.block.ops if isinstance(op, InstructionOp)]

    def verify_(self) -> None:
        """The machine and the program's shape; each instruction checks its own accesses."""
        try:
            load_machine(self.machine.data)
        except MachineError as err:
            raise VerifyException(f"'npu.program': {err}") from None
        ops = list(self.body.block.ops)
        for op in ops:
            if not isinstance(op, InstructionOp):
                raise VerifyException(f"'npu.program' holds npu instructions only, not '{op.name}'")
        if not ops or ops[-1].name != "npu.halt":
            raise VerifyException("'npu.program' must end with 'npu.halt'")

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_keyword("machine")
        parser.parse_punctuation("=")
        machine = parser.parse_str_literal()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        op = cls(machine, body)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer):
        printer.print_string(f' machine = "{self.machine.data}"')
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)


NPU = Dialect("npu", [ProgramOp, *INSTRUCTION_OPS])


def program_binary(program: ProgramOp, machine_digest: int):
    """The `.npub` contents of `program`: code, the `npu.sections` it carries, its `npu.io`."""
    import json

    from xdsl.dialects.builtin import (
        ArrayAttr,
        DenseIntOrFPElementsAttr,
        DictionaryAttr,
        IntegerType,
    )

    from qdialect.npu.encoding import Binary, Section, Tensor, read_layers

    sections = {}
    attr = program.attributes.get("npu.sections")
    if isinstance(attr, DictionaryAttr):
        for name, entry in attr.data.items():
            assert isinstance(entry, ArrayAttr)
            address, dense = entry.data
            assert isinstance(address, IntegerAttr) and isinstance(dense, DenseIntOrFPElementsAttr)
            width = dense.get_element_type()
            if not (isinstance(width, IntegerType) and width.width.data == 8):
                raise VerifyException(f"'npu.program': section '{name}' must hold i8 values")
            data = dense.data.data  # one byte per element
            sections[name] = Section(data, address.value.data)
    inputs, outputs = [], []
    io = program.attributes.get("npu.io")
    if isinstance(io, StringAttr):
        manifest = json.loads(io.data)
        inputs = [Tensor.from_json(e, "npu.io input") for e in manifest.get("inputs", [])]
        outputs = [Tensor.from_json(e, "npu.io output") for e in manifest.get("outputs", [])]
    layers = []
    attr = program.attributes.get("npu.layers")
    if isinstance(attr, StringAttr):
        layers = read_layers({"layers": json.loads(attr.data)}, "npu.layers")
    return Binary(machine_digest, program.instructions(), sections, inputs, outputs, layers)
