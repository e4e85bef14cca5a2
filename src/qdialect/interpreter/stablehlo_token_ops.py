"""Semantics of the token ops: after_all, create_token, infeed, outfeed, send and recv.

A token carries no data (`values.TOKEN`). `infeed` calls the next function of
`interpreter.run_parallel`'s `infeed` list and returns its result; `outfeed` keeps its
inputs with the grid; `send` queues its inputs on its channel and `recv` takes the
oldest values queued there, waiting for a send from another process of the grid
(each channel is first in, first out). Run directly, a function is a grid of one
process with an empty infeed.
"""

from __future__ import annotations

import numpy as np

from qdialect.dialects import stablehlo_token as st
from qdialect.interpreter import values as v
from qdialect.interpreter.core import Arrays, Interpreter, Types, implements
from qdialect.interpreter.stablehlo_collective_ops import context
from qdialect.interpreter.values import InterpreterError


@implements(st.AfterAllOp, st.CreateTokenOp, quantized="none")
def _token(
    interp: Interpreter, op: st.AfterAllOp | st.CreateTokenOp, args: Arrays, types: Types
) -> Arrays:
    return [v.TOKEN]


@implements(st.InfeedOp, quantized="none")
def _infeed(interp: Interpreter, op: st.InfeedOp, args: Arrays, types: Types) -> Arrays:
    name = context(interp).rendezvous.next_infeed(op.name)
    values = interp.call(name, [])
    wanted = types[:-1]
    if len(values) != len(wanted):
        raise InterpreterError(
            f"'{op.name}' has {len(wanted)} data results, but @{name} returns {len(values)}"
        )
    checked = [
        v.check_argument(np.asarray(x), t, f"result #{i} of @{name}")
        for i, (x, t) in enumerate(zip(values, wanted, strict=True))
    ]
    return [*checked, v.TOKEN]


@implements(st.OutfeedOp, quantized="none")
def _outfeed(interp: Interpreter, op: st.OutfeedOp, args: Arrays, types: Types) -> Arrays:
    context(interp).rendezvous.write_outfeed([np.array(a, copy=True) for a in args[:-1]])
    return [v.TOKEN]


@implements(st.SendOp, quantized="none")
def _send(interp: Interpreter, op: st.SendOp, args: Arrays, types: Types) -> Arrays:
    values = [np.array(a, copy=True) for a in args[:-1]]
    context(interp).rendezvous.send(st.channel_id(op), values)
    return [v.TOKEN]


@implements(st.RecvOp, quantized="none")
def _recv(interp: Interpreter, op: st.RecvOp, args: Arrays, types: Types) -> Arrays:
    values = context(interp).rendezvous.recv(op.name, st.channel_id(op))
    wanted = types[:-1]
    if len(values) != len(wanted):
        raise InterpreterError(
            f"'{op.name}' has {len(wanted)} data results, but the send on channel "
            f"{st.channel_id(op)} sent {len(values)} values"
        )
    checked = [
        v.check_argument(x, t, f"value #{i} received on channel {st.channel_id(op)}")
        for i, (x, t) in enumerate(zip(values, wanted, strict=True))
    ]
    return [*checked, v.TOKEN]
