"""Time of each StableHLO quantization pass on a generated quantized module (default 20k ops).

The module is bench_parse_print's quantized StableHLO program (quantize, quantized
add/multiply/maximum, per-axis dot_general, requantize, dequantize). Each pass runs
on a freshly parsed copy; the fold pass runs on the expanded (qdq) form. Parse time
is printed for scale.

    python bench/bench_passes.py [--ops 20000]
"""

from __future__ import annotations

import argparse
import time

from bench_parse_print import stablehlo_module  # bench/ is on sys.path when run as a script
from qdialect.context import make_context
from qdialect.ir.parser import QParser
from qdialect.transforms.legalize_qdq_to_quantized_op import LegalizeQdqToQuantizedOp
from qdialect.transforms.legalize_quant_to_math import LegalizeQuantToMath
from qdialect.transforms.legalize_quantized_op_to_qdq import LegalizeQuantizedOpToQdq


def parse(text: str):
    ctx = make_context()
    return ctx, QParser(ctx, text).parse_module()


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=20000)
    args = parser.parse_args()
    text = stablehlo_module(args.ops)
    t_parse = timed(lambda: parse(text))
    print(f"module: {args.ops} quantized StableHLO ops; parse {t_parse:.2f} s")

    ctx, module = parse(text)
    t = timed(lambda: LegalizeQuantizedOpToQdq().apply(ctx, module))
    ops_after = sum(1 for _ in module.walk())
    print(
        f"stablehlo-legalize-quantized-op-to-qdq : {t:6.2f} s  ({args.ops / t:8.0f} input ops/s, {ops_after} ops after)"
    )
    expanded = str(module)

    ctx, module = parse(expanded)
    t = timed(lambda: LegalizeQdqToQuantizedOp().apply(ctx, module))
    print(
        f"stablehlo-legalize-qdq-to-quantized-op : {t:6.2f} s  ({ops_after / t:8.0f} input ops/s, {sum(1 for _ in module.walk())} ops after)"
    )

    ctx, module = parse(text)
    t = timed(lambda: LegalizeQuantToMath().apply(ctx, module))
    print(
        f"stablehlo-legalize-quant-to-math       : {t:6.2f} s  ({args.ops / t:8.0f} input ops/s, {sum(1 for _ in module.walk())} ops after)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
