// Every op with dequantize_op_quantize semantics expands; data movement does not.
// RUN: qopt %s --split-input-file -p stablehlo-legalize-quantized-op-to-qdq | FileCheck %s
// (Folding back with stablehlo-legalize-qdq-to-quantized-op restores every op
// whose operands are all quantized and whose result is: compare, select and the
// hybrid dot_general stay expanded. test/unit/transforms/test_legalize_quantized_op_to_qdq.py checks the numbers.)

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @abs
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.abs %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @abs(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.abs %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @negate
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.negate %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @negate(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.negate %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @sign
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.sign %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @sign(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.sign %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @tanh
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.tanh %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @tanh(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.tanh %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @logistic
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.logistic %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @logistic(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.logistic %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @exponential
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.exponential %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @exponential(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.exponential %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @exponential_minus_one
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.exponential_minus_one %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @exponential_minus_one(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.exponential_minus_one %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @log
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.log %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @log(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.log %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @log_plus_one
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.log_plus_one %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @log_plus_one(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.log_plus_one %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @sqrt
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.sqrt %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @sqrt(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.sqrt %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @rsqrt
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.rsqrt %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @rsqrt(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.rsqrt %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @cbrt
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.cbrt %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @cbrt(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.cbrt %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @sine
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.sine %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @sine(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.sine %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @cosine
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.cosine %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @cosine(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.cosine %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @floor
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.floor %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @floor(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.floor %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @ceil
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.ceil %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @ceil(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.ceil %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @round_nearest_even
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.round_nearest_even %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @round_nearest_even(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.round_nearest_even %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @round_nearest_afz
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4xf32>
// CHECK-NEXT: %1 = stablehlo.round_nearest_afz %0 : tensor<4xf32>
// CHECK-NEXT: %2 = stablehlo.uniform_quantize %1 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %2
func.func @round_nearest_afz(%a: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.round_nearest_afz %a : (tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @add
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %b
// CHECK-NEXT: %2 = stablehlo.add %0, %1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %3
func.func @add(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.add %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @subtract
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %b
// CHECK-NEXT: %2 = stablehlo.subtract %0, %1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %3
func.func @subtract(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.subtract %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @multiply
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %b
// CHECK-NEXT: %2 = stablehlo.multiply %0, %1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %3
func.func @multiply(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.multiply %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @divide
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %b
// CHECK-NEXT: %2 = stablehlo.divide %0, %1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %3
func.func @divide(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.divide %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @remainder
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %b
// CHECK-NEXT: %2 = stablehlo.remainder %0, %1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %3
func.func @remainder(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.remainder %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @power
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %b
// CHECK-NEXT: %2 = stablehlo.power %0, %1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %3
func.func @power(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.power %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @maximum
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %b
// CHECK-NEXT: %2 = stablehlo.maximum %0, %1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %3
func.func @maximum(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.maximum %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @minimum
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %b
// CHECK-NEXT: %2 = stablehlo.minimum %0, %1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %3
func.func @minimum(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.minimum %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @atan2
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %a
// CHECK-NEXT: %1 = stablehlo.uniform_dequantize %b
// CHECK-NEXT: %2 = stablehlo.atan2 %0, %1 : tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:4>>
// CHECK-NEXT: return %3
func.func @atan2(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!r> {
  %0 = stablehlo.atan2 %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!r>
  func.return %0 : tensor<4x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @clamp
// CHECK-COUNT-3: stablehlo.uniform_dequantize
// CHECK-NEXT: %3 = stablehlo.clamp %0, %1, %2 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %4 = stablehlo.uniform_quantize %3 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>
func.func @clamp(%lo: tensor<!q>, %a: tensor<4x!q>, %hi: tensor<!q>) -> tensor<4x!q> {
  %0 = stablehlo.clamp %lo, %a, %hi : (tensor<!q>, tensor<4x!q>, tensor<!q>) -> tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// The i1 result of compare stays as it is.
// CHECK-LABEL: func.func @compare
// CHECK: %2 = stablehlo.compare LT, %0, %1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: return %2 : tensor<4xi1>
func.func @compare(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4x!q>, tensor<4x!q>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// The predicate of select is not quantized and passes through.
// CHECK-LABEL: func.func @select
// CHECK: %2 = stablehlo.select %p, %0, %1 : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2
func.func @select(%p: tensor<4xi1>, %a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @dot_general
// CHECK: %2 = stablehlo.dot_general %0, %1, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i32:f32:1, {1.000000e-02,2.000000e-02,3.000000e-02}>>
func.func @dot_general(%x: tensor<2x4x!q>, %w: tensor<4x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>) -> tensor<2x3x!quant.uniform<i32:f32:1, {0.01,0.02,0.03}>> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4x!q>, tensor<4x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>) -> tensor<2x3x!quant.uniform<i32:f32:1, {0.01,0.02,0.03}>>
  func.return %0 : tensor<2x3x!quant.uniform<i32:f32:1, {0.01,0.02,0.03}>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// Hybrid (weight-only) quantization: only the weights are dequantized.
// CHECK-LABEL: func.func @dot_general_hybrid
// CHECK-NEXT: %0 = stablehlo.uniform_dequantize %w
// CHECK-NEXT: %1 = stablehlo.dot_general %x, %0, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %1
func.func @dot_general_hybrid(%x: tensor<2x4xf32>, %w: tensor<4x3x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x3xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @dot
// CHECK: %2 = stablehlo.dot %0, %1 : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2
func.func @dot(%x: tensor<2x4x!q>, %v: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x!r> {
  %0 = stablehlo.dot %x, %v : (tensor<2x4x!q>, tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x!r>
  func.return %0 : tensor<2x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// CHECK-LABEL: func.func @convolution
// CHECK: %2 = stablehlo.convolution(%0, %1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<2x2x2x3xf32>) -> tensor<1x2x2x3xf32>
// CHECK-NEXT: %3 = stablehlo.uniform_quantize %2 : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3x!quant.uniform<i8:f32, 2.000000e-01:4>>
func.func @convolution(%x: tensor<1x4x4x2x!q>, %w: tensor<2x2x2x3x!quant.uniform<i8:f32:3, {0.1,0.2,0.3}>>) -> tensor<1x2x2x3x!r> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2x!q>, tensor<2x2x2x3x!quant.uniform<i8:f32:3, {0.1,0.2,0.3}>>) -> tensor<1x2x2x3x!r>
  func.return %0 : tensor<1x2x2x3x!r>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// Data movement keeps quantized types: nothing to rewrite.
// CHECK-LABEL: func.func @data_movement_untouched
// CHECK-NOT: uniform_dequantize
// CHECK-NOT: uniform_quantize
// CHECK: stablehlo.reshape %a
// CHECK: stablehlo.transpose
// CHECK: stablehlo.broadcast_in_dim
// CHECK: stablehlo.slice
// CHECK: stablehlo.concatenate
// CHECK: stablehlo.pad
// CHECK: "stablehlo.gather"
func.func @data_movement_untouched(%a: tensor<2x2x!q>, %s: tensor<!q>, %i: tensor<1x1xi32>) {
  %0 = stablehlo.reshape %a : (tensor<2x2x!q>) -> tensor<4x!q>
  %1 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x2x!q>) -> tensor<2x2x!q>
  %2 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<!q>) -> tensor<2x2x!q>
  %3 = stablehlo.slice %a [0:1, 0:2] : (tensor<2x2x!q>) -> tensor<1x2x!q>
  %4 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x2x!q>, tensor<2x2x!q>) -> tensor<4x2x!q>
  %5 = stablehlo.pad %a, %s, low = [1, 0], high = [0, 0], interior = [0, 0] : (tensor<2x2x!q>, tensor<!q>) -> tensor<3x2x!q>
  %6 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : (tensor<2x2x!q>, tensor<1x1xi32>) -> tensor<1x2x!q>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>

// Float programs are left alone.
// CHECK-LABEL: func.func @float_untouched
// CHECK-NEXT: %0 = stablehlo.add %a, %a : tensor<4xf32>
// CHECK-NEXT: return %0
func.func @float_untouched(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
