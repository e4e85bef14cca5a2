"""How often `stablehlo-legalize-to-tosa` differs from the spec's float semantics, per layer.

Runs the random one-layer programs of test/unit/transforms/test_legalize_to_tosa.py (the
same generator, so the figures describe what the tests check) for many seeds,
with double and single rounding, and prints the fraction of outputs that are
exact and that differ by one storage unit.

    python bench/bench_legalize_to_tosa_accuracy.py [--seeds 40]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "test"))
from unit.transforms.test_legalize_to_tosa import KINDS, compare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40, help="random programs per layer kind")
    args = parser.parse_args()
    print(
        f"{'layer':14} {'rounding':8} {'exact':>9} {'off by 1':>9} {'max':>4}  ({args.seeds} programs each)"
    )
    for kind in KINDS:
        for rounding in ("double", "single"):
            diffs = np.concatenate(
                [compare(kind, seed, rounding).ravel() for seed in range(1000, 1000 + args.seeds)]
            )
            exact, off = np.mean(diffs == 0), np.mean(diffs == 1)
            print(f"{kind:14} {rounding:8} {exact:9.4%} {off:9.4%} {int(diffs.max()):4}")


if __name__ == "__main__":
    main()
