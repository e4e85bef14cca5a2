// Every TOSA verifier rule, each with its exact diagnostic at the op.
// RUN: qopt %s --split-input-file --verify-diagnostics

// const with an operand
func.func @f(%a: tensor<1xi8>) {
  // expected-error @+1 {{'tosa.const' op requires zero operands}}
  %0 = "tosa.const"(%a) <{values = dense<0> : tensor<1xi8>}> : (tensor<1xi8>) -> tensor<1xi8>
  func.return
}

// -----

// const values of another type
func.func @f() {
  // expected-error @+1 {{'tosa.const' op failed to verify that all of {values, output} have same shape}}
  %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<2xi8>
  func.return
}

// -----

// const_shape with the wrong count
func.func @f() {
  // expected-error @+1 {{'tosa.const_shape' op expect number of elements in attribute values (3) to be equal to the rank (2) for the result shape type}}
  %0 = "tosa.const_shape"() <{values = dense<[1, 2, 3]> : tensor<3xindex>}> : () -> !tosa.shape<2>
  func.return
}

// -----

// add with three operands
func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{'tosa.add' op expected 2 operands, but found 3 (input1, input2)}}
  %0 = "tosa.add"(%a, %a, %a) : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

// add of mixed element types
func.func @f(%a: tensor<4xi32>, %b: tensor<4xi16>) {
  // expected-error @+1 {{'tosa.add' op requires the same element type for all operands and results}}
  %0 = "tosa.add"(%a, %b) : (tensor<4xi32>, tensor<4xi16>) -> tensor<4xi32>
  func.return
}

// -----

// rank mismatch (TOSA has no implicit rank broadcast)
func.func @f(%a: tensor<4xi32>, %b: tensor<1x4xi32>) {
  // expected-error @+1 {{'tosa.sub' op operands don't have matching ranks}}
  %0 = "tosa.sub"(%a, %b) : (tensor<4xi32>, tensor<1x4xi32>) -> tensor<1x4xi32>
  func.return
}

// -----

// sizes that do not broadcast
func.func @f(%a: tensor<4xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'tosa.maximum' op operands don't have broadcast-compatible shapes}}
  %0 = "tosa.maximum"(%a, %b) : (tensor<4xi32>, tensor<3xi32>) -> tensor<4xi32>
  func.return
}

// -----

// mul of mixed inputs
func.func @f(%a: tensor<4xi8>, %b: tensor<4xi16>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op requires the same element type for all operands}}
  %0 = "tosa.mul"(%a, %b, %z8) : (tensor<4xi8>, tensor<4xi16>, tensor<1xi8>) -> tensor<4xi32>
  func.return
}

// -----

// mul whose result is narrower than its inputs: upstream's own rule, checked first
func.func @f(%a: tensor<4xi32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op invalid data type size for operands or result}}
  %0 = "tosa.mul"(%a, %a, %z8) : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi16>
  func.return
}

// -----

// mul of floats with another result type
func.func @f(%a: tensor<4xf32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op requires the same element type for all operands and results}}
  %0 = "tosa.mul"(%a, %a, %z8) : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf16>
  func.return
}

// -----

// mul of i8 must produce i32: the spec's rule, stricter than upstream, which lets i16 * i16 -> i16 pass
func.func @f(%a: tensor<4xi8>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op of i8 inputs produces i32, not i8}}
  %0 = "tosa.mul"(%a, %a, %z8) : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// mul shift out of range
func.func @f(%a: tensor<4xi32>) {
  %s = "tosa.const"() <{values = dense<64> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op requires 0 <= shift && shift <= 63, but got: 64}}
  %0 = "tosa.mul"(%a, %a, %s) : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  func.return
}

// -----

// mul shift on i8 inputs
func.func @f(%a: tensor<4xi8>) {
  %s = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op requires shift = 0 for all input data types that are not int32_t, but got: 1}}
  %0 = "tosa.mul"(%a, %a, %s) : (tensor<4xi8>, tensor<4xi8>, tensor<1xi8>) -> tensor<4xi32>
  func.return
}

// -----

// negate without zero points
func.func @f(%a: tensor<4xi8>) {
  // expected-error @+1 {{'tosa.negate' op expected 3 operands, but found 1 (input1, input1_zp, output_zp)}}
  %0 = "tosa.negate"(%a) : (tensor<4xi8>) -> tensor<4xi8>
  func.return
}

// -----

// negate: zero point on 32-bit data
func.func @f(%a: tensor<4xi32>) {
  %z = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %o = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.negate' op input1 zero point must be zero for non-int8 integer types}}
  %0 = "tosa.negate"(%a, %z, %o) : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  func.return
}

// -----

// negate: zero point of two elements
func.func @f(%a: tensor<4xi8>) {
  %z = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %o = "tosa.const"() <{values = dense<0> : tensor<2xi8>}> : () -> tensor<2xi8>
  // expected-error @+1 {{'tosa.negate' op operand #2 must be tosa-conformant unranked tensor of unsigned integer or signless integer or floating-point values or tosa-conformant scalar tensor of unsigned integer or signless integer or floating-point values, but got 'tensor<2xi8>'}}
  %0 = "tosa.negate"(%a, %z, %o) : (tensor<4xi8>, tensor<1xi8>, tensor<2xi8>) -> tensor<4xi8>
  func.return
}

// -----

// clamp bounds reversed
func.func @f(%a: tensor<4xi8>) {
  // expected-error @+1 {{'tosa.clamp' op expected min_val <= max_val, got min_val=5 : i8, max_val=4 : i8}}
  %0 = "tosa.clamp"(%a) <{min_val = 5 : i8, max_val = 4 : i8}> : (tensor<4xi8>) -> tensor<4xi8>
  func.return
}

// -----

// clamp bounds of another type
func.func @f(%a: tensor<4xi8>) {
  // expected-error @+1 {{'tosa.clamp' op bounds must have the element type i8}}
  %0 = "tosa.clamp"(%a) <{min_val = 0 : i32, max_val = 4 : i32}> : (tensor<4xi8>) -> tensor<4xi8>
  func.return
}

// -----

// clamp bounds that are not numbers
func.func @f(%a: tensor<4xi8>) {
  // expected-error @+1 {{'tosa.clamp' op min_val and max_val must be integer or float attributes}}
  %0 = "tosa.clamp"(%a) <{min_val = "a", max_val = 4 : i8}> : (tensor<4xi8>) -> tensor<4xi8>
  func.return
}

// -----

// rescale missing operands
func.func @f(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tosa.rescale' op expected 5 operands, but found 1 (input, multiplier, shift, input_zp, output_zp)}}
  %r = "tosa.rescale"(%x) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>) -> tensor<4xi8>
  func.return
}

// -----

// rescale to i48
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  // expected-error @+1 {{'tosa.rescale' op rescales i8/i16/i32/i48 to i8/i16/i32, got tensor<4xi32> -> tensor<4xi48>}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi48>) -> tensor<4xi48>
  func.return
}

// -----

// double rounding on 16-bit scaling
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<16384> : tensor<1xi16>}> : () -> tensor<1xi16>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op DOUBLE_ROUND is only allowed with scale32=true}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = false, rounding_mode = #tosa.rounding_mode<DOUBLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi16>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// scale32 on i48
func.func @f(%x: tensor<4xi48>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi48>}> : () -> tensor<1xi48>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op scale32 is not allowed with 48-bit input}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi48>, tensor<1xi32>, tensor<1xi8>, tensor<1xi48>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// 16-bit multiplier with scale32
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<16384> : tensor<1xi16>}> : () -> tensor<1xi16>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op expect i32 element type for multiplier for scale32=true, got 'i16'}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi16>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// 32-bit multiplier without scale32
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op expect i16 element type for multiplier for scale32=false, got 'i32'}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = false, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// i32 shift
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi32>}> : () -> tensor<1xi32>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op operand #2 must be 1D tensor of 8-bit signless integer values, but got 'tensor<1xi32>'}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// per-channel on a scalar
func.func @f(%x: tensor<i32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op per_channel needs an input of rank >= 1}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = true, input_unsigned = false, output_unsigned = false}> : (tensor<i32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<i8>
  func.return
}

// -----

// per-channel with one multiplier
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<4xi8>}> : () -> tensor<4xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op expect shape of { 4 } for multiplier input, got { 1 }}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = true, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<4xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// per-tensor with two shifts
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<2xi8>}> : () -> tensor<2xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op expect shape of { 1 } for shift input, got { 2 }}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<2xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// shape change
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op Shape of input and output must be same}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<5xi8>
  func.return
}

// -----

// shift above 62
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<63> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op shift values must be in 2..62, got [63]}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// shift below 2
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op shift values must be in 2..62, got [1]}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// negative multiplier
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<-5> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op multipliers must be non-negative}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// zero point on i32 input
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op expect input_zp of 0, got 3}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// unsigned 16-bit zero point
func.func @f(%x: tensor<4xi16>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<5> : tensor<1xi16>}> : () -> tensor<1xi16>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op expect input_zp of 0 or 32768 for unsigned int16 input, got 5}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = true, output_unsigned = false}> : (tensor<4xi16>, tensor<1xi32>, tensor<1xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// unsigned i32 input
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op i32 input type cannot be unsigned}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = true, output_unsigned = false}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return
}

// -----

// unsigned i32 output
func.func @f(%x: tensor<4xi32>) {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tosa.rescale' op i32 input type is not allowed with unsigned output}}
  %r = "tosa.rescale"(%x, %m, %s, %izp, %ozp) <{scale32 = true, rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>, per_channel = false, input_unsigned = false, output_unsigned = true}> : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  func.return
}

// -----

// apply_scale missing the shift
func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{'tosa.apply_scale' op expected 3 operands, but found 2 (value, multiplier, shift)}}
  %0 = "tosa.apply_scale"(%a, %a) <{rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>}> : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return
}

// -----

// apply_scale on i8
func.func @f(%a: tensor<4xi8>, %m: tensor<4xi32>) {
  // expected-error @+1 {{'tosa.apply_scale' op takes i32 value, i32 multiplier, i8 shift and returns i32}}
  %0 = "tosa.apply_scale"(%a, %m, %a) <{rounding_mode = #tosa.rounding_mode<SINGLE_ROUND>}> : (tensor<4xi8>, tensor<4xi32>, tensor<4xi8>) -> tensor<4xi32>
  func.return
}

// -----

// table without a table
func.func @f(%a: tensor<4xi8>) {
  // expected-error @+1 {{'tosa.table' op expected 2 operands, but found 1 (input1, table)}}
  %0 = "tosa.table"(%a) : (tensor<4xi8>) -> tensor<4xi8>
  func.return
}

// -----

// table of i32
func.func @f(%a: tensor<4xi32>, %t: tensor<256xi8>) {
  // expected-error @+1 {{'tosa.table' op input must be i8 or i16, got tensor<4xi32>}}
  %0 = "tosa.table"(%a, %t) : (tensor<4xi32>, tensor<256xi8>) -> tensor<4xi32>
  func.return
}

// -----

// i8 table with 255 entries
func.func @f(%a: tensor<4xi8>, %t: tensor<255xi8>) {
  // expected-error @+1 {{'tosa.table' op requires table size of 256, got 255}}
  %0 = "tosa.table"(%a, %t) : (tensor<4xi8>, tensor<255xi8>) -> tensor<4xi8>
  func.return
}

// -----

// i16 table producing i16
func.func @f(%a: tensor<4xi16>, %t: tensor<513xi16>) {
  // expected-error @+1 {{'tosa.table' op with i16 input needs an i16 table and i32 output}}
  %0 = "tosa.table"(%a, %t) : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi16>
  func.return
}

// -----

// conv2d missing weight_zp
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<16x3x3x4xi8>, %b: tensor<16xi32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op expected 5 operands, but found 4 (input, weight, bias, input_zp, weight_zp)}}
  %0 = "tosa.conv2d"(%x, %w, %b, %z8) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i32}> : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>) -> tensor<1x6x6x16xi32>
  func.return
}

// -----

// conv2d of i8 accumulating in i48
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<16x3x3x4xi8>, %b: tensor<16xi32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op accumulator type for i8 tensor is not i32}}
  %0 = "tosa.conv2d"(%x, %w, %b, %z8, %z8) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i48}> : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x16xi32>
  func.return
}

// -----

// conv2d channel mismatch
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<16x3x3x3xi8>, %b: tensor<16xi32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op input channels 4 differ from weight input channels 3}}
  %0 = "tosa.conv2d"(%x, %w, %b, %z8, %z8) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i32}> : (tensor<1x8x8x4xi8>, tensor<16x3x3x3xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x16xi32>
  func.return
}

// -----

// conv2d output shape
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<16x3x3x4xi8>, %b: tensor<16xi32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op calculated output height did not match expected: calculated=6, expected=8}}
  %0 = "tosa.conv2d"(%x, %w, %b, %z8, %z8) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i32}> : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x16xi32>
  func.return
}

// -----

// depthwise channel mismatch
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x3x2xi8>, %b: tensor<8xi32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.depthwise_conv2d' op input channels 4 differ from weight channels 3}}
  %0 = "tosa.depthwise_conv2d"(%x, %w, %b, %z8, %z8) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i32}> : (tensor<1x8x8x4xi8>, tensor<3x3x3x2xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x8xi32>
  func.return
}

// -----

// depthwise output channels are C*M
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x4x2xi8>, %b: tensor<8xi32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.depthwise_conv2d' op bias channels expected to be equal to output channels (4) or 1, got 8}}
  %0 = "tosa.depthwise_conv2d"(%x, %w, %b, %z8, %z8) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i32}> : (tensor<1x8x8x4xi8>, tensor<3x3x4x2xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x4xi32>
  func.return
}

// -----

// transpose_conv2d output shape
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<16x3x3x4xi8>, %b: tensor<16xi32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.transpose_conv2d' op dimension mismatch: expected OH == (IH - 1) * stride_y + out_pad_top + out_pad_bottom + KH, but got 8 != (8 - 1) * 1 + 0 + 0 + 3}}
  %0 = "tosa.transpose_conv2d"(%x, %w, %b, %z8, %z8) <{out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, acc_type = i32}> : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x16xi32>
  func.return
}

// -----

// conv2d on rank 3
func.func @f(%x: tensor<8x8x4xi8>, %w: tensor<16x3x3x4xi8>, %b: tensor<16xi32>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op operand #0 must be 4-d tosa-conformant tensor, but got 'tensor<8x8x4xi8>'}}
  %0 = "tosa.conv2d"(%x, %w, %b, %z8, %z8) <{pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, acc_type = i32}> : (tensor<8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x16xi32>
  func.return
}

// -----

// matmul without zero points
func.func @f(%a: tensor<1x4x8xi8>, %b: tensor<1x8x5xi8>) {
  // expected-error @+1 {{'tosa.matmul' op expected 4 operands, but found 2 (a, b, a_zp, b_zp)}}
  %0 = "tosa.matmul"(%a, %b) : (tensor<1x4x8xi8>, tensor<1x8x5xi8>) -> tensor<1x4x5xi32>
  func.return
}

// -----

// matmul of i8 producing i48
func.func @f(%a: tensor<1x4x8xi8>, %b: tensor<1x8x5xi8>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.matmul' op with i8 inputs produces i32, got tensor<1x4x5xi48>}}
  %0 = "tosa.matmul"(%a, %b, %z8, %z8) : (tensor<1x4x8xi8>, tensor<1x8x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x5xi48>
  func.return
}

// -----

// matmul inner sizes
func.func @f(%a: tensor<1x4x8xi8>, %b: tensor<1x7x5xi8>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.matmul' op shapes 1x4x8 and 1x7x5 do not multiply}}
  %0 = "tosa.matmul"(%a, %b, %z8, %z8) : (tensor<1x4x8xi8>, tensor<1x7x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x5xi32>
  func.return
}

// -----

// matmul output shape
func.func @f(%a: tensor<1x4x8xi8>, %b: tensor<1x8x5xi8>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.matmul' op output must be 1x4x5}}
  %0 = "tosa.matmul"(%a, %b, %z8, %z8) : (tensor<1x4x8xi8>, tensor<1x8x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4xi32>
  func.return
}

// -----

// max_pool2d zero stride
func.func @f(%x: tensor<1x8x8x4xi8>) {
  // expected-error @+1 {{'tosa.max_pool2d' op expect all stride values to be >= 1, got 0, 2}}
  %0 = "tosa.max_pool2d"(%x) <{kernel = array<i64: 2, 2>, stride = array<i64: 0, 2>, pad = array<i64: 0, 0, 0, 0>}> : (tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8>
  func.return
}

// -----

// max_pool2d padding as large as the kernel
func.func @f(%x: tensor<1x8x8x4xi8>) {
  // expected-error @+1 {{'tosa.max_pool2d' op expected top/bottom padding to be less than the height of the kernel, got pad_top=2, pad_bottom=0, kernel_y=2}}
  %0 = "tosa.max_pool2d"(%x) <{kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 2, 0, 0, 0>}> : (tensor<1x8x8x4xi8>) -> tensor<1x5x4x4xi8>
  func.return
}

// -----

// max_pool2d output shape
func.func @f(%x: tensor<1x8x8x4xi8>) {
  // expected-error @+1 {{'tosa.max_pool2d' op output channels 3 must equal the input's 4}}
  %0 = "tosa.max_pool2d"(%x) <{kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}> : (tensor<1x8x8x4xi8>) -> tensor<1x4x4x3xi8>
  func.return
}

// -----

// avg_pool2d without zero points
func.func @f(%x: tensor<1x8x8x4xi8>) {
  // expected-error @+1 {{'tosa.avg_pool2d' op expected 3 operands, but found 1 (input, input_zp, output_zp)}}
  %0 = "tosa.avg_pool2d"(%x) <{kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, acc_type = i32}> : (tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8>
  func.return
}

// -----

// avg_pool2d of i8 accumulating in i16
func.func @f(%x: tensor<1x8x8x4xi8>) {
  %z8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.avg_pool2d' op on integers accumulates in i32}}
  %0 = "tosa.avg_pool2d"(%x, %z8, %z8) <{kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, acc_type = i16}> : (tensor<1x8x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  func.return
}

// -----

// reshape to another shape than the operand's
func.func @f(%x: tensor<2x3xi8>) {
  %s = "tosa.const_shape"() <{values = dense<[3, 2]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.reshape' op new shape is inconsistent with result shape}}
  %0 = "tosa.reshape"(%x, %s) : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<6x1xi8>
  func.return
}

// -----

// reshape changing the element count
func.func @f(%x: tensor<2x3xi8>) {
  %s = "tosa.const_shape"() <{values = dense<[4, 2]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.reshape' op cannot reshape 6 elements into 8}}
  %0 = "tosa.reshape"(%x, %s) : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<4x2xi8>
  func.return
}

// -----

// transpose perms not a permutation
func.func @f(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.transpose' op expected valid permutation indices}}
  %0 = "tosa.transpose"(%x) <{perms = array<i32: 0, 0>}> : (tensor<2x3xi8>) -> tensor<2x2xi8>
  func.return
}

// -----

// transpose output shape
func.func @f(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.transpose' op expected output tensor dim 0 to match input dim 1 with value of 3}}
  %0 = "tosa.transpose"(%x) <{perms = array<i32: 1, 0>}> : (tensor<2x3xi8>) -> tensor<2x3xi8>
  func.return
}

// -----

// concat axis out of range
func.func @f(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.concat' op expect axis to be within range 0 < axis < rank(input1[firstRankedTensorIdx]), got 2}}
  %0 = "tosa.concat"(%x, %x) <{axis = 2 : i32}> : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<4x3xi8>
  func.return
}

// -----

// concat output shape
func.func @f(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.concat' op output must be 4x3}}
  %0 = "tosa.concat"(%x, %x) <{axis = 0 : i32}> : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<4x6xi8>
  func.return
}

// -----

// pad with negative padding
func.func @f(%x: tensor<2x3xi8>) {
  %p = "tosa.const_shape"() <{values = dense<[1, -1, 0, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %v = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.pad' op padding value must all be non-negative, got -1}}
  %0 = "tosa.pad"(%x, %p, %v) : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<2x3xi8>
  func.return
}

// -----

// pad output shape
func.func @f(%x: tensor<2x3xi8>) {
  %p = "tosa.const_shape"() <{values = dense<[1, 0, 0, 2]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %v = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.pad' op output must be 3x5}}
  %0 = "tosa.pad"(%x, %p, %v) : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<3x3xi8>
  func.return
}

// -----

// slice with too few values
func.func @f(%x: tensor<2x3xi8>) {
  %a = "tosa.const_shape"() <{values = dense<0> : tensor<1xindex>}> : () -> !tosa.shape<1>
  // expected-error @+1 {{'tosa.slice' op length of start is not equal to rank of input shape}}
  %0 = "tosa.slice"(%x, %a, %a) : (tensor<2x3xi8>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2x3xi8>
  func.return
}

// -----

// slice past the end
func.func @f(%x: tensor<2x3xi8>) {
  %a = "tosa.const_shape"() <{values = dense<[0, 2]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %b = "tosa.const_shape"() <{values = dense<2> : tensor<2xindex>}> : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.slice' op slice 2+2 does not fit dimension 1 (size 3)}}
  %0 = "tosa.slice"(%x, %a, %b) : (tensor<2x3xi8>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xi8>
  func.return
}

// -----

// slice start and size: the spec's ERROR_IFs, each with its own message
func.func @f(%x: tensor<2x3xi8>) {
  %a = "tosa.const_shape"() <{values = dense<[0, -1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %b = "tosa.const_shape"() <{values = dense<1> : tensor<2xindex>}> : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.slice' op start -1 at dimension 1 is negative}}
  %0 = "tosa.slice"(%x, %a, %b) : (tensor<2x3xi8>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xi8>
  func.return
}

// -----

func.func @f(%x: tensor<2x3xi8>) {
  %a = "tosa.const_shape"() <{values = dense<1> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %b = "tosa.const_shape"() <{values = dense<[1, 0]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.slice' op size 0 at dimension 1 is not positive}}
  %0 = "tosa.slice"(%x, %a, %b) : (tensor<2x3xi8>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xi8>
  func.return
}

// -----

// slice output shape
func.func @f(%x: tensor<2x3xi8>) {
  %a = "tosa.const_shape"() <{values = dense<0> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %b = "tosa.const_shape"() <{values = dense<2> : tensor<2xindex>}> : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.slice' op output must be 2x2}}
  %0 = "tosa.slice"(%x, %a, %b) : (tensor<2x3xi8>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x3xi8>
  func.return
}

// -----

// reduce axis out of range
func.func @f(%x: tensor<2x3xi32>) {
  // expected-error @+1 {{'tosa.reduce_sum' op expect input tensor rank (2) to be larger than reduce axis (2)}}
  %0 = "tosa.reduce_sum"(%x) <{axis = 2 : i32}> : (tensor<2x3xi32>) -> tensor<2x1xi32>
  func.return
}

// -----

// reduce drops the axis
func.func @f(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.reduce_max' op expect output tensor rank to be equal to input tensor rank}}
  %0 = "tosa.reduce_max"(%x) <{axis = 0 : i32}> : (tensor<2x3xi8>) -> tensor<3xi8>
  func.return
}

// -----

// clz is defined on i32 only
func.func @f(%x: tensor<4xi8>) {
  // expected-error @+1 {{'tosa.clz' op needs i32 data, got tensor<4xi8>}}
  %0 = "tosa.clz"(%x) : (tensor<4xi8>) -> tensor<4xi8>
  func.return
}

// -----

// logical_left_shift keeps one element type
func.func @f(%x: tensor<4xi32>, %s: tensor<4xi8>) {
  // expected-error @+1 {{'tosa.logical_left_shift' op requires the same element type for all operands and results}}
  %0 = "tosa.logical_left_shift"(%x, %s) : (tensor<4xi32>, tensor<4xi8>) -> tensor<4xi32>
  func.return
}

// -----

// gather indices are i32
func.func @f(%v: tensor<1x256x1xi32>, %i: tensor<1x6xi8>) {
  // expected-error @+1 {{'tosa.gather' op operand #1 must be tosa-conformant unranked tensor of number values or 2D tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<1x6xi8>'}}
  %0 = "tosa.gather"(%v, %i) : (tensor<1x256x1xi32>, tensor<1x6xi8>) -> tensor<1x6x1xi32>
  func.return
}

// -----

// gather output shape
func.func @f(%v: tensor<1x256x2xi32>, %i: tensor<1x6xi32>) {
  // expected-error @+1 {{'tosa.gather' op requires output dimension 2 to have size 2, got 1}}
  %0 = "tosa.gather"(%v, %i) : (tensor<1x256x2xi32>, tensor<1x6xi32>) -> tensor<1x6x1xi32>
  func.return
}

// -----

// Result tensors made with `tensor.empty`, as upstream's TOSA tests make them.
func.func @transpose_on_empty() -> tensor<3x2xf32> {
  %0 = tensor.empty() : tensor<2x3xf32>
  // expected-error @+1 {{'tosa.transpose' op expected valid permutation indices}}
  %1 = tosa.transpose %0 {perms = array<i32: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// -----

// A zero point has its data's element type (a quantized type's storage type).
func.func @avg_pool_zero_point_type(%x: tensor<1x4x4x2xf16>) -> tensor<1x2x2x2xf16> {
  %iz = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %oz = tosa.const values(dense<0.0> : tensor<1xf16>) : () -> tensor<1xf16>
  // expected-error @+1 {{'tosa.avg_pool2d' op expect both input and its zero point are the same element type, got 'f16' and 'i8'}}
  %0 = tosa.avg_pool2d %x, %iz, %oz kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(f32) : (tensor<1x4x4x2xf16>, tensor<1xi8>, tensor<1xf16>) -> tensor<1x2x2x2xf16>
  return %0 : tensor<1x2x2x2xf16>
}

// -----

func.func @matmul_zero_point_type(%a: tensor<1x2x3xf32>, %b: tensor<1x3x4xf32>) -> tensor<1x2x4xf32> {
  %az = tosa.const values(dense<0.0> : tensor<1xf32>) : () -> tensor<1xf32>
  %bz = tosa.const values(dense<0.0> : tensor<1xf16>) : () -> tensor<1xf16>
  // expected-error @+1 {{'tosa.matmul' op expect input b and b_zp have the same element type, got 'f32' and 'f16'}}
  %0 = tosa.matmul %a, %b, %az, %bz : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf16>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

// A reduction's result type is inferred from its input; MLIR adds its second error.
func.func @reduce_sum_result_type(%x: tensor<2x3xf32>) -> tensor<1x3xi32> {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tosa.reduce_sum' op inferred type(s) 'tensor<1x3xf32>' are incompatible with return type(s) of operation 'tensor<1x3xi32>'}}
  %0 = tosa.reduce_sum %x axis(0) : (tensor<2x3xf32>) -> tensor<1x3xi32>
  return %0 : tensor<1x3xi32>
}

// -----

// tosa.variable: an initial value whose shape is not the type's; upstream's parser then
// reports where it stopped, on the next line.
module {
  // expected-error@+1 {{inferred shape of elements literal ([3]) does not match type ([2, 2])}}
  tosa.variable @v = dense<[1, 2, 3]> : tensor<2x2xi8>
  // expected-error@+1 {{custom op 'tosa.variable' expected attribute}}
}

// -----

module {
  // expected-error@+1 {{expected integer elements, but parsed floating-point}}
  tosa.variable @v = dense<0.5> : tensor<4xi8>
  // expected-error@+1 {{custom op 'tosa.variable' expected attribute}}
}
