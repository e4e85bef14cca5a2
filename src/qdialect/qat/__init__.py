"""Quantization-aware training in JAX (docs/qat.md); needs the `qat` extra (jax).

* `quantizer`: schemes (bits, symmetric/affine, Google/Cambricon formulas, per layer or
  per channel), the integer quantization and fake quantization with a straight-through
  gradient, in `numerics`' rounding;
* `observers`: OneFlow's min/max and moving-average min/max observers;
* `cnn`: a small quantized CNN (conv, dense, ReLU/ReLU6, max pooling), its training and
  the freeze step that fixes scales and makes weights integers;
* `export`: the frozen network through `jax.export` to StableHLO text whose
  quantization points are `stablehlo.composite` ops, which
  `stablehlo-legalize-fake-quant` turns into `!quant.uniform` types.
"""
