// RUN: qopt %s --split-input-file -p stablehlo-legalize-quant-to-math | FileCheck %s
// No quantized type survives anywhere in the output:
// RUN: qopt %s --split-input-file -p stablehlo-legalize-quant-to-math | FileCheck %s --check-prefix=NOQUANT
// NOQUANT-NOT: quant.uniform
// The output verifies and is a fixed point:
// RUN: qopt %s --split-input-file -p stablehlo-legalize-quant-to-math > %t.1 && qopt %t.1 --split-input-file > %t.2 && qopt %t.2 --split-input-file | diff %t.2 -

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @quantize_per_tensor(%x: tensor<4xf32>) -> tensor<4xi8>
// CHECK: stablehlo.divide %x, %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.add
// CHECK: stablehlo.clamp
// CHECK: stablehlo.round_nearest_even
// CHECK: stablehlo.convert %{{.*}} : (tensor<4xf32>) -> tensor<4xi8>
func.func @quantize_per_tensor(%x: tensor<4xf32>) -> tensor<4x!q> {
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @quantize_unsigned
// CHECK: -> tensor<4xui8>
// CHECK-DAG: stablehlo.constant dense<1.280000e+02> : tensor<f32>
// CHECK-DAG: stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG: stablehlo.constant dense<2.550000e+02> : tensor<f32>
// CHECK: (tensor<4xf32>) -> tensor<4xui8>
func.func @quantize_unsigned(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<u8:f32, 0.5:128>> {
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<u8:f32, 0.5:128>>
  func.return %0 : tensor<4x!quant.uniform<u8:f32, 0.5:128>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @quantize_i16_narrow
// CHECK-DAG: stablehlo.constant dense<-3.276700e+04> : tensor<f32>
// CHECK: (tensor<4xf32>) -> tensor<4xi16>
func.func @quantize_i16_narrow(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<i16<-32767:32767>:f32, 0.001>> {
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i16<-32767:32767>:f32, 0.001>>
  func.return %0 : tensor<4x!quant.uniform<i16<-32767:32767>:f32, 0.001>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @quantize_per_axis
// CHECK-DAG: stablehlo.constant dense<[1.000000e-01, 2.000000e-01, 4.000000e-01]> : tensor<3xf32>
// CHECK-DAG: stablehlo.broadcast_in_dim %{{.*}}, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-DAG: stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
func.func @quantize_per_axis(%x: tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:1,0.2:2,0.4:3}>> {
  %0 = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.1:1,0.2:2,0.4:3}>>
  func.return %0 : tensor<2x3x!quant.uniform<i8:f32:1, {0.1:1,0.2:2,0.4:3}>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @quantize_f16
// CHECK: stablehlo.divide %x, %{{.*}} : tensor<4xf16>
// CHECK: (tensor<4xf16>) -> tensor<4xi8>
func.func @quantize_f16(%x: tensor<4xf16>) -> tensor<4x!quant.uniform<i8:f16, 0.5>> {
  %0 = stablehlo.uniform_quantize %x : (tensor<4xf16>) -> tensor<4x!quant.uniform<i8:f16, 0.5>>
  func.return %0 : tensor<4x!quant.uniform<i8:f16, 0.5>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @dequantize_per_tensor(%q: tensor<4xi8>) -> tensor<4xf32>
// CHECK: stablehlo.convert %q : (tensor<4xi8>) -> tensor<4xf32>
// CHECK: stablehlo.subtract
// CHECK: stablehlo.multiply
func.func @dequantize_per_tensor(%q: tensor<4x!q>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_dequantize %q : (tensor<4x!q>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @dequantize_zero_zp
// CHECK: stablehlo.convert %q
// CHECK-NOT: stablehlo.subtract
// CHECK: stablehlo.multiply
func.func @dequantize_zero_zp(%q: tensor<4x!quant.uniform<i8:f32, 0.25>>) -> tensor<4xf32> {
  %0 = stablehlo.uniform_dequantize %q : (tensor<4x!quant.uniform<i8:f32, 0.25>>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @dequantize_per_axis_unsigned
// CHECK: (%q: tensor<2x3xui8>)
// CHECK-DAG: dims = [0] : (tensor<2xf32>) -> tensor<2x3xf32>
// CHECK: stablehlo.convert %q : (tensor<2x3xui8>) -> tensor<2x3xf32>
func.func @dequantize_per_axis_unsigned(%q: tensor<2x3x!quant.uniform<u8:f32:0, {0.1:128,0.2:100}>>) -> tensor<2x3xf32> {
  %0 = stablehlo.uniform_dequantize %q : (tensor<2x3x!quant.uniform<u8:f32:0, {0.1:128,0.2:100}>>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @requantize_same_scale_is_integer
// CHECK-DAG: stablehlo.constant dense<-8> : tensor<i32>
// CHECK: stablehlo.convert %q : (tensor<4xi8>) -> tensor<4xi32>
// CHECK: stablehlo.add
// CHECK: stablehlo.clamp
// CHECK-NOT: f32
func.func @requantize_same_scale_is_integer(%q: tensor<4x!q>) -> tensor<4x!quant.uniform<i8:f32, 0.1:-5>> {
  %0 = stablehlo.uniform_quantize %q : (tensor<4x!q>) -> tensor<4x!quant.uniform<i8:f32, 0.1:-5>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.1:-5>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @requantize_different_scale_is_float
// CHECK: stablehlo.convert %q : (tensor<4xi8>) -> tensor<4xf32>
// CHECK: stablehlo.multiply
// CHECK: stablehlo.divide
// CHECK: stablehlo.round_nearest_even
func.func @requantize_different_scale_is_float(%q: tensor<4x!q>) -> tensor<4x!quant.uniform<i8:f32, 0.3>> {
  %0 = stablehlo.uniform_quantize %q : (tensor<4x!q>) -> tensor<4x!quant.uniform<i8:f32, 0.3>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.3>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @requantize_per_axis_zero_point_shift
// CHECK-DAG: stablehlo.constant dense<[2, -2]> : tensor<2xi32>
// CHECK-DAG: dims = [1] : (tensor<2xi32>) -> tensor<2x2xi32>
// CHECK-NOT: f32
func.func @requantize_per_axis_zero_point_shift(%q: tensor<2x2x!quant.uniform<i8:f32:1, {0.1:1,0.2:2}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.1:3,0.2:0}>> {
  %0 = stablehlo.uniform_quantize %q : (tensor<2x2x!quant.uniform<i8:f32:1, {0.1:1,0.2:2}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.1:3,0.2:0}>>
  func.return %0 : tensor<2x2x!quant.uniform<i8:f32:1, {0.1:3,0.2:0}>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @maximum_same_type_is_integer
// CHECK: %0 = stablehlo.maximum %a, %b : tensor<4xi8>
// CHECK-NEXT: return %0 : tensor<4xi8>
func.func @maximum_same_type_is_integer(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.maximum %a, %b : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @minimum_same_type_is_integer
// CHECK: %0 = stablehlo.minimum %a, %b : tensor<4xi8>
// CHECK-NEXT: return %0 : tensor<4xi8>
func.func @minimum_same_type_is_integer(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.minimum %a, %b : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @clamp_same_type_is_integer
// CHECK: %0 = stablehlo.clamp %lo, %a, %hi : (tensor<i8>, tensor<4xi8>, tensor<i8>) -> tensor<4xi8>
func.func @clamp_same_type_is_integer(%lo: tensor<!q>, %a: tensor<4x!q>, %hi: tensor<!q>) -> tensor<4x!q> {
  %0 = stablehlo.clamp %lo, %a, %hi : (tensor<!q>, tensor<4x!q>, tensor<!q>) -> tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @select_same_type_is_integer
// CHECK: %0 = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xi8>
func.func @select_same_type_is_integer(%p: tensor<4xi1>, %a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @compare_same_type_is_integer
// CHECK: %0 = stablehlo.compare LT, %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi1>
func.func @compare_same_type_is_integer(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4x!q>, tensor<4x!q>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @compare_different_types_is_float
// CHECK: stablehlo.compare LT, %{{.*}}, %{{.*}}, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
func.func @compare_different_types_is_float(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.2>>) -> tensor<4xi1> {
  %0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4x!q>, tensor<4x!quant.uniform<i8:f32, 0.2>>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @add_same_scale_is_integer
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK-NOT: f32
func.func @add_same_scale_is_integer(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.1:-2>>) -> tensor<4x!quant.uniform<i8:f32, 0.1>> {
  %0 = stablehlo.add %a, %b : (tensor<4x!q>, tensor<4x!quant.uniform<i8:f32, 0.1:-2>>) -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.1>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @subtract_same_scale_is_integer
// CHECK: stablehlo.subtract %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK-NOT: f32
func.func @subtract_same_scale_is_integer(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.subtract %a, %b : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @negate_same_scale_is_integer
// CHECK: stablehlo.negate %{{.*}} : tensor<4xi32>
// CHECK-NOT: f32
func.func @negate_same_scale_is_integer(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.negate %a : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @add_i16_same_scale_is_integer
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK: (tensor<4xi32>) -> tensor<4xi16>
func.func @add_i16_same_scale_is_integer(%a: tensor<4x!quant.uniform<i16:f32, 0.001>>) -> tensor<4x!quant.uniform<i16:f32, 0.001>> {
  %0 = stablehlo.add %a, %a : tensor<4x!quant.uniform<i16:f32, 0.001>>
  func.return %0 : tensor<4x!quant.uniform<i16:f32, 0.001>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @add_i32_is_float
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
func.func @add_i32_is_float(%a: tensor<4x!quant.uniform<i32:f32, 0.001>>) -> tensor<4x!quant.uniform<i32:f32, 0.001>> {
  %0 = stablehlo.add %a, %a : tensor<4x!quant.uniform<i32:f32, 0.001>>
  func.return %0 : tensor<4x!quant.uniform<i32:f32, 0.001>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @add_different_scales_is_float
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.round_nearest_even
func.func @add_different_scales_is_float(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.2>>) -> tensor<4x!q> {
  %0 = stablehlo.add %a, %b : (tensor<4x!q>, tensor<4x!quant.uniform<i8:f32, 0.2>>) -> tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @multiply_is_float
// CHECK: stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.round_nearest_even
func.func @multiply_is_float(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.multiply %a, %b : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @divide_is_float
// CHECK: stablehlo.divide %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.round_nearest_even
func.func @divide_is_float(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.divide %a, %b : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @power_is_float
// CHECK: stablehlo.power %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.round_nearest_even
func.func @power_is_float(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.power %a, %b : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @atan2_is_float
// CHECK: stablehlo.atan2 %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.round_nearest_even
func.func @atan2_is_float(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.atan2 %a, %b : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @remainder_is_float
// CHECK: stablehlo.remainder %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: stablehlo.round_nearest_even
func.func @remainder_is_float(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.remainder %a, %b : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @tanh_is_float
// CHECK: stablehlo.tanh %{{.*}} : tensor<4xf32>
// CHECK: (tensor<4xf32>) -> tensor<4xi8>
func.func @tanh_is_float(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.tanh %a : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @logistic_is_float
// CHECK: stablehlo.logistic %{{.*}} : tensor<4xf32>
// CHECK: (tensor<4xf32>) -> tensor<4xi8>
func.func @logistic_is_float(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.logistic %a : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @exponential_is_float
// CHECK: stablehlo.exponential %{{.*}} : tensor<4xf32>
// CHECK: (tensor<4xf32>) -> tensor<4xi8>
func.func @exponential_is_float(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.exponential %a : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @abs_is_float
// CHECK: stablehlo.abs %{{.*}} : tensor<4xf32>
// CHECK: (tensor<4xf32>) -> tensor<4xi8>
func.func @abs_is_float(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.abs %a : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @sqrt_is_float
// CHECK: stablehlo.sqrt %{{.*}} : tensor<4xf32>
// CHECK: (tensor<4xf32>) -> tensor<4xi8>
func.func @sqrt_is_float(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.sqrt %a : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @floor_is_float
// CHECK: stablehlo.floor %{{.*}} : tensor<4xf32>
// CHECK: (tensor<4xf32>) -> tensor<4xi8>
func.func @floor_is_float(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.floor %a : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @round_nearest_afz_is_float
// CHECK: stablehlo.round_nearest_afz %{{.*}} : tensor<4xf32>
// CHECK: (tensor<4xf32>) -> tensor<4xi8>
func.func @round_nearest_afz_is_float(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.round_nearest_afz %a : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @sign_is_float
// CHECK: stablehlo.sign %{{.*}} : tensor<4xf32>
// CHECK: (tensor<4xf32>) -> tensor<4xi8>
func.func @sign_is_float(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = stablehlo.sign %a : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @maximum_different_types_is_float
// CHECK: stablehlo.maximum %{{.*}}, %{{.*}} : tensor<4xf32>
func.func @maximum_different_types_is_float(%a: tensor<4x!q>, %b: tensor<4x!q>) -> tensor<4x!quant.uniform<i8:f32, 0.2>> {
  %0 = stablehlo.maximum %a, %b : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!quant.uniform<i8:f32, 0.2>>
  func.return %0 : tensor<4x!quant.uniform<i8:f32, 0.2>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @dot_general_fused_requantize
// CHECK-DAG: stablehlo.constant dense<[2.500000e-01, 1.250000e-01]> : tensor<2xf64>
// CHECK-DAG: dims = [1] : (tensor<2xf64>) -> tensor<3x2xf64>
// CHECK: stablehlo.convert %x : (tensor<3x4xi8>) -> tensor<3x4xi32>
// CHECK: stablehlo.subtract
// CHECK: stablehlo.convert %w : (tensor<4x2xi8>) -> tensor<4x2xi32>
// CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<3x4xi32>, tensor<4x2xi32>) -> tensor<3x2xi32>
// CHECK: stablehlo.convert %{{.*}} : (tensor<3x2xi32>) -> tensor<3x2xf64>
// CHECK: stablehlo.round_nearest_even %{{.*}} : tensor<3x2xf64>
// CHECK: (tensor<3x2xf64>) -> tensor<3x2xi8>
// CHECK-NOT: f32
func.func @dot_general_fused_requantize(%x: tensor<3x4x!q>, %w: tensor<4x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.2:-1>> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<3x4x!q>, tensor<4x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>) -> tensor<3x2x!quant.uniform<i32:f32:1, {0.05,0.025}>>
  %1 = stablehlo.uniform_quantize %0 : (tensor<3x2x!quant.uniform<i32:f32:1, {0.05,0.025}>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.2:-1>>
  func.return %1 : tensor<3x2x!quant.uniform<i8:f32, 0.2:-1>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @dot_general_fused_bias
// CHECK: %[[BIAS:.*]] = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<2xi32>) -> tensor<3x2xi32>
// CHECK: %[[ACC:.*]] = stablehlo.dot_general
// CHECK: stablehlo.add %[[ACC]], %{{.*}} : tensor<3x2xi32>
// CHECK: stablehlo.convert %{{.*}} : (tensor<3x2xi32>) -> tensor<3x2xf64>
// CHECK-NOT: f32
func.func @dot_general_fused_bias(%x: tensor<3x4x!q>, %w: tensor<4x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>, %bias: tensor<2x!quant.uniform<i32:f32:0, {0.05,0.025}>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.2:-1>> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<3x4x!q>, tensor<4x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>) -> tensor<3x2x!quant.uniform<i32:f32:1, {0.05,0.025}>>
  %1 = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<2x!quant.uniform<i32:f32:0, {0.05,0.025}>>) -> tensor<3x2x!quant.uniform<i32:f32:1, {0.05,0.025}>>
  %2 = stablehlo.add %0, %1 : tensor<3x2x!quant.uniform<i32:f32:1, {0.05,0.025}>>
  %3 = stablehlo.uniform_quantize %2 : (tensor<3x2x!quant.uniform<i32:f32:1, {0.05,0.025}>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.2:-1>>
  func.return %3 : tensor<3x2x!quant.uniform<i8:f32, 0.2:-1>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @dot_general_accumulator_result
// CHECK: -> tensor<3x2xi32>
// CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<3x4xi32>, tensor<4x2xi32>) -> tensor<3x2xi32>
// CHECK-NOT: f64
func.func @dot_general_accumulator_result(%x: tensor<3x4x!q>, %w: tensor<4x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>) -> tensor<3x2x!quant.uniform<i32:f32:1, {0.05,0.025}>> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<3x4x!q>, tensor<4x2x!quant.uniform<i8:f32:1, {0.5,0.25}>>) -> tensor<3x2x!quant.uniform<i32:f32:1, {0.05,0.025}>>
  func.return %0 : tensor<3x2x!quant.uniform<i32:f32:1, {0.05,0.025}>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @dot_general_batched
// CHECK-DAG: stablehlo.constant dense<5.000000e-02> : tensor<f64>
// CHECK: batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4xi32>, tensor<2x4x5xi32>) -> tensor<2x3x5xi32>
func.func @dot_general_batched(%x: tensor<2x3x4x!q>, %w: tensor<2x4x5x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x3x5x!quant.uniform<i8:f32, 1.0>> {
  %0 = stablehlo.dot_general %x, %w, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x4x!q>, tensor<2x4x5x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x3x5x!quant.uniform<i8:f32, 1.0>>
  func.return %0 : tensor<2x3x5x!quant.uniform<i8:f32, 1.0>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @dot
// CHECK: stablehlo.dot %{{.*}}, %{{.*}} : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3xi32>
func.func @dot(%x: tensor<3x4x!q>, %w: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x!quant.uniform<i8:f32, 1.0>> {
  %0 = stablehlo.dot %x, %w : (tensor<3x4x!q>, tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x!quant.uniform<i8:f32, 1.0>>
  func.return %0 : tensor<3x!quant.uniform<i8:f32, 1.0>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @dot_general_hybrid_is_float
// CHECK: stablehlo.convert %w : (tensor<4x2xi8>) -> tensor<4x2xf32>
// CHECK: stablehlo.dot_general %x, %{{.*}}, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
func.func @dot_general_hybrid_is_float(%x: tensor<3x4xf32>, %w: tensor<4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x2xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @convolution_padding_uses_the_input_zero_point
// CHECK-DAG: stablehlo.constant dense<3> : tensor<i32>
// CHECK-DAG: dims = [3] : (tensor<4xf64>) -> tensor<1x5x5x4xf64>
// The zero point is subtracted before the convolution pads with 0: padding means the input zero point.
// CHECK: stablehlo.subtract %{{.*}}, %{{.*}} : tensor<1x5x5x2xi32>
// CHECK: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]}
func.func @convolution_padding_uses_the_input_zero_point(%x: tensor<1x5x5x2x!q>, %w: tensor<3x3x2x4x!quant.uniform<i8:f32:3, {0.1,0.2,0.3,0.4}>>) -> tensor<1x5x5x4x!quant.uniform<i8:f32, 0.5:2>> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2x!q>, tensor<3x3x2x4x!quant.uniform<i8:f32:3, {0.1,0.2,0.3,0.4}>>) -> tensor<1x5x5x4x!quant.uniform<i8:f32, 0.5:2>>
  func.return %0 : tensor<1x5x5x4x!quant.uniform<i8:f32, 0.5:2>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @convolution_depthwise_strided_dilated
// CHECK: window = {stride = [2, 1], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x8x8x4xi32>, tensor<3x3x1x4xi32>) -> tensor<1x2x4x4xi32>
func.func @convolution_depthwise_strided_dilated(%x: tensor<1x8x8x4x!q>, %w: tensor<3x3x1x4x!quant.uniform<i8:f32:3, {0.1,0.2,0.3,0.4}>>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], rhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x8x8x4x!q>, tensor<3x3x1x4x!quant.uniform<i8:f32:3, {0.1,0.2,0.3,0.4}>>) -> tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>
  func.return %0 : tensor<1x2x4x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @convolution_nchw
// CHECK-DAG: dims = [1] : (tensor<3xf64>) -> tensor<1x3x4x4xf64>
func.func @convolution_nchw(%x: tensor<1x2x4x4x!q>, %w: tensor<3x2x1x1x!quant.uniform<i8:f32:0, {0.1,0.2,0.3}>>) -> tensor<1x3x4x4x!quant.uniform<i8:f32, 0.5>> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x4x4x!q>, tensor<3x2x1x1x!quant.uniform<i8:f32:0, {0.1,0.2,0.3}>>) -> tensor<1x3x4x4x!quant.uniform<i8:f32, 0.5>>
  func.return %0 : tensor<1x3x4x4x!quant.uniform<i8:f32, 0.5>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @data_movement_reshape
// CHECK: stablehlo.reshape %a : (tensor<2x2xi8>) -> tensor<4xi8>
func.func @data_movement_reshape(%a: tensor<2x2x!q>, %s: tensor<!q>) {
  %0 = stablehlo.reshape %a : (tensor<2x2x!q>) -> tensor<4x!q>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @data_movement_transpose
// CHECK: stablehlo.transpose %a, dims = [1, 0] : (tensor<2x2xi8>) -> tensor<2x2xi8>
func.func @data_movement_transpose(%a: tensor<2x2x!q>, %s: tensor<!q>) {
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x2x!q>) -> tensor<2x2x!q>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @data_movement_slice
// CHECK: stablehlo.slice %a [0:1, 0:2] : (tensor<2x2xi8>) -> tensor<1x2xi8>
func.func @data_movement_slice(%a: tensor<2x2x!q>, %s: tensor<!q>) {
  %0 = stablehlo.slice %a [0:1, 0:2] : (tensor<2x2x!q>) -> tensor<1x2x!q>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @data_movement_concatenate
// CHECK: stablehlo.concatenate %a, %a, dim = 1 : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x4xi8>
func.func @data_movement_concatenate(%a: tensor<2x2x!q>, %s: tensor<!q>) {
  %0 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<2x2x!q>, tensor<2x2x!q>) -> tensor<2x4x!q>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @data_movement_pad
// CHECK: stablehlo.pad %a, %s, low = [1, 0], high = [0, 1], interior = [0, 0] : (tensor<2x2xi8>, tensor<i8>) -> tensor<3x3xi8>
func.func @data_movement_pad(%a: tensor<2x2x!q>, %s: tensor<!q>) {
  %0 = stablehlo.pad %a, %s, low = [1, 0], high = [0, 1], interior = [0, 0] : (tensor<2x2x!q>, tensor<!q>) -> tensor<3x3x!q>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @data_movement_broadcast_in_dim
// CHECK: stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i8>) -> tensor<2x2xi8>
func.func @data_movement_broadcast_in_dim(%a: tensor<2x2x!q>, %s: tensor<!q>) {
  %0 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<!q>) -> tensor<2x2x!q>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @constant
// CHECK-DAG: stablehlo.constant dense<[1, 200, 127]> : tensor<3xui8>
func.func @constant() -> tensor<3x!quant.uniform<u8:f32, 0.5:128>> {
  %0 = stablehlo.constant() <{value = dense<[1, -56, 127]> : tensor<3xi8>}> : () -> tensor<3x!quant.uniform<u8:f32, 0.5:128>>
  func.return %0 : tensor<3x!quant.uniform<u8:f32, 0.5:128>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @calls_and_signatures(%a: tensor<4xi8>) -> tensor<4xi8>
// CHECK: call @helper(%a) : (tensor<4xi8>) -> tensor<4xi8>
// CHECK: func.func private @helper(%a: tensor<4xi8>) -> tensor<4xi8>
func.func @calls_and_signatures(%a: tensor<4x!q>) -> tensor<4x!q> {
  %0 = func.call @helper(%a) : (tensor<4x!q>) -> tensor<4x!q>
  func.return %0 : tensor<4x!q>
}
func.func private @helper(%a: tensor<4x!q>) -> tensor<4x!q> {
  func.return %a : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @quant_casts
// CHECK: stablehlo.round_nearest_even
// CHECK: return %{{[0-9]+}}, %{{[0-9]+}} : tensor<4xi8>, tensor<4xf32>
func.func @quant_casts(%x: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xf32>) {
  %0 = quant.qcast %x : tensor<4xf32> to tensor<4x!q>
  %1 = quant.scast %0 : tensor<4x!q> to tensor<4xi8>
  %2 = quant.dcast %0 : tensor<4x!q> to tensor<4xf32>
  func.return %1, %2 : tensor<4xi8>, tensor<4xf32>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>

// CHECK-LABEL: func.func @float_program_untouched
// CHECK: %0 = stablehlo.tanh %x : tensor<4xf32>
// CHECK-NEXT: return %0 : tensor<4xf32>
func.func @float_program_untouched(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.tanh %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
