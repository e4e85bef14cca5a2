"""How often the fixed-point (TOSA rescale) form of quantized elementwise ops
differs from the spec's float semantics, per op and rounding mode.

For each op, random i8 quantized types (scales log-uniform in [1e-3, 1],
zero points uniform) and random inputs covering the storage range; the
reference is the interpreter on the original program (dequantize -> op ->
quantize), the candidate is the program after
`stablehlo-quant-legalize-to-tosa-rescale`. Prints the fraction of outputs
that are exact and that differ by one storage unit (never more: the unit
tests assert it), and, for compare, the fraction of flipped results.

    python bench/bench_tosa_rescale_accuracy.py [--types 60] [--n 4096]
"""

from __future__ import annotations

import argparse

import numpy as np

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.transforms.quant_legalize_to_tosa_rescale import QuantLegalizeToTosaRescale

OPS = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "abs", "negate", "compare"]


def program(op: str, a: str, b: str, o: str, n: int) -> str:
    ta, tb, to = f"tensor<{n}x{a}>", f"tensor<{n}x{b}>", f"tensor<{n}x{o}>"
    if op in ("abs", "negate"):
        return f"func.func @main(%x: {ta}) -> {to} {{\n  %0 = stablehlo.{op} %x : ({ta}) -> {to}\n  func.return %0 : {to}\n}}"
    if op == "compare":
        r = f"tensor<{n}xi1>"
        return f"func.func @main(%x: {ta}, %y: {tb}) -> {r} {{\n  %0 = stablehlo.compare LT, %x, %y : ({ta}, {tb}) -> {r}\n  func.return %0 : {r}\n}}"
    return f"func.func @main(%x: {ta}, %y: {tb}) -> {to} {{\n  %0 = stablehlo.{op} %x, %y : ({ta}, {tb}) -> {to}\n  func.return %0 : {to}\n}}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--types", type=int, default=60, help="random type triples per op")
    parser.add_argument("--n", type=int, default=4096, help="values per type triple")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(
        f"{'op':10} {'rounding':8} {'exact':>9} {'off by 1':>9} {'max':>4}  ({args.types} types x {args.n} values)"
    )
    for op in OPS:
        triples = []
        for _ in range(args.types):
            t = []
            for _ in range(3):
                scale = float(np.float32(10 ** rng.uniform(-3, 0)))
                t.append(f"!quant.uniform<i8:f32, {scale!r}:{int(rng.integers(-128, 128))}>")
            triples.append(t)
        for rounding in ("double", "single"):
            exact = off = total = worst = lowered = 0
            for a, b, o in triples:
                src = program(op, a, b, o, args.n)
                x = rng.integers(-128, 128, args.n).astype(np.int8)
                y = rng.integers(-128, 128, args.n).astype(np.int8)
                inputs = [x] if op in ("abs", "negate") else [x, y]
                ctx = make_context()
                module = QParser(ctx, src).parse_module()
                want = Interpreter(module).call("main", inputs)[0]
                QuantLegalizeToTosaRescale(rounding=rounding).apply(ctx, module)
                if not any(o.name == "tosa.rescale" for o in module.walk()):
                    continue  # not lowered (e.g. a divide whose scale ratio is too large)
                lowered += 1
                got = Interpreter(module).call("main", inputs)[0]
                d = np.abs(got.astype(np.int64) - want.astype(np.int64))
                exact += int(np.sum(d == 0))
                off += int(np.sum(d == 1))
                worst = max(worst, int(d.max()))
                total += d.size
            print(
                f"{op:10} {rounding:8} {exact / total:9.4%} {off / total:9.4%} {worst:4}"
                f"  ({lowered}/{len(triples)} lowered)"
            )


if __name__ == "__main__":
    main()
