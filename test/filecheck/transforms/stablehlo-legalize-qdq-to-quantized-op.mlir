// RUN: qopt %s --split-input-file -p stablehlo-legalize-qdq-to-quantized-op | FileCheck %s

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @binary
// CHECK-NEXT: %0 = stablehlo.add %a, %b : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %0
func.func @binary(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.uniform_dequantize %a : (tensor<4x!q>) -> tensor<4xf32>
  %1 = stablehlo.uniform_dequantize %b : (tensor<4x!q>) -> tensor<4xf32>
  %2 = stablehlo.add %0, %1 : tensor<4xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!r>
  func.return %3 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>

// CHECK-LABEL: func.func @unary_shared_dequantize
// CHECK-NEXT: %0 = stablehlo.tanh %a : tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>
// CHECK-NEXT: %1 = stablehlo.multiply %a, %a : tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>
// CHECK-NEXT: return %0, %1
func.func @unary_shared_dequantize(%a: tensor<4x!q>) -> (tensor<4x!q>, tensor<4x!q>) {
  %0 = stablehlo.uniform_dequantize %a : (tensor<4x!q>) -> tensor<4xf32>
  %1 = stablehlo.tanh %0 : tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!q>
  %3 = stablehlo.multiply %0, %0 : tensor<4xf32>
  %4 = stablehlo.uniform_quantize %3 : (tensor<4xf32>) -> tensor<4x!q>
  func.return %2, %4 : tensor<4x!q>, tensor<4x!q>
}

// -----

!x = !quant.uniform<i8:f32, 0.5:1>
!w = !quant.uniform<i8:f32:1, {0.25,0.5}>
!y = !quant.uniform<i8:f32, 2.0>

// CHECK-LABEL: func.func @dot_general_per_axis_weights
// CHECK-NEXT: %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<3x4x!quant.uniform<i8:f32, 5.000000e-01:1>>, tensor<4x2x!quant.uniform<i8:f32:1, {2.500000e-01,5.000000e-01}>>) -> tensor<3x2x!quant.uniform<i8:f32, 2.000000e+00>>
func.func @dot_general_per_axis_weights(%x: tensor<3x4x!x>, %w: tensor<4x2x!w>) -> tensor<3x2x!y> {
  %0 = stablehlo.uniform_dequantize %x : (tensor<3x4x!x>) -> tensor<3x4xf32>
  %1 = stablehlo.uniform_dequantize %w : (tensor<4x2x!w>) -> tensor<4x2xf32>
  %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<3x2xf32>) -> tensor<3x2x!y>
  func.return %3 : tensor<3x2x!y>
}

// -----

!q = !quant.uniform<i8:f32, 0.1>

// A chain folds link by link.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %0 = stablehlo.negate %a : tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>
// CHECK-NEXT: %1 = stablehlo.abs %0 : tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>
// CHECK-NEXT: return %1
func.func @chain(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.uniform_dequantize %a : (tensor<4x!q>) -> tensor<4xf32>
  %1 = stablehlo.negate %0 : tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!q>
  %3 = stablehlo.uniform_dequantize %2 : (tensor<4x!q>) -> tensor<4xf32>
  %4 = stablehlo.abs %3 : tensor<4xf32>
  %5 = stablehlo.uniform_quantize %4 : (tensor<4xf32>) -> tensor<4x!q>
  func.return %5 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1>

// Must not fire: an operand is not dequantized.
// CHECK-LABEL: func.func @float_operand
// CHECK: stablehlo.uniform_dequantize
// CHECK-NEXT: stablehlo.add %0, %f : tensor<4xf32>
// CHECK-NEXT: stablehlo.uniform_quantize
func.func @float_operand(%a: tensor<4x!q>, %f: tensor<4xf32>) -> tensor<4x!q> {
  %0 = stablehlo.uniform_dequantize %a : (tensor<4x!q>) -> tensor<4xf32>
  %1 = stablehlo.add %0, %f : tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!q>
  func.return %2 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1>

// Must not fire: the float result has another use besides the quantize.
// CHECK-LABEL: func.func @result_used_twice
// CHECK: %1 = stablehlo.sqrt %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1
// CHECK-NEXT: return %2, %1
func.func @result_used_twice(%a: tensor<4x!q>) -> (tensor<4x!q>, tensor<4xf32>) {
  %0 = stablehlo.uniform_dequantize %a : (tensor<4x!q>) -> tensor<4xf32>
  %1 = stablehlo.sqrt %0 : tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!q>
  func.return %2, %1 : tensor<4x!q>, tensor<4xf32>
}

// -----

!q = !quant.uniform<i8:f32, 0.1>

// Must not fire: the result is not quantized (compare's i1 has no quantized form).
// CHECK-LABEL: func.func @not_quantized_after
// CHECK: stablehlo.compare GT, %0, %1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
func.func @not_quantized_after(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4xi1> {
  %0 = stablehlo.uniform_dequantize %a : (tensor<4x!q>) -> tensor<4xf32>
  %1 = stablehlo.uniform_dequantize %b : (tensor<4x!q>) -> tensor<4xf32>
  %2 = stablehlo.compare GT, %0, %1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  func.return %2 : tensor<4xi1>
}

// -----

!q = !quant.uniform<i8:f32, 0.1>
!r = !quant.uniform<i8:f32, 0.2>

// Must not fire: a reshape between different scales has no quantized form
// (a quantized reshape moves storage and cannot rescale).
// CHECK-LABEL: func.func @no_valid_quantized_form
// CHECK: stablehlo.uniform_dequantize
// CHECK-NEXT: stablehlo.reshape %0 : (tensor<2x2xf32>) -> tensor<4xf32>
// CHECK-NEXT: stablehlo.uniform_quantize
func.func @no_valid_quantized_form(%a: tensor<2x2x!q>) -> tensor<4x!r> {
  %0 = stablehlo.uniform_dequantize %a : (tensor<2x2x!q>) -> tensor<2x2xf32>
  %1 = stablehlo.reshape %0 : (tensor<2x2xf32>) -> tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!r>
  func.return %2 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1>

// Must not fire: ops with regions (reduce) are left alone.
// CHECK-LABEL: func.func @regions_left_alone
// CHECK: stablehlo.reduce(%0 init: %1) applies stablehlo.add
func.func @regions_left_alone(%a: tensor<4x!q>, %z: tensor<!q>) -> tensor<!q> {
  %0 = stablehlo.uniform_dequantize %a : (tensor<4x!q>) -> tensor<4xf32>
  %1 = stablehlo.uniform_dequantize %z : (tensor<!q>) -> tensor<f32>
  %2 = stablehlo.reduce(%0 init: %1) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %3 = stablehlo.uniform_quantize %2 : (tensor<f32>) -> tensor<!q>
  func.return %3 : tensor<!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1>
!r = !quant.uniform<i8:f32, 0.1>

// A reshape with identical parameters does fold (dequantize/quantize is the identity there).
// CHECK-LABEL: func.func @reshape_same_params
// CHECK-NEXT: %0 = stablehlo.reshape %a : (tensor<2x2x!quant.uniform<i8:f32, 1.000000e-01>>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>
func.func @reshape_same_params(%a: tensor<2x2x!q>) -> tensor<4x!r> {
  %0 = stablehlo.uniform_dequantize %a : (tensor<2x2x!q>) -> tensor<2x2xf32>
  %1 = stablehlo.reshape %0 : (tensor<2x2xf32>) -> tensor<4xf32>
  %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!r>
  func.return %2 : tensor<4x!r>
}
