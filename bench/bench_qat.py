"""Quantization-aware training against post-training quantization on held-out digits.

scikit-learn's bundled digits (1797 8x8 images; 30% held out, `qdialect.models.digits`),
the small CNN of `qdialect.qat.cnn` (two 3x3 convolutions with ReLU and ReLU6, max
pooling, a dense layer). It is trained in float once; then, for each formula (Google:
scale = max|x| / (2^(b-1) - 1); Cambricon: a power-of-two scale) and each weight
granularity (per layer, per output channel), and for 8-, 4-, 3- and 2-bit weights
(activations 8-bit, symmetric, same formula):

* PTQ: the observers run over 256 training images with the float weights, then freeze;
* QAT: the float network fine-tuned with fake quantization (straight-through gradient)
  for --epochs, then freeze.

Every accuracy is that of the exported integer program — `jax.export` →
`stablehlo-legalize-fake-quant` → quantized StableHLO, run by the interpreter — not of
JAX's simulation. What the figures do not cover: one training seed (the held-out set has
540 images: one image is 0.19 points), and this network is small and the task easy, so
8- and 4-bit weights cost almost nothing either way; the 3- and 2-bit columns are where
training with the quantizer shows.

    python bench/bench_qat.py [--epochs 4] [--weight-bits 8,4,3,2] [--markdown]
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--epochs", type=int, default=4, help="QAT fine-tuning epochs")
    p.add_argument("--float-epochs", type=int, default=15)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--weight-bits", default="8,4,3,2", help="weight bit widths, comma-separated")
    p.add_argument("--markdown", action="store_true", help="print the table as markdown")
    args = p.parse_args()

    import jax.numpy as jnp

    from qdialect.models import digits
    from qdialect.qat import cnn, export
    from qdialect.qat.quantizer import Scheme
    from qdialect.tools.text_table import format_table

    widths = [int(b) for b in args.weight_bits.split(",")]
    d = digits.load()
    x, y = d.x_train.transpose(0, 2, 3, 1), d.y_train
    x_test, y_test = d.x_test.transpose(0, 2, 3, 1), d.y_test
    layers = cnn.DIGITS_CNN
    clock = time.perf_counter()
    p_float, _ = cnn.train(layers, cnn.init_params(layers, args.seed), x, y,
                           epochs=args.float_epochs, lr=3e-3, seed=args.seed)  # fmt: skip
    float_seconds = time.perf_counter() - clock
    logits, _ = cnn.forward(layers, p_float, jnp.asarray(x_test))
    float_acc = digits.top1(np.asarray(logits), y_test)

    rows = []
    for formula in ("google", "cambricon"):
        for per_channel in (False, True):
            acc = {}
            for bits in widths:
                config = cnn.QatConfig(weights=Scheme(bits, formula=formula, per_channel=per_channel),
                                       activations=Scheme(8, formula=formula))  # fmt: skip
                state = cnn.calibrate(layers, p_float, config, x[:256])
                acc[f"ptq{bits}"] = export.accuracy(cnn.freeze(layers, p_float, config, state),
                                                    x_test, y_test)  # fmt: skip
                clock = time.perf_counter()
                p_qat, s_qat = cnn.train(layers, p_float, x, y, config=config, epochs=args.epochs,
                                         lr=5e-4, seed=args.seed)  # fmt: skip
                acc[f"qat_seconds{bits}"] = time.perf_counter() - clock
                assert s_qat is not None
                acc[f"qat{bits}"] = export.accuracy(cnn.freeze(layers, p_qat, config, s_qat),
                                                    x_test, y_test)  # fmt: skip
            rows.append((formula, "per channel" if per_channel else "per layer", acc))

    head = ["formula", "weights", "float"]
    for b in widths:
        head += [f"PTQ w{b}", f"QAT w{b}"]
    body = []
    for f, g, a in rows:
        body.append([f, g, f"{float_acc:.3f}"])
        for b in widths:
            body[-1] += [f"{a[f'ptq{b}']:.3f}", f"{a[f'qat{b}']:.3f}"]
    print(f"digits CNN, {len(x)} training / {len(x_test)} held-out images; float training "
          f"{float_seconds:.1f} s, QAT {args.epochs} epochs "
          f"{np.mean([a[f'qat_seconds{widths[0]}'] for *_, a in rows]):.1f} s per run; "
          "w<b>: b-bit weights, activations 8-bit")  # fmt: skip
    print(format_table(head, body, markdown=args.markdown))


if __name__ == "__main__":
    main()
