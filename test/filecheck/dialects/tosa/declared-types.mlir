// The operand and result types each TOSA op declares, checked before the op's own
// rules and worded as upstream MLIR's generated verifiers word them: ranks, element
// types, "tosa-conformant" (no dimension of size 0) and scalar tensors (tensor<1xT>).
// RUN: qopt %s --split-input-file --verify-diagnostics

func.func @argmax_scalar(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'tosa.argmax' op operand #0 must be tosa-conformant tensor of at least rank 1, but got 'tensor<i32>'}}
  %0 = tosa.argmax %a axis(0) : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @conv_zero_width(%x: tensor<1x29x0x4xf32>, %w: tensor<16x3x3x4xf32>, %b: tensor<16xf32>) -> tensor<1x27x27x16xf32> {
  %z = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.conv2d' op operand #0 must be 4-d tosa-conformant tensor, but got 'tensor<1x29x0x4xf32>'}}
  %0 = tosa.conv2d %x, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) : (tensor<1x29x0x4xf32>, tensor<16x3x3x4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x27x27x16xf32>
  return %0 : tensor<1x27x27x16xf32>
}

// -----

func.func @conv_rank0_zero_point(%x: tensor<1x5x5x4xi8>, %w: tensor<2x3x3x4xi8>, %b: tensor<2xi32>, %z: tensor<i8>) -> tensor<1x3x3x2xi32> {
  // expected-error @+1 {{'tosa.conv2d' op operand #3 must be tosa-conformant unranked tensor of unsigned integer or signless integer or floating-point values or tosa-conformant scalar tensor of unsigned integer or signless integer or floating-point values, but got 'tensor<i8>'}}
  %0 = tosa.conv2d %x, %w, %b, %z, %z pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x5x5x4xi8>, tensor<2x3x3x4xi8>, tensor<2xi32>, tensor<i8>, tensor<i8>) -> tensor<1x3x3x2xi32>
  return %0 : tensor<1x3x3x2xi32>
}

// -----

func.func @concat_scalars(%a: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tosa.concat' op operand #0 must be variadic of tosa-conformant tensor of at least rank 1, but got 'tensor<f32>'}}
  %0 = tosa.concat %a, %a axis(0) : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @table_scalar(%a: tensor<4xi16>, %t: tensor<i16>) -> tensor<4xi32> {
  // expected-error @+1 {{'tosa.table' op operand #1 must be 1-d tosa-conformant tensor, but got 'tensor<i16>'}}
  %0 = tosa.table %a, %t : (tensor<4xi16>, tensor<i16>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @gather_i8_indices(%v: tensor<1x4x2xi8>, %i: tensor<1x3xi8>) -> tensor<1x3x2xi8> {
  // expected-error @+1 {{'tosa.gather' op operand #1 must be tosa-conformant unranked tensor of number values or 2D tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<1x3xi8>'}}
  %0 = tosa.gather %v, %i : (tensor<1x4x2xi8>, tensor<1x3xi8>) -> tensor<1x3x2xi8>
  return %0 : tensor<1x3x2xi8>
}

// -----

func.func @integer_cos(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tosa.cos' op operand #0 must be tosa-conformant tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = tosa.cos %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @byte_logical_and(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'tosa.logical_and' op operand #0 must be tosa-conformant tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = tosa.logical_and %a, %a : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @transpose_to_scalar(%a: tensor<1xf32>) -> tensor<f32> {
  // expected-error @+1 {{'tosa.transpose' op result #0 must be tosa-conformant tensor of at least rank 1, but got 'tensor<f32>'}}
  %0 = tosa.transpose %a perms([0]) : (tensor<1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @empty_constant() -> tensor<0xi8> {
  // expected-error @+1 {{'tosa.const' op result #0 must be tosa-conformant tensor of number values, but got 'tensor<0xi8>'}}
  %0 = tosa.const values(dense<> : tensor<0xi8>) : () -> tensor<0xi8>
  return %0 : tensor<0xi8>
}

// -----

// MLIR's operand-count words, then the names TOSA gives the operands.
func.func @mul_without_shift(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'tosa.mul' op expected 3 operands, but found 2 (input1, input2, shift)}}
  %0 = "tosa.mul"(%a, %a) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// A !tosa.shape operand must come from a shape operator: a block argument is not
// known at compile time.
func.func @pad_by_argument(%a: tensor<13x21x3xf32>, %p: !tosa.shape<6>) -> tensor<13x21x3xf32> {
  %c = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  // expected-error @+1 {{'tosa.pad' op shape operand is not compile time resolvable}}
  %0 = tosa.pad %a, %p, %c : (tensor<13x21x3xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<13x21x3xf32>
  return %0 : tensor<13x21x3xf32>
}

// -----

func.func @cast_reshapes(%a: tensor<4x2xi8>) -> tensor<8xi32> {
  // expected-error @+1 {{'tosa.cast' op requires the same shape for all operands and results}}
  %0 = tosa.cast %a : (tensor<4x2xi8>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// -----

func.func @table_rank(%a: tensor<4xi8>, %t: tensor<256xi8>) -> tensor<4x1xi8> {
  // expected-error @+1 {{'tosa.table' op expected input tensor rank to equal result tensor rank}}
  %0 = tosa.table %a, %t : (tensor<4xi8>, tensor<256xi8>) -> tensor<4x1xi8>
  return %0 : tensor<4x1xi8>
}

// -----

func.func @table_dim(%a: tensor<2x16xi8>, %t: tensor<256xi8>) -> tensor<2x15xi8> {
  // expected-error @+1 {{'tosa.table' op dim(result, 1) = 15 doesn't match dim(input, 1) = 16}}
  %0 = tosa.table %a, %t : (tensor<2x16xi8>, tensor<256xi8>) -> tensor<2x15xi8>
  return %0 : tensor<2x15xi8>
}

// -----

// Clamp bounds: no NaN (printed by its bits, as MLIR prints it), and min <= max.
func.func @clamp_nan(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.clamp' op min/max attributes should not be 'NaN', got min_val=0xFFFFFFFF : f32, max_val=1.000000e+00 : f32}}
  %0 = "tosa.clamp"(%a) <{min_val = 0xFFFFFFFF : f32, max_val = 1.0 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_float_order(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.clamp' op expected min_val <= max_val, got min_val=2.000000e+00 : f32, max_val=-1.100000e+00 : f32}}
  %0 = "tosa.clamp"(%a) <{min_val = 2.0 : f32, max_val = -1.1 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Unranked tensors satisfy every tensor constraint, and boolean bounds order as booleans.
func.func @accepted(%a: tensor<*xi32>, %b: tensor<4xi1>) -> (tensor<*xi32>, tensor<4xi1>) {
  %0 = tosa.add %a, %a : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi32>
  %1 = "tosa.clamp"(%b) <{min_val = false, max_val = true}> : (tensor<4xi1>) -> tensor<4xi1>
  return %0, %1 : tensor<*xi32>, tensor<4xi1>
}
