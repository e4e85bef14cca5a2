// tosa-validate: level 8K limits and profile/extension requirements, each with
// upstream MLIR's diagnostic at the op; a program inside its target passes.
// RUN: qopt %s --split-input-file --verify-diagnostics -p 'tosa-validate{profile=pro_int,pro_fp}'
// RUN: not qopt %s --split-input-file -p 'tosa-validate{level=none profile=pro_int,pro_fp}' 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not qopt %s --split-input-file -p 'tosa-attach-target{profiles=pro_int},tosa-validate' 2>&1 | FileCheck %s --check-prefix=INT
// Upstream's option spellings: a number or a draft name as the version, a bare flag for true.
// RUN: not qopt %s --split-input-file --pass-pipeline='builtin.module(tosa-attach-target{specification_version=1.0 profiles=pro_fp},tosa-validate{strict-op-spec-alignment})' 2>&1 | FileCheck %s --check-prefix=FP
// RUN: not qopt %s --split-input-file --pass-pipeline='builtin.module(tosa-attach-target{specification_version=1.1.draft profiles=pro_fp},tosa-validate)' 2>&1 | FileCheck %s --check-prefix=FP
// RUN: qopt %s --split-input-file -p 'tosa-validate{profile=pro_int,pro_fp extension=halfeven,doubleround,int16,int4,fft level=none}' | FileCheck %s --check-prefix=HALFEVEN

// An i8 convolution inside every limit validates.
func.func @ok(%x: tensor<1x8x8x4xi8>, %w: tensor<16x3x3x4xi8>, %b: tensor<16xi32>) -> tensor<1x6x6x16xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x16xi32>
  return %0 : tensor<1x6x6x16xi32>
}

// -----

// A float op: legal with pro_fp (the first run), not with pro_int alone (INT).
func.func @float(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @rank(%a: tensor<1x1x1x1x13x21x3xi32>) -> tensor<1x1x1x1x13x21x3xi32> {
  // expected-error @+1 {{'tosa.add' op failed level check: operand rank(shape) <= MAX_RANK}}
  %0 = tosa.add %a, %a : (tensor<1x1x1x1x13x21x3xi32>, tensor<1x1x1x1x13x21x3xi32>) -> tensor<1x1x1x1x13x21x3xi32>
  return %0 : tensor<1x1x1x1x13x21x3xi32>
}

// -----

func.func @unranked(%a: tensor<*xi8>) -> tensor<*xi8> {
  %t = tosa.const values(dense<1> : tensor<256xi8>) : () -> tensor<256xi8>
  // expected-error @+1 {{'tosa.table' op failed level check: unranked tensor}}
  %0 = tosa.table %a, %t : (tensor<*xi8>, tensor<256xi8>) -> tensor<*xi8>
  return %0 : tensor<*xi8>
}

// -----

func.func @stride(%x: tensor<1x32x8194x8xi8>) -> tensor<1x32x2x8xi8> {
  // expected-error @+1 {{'tosa.max_pool2d' op failed level check: stride <= MAX_STRIDE (8192), got 8193}}
  %0 = "tosa.max_pool2d"(%x) {kernel = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 8193>} : (tensor<1x32x8194x8xi8>) -> tensor<1x32x2x8xi8>
  return %0 : tensor<1x32x2x8xi8>
}

// -----

func.func @kernel(%x: tensor<1x8194x32x8xi8>) -> tensor<1x2x32x8xi8> {
  // expected-error @+1 {{'tosa.max_pool2d' op failed level check: kernel <= MAX_KERNEL (8192), got 8193}}
  %0 = "tosa.max_pool2d"(%x) {kernel = array<i64: 8193, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8194x32x8xi8>) -> tensor<1x2x32x8xi8>
  return %0 : tensor<1x2x32x8xi8>
}

// -----

func.func @dilated_kernel(%x: tensor<1x9000x8x4xi8>, %w: tensor<16x2x1x4xi8>, %b: tensor<16xi32>) -> tensor<1x4903x8x16xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op failed level check: dilation_y * KH <= MAX_KERNEL (8192), got 8194}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 4097, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x9000x8x4xi8>, tensor<16x2x1x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4903x8x16xi32>
  return %0 : tensor<1x4903x8x16xi32>
}

// -----

func.func @tensor_size(%x: tensor<1x1073741824xf32>) -> tensor<1x1xf32> {
  %0 = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.const_shape {values = dense<1> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.slice' op failed level check: operand tensor size (in bytes) <= (1 << MAX_LOG2_SIZE - 1)}}
  %2 = tosa.slice %x, %0, %1 : (tensor<1x1073741824xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xf32>
  return %2 : tensor<1x1xf32>
}

// -----

// Too large for level 8K and outside the target: the limit is reported first, as
// upstream orders its checks (the NONE run, without limits, reports the extension).
func.func @fft(%r: tensor<1x16384x8xf32>, %i: tensor<1x16384x8xf32>) -> tensor<1x16384x8xf32> {
  // expected-error @+1 {{'tosa.fft2d' op failed level check: H <= MAX_KERNEL (8192), got 16384}}
  %0, %1 = tosa.fft2d %r, %i {inverse = false} : (tensor<1x16384x8xf32>, tensor<1x16384x8xf32>) -> (tensor<1x16384x8xf32>, tensor<1x16384x8xf32>)
  return %0 : tensor<1x16384x8xf32>
}

// -----

func.func @int16_conv(%x: tensor<1x4x4x4xi16>, %w: tensor<8x1x1x4xi8>, %b: tensor<8xi48>) -> tensor<1x4x4x8xi48> {
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %wzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op illegal: requires any of [int16] profiles/extensions to be specified in the target environment}}
  %0 = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i48, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x4xi16>, tensor<8x1x1x4xi8>, tensor<8xi48>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x4x4x8xi48>
  return %0 : tensor<1x4x4x8xi48>
}

// -----

func.func @double_round(%x: tensor<4xi32>) -> tensor<4xi8> {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<40> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op illegal: requires any of [doubleround] profiles/extensions to be specified in the target environment}}
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {rounding_mode = DOUBLE_ROUND, scale32 = true, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// qdialect's half-even rounding is no TOSA 1.0 extension: a strict target refuses it,
// and naming qdialect's `halfeven` extension accepts it (the HALFEVEN run).
func.func @half_even(%x: tensor<4xi32>) -> tensor<4xi8> {
  %m = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %izp = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ozp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.rescale' op illegal: requires any of [halfeven] profiles/extensions to be specified in the target environment}}
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {rounding_mode = HALF_EVEN_ROUND, scale32 = true, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}
// HALFEVEN-LABEL: func.func @half_even
// HALFEVEN: rounding_mode<HALF_EVEN_ROUND>

// NONE-NOT: failed level check
// NONE: error: 'tosa.fft2d' op illegal: requires any of [fft]
// INT: error: 'tosa.add' op illegal: requires any of [pro_fp]
// FP: error: 'tosa.conv2d' op illegal: requires [pro_int] but not enabled in target

// -----

// Ops of other dialects pass through (xDSL's math dialect is registered for them).
func.func @not_tosa(%x: f32) -> f32 {
  %0 = math.asin %x : f32
  return %0 : f32
}
