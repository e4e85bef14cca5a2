// stablehlo-lower-quant = stablehlo-legalize-quant-to-math, then canonicalize.
// RUN: qopt %s -p stablehlo-lower-quant | FileCheck %s
// RUN: qopt %s -p stablehlo-legalize-quant-to-math,canonicalize > %t.two-passes
// RUN: qopt %s -p stablehlo-lower-quant | diff %t.two-passes -
// RUN: qopt %s --pass-pipeline='builtin.module(stablehlo-lower-quant{fallback=error})' | FileCheck %s

!x = !quant.uniform<i8:f32, 0.05:-3>
!w = !quant.uniform<i8:f32:1, {0.02,0.01}>
!acc = !quant.uniform<i32:f32:1, {0.001,0.0005}>
!y = !quant.uniform<i8:f32, 0.1:2>

// CHECK-LABEL: func.func @fc(%x: tensor<2x3xi8>, %w: tensor<3x2xi8>, %b: tensor<2xi32>) -> tensor<2x2xi8>
// CHECK-NOT: quant.uniform
// CHECK: stablehlo.dot_general {{.*}} : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
// CHECK: stablehlo.round_nearest_even {{.*}} : tensor<2x2xf64>
// CHECK: return {{.*}} : tensor<2x2xi8>
func.func @fc(%x: tensor<2x3x!x>, %w: tensor<3x2x!w>, %b: tensor<2x!quant.uniform<i32:f32:0, {0.001,0.0005}>>) -> tensor<2x2x!y> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3x!x>, tensor<3x2x!w>) -> tensor<2x2x!acc>
  %1 = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<2x!quant.uniform<i32:f32:0, {0.001,0.0005}>>) -> tensor<2x2x!acc>
  %2 = stablehlo.add %0, %1 : tensor<2x2x!acc>
  %3 = stablehlo.uniform_quantize %2 : (tensor<2x2x!acc>) -> tensor<2x2x!y>
  %4 = stablehlo.maximum %3, %3 : tensor<2x2x!y>
  func.return %4 : tensor<2x2x!y>
}
