// Inherent attributes written in the attribute dictionary are the op's properties,
// as in MLIR: generic and custom forms alike; qopt prints them as `<{...}>`.
// RUN: qopt %s | FileCheck %s
// RUN: %roundtrip | FileCheck %s

// CHECK-LABEL: func.func @quantized_constants
// CHECK: stablehlo.constant() <{value = dense<[1, -128]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-128>>
// CHECK: stablehlo.constant() <{value = dense<7> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01:-128>>
func.func @quantized_constants() -> (tensor<2x!quant.uniform<i8:f32, 0.5:-128>>, tensor<2x!quant.uniform<i8:f32, 0.5:-128>>) {
  %0 = stablehlo.constant() {value = dense<[1, -128]> : tensor<2xi8>} : () -> tensor<2x!quant.uniform<i8:f32, 0.5:-128>>
  %1 = "stablehlo.constant"() {value = dense<7> : tensor<2xi8>} : () -> tensor<2x!quant.uniform<i8:f32, 0.5:-128>>
  func.return %0, %1 : tensor<2x!quant.uniform<i8:f32, 0.5:-128>>, tensor<2x!quant.uniform<i8:f32, 0.5:-128>>
}

// Any op: a generic transpose with its permutation in the attribute dictionary.
// CHECK-LABEL: func.func @generic_op
// CHECK: stablehlo.transpose %{{.*}}, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
func.func @generic_op(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "stablehlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

