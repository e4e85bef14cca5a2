// stablehlo-fold-constants: ops on constants become the constants the interpreter
// computes for them — a chain link by link (a weight transposed then scaled), a reduce
// with its region — while a broadcast that would store a larger tensor, an op reading
// an argument, and quantized ops stay.
// RUN: qopt %s --split-input-file -p stablehlo-fold-constants | FileCheck %s
// RUN: qopt %s --split-input-file -p stablehlo-fold-constants | qopt --split-input-file > /dev/null

// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[W:.*]] = stablehlo.constant dense<{{\[\[}}2.000000e+00, 6.000000e+00], [4.000000e+00, 8.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: %[[Y:.*]] = stablehlo.dot_general %x, %[[W]]
// CHECK-NEXT: return %[[Y]]
func.func @chain(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %w = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %t = stablehlo.transpose %w, dims = [1, 0] : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %two = stablehlo.constant dense<2.0> : tensor<2x2xf32>
  %s = stablehlo.multiply %t, %two : tensor<2x2xf32>
  %y = stablehlo.dot_general %x, %s, contracting_dims = [1] x [0] : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  func.return %y : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_and_integers
// CHECK-NEXT: %[[C:.*]] = stablehlo.constant dense<[4, -6]> : tensor<2xi32>
// CHECK-NEXT: return %[[C]]
func.func @reduce_and_integers() -> tensor<2xi32> {
  %a = stablehlo.constant dense<[[1, -2], [3, -4]]> : tensor<2x2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<2x2xi32>, tensor<i32>) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @stays
// CHECK: stablehlo.broadcast_in_dim
// CHECK: stablehlo.add %x
func.func @stays(%x: tensor<1x8x64x64xf32>) -> tensor<1x8x64x64xf32> {
  %b = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<8xf32>) -> tensor<1x8x64x64xf32>
  %y = stablehlo.add %x, %bb : tensor<1x8x64x64xf32>
  func.return %y : tensor<1x8x64x64xf32>
}

// -----

// CHECK-LABEL: func.func @quantized
// CHECK: stablehlo.add
func.func @quantized() -> tensor<2x!quant.uniform<i8:f32, 0.5:1>> {
  %a = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  %r = stablehlo.add %a, %a : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
  func.return %r : tensor<2x!quant.uniform<i8:f32, 0.5:1>>
}
