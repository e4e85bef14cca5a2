"""tosa-reduce-transposes: ONNX models imported channels-first reach the NPU with only the
input's transpose left, and compute bit-identical results on the TOSA interpreter."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.transforms.canonicalize import CanonicalizePass

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.transforms.tosa_reduce_transposes import (
    TosaReduceTransposes,
    compose,
    count_transposes,
    inverse,
)

LIT_FILE = Path(__file__).parents[2] / "filecheck" / "transforms" / "tosa-reduce-transposes.mlir"


def _random_args(module: ModuleOp, seed: int) -> list[np.ndarray]:
    func = next(op for op in module.walk() if isinstance(op, FuncOp))
    rng = np.random.default_rng(seed)
    args = []
    for t in func.function_type.inputs.data:
        bits = t.get_element_type().width.data  # type: ignore[attr-defined]
        lo, hi = -(1 << (bits - 1)), 1 << (bits - 1)
        dtype = {8: np.int8, 16: np.int16, 32: np.int32}[bits]
        args.append(rng.integers(lo, hi, tuple(t.get_shape())).astype(dtype))
    return args


def _reduced(module: ModuleOp) -> ModuleOp:
    """`module` after canonicalize,tosa-reduce-transposes,canonicalize (a copy)."""
    ctx = make_context()
    out = module.clone()
    for p in (CanonicalizePass(), TosaReduceTransposes(), CanonicalizePass()):
        p.apply(ctx, out)
    out.verify()
    return out


def _same_results(before: ModuleOp, after: ModuleOp, seeds: range) -> None:
    name = next(op for op in before.walk() if isinstance(op, FuncOp)).sym_name.data
    for seed in seeds:
        args = _random_args(before, seed)
        want = Interpreter(before).call(name, args)
        got = Interpreter(after).call(name, args)
        assert len(want) == len(got)
        for w, g in zip(want, got, strict=True):
            assert np.array_equal(np.asarray(w), np.asarray(g))


def test_permutation_helpers() -> None:
    p = (0, 2, 3, 1)
    x = np.arange(24).reshape(1, 2, 3, 4)
    assert np.array_equal(np.transpose(np.transpose(x, p), inverse(p)), x)
    q = (0, 3, 1, 2)
    assert np.array_equal(np.transpose(np.transpose(x, p), q), np.transpose(x, compose(p, q)))


def _lit_cases() -> list[str]:
    return LIT_FILE.read_text().split("// -----")


@pytest.mark.parametrize("index", range(len(_lit_cases())))
def test_lit_cases_compute_the_same_numbers(index: int) -> None:
    """Every FileCheck case gives the same results on the interpreter before and after."""
    module = QParser(make_context(), _lit_cases()[index]).parse_module()
    after = module.clone()
    TosaReduceTransposes().apply(make_context(), after)
    after.verify()
    _same_results(module, after, range(3))


def test_never_adds_transposes() -> None:
    """One transpose feeding a clamp whose result is also returned as is: moving it would
    cost as many as it saves, so nothing changes."""
    text = """
    func.func @f(%x: tensor<1x2x2x3xi8>) -> (tensor<1x2x2x3xi8>, tensor<1x3x2x2xi8>) {
      %t = tosa.transpose %x perms([0, 3, 1, 2]) : (tensor<1x2x2x3xi8>) -> tensor<1x3x2x2xi8>
      %c = tosa.clamp %t min_val(0 : i8) max_val(127 : i8) : (tensor<1x3x2x2xi8>) -> tensor<1x3x2x2xi8>
      func.return %x, %c : tensor<1x2x2x3xi8>, tensor<1x3x2x2xi8>
    }
    """
    module = QParser(make_context(), text).parse_module()
    before = str(module)
    TosaReduceTransposes().apply(make_context(), module)
    assert str(module) == before


def _random_program(seed: int) -> str:
    """A random DAG of transposes between NHWC and NCHW and i8 ops that do not care
    about layout (clamp, add, sub, maximum, an add of a broadcast constant, concat
    along channels, pad), several values returned."""
    rng = np.random.default_rng(seed)
    shapes = {"nhwc": (1, 4, 3, 2), "nchw": (1, 2, 4, 3)}
    channel = {"nhwc": 3, "nchw": 1}
    to = {"nhwc": ("nchw", [0, 3, 1, 2]), "nchw": ("nhwc", [0, 2, 3, 1])}

    def ty(shape: tuple[int, ...]) -> str:
        return "tensor<" + "x".join(map(str, shape)) + "xi8>"

    values: list[tuple[str, str]] = [("%a", "nhwc"), ("%b", "nhwc")]
    lines = []
    for n in range(int(rng.integers(4, 12))):
        name, kind = f"%v{n}", rng.choice(["transpose", "clamp", "binary", "const", "cat"])
        x, layout = values[int(rng.integers(len(values)))]
        shape = shapes[layout]
        if kind == "transpose":
            layout, perm = to[layout]
            lines.append(f"{name} = tosa.transpose {x} perms({perm}) : ({ty(shape)}) -> "
                         f"{ty(shapes[layout])}")  # fmt: skip
        elif kind == "clamp":
            lines.append(f"{name} = tosa.clamp {x} min_val(-20 : i8) max_val(90 : i8) : "
                         f"({ty(shape)}) -> {ty(shape)}")  # fmt: skip
        elif kind == "binary":
            same = [v for v, lay in values if lay == layout]
            y = same[int(rng.integers(len(same)))]
            op = rng.choice(["add", "sub", "maximum"])
            lines.append(f"{name} = tosa.{op} {x}, {y} : ({ty(shape)}, {ty(shape)}) -> {ty(shape)}")
        elif kind == "const":
            cshape = tuple(d if i == channel[layout] else 1 for i, d in enumerate(shape))
            data = rng.integers(-9, 9, cshape).tolist()
            lines.append(
                f"{name}k = tosa.const values(dense<{data}> : {ty(cshape)}) : () -> {ty(cshape)}"
            )
            lines.append(
                f"{name} = tosa.add {x}, {name}k : ({ty(shape)}, {ty(cshape)}) -> {ty(shape)}"
            )
        else:  # concat along channels with itself, then a slice back to the shape
            axis = channel[layout]
            wide = tuple(2 * d if i == axis else d for i, d in enumerate(shape))
            start = [1 if i == axis else 0 for i in range(4)]
            lines.append(f"{name}c = tosa.concat {x}, {x} {{axis = {axis} : i32}} : "
                         f"({ty(shape)}, {ty(shape)}) -> {ty(wide)}")  # fmt: skip
            lines.append(
                f"{name}s = tosa.const_shape values(dense<{start}> : tensor<4xindex>) : () -> !tosa.shape<4>"
            )
            lines.append(
                f"{name}z = tosa.const_shape values(dense<{list(shape)}> : tensor<4xindex>) : () -> !tosa.shape<4>"
            )
            lines.append(f"{name} = tosa.slice {name}c, {name}s, {name}z : ({ty(wide)}, !tosa.shape<4>, "
                         f"!tosa.shape<4>) -> {ty(shape)}")  # fmt: skip
        values.append((name, str(layout)))
    results = values[-3:]
    out_types = ", ".join(ty(shapes[lay]) for _, lay in results)
    body = "\n  ".join(lines)
    return (
        f"func.func @f(%a: {ty(shapes['nhwc'])}, %b: {ty(shapes['nhwc'])}) -> ({out_types}) {{\n  "
        f"{body}\n  func.return {', '.join(v for v, _ in results)} : {out_types}\n}}"
    )


@pytest.mark.parametrize("seed", range(40))
def test_random_programs_are_exact_and_never_gain_transposes(seed: int) -> None:
    module = QParser(make_context(), _random_program(seed)).parse_module()
    after = module.clone()
    TosaReduceTransposes().apply(make_context(), after)
    after.verify()
    assert count_transposes(after) <= count_transposes(module)
    _same_results(module, after, range(2))


def test_rewritten_ops_keep_their_source_names() -> None:
    """The tools name tensors by the model's names, carried as locations."""
    text = """
    func.func @f(%a: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8> {
      %t = tosa.transpose %a perms([0, 3, 1, 2]) : (tensor<1x2x2x3xi8>) -> tensor<1x3x2x2xi8> loc("t")
      %c = tosa.clamp %t min_val(0 : i8) max_val(6 : i8) : (tensor<1x3x2x2xi8>) -> tensor<1x3x2x2xi8> loc("relu6")
      %b = tosa.transpose %c perms([0, 2, 3, 1]) : (tensor<1x3x2x2xi8>) -> tensor<1x2x2x3xi8> loc("b")
      func.return %b : tensor<1x2x2x3xi8>
    }
    """
    module = QParser(make_context(), text).parse_module()
    TosaReduceTransposes().apply(make_context(), module)
    (clamp,) = [op for op in module.walk() if op.name == "tosa.clamp"]
    assert str(clamp.location) == 'loc("relu6")'
    assert count_transposes(module) == 0


ort = pytest.importorskip("onnxruntime", reason="onnxruntime (the oracle extra) is not installed")

from qdialect.importers.onnx_tosa import TosaImporter  # noqa: E402
from qdialect.models import onnx_models, onnx_zoo  # noqa: E402


def _raw_import(data: bytes) -> ModuleOp:
    """The TOSA import as the emitter writes it (transposes around every conv and pool)."""
    return TosaImporter(data).run()


@pytest.mark.parametrize(("name", "at_least"), [("mobilenet_v2", 25), ("resnet50", 25)])
def test_zoo_models_keep_only_the_input_transpose(name: str, at_least: int) -> None:
    data = onnx_zoo.quantize(onnx_zoo.ZOO[name](), qdq=True, per_channel=True, preprocess=True)
    module = _raw_import(data)
    canonical = module.clone()
    CanonicalizePass().apply(make_context(), canonical)
    assert count_transposes(canonical) >= at_least
    after = _reduced(module)
    # the NCHW input to the first convolution is all that is left
    assert count_transposes(after) == 1
    _same_results(canonical, after, range(1))


@pytest.mark.parametrize(
    ("name", "left"),
    [("cnn", 2), ("residual_cnn", 1), ("mobilenet_v2_block", 2), ("branchy_cnn", 2), ("mlp", 0)],
)
@pytest.mark.parametrize("qdq", [False, True])
def test_small_networks(name: str, left: int, qdq: bool) -> None:
    data, _ = onnx_models.quantized(name, qdq, True)
    module = _raw_import(data)
    canonical = module.clone()
    CanonicalizePass().apply(make_context(), canonical)
    after = _reduced(module)
    assert count_transposes(after) == left <= count_transposes(canonical)
    _same_results(canonical, after, range(3))


def test_tosa_import_runs_the_pass() -> None:
    """`qimport --target tosa` writes layout-clean TOSA: no canonicalize needed first."""
    from qdialect.importers.onnx_import import import_onnx

    data, _ = onnx_models.quantized("residual_cnn", True, True)
    assert count_transposes(_raw_import(data)) > 1
    module = import_onnx(data, "tosa")
    assert count_transposes(module) == 1
    text = str(module)
    TosaReduceTransposes().apply(make_context(), module)
    assert str(module) == text  # a second run finds nothing to move
