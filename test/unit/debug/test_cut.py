"""Cuts (`qdialect.debug.cut`): a subgraph between named tensors runs alone and computes
what it computed inside the whole program; an open cut names what it also reads."""

from __future__ import annotations

import numpy as np
import pytest

from qdialect.calibration.workflow import integer, quantized
from qdialect.debug.cut import CutError, cut, inputs_from_dump
from qdialect.debug.stages import Programs, run_stage
from qdialect.interpreter import Interpreter


@pytest.mark.parametrize("stage", ["float", "quant", "tosa"])
def test_a_cut_fed_from_the_dump_recomputes_the_dumped_tensor(digits_float, stage) -> None:
    module, cal, inputs = digits_float
    programs = Programs.from_float(module, cal, ["float", "tosa"])
    quant_trace = run_stage(programs, "quant", inputs)
    quant_of = {n: o.quant for n, o in quant_trace.values.items() if o.quant is not None}
    trace = quant_trace if stage == "quant" else run_stage(programs, stage, inputs, quant_of)
    dump = {n: np.stack(o.arrays) for n, o in trace.values.items() if o.arrays}
    source = programs.module(stage)
    part = cut(source, ["p1"], ["r2"])
    for sample in range(len(inputs)):
        args = inputs_from_dump(part, source, dump, sample)
        (out,) = Interpreter(part).call("main", [args["arg0"]])
        # the cut's result is in the program's layout; the dump in the model's
        from qdialect.debug.names import named_values, source_layouts
        from qdialect.debug.stages import entry

        func = entry(source, "main")
        perm = source_layouts(func)[named_values(func)["r2"]]
        assert np.array_equal(np.transpose(out, np.argsort(perm)), dump["r2"][sample])


def test_an_open_cut_names_the_tensor_it_also_reads(digits_float) -> None:
    module, cal, _ = digits_float
    program = integer(quantized(module, cal))
    with pytest.raises(CutError, match=r"not closed: the outputs also read 'input'"):
        cut(program, ["p1"], ["logits", "r1"])
    with pytest.raises(CutError, match=r"no tensor named 'nope'"):
        cut(program, ["nope"], ["r1"])
    part = cut(program, ["input"], ["logits"])  # the whole network is a cut too
    x = np.zeros((1, 1, 8, 8), np.float32)
    assert np.array_equal(
        Interpreter(part).call("main", [x])[0], Interpreter(program).call("main", [x])[0]
    )
