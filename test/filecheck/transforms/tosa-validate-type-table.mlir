// tosa-validate follows the specification's type tables (tosa_type_support.py, made
// from tosa.xml): an op needs what the modes matching its element types need. The
// expectations are the specification's: i32 ADD is in both profiles, i8 PAD only in
// PRO-INT, 8-bit CONST in both, i16 x i8 CONV2D in EXT-INT16, ARGMAX to i64 in EXT-INT64
// since version 1.1, and f64 in no mode.
// RUN: qopt %s --split-input-file --verify-diagnostics -p 'tosa-validate{strict-op-spec-alignment}'

module attributes {tosa.target_env = {specification_version = "1.0", level = "8k", profiles = [], extensions = []}} {
  func.func @no_profile(%a: tensor<4xi32>) -> tensor<4xi32> {
    // expected-error @+1 {{'tosa.add' op illegal: requires any of [pro_int, pro_fp] profiles/extensions to be specified in the target environment}}
    %0 = tosa.add %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    return %0 : tensor<4xi32>
  }
}

// -----

module attributes {tosa.target_env = {specification_version = "1.0", level = "8k", profiles = ["pro_fp"], extensions = []}} {
  func.func @int_only_pad(%a: tensor<4xi8>) -> tensor<6xi8> {
    // 8-bit constants are in both profiles; an 8-bit pad only in the integer one.
    %pad = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
    %c = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    // expected-error @+1 {{'tosa.pad' op illegal: requires [pro_int] but not enabled in target}}
    %0 = tosa.pad %a, %pad, %c : (tensor<4xi8>, !tosa.shape<2>, tensor<1xi8>) -> tensor<6xi8>
    return %0 : tensor<6xi8>
  }
}

// -----

module attributes {tosa.target_env = {specification_version = "1.0", level = "8k", profiles = ["pro_int"], extensions = []}} {
  func.func @float_add(%a: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{'tosa.add' op illegal: requires any of [pro_fp] profiles/extensions to be specified in the target environment}}
    %0 = tosa.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

module attributes {tosa.target_env = {specification_version = "1.0", level = "8k", profiles = ["pro_int"], extensions = []}} {
  func.func @int16_conv(%x: tensor<1x4x4x2xi16>, %w: tensor<3x1x1x2xi8>, %b: tensor<3xi48>) -> tensor<1x4x4x3xi48> {
    %xzp = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
    %wzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    // expected-error @+1 {{'tosa.conv2d' op illegal: requires any of [int16] profiles/extensions to be specified in the target environment}}
    %0 = tosa.conv2d %x, %w, %b, %xzp, %wzp {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi16>, tensor<3x1x1x2xi8>, tensor<3xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x4x4x3xi48>
    return %0 : tensor<1x4x4x3xi48>
  }
}

// -----

module attributes {tosa.target_env = {specification_version = "1.0", level = "8k", profiles = ["pro_int"], extensions = []}} {
  func.func @argmax_to_i64(%a: tensor<4x3xi8>) -> tensor<3xi64> {
    // expected-error @+1 {{'tosa.argmax' op illegal: requires specification version compatible with 1.1.draft (got 1.0) and requires any of [int64] profiles/extensions to be specified in the target environment}}
    %0 = tosa.argmax %a {axis = 0 : i32} : (tensor<4x3xi8>) -> tensor<3xi64>
    return %0 : tensor<3xi64>
  }
}

// -----

module attributes {tosa.target_env = {specification_version = "1.1.draft", level = "8k", profiles = ["pro_int"], extensions = ["int64"]}} {
  func.func @argmax_to_i64_allowed(%a: tensor<4x3xi8>) -> tensor<3xi64> {
    %0 = tosa.argmax %a {axis = 0 : i32} : (tensor<4x3xi8>) -> tensor<3xi64>
    return %0 : tensor<3xi64>
  }
}

// -----

module attributes {tosa.target_env = {specification_version = "1.0", level = "8k", profiles = ["pro_int", "pro_fp"], extensions = []}} {
  func.func @f64(%a: tensor<4xf64>) -> tensor<4xf64> {
    // expected-error @+1 {{'tosa.add' op is not profile-aligned: element type 'f64' is not legal}}
    %0 = tosa.add %a, %a : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    return %0 : tensor<4xf64>
  }
}

// -----

// Element types TOSA has, in no mode together: upstream's message with the closest
// mode (most positions equal, the profiles' modes first), in upstream's value order
// (a convolution: input, weight, bias, zero points, acc_type, output).
module attributes {tosa.target_env = {level = "8k", profiles = ["pro_int", "pro_fp"], extensions = []}} {
  func.func @bool_add(%a: tensor<4xi1>) -> tensor<4xi1> {
    // expected-error @+1 {{'tosa.add' op illegal: operation operand/result data types did not align with any profile or extension, got (i1,i1,i1), did you mean (i32,i32,i32)? Otherwise, please refer to the 'supported data types' for 'tosa.add' in the specification.}}
    %0 = tosa.add %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
    return %0 : tensor<4xi1>
  }
}

// -----

module attributes {tosa.target_env = {level = "8k", profiles = ["pro_int", "pro_fp"], extensions = []}} {
  func.func @float_reduce_all(%a: tensor<4x2xf32>) -> tensor<1x2xf32> {
    // expected-error @+1 {{got (f32,f32), did you mean (i1,i1)?}}
    %0 = tosa.reduce_all %a axis(0) : (tensor<4x2xf32>) -> tensor<1x2xf32>
    return %0 : tensor<1x2xf32>
  }
}

// -----

module attributes {tosa.target_env = {level = "8k", profiles = ["pro_int", "pro_fp"], extensions = ["fft"]}} {
  func.func @bf16_rfft(%a: tensor<1x4x8xbf16>) -> (tensor<1x4x5xbf16>, tensor<1x4x5xbf16>) {
    // Only an extension has RFFT2D: its mode is the suggestion.
    // expected-error @+1 {{got (bf16,bf16,bf16), did you mean (f32,f32,f32)?}}
    %0, %1 = tosa.rfft2d %a : (tensor<1x4x8xbf16>) -> (tensor<1x4x5xbf16>, tensor<1x4x5xbf16>)
    return %0, %1 : tensor<1x4x5xbf16>, tensor<1x4x5xbf16>
  }
}

// -----

module attributes {tosa.target_env = {level = "8k", profiles = ["pro_int", "pro_fp"], extensions = []}} {
  func.func @f16_conv_f32_out(%x: tensor<1x4x4x2xf16>, %w: tensor<2x1x1x2xf16>, %b: tensor<2xf32>) -> tensor<1x4x4x2xf32> {
    %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
    // expected-error @+1 {{got (f16,f16,f32,f16,f16,f16,f32), did you mean (f16,f16,f16,f16,f16,f16,f16)?}}
    %0 = "tosa.conv2d"(%x, %w, %b, %z, %z) <{acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x4x4x2xf16>, tensor<2x1x1x2xf16>, tensor<2xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf32>
    return %0 : tensor<1x4x4x2xf32>
  }
}
