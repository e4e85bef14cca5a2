// A quantized constant in a non-MLIR spelling gets an error that shows the right one.
// RUN: not qopt %s 2>&1 | FileCheck %s
// CHECK-NOT: Traceback
// CHECK: quantized-constant-syntax.mlir:8:27: error: custom op 'stablehlo.constant' a quantized constant is written `stablehlo.constant() <{value = dense<...> : tensor<...xi8>}> : () -> tensor<...x!quant.uniform<...>>`

func.func @main() -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01>> {
  // The spelling below is not MLIR; upstream's is stablehlo.constant() <{value = ...}>.
  %w = stablehlo.constant dense<1> : tensor<2x!quant.uniform<i8:f32, 0.5>>
  func.return %w : tensor<2x!quant.uniform<i8:f32, 0.5>>
}
