"""Train the digits CNN with quantization-aware training and export it as StableHLO.

Trains `qdialect.qat.cnn.DIGITS_CNN` in float on scikit-learn's bundled digits, fine-tunes
it with fake quantization (straight-through gradient), freezes it (scales fixed, weights
integers) and writes the `jax.export` text, whose quantization points are composites
that `stablehlo-legalize-fake-quant` turns into `!quant.uniform` types (docs/qat.md):

    python examples/qat/train_digits_qat.py -o digits_qat.mlir
    qopt digits_qat.mlir -p 'stablehlo-legalize-fake-quant,stablehlo-legalize-qdq-to-quantized-op,stablehlo-legalize-to-tosa,canonicalize,npu-partition' -t bundle -o digits_qat.qbundle
    qrt digits_qat.qbundle --random-inputs 0 --stats

Needs the `qat` extra (jax, scikit-learn).
"""

from __future__ import annotations

import argparse
import sys

import jax.numpy as jnp
import numpy as np

from qdialect.models import digits
from qdialect.qat import cnn, export
from qdialect.qat.quantizer import Scheme


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("-o", "--output", required=True, help="StableHLO text to write")
    p.add_argument("--weight-bits", type=int, default=8, choices=range(2, 9), metavar="2..8")
    p.add_argument("--formula", choices=("google", "cambricon"), default="google")
    p.add_argument("--per-layer", action="store_true", help="one weight scale per layer")
    p.add_argument("--epochs", type=int, default=4, help="QAT fine-tuning epochs")
    p.add_argument("--batch", type=int, default=1, help="batch size of the exported program")
    args = p.parse_args(argv)

    d = digits.load()
    x, y = d.x_train.transpose(0, 2, 3, 1), d.y_train
    x_test, y_test = d.x_test.transpose(0, 2, 3, 1), d.y_test
    layers = cnn.DIGITS_CNN
    params, _ = cnn.train(layers, cnn.init_params(layers), x, y, epochs=15, lr=3e-3)
    logits, _ = cnn.forward(layers, params, jnp.asarray(x_test))
    print(f"float: {digits.top1(np.asarray(logits), y_test):.3f} on {len(x_test)} held-out images")

    config = cnn.QatConfig(
        weights=Scheme(args.weight_bits, formula=args.formula, per_channel=not args.per_layer),
        activations=Scheme(8, formula=args.formula),
    )
    params, state = cnn.train(layers, params, x, y, config=config, epochs=args.epochs, lr=5e-4)
    assert state is not None
    frozen = cnn.freeze(layers, params, config, state)
    print(f"QAT, integer program: {export.accuracy(frozen, x_test, y_test):.3f}")
    with open(args.output, "w") as f:
        f.write(export.to_stablehlo(frozen, batch=args.batch))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
