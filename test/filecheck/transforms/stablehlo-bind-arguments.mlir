// Parameters passed as arguments (as JAX exports them) bound to constants from an .npz.
// RUN: qopt %s --mlir-print-debuginfo -p 'stablehlo-bind-arguments{params="%S/Inputs/stablehlo-bind-arguments-params.npz"}' | FileCheck %s
// RUN: not qopt %s -p 'stablehlo-bind-arguments{params="%S/Inputs/stablehlo-bind-arguments-wrong-shape.npz"}' 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not qopt %s -p 'stablehlo-bind-arguments{params="%S/Inputs/stablehlo-quantize-calib.npz"}' 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not qopt %s -p 'stablehlo-bind-arguments' 2>&1 | FileCheck %s --check-prefix=NONE

// The argument named "w" (its location) becomes a constant; the other stays.
// CHECK: func.func public @main(%x: tensor<1x2xf32> loc("x")) -> (tensor<1x2xf32> {jax.result_info = "result"})
// CHECK-NEXT: %[[W:.*]] = stablehlo.constant dense<{{\[\[}}1.500000e+00, -2.000000e+00], [2.500000e-01, 4.000000e+00]]> : tensor<2x2xf32> loc("w")
// CHECK-NEXT: stablehlo.dot_general %x, %[[W]]
// SHAPE: error: stablehlo-bind-arguments: 'w' is [3, 2] float32; the argument is tensor<2x2xf32>
// NAME: error: stablehlo-bind-arguments: no argument named 'arg0' in @main (its arguments: x, w)
// NONE: error: stablehlo-bind-arguments: needs params=FILE.npz
func.func public @main(%x: tensor<1x2xf32> loc("x"), %w: tensor<2x2xf32> loc("w")) -> (tensor<1x2xf32> {jax.result_info = "result"}) {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  func.return %0 : tensor<1x2xf32>
}
