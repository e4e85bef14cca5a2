"""Constant folding at import: what exporters compute from constants becomes a constant.

Exporters emit shape-computing subgraphs (`Shape -> Gather -> Unsqueeze -> Concat ->
Reshape` for a flatten), parameters passed through `Unsqueeze` or `Reshape`, and
ONNX Runtime's quantizer wraps constants in `QuantizeLinear`. ONNX Runtime folds all of
that when it builds its session; the importer does the same before it writes a single
op, so the kernels it does write see constants where the runtime does.

A node folds when every input is a constant (an initializer, a `Constant`, or a folded
output) and its op is in `FOLDABLE`; `Shape` and `Size` of any value fold too, since
imported shapes are static. Values are computed by onnx's reference evaluator (one
IEEE operation per element for the arithmetic ops, as ONNX Runtime's folding computes
them). Ops whose output size depends on input values are checked before they run, so a
hostile `ConstantOfShape` cannot allocate gigabytes.
"""

from __future__ import annotations

import math

import numpy as np

from qdialect.importers.onnx_common import MAX_ELEMENTS, ONNXImportError

FOLDABLE = frozenset(
    "Abs Add And Cast CastLike Ceil Clip Concat ConstantOfShape Div Equal Exp Expand Flatten "
    "Floor Gather GatherElements Greater GreaterOrEqual Identity Less LessOrEqual Log Max Min "
    "Mod Mul Neg Not Or Pow QuantizeLinear Range Reciprocal ReduceMax ReduceMin ReduceProd "
    "ReduceSum Relu Reshape Shape Sign Size Slice Split Sqrt Squeeze Sub Tile Transpose "
    "Unsqueeze Where".split()
)


def _output_bound(node, inputs: list[np.ndarray | None]) -> int:
    """An upper bound of the elements ops with value-dependent sizes would produce."""
    op = node.op_type
    if op == "ConstantOfShape":
        return math.prod(int(d) for d in inputs[0].reshape(-1))
    if op == "Expand":
        dims = [int(d) for d in inputs[1].reshape(-1)]
        try:
            return math.prod(np.broadcast_shapes(inputs[0].shape, tuple(max(d, 1) for d in dims)))
        except ValueError:
            return 0  # the evaluator reports the mismatch
    if op == "Tile":
        return math.prod(d * int(r) for d, r in zip(inputs[0].shape, inputs[1].reshape(-1),
                                                      strict=False))  # fmt: skip
    if op == "Range":
        start, limit, delta = (float(v.reshape(-1)[0]) for v in inputs[:3])
        return math.ceil((limit - start) / delta) if delta else 0
    return sum(a.size for a in inputs if a is not None)


def fold(node, inputs: list[np.ndarray | None], opset: int) -> list[np.ndarray]:
    """The outputs of `node` evaluated on constant `inputs` (None for an omitted one)."""
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    bound = _output_bound(node, inputs)
    if bound > MAX_ELEMENTS or bound < 0:
        raise ONNXImportError(f"node '{node.name}' ({node.op_type}) would produce {bound} elements")
    names = [name if a is not None else "" for name, a in zip(node.input, inputs, strict=True)]
    feeds = {name: a for name, a in zip(names, inputs, strict=True) if name}
    graph = helper.make_graph(
        [node], "fold",
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
         for n, a in feeds.items()],
        [helper.make_empty_tensor_value_info(o) for o in node.output if o],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    try:
        results = ReferenceEvaluator(model).run(None, feeds)
    except Exception as err:  # the evaluator's own checks: bad axes, shapes, types
        raise ONNXImportError(
            f"node '{node.name}' ({node.op_type}) cannot be evaluated on its constants: {err}"
        ) from None
    arrays = [np.asarray(r) for r in results]
    for a in arrays:
        if a.size > MAX_ELEMENTS:
            raise ONNXImportError(f"node '{node.name}' produces {a.size} elements")
    return arrays
