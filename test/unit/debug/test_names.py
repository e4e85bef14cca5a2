"""Names and layouts (`qdialect.debug.names`): the value standing for each source tensor
in a lowered program, and the permutation that puts it back in the model's layout."""

from __future__ import annotations

import numpy as np

from qdialect.calibration.workflow import integer, quantized
from qdialect.context import make_context
from qdialect.debug.names import _reshape_perm, named_values, source_layouts
from qdialect.debug.stages import entry, fused_activations
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser

TOSA = """
func.func @main(%x: tensor<1x3x4x5xi8> loc("x")) -> tensor<1x3x4x5xi8> {
  %t = tosa.transpose %x perms([0, 2, 3, 1]) : (tensor<1x3x4x5xi8>) -> tensor<1x4x5x3xi8> loc("a")
  %c = tosa.clamp %t min_val(0 : i8) max_val(100 : i8) : (tensor<1x4x5x3xi8>) -> tensor<1x4x5x3xi8> loc("a")
  %d = tosa.clamp %c min_val(1 : i8) max_val(90 : i8) : (tensor<1x4x5x3xi8>) -> tensor<1x4x5x3xi8> loc("b")
  %back = tosa.transpose %d perms([0, 3, 1, 2]) : (tensor<1x4x5x3xi8>) -> tensor<1x3x4x5xi8> loc("c")
  return %back : tensor<1x3x4x5xi8>
}
"""


def parse(text: str):
    return QParser(make_context(), text, "test.mlir").parse_module()


def test_each_name_is_its_last_op_and_the_layout_is_followed_through_transposes() -> None:
    module = parse(TOSA)
    func = entry(module, "main")
    values = named_values(func)
    assert list(values) == ["x", "a", "b", "c"]
    assert values["a"].owner.name == "tosa.clamp"  # the last op named "a"
    layouts = source_layouts(func)
    assert layouts[values["x"]] == (0, 1, 2, 3)
    assert layouts[values["a"]] == (0, 2, 3, 1)  # NHWC of the NCHW model
    assert layouts[values["b"]] == (0, 2, 3, 1)  # a clamp keeps its input's layout
    assert layouts[values["c"]] == (0, 1, 2, 3)
    # the permutation puts the value back: transposing by argsort(perm) gives the model's
    x = np.arange(60, dtype=np.int8).reshape(1, 3, 4, 5)
    seen = {}
    interp = Interpreter(module)
    interp.on_result = seen.__setitem__
    interp.call("main", [x])
    a = seen[values["a"]]
    assert np.array_equal(np.transpose(a, np.argsort(layouts[values["a"]])), np.clip(x, 0, 100))


def test_a_reshape_that_moves_only_unit_axes_is_a_transpose() -> None:
    identity = (0, 1, 2, 3)
    assert _reshape_perm(identity, (1, 1, 8, 8), (1, 8, 8, 1)) == (0, 2, 3, 1)
    assert _reshape_perm(identity, (1, 16, 2, 2), (1, 2, 2, 16)) is None  # regroups
    assert _reshape_perm(None, (1, 1, 8, 8), (1, 8, 8, 1)) is None


def test_the_quantized_program_keeps_the_float_programs_names(digits_float) -> None:
    module, cal, _ = digits_float
    float_names = list(named_values(entry(module, "main")))
    program = integer(quantized(module, cal))
    names = list(named_values(entry(program, "main")))
    assert names == float_names
    tosa = integer(quantized(module, cal), target="tosa")
    func = entry(tosa, "main")
    layouts = source_layouts(func)
    tosa_values = named_values(func)
    assert set(tosa_values) == set(float_names)  # every tensor still has its value
    assert all(layouts[v] is not None for v in tosa_values.values())


def test_a_layer_quantized_in_its_relus_type_is_marked_fused(digits_float) -> None:
    module, cal, _ = digits_float
    program = integer(quantized(module, cal))
    assert fused_activations(entry(program, "main")) == {"c1": "r1", "c2": "r2"}
