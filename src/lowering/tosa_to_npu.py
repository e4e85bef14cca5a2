"""`tosa-to-npu`: a quantized TOSA function as one NPU program, in four stages.

1. form layers (`npu_graph.form_layers`): the entry function as a `LayerGraph`
   of MAC, pooling, elementwise, table and data-movement layers, rescales and
   clamps folded into requantization;
2. plan (`npu_plan.plan_program`): a pure function of the graph giving a `Plan`
   record — which tensors stay on chip, the constant sections, every DRAM
   address (first fit by lifetime), the io manifest;
3. emit (`npu_emit.emit_program`): each layer's tiled, double-buffered
   instruction records (`Instruction`, keyed by the ISA table);
4. assemble (`npu_assemble.assemble_program`): the records as one `npu.program`
   op carrying its constants and io manifest.

Each stage's result can be printed (`npu_dump`; `tosa-to-npu{dump=plan}`), so
each is tested with FileCheck. The result replaces the module's functions with
the program, so `qopt -p tosa-to-npu -t npu-bin -o model.npub` gives a binary
`qsim` runs.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from qdialect.dialects.npu import ProgramOp
from qdialect.ir.errors import OpError
from qdialect.lowering.npu_assemble import assemble_program
from qdialect.lowering.npu_dump import STAGES, dump_code, dump_layers, dump_plan
from qdialect.lowering.npu_emit import emit_program
from qdialect.lowering.npu_graph import PASS_NAME, form_layers
from qdialect.lowering.npu_plan import plan_program
from qdialect.npu.machine import Machine, MachineError, load_machine


def compile_function(func: FuncOp, machine: Machine, machine_name: str,
                     keep_on_chip: bool = True, dump: set[str] = frozenset(),
                     timings: dict[str, float] | None = None,
                     layer_seconds: list[float] | None = None) -> ProgramOp:  # fmt: skip
    """The four stages in order; those named in `dump` are printed on stderr. With
    `timings`, each stage's wall-clock seconds are added to it under the stage's name
    (`layers`, `plan`, `code`, `assemble`), so callers can sum over many functions. With
    `layer_seconds`, each layer's own share is appended to it, in the order of the
    program's layer map: its constants packed (plan), its code emitted and assembled.
    Forming the layers and the rest of the plan are whole-function work and not in it."""
    clock = time.perf_counter()

    def show(stage: str, text: str | None = None) -> None:
        nonlocal clock
        now = time.perf_counter()
        if timings is not None:
            timings[stage] = timings.get(stage, 0.0) + now - clock
        if text is not None and stage in dump:
            sys.stderr.write(f"// -----// {PASS_NAME} stage: {stage} //----- //\n{text}")
        clock = time.perf_counter()  # printing is not the stage's time

    graph = form_layers(func)
    show("layers", dump_layers(graph) if "layers" in dump else None)
    per_layer: tuple[list[float], list[float], list[float]] = ([], [], [])
    plan = plan_program(graph, machine, keep_on_chip, per_layer[0])
    show("plan", dump_plan(graph, plan) if "plan" in dump else None)
    emitted = emit_program(graph, plan, machine, per_layer[1])
    show("code", dump_code(graph, emitted) if "code" in dump else None)
    program = assemble_program(emitted, plan, machine_name, graph, per_layer[2])
    show("assemble")
    if layer_seconds is not None:
        layer_seconds.extend(map(sum, zip(*per_layer, strict=True)))
    return program


@dataclass(frozen=True)
class TosaToNpu(ModulePass):
    """Compile the entry function (quantized TOSA) to one npu.program for a machine description."""

    name = PASS_NAME

    machine: str = "default"
    """A shipped machine description (`default`, `small`) or a JSON file."""

    entry: str = "main"
    """The function to compile."""

    keep_on_chip: bool = True
    """Keep a layer's output in the output buffer for the next layer when it fits."""

    dump: str = ""
    """Print a stage's result on stderr: `layers`, `plan`, `code` or `all`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.dump not in ("", "all", *STAGES):
            raise OpError(op, f"{PASS_NAME}: dump must be one of {', '.join(STAGES)} or all")
        try:
            machine = load_machine(self.machine)
        except MachineError as err:
            raise OpError(op, f"{PASS_NAME}: {err}") from None
        funcs = [f for f in op.body.block.ops if isinstance(f, FuncOp)]
        entry = next((f for f in funcs if f.sym_name.data == self.entry), None)
        if entry is None:
            raise OpError(op, f"{PASS_NAME}: no function '@{self.entry}' to compile")
        dump = set(STAGES) if self.dump == "all" else {self.dump}
        try:
            program = compile_function(entry, machine, self.machine, self.keep_on_chip, dump)
        except ValueError as err:
            raise OpError(entry, f"{PASS_NAME}: {err}") from None
        for f in funcs:
            Rewriter.erase_op(f, safe_erase=False)
        op.body.block.add_op(program)
