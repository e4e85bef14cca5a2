"""A subgraph as a runnable module: the ops between named tensors, so one failing layer
can be reproduced alone.

`cut(module, inputs, outputs)` takes a function of any stage (float, quantized, TOSA —
the names are the source model's, carried as locations) and returns a new module whose
`@main` takes the tensors named `inputs` as arguments and returns those named
`outputs`, with every op between (constants included) cloned in program order. The
cut must be closed: a value the outputs need that is neither computed between nor an
input is named in the error, so the user can add it to `inputs`.

`inputs_from_dump` turns a `qcompare --dump` file (tensor name -> values in the model's
layout, inputs stacked) into the cut's arguments, in the program's own layout and
storage.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import ModuleOp, NameLoc, NoneAttr, StringAttr
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue

from qdialect.debug.names import name_of, named_values, source_layouts


class CutError(ValueError):
    """The cut asked for cannot be made (the message names the tensor)."""


def _find(func: FuncOp, names: Sequence[str], what: str) -> list[SSAValue]:
    values = named_values(func)
    missing = [n for n in names if n not in values]
    if missing:
        raise CutError(
            f"no tensor named {', '.join(repr(n) for n in missing)} in @{func.sym_name.data} "
            f"(the {what}; names are the ops' locations)"
        )
    return [values[n] for n in names]


def _describe(v: SSAValue) -> str:
    owner = v.owner
    name = name_of(owner) if isinstance(owner, Operation) else name_of(v)  # type: ignore[arg-type]
    kind = owner.name if isinstance(owner, Operation) else "a function argument"
    return f"'{name}' ({kind})" if name else f"an unnamed value of {kind}"


def cut(module: ModuleOp, inputs: Sequence[str], outputs: Sequence[str],
        function: str = "main") -> ModuleOp:  # fmt: skip
    """The ops of `function` that compute `outputs` from `inputs`, as a module's `@main`."""
    func = next((f for f in module.walk() if isinstance(f, FuncOp)
                 and f.sym_name.data == function), None)  # fmt: skip
    if func is None or not func.body.blocks:
        raise CutError(f"no function @{function} with a body")
    if not outputs:
        raise CutError("name at least one output tensor")
    ins = _find(func, inputs, "inputs")
    outs = _find(func, outputs, "outputs")
    if len(set(ins)) != len(ins) or len(set(outs)) != len(outs):
        raise CutError("a tensor is named twice")
    block = func.body.block
    position = {op: i for i, op in enumerate(block.ops)}
    needed: set[Operation] = set()
    open_reads: list[SSAValue] = []
    stack = [v for v in outs if v not in ins]
    seen: set[SSAValue] = set(stack)
    while stack:
        v = stack.pop()
        owner = v.owner
        if not isinstance(owner, Operation) or owner not in position:
            open_reads.append(v)  # an argument of the function: not in the cut
            continue
        needed.add(owner)
        inner_ops = list(owner.walk())
        inside: set[SSAValue] = {r for o in inner_ops[1:] for r in o.results}
        inside.update(a for o in inner_ops for r in o.regions for b in r.blocks for a in b.args)
        for o in (o for inner in inner_ops for o in inner.operands):
            if o in ins or o in seen or o in inside:
                continue
            seen.add(o)
            stack.append(o)
    if open_reads:
        raise CutError(
            "the cut is not closed: the outputs also read "
            + ", ".join(_describe(v) for v in open_reads)
            + " — add it to the inputs"
        )
    new_block = Block(arg_types=[v.type for v in ins])
    mapping: dict[SSAValue, SSAValue] = {}
    for name, old, new in zip(inputs, ins, new_block.args, strict=True):
        mapping[old] = new
        new.name_hint = old.name_hint
        new.location = NameLoc(
            StringAttr(name), NoneAttr()
        )  # the cut's inputs keep the model's names
    for op in sorted(needed, key=position.__getitem__):
        clone = op.clone(value_mapper=mapping)
        new_block.add_op(clone)
    ret = ReturnOp(*[mapping.get(v, v) for v in outs])
    new_block.add_op(ret)
    new_func = FuncOp("main", ([v.type for v in ins], [v.type for v in outs]), Region(new_block))
    new_func.attributes["qdialect.cut_of"] = StringAttr(function)
    return ModuleOp([new_func])


def inputs_from_dump(cut_module: ModuleOp, source: ModuleOp, dump: dict[str, np.ndarray],
                     sample: int = 0, function: str = "main") -> dict[str, np.ndarray]:  # fmt: skip
    """The arguments of `cut_module` (made from `source`'s `function`) from a dump:
    `arg0, arg1, ...` (what `qrun --inputs` reads), input `sample` of the stack, each put
    back from the model's layout into the layout the program holds it in."""
    from qdialect.interpreter.values import dtype_of

    func = next(f for f in source.walk() if isinstance(f, FuncOp) and f.sym_name.data == function)
    values = named_values(func)
    layouts = source_layouts(func)
    entry = next(f for f in cut_module.walk() if isinstance(f, FuncOp))
    out = {}
    for k, arg in enumerate(entry.body.block.args):
        name = name_of(arg)
        if name is None or name not in dump:
            raise CutError(f"the dump has no tensor '{name}' (argument #{k} of the cut)")
        stacked = dump[name]
        if not 0 <= sample < stacked.shape[0]:
            raise CutError(f"the dump holds {stacked.shape[0]} input(s); no sample {sample}")
        a = stacked[sample]
        perm = layouts.get(values[name])
        if perm is None:
            raise CutError(f"'{name}' is not held in the model's layout (or a transpose of it)")
        a = np.transpose(a, perm) if a.ndim == len(perm) else a
        out[f"arg{k}"] = np.ascontiguousarray(a).astype(dtype_of(arg.type), copy=False)
    return out
