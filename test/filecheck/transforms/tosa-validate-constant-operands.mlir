// Without the `dynamic` extension a target takes zero points, multipliers, shifts,
// tables and pad values only as compile-time constants; tosa-validate names the
// operand that is not one, in upstream's words. With `dynamic`, the same program passes.
// RUN: qopt %s --split-input-file --verify-diagnostics -p 'tosa-validate{profile=pro_int,pro_fp}'
// RUN: qopt %s --split-input-file -p 'tosa-validate{profile=pro_int,pro_fp extension=dynamic}' | FileCheck %s --check-prefix=DYNAMIC

// DYNAMIC-LABEL: func.func @rescale_multiplier
// DYNAMIC: tosa.rescale
func.func @rescale_multiplier(%x: tensor<4xi32>, %m: tensor<1xi32>) -> tensor<4xi32> {
  %s = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %z = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.rescale' op expected compile time resolvable constant, but got variable value for operand #1}}
  %0 = tosa.rescale %x, %m, %s, %z, %z scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// DYNAMIC-LABEL: func.func @conv_weight_zero_point
func.func @conv_weight_zero_point(%x: tensor<1x4x4x4xi8>, %w: tensor<8x1x1x4xi8>, %b: tensor<8xi32>, %wz: tensor<1xi8>) -> tensor<1x4x4x8xi32> {
  %xz = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op expected compile time resolvable constant, but got variable value for operand #4}}
  %0 = tosa.conv2d %x, %w, %b, %xz, %wz pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x4x4x4xi8>, tensor<8x1x1x4xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x8xi32>
  return %0 : tensor<1x4x4x8xi32>
}

// -----

// DYNAMIC-LABEL: func.func @matmul_zero_point
func.func @matmul_zero_point(%a: tensor<1x2x3xi8>, %b: tensor<1x3x4xi8>, %az: tensor<1xi8>) -> tensor<1x2x4xi32> {
  %bz = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.matmul' op expected compile time resolvable constant, but got variable value for operand #2}}
  %0 = tosa.matmul %a, %b, %az, %bz : (tensor<1x2x3xi8>, tensor<1x3x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x4xi32>
  return %0 : tensor<1x2x4xi32>
}

// -----

// DYNAMIC-LABEL: func.func @mul_shift
func.func @mul_shift(%a: tensor<4xi8>, %s: tensor<1xi8>) -> tensor<4xi32> {
  // expected-error @+1 {{'tosa.mul' op expected compile time resolvable constant, but got variable value for operand #2}}
  %0 = tosa.mul %a, %a, %s : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// DYNAMIC-LABEL: func.func @table_values
func.func @table_values(%a: tensor<4xi8>, %t: tensor<256xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'tosa.table' op expected compile time resolvable constant, but got variable value for operand #1}}
  %0 = tosa.table %a, %t : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// DYNAMIC-LABEL: func.func @pad_value
func.func @pad_value(%a: tensor<4xi8>, %c: tensor<1xi8>) -> tensor<6xi8> {
  %p = tosa.const_shape values(dense<1> : tensor<2xindex>) : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.pad' op expected compile time resolvable constant, but got variable value for operand #2}}
  %0 = tosa.pad %a, %p, %c : (tensor<4xi8>, !tosa.shape<2>, tensor<1xi8>) -> tensor<6xi8>
  return %0 : tensor<6xi8>
}

// -----

// DYNAMIC-LABEL: func.func @negate_zero_points
func.func @negate_zero_points(%a: tensor<4xi8>, %z: tensor<1xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'tosa.negate' op expected compile time resolvable constant, but got variable value for operand #1}}
  %0 = tosa.negate %a, %z, %z : (tensor<4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// DYNAMIC-LABEL: func.func @avg_pool_zero_point
func.func @avg_pool_zero_point(%x: tensor<1x4x4x2xi8>, %oz: tensor<1xi8>) -> tensor<1x2x2x2xi8> {
  %iz = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.avg_pool2d' op expected compile time resolvable constant, but got variable value for operand #2}}
  %0 = tosa.avg_pool2d %x, %iz, %oz kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(i32) : (tensor<1x4x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}

// -----

// Constants from any constant op qualify.
// DYNAMIC-LABEL: func.func @constants
func.func @constants(%a: tensor<4xi8>) -> tensor<4xi32> {
  %s = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.mul %a, %a, %s : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// Every op the target rejects is reported, not only the first.
// DYNAMIC-LABEL: func.func @two_ops
func.func @two_ops(%a: tensor<4xi8>, %s: tensor<1xi8>, %t: tensor<256xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'tosa.mul' op expected compile time resolvable constant, but got variable value for operand #2}}
  %0 = tosa.mul %a, %a, %s : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  // expected-error @+1 {{'tosa.table' op expected compile time resolvable constant, but got variable value for operand #1}}
  %1 = tosa.table %a, %t : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8>
  return %1 : tensor<4xi8>
}
