// Verifier rules of the TOSA v1.0 operators in upstream MLIR's words. Window
// attributes are checked before any size arithmetic: a zero stride is a
// diagnostic, never a division by zero.
// RUN: qopt %s --split-input-file --verify-diagnostics

func.func @conv2d_zero_stride(%x: tensor<1x6x6x2xi8>, %w: tensor<3x2x2x2xi8>, %b: tensor<3xi32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op expect all stride values to be >= 1, got 1, 0}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 0>} : (tensor<1x6x6x2xi8>, tensor<3x2x2x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x5x3xi32>
  return
}

// -----

func.func @depthwise_zero_dilation(%x: tensor<1x6x6x2xi8>, %w: tensor<2x2x2x1xi8>, %b: tensor<2xi32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.depthwise_conv2d' op expect all dilation values to be >= 1, got 0, 1}}
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 0, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xi8>, tensor<2x2x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x5x2xi32>
  return
}

// -----

func.func @conv3d_negative_pad(%x: tensor<1x3x6x6x2xi8>, %w: tensor<3x1x2x2x2xi8>, %b: tensor<3xi32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv3d' op expect all padding values to be >= 0, got 0, 0, -2, 0, 0, 0}}
  %0 = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, -2, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x3x6x6x2xi8>, tensor<3x1x2x2x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x5x3xi32>
  return
}

// -----

func.func @transpose_conv2d_zero_stride(%x: tensor<1x4x4x2xi8>, %w: tensor<3x2x2x2xi8>, %b: tensor<3xi32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.transpose_conv2d' op expect all stride values to be >= 1, got [0, 2]}}
  %0 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = i32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 0, 2>} : (tensor<1x4x4x2xi8>, tensor<3x2x2x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x8x3xi32>
  return
}

// -----

func.func @avg_pool_zero_stride(%x: tensor<1x6x6x2xi8>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.avg_pool2d' op expect all stride values to be >= 1, got 0, 0}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = i32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 0, 0>} : (tensor<1x6x6x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x2xi8>
  return
}

// -----

func.func @conv2d_not_divisible(%x: tensor<1x6x6x2xi8>, %w: tensor<3x2x2x2xi8>, %b: tensor<3xi32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op expected input_height - 1 + pad_top + pad_bottom - (kernel_height - 1) * dilation_y to be wholly divisible by stride_y, got (6 - 1 + 0 + 0 - (2 - 1) * 1) / 3}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 3, 1>} : (tensor<1x6x6x2xi8>, tensor<3x2x2x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x5x3xi32>
  return
}

// -----

func.func @conv2d_bias(%x: tensor<1x6x6x2xi8>, %w: tensor<3x2x2x2xi8>, %b: tensor<2xi32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.conv2d' op bias channels expected to be equal to output channels (3) or 1, got 2}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xi8>, tensor<3x2x2x2xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x5x3xi32>
  return
}

// -----

func.func @conv2d_mixed(%x: tensor<1x6x6x2xf32>, %w: tensor<3x2x2x2xi8>, %b: tensor<3xf32>, %zp: tensor<1xf32>, %wzp: tensor<1xi8>) {
  // expected-error @+1 {{'tosa.conv2d' op expect both input and weight to be float or not together, got 'f32' and 'i8'}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xf32>, tensor<3x2x2x2xi8>, tensor<3xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1x5x5x3xf32>
  return
}

// -----

func.func @conv2d_float_zero_point(%x: tensor<1x6x6x2xf16>, %w: tensor<3x2x2x2xf16>, %b: tensor<3xf16>) {
  %zp = "tosa.const"() <{values = dense<0.5> : tensor<1xf16>}> : () -> tensor<1xf16>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  // expected-error @+1 {{'tosa.conv2d' op input zero point must be zero for non-int8 integer types}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %z {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xf16>, tensor<3x2x2x2xf16>, tensor<3xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x5x5x3xf16>
  return
}

// -----

func.func @conv2d_acc(%x: tensor<1x6x6x2xbf16>, %w: tensor<3x2x2x2xbf16>, %b: tensor<3xbf16>, %zp: tensor<1xbf16>) {
  // expected-error @+1 {{'tosa.conv2d' op accumulator type for bf16 tensor is not f32}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xbf16>, tensor<3x2x2x2xbf16>, tensor<3xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x5x5x3xbf16>
  return
}

// -----

func.func @transpose_conv2d_out_pad(%x: tensor<1x4x4x2xi8>, %w: tensor<3x2x2x2xi8>, %b: tensor<3xi32>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.transpose_conv2d' op expected out_pad_left > -KW, but got: out_pad_left=-2 and KW=2}}
  %0 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = i32, out_pad = array<i64: 0, 0, -2, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>, tensor<3x2x2x2xi8>, tensor<3xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x5x3x3xi32>
  return
}

// -----

func.func @max_pool_pad(%x: tensor<1x6x6x2xi8>) {
  // expected-error @+1 {{'tosa.max_pool2d' op expected left/right padding to be less than the width of the kernel, got pad_left=0, pad_right=2, kernel_x=2}}
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 2>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xi8>) -> tensor<1x5x7x2xi8>
  return
}

// -----

func.func @transpose_rank(%x: tensor<2x3x4xi8>) {
  // expected-error @+1 {{'tosa.transpose' op expected input tensor rank to equal result tensor rank}}
  %0 = tosa.transpose %x {perms = array<i32: 2, 1, 0>} : (tensor<2x3x4xi8>) -> tensor<4x3x2x1xi8>
  return
}

// -----

func.func @transpose_perms_size(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.transpose' op expected perms attribute to have size 2 (input rank) but got size 3}}
  %0 = tosa.transpose %x {perms = array<i32: 0, 1, 2>} : (tensor<2x3xi8>) -> tensor<?x?xi8>
  return
}

// -----

func.func @transpose_elements(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.transpose' op expected input1 and output to have same numbers of elements, got 6 and 8}}
  %0 = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<2x3xi8>) -> tensor<4x2xi8>
  return
}

// -----

func.func @reshape_placeholders(%x: tensor<?xi8>) {
  %s = tosa.const_shape {values = dense<[-1, 2, -1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  // expected-error @+1 {{'tosa.reshape' op expected at most one target dimension to be -1}}
  %0 = tosa.reshape %x, %s : (tensor<?xi8>, !tosa.shape<3>) -> tensor<?x2x?xi8>
  return
}

// -----

func.func @reshape_rank(%x: tensor<6xi8>) {
  %s = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.reshape' op new shape does not match result rank}}
  %0 = tosa.reshape %x, %s : (tensor<6xi8>, !tosa.shape<2>) -> tensor<6xi8>
  return
}

// -----

func.func @reshape_placeholder_count(%x: tensor<7xi8>) {
  %s = tosa.const_shape {values = dense<[-1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.reshape' op cannot reshape 7 elements into 2}}
  %0 = tosa.reshape %x, %s : (tensor<7xi8>, !tosa.shape<2>) -> tensor<?x2xi8>
  return
}

// -----

func.func @slice_rank(%x: tensor<4x5xi8>) {
  %a = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %b = tosa.const_shape {values = dense<[1]> : tensor<1xindex>} : () -> !tosa.shape<1>
  // expected-error @+1 {{'tosa.slice' op length of size is not equal to rank of input shape}}
  %0 = tosa.slice %x, %a, %b : (tensor<4x5xi8>, !tosa.shape<2>, !tosa.shape<1>) -> tensor<*xi8>
  return
}

// -----

func.func @concat_sizes(%a: tensor<2x3xi8>, %b: tensor<2x4xi8>) {
  // expected-error @+1 {{'tosa.concat' op expect all operand shapes to have the same sizes on non-axis dimensions, but got 4 vs 3 at index 1 on operands 0 and 1}}
  %0 = tosa.concat %a, %b {axis = 0 : i32} : (tensor<2x3xi8>, tensor<2x4xi8>) -> tensor<4x3xi8>
  return
}

// -----

func.func @concat_sum(%a: tensor<2x3xi8>, %b: tensor<1x3xi8>) {
  // expected-error @+1 {{'tosa.concat' op requires sum of axis dimensions of input1 equal to output axis dimension, got 3 and 4}}
  %0 = tosa.concat %a, %b {axis = 0 : i32} : (tensor<2x3xi8>, tensor<1x3xi8>) -> tensor<4x3xi8>
  return
}

// -----

func.func @reduce_dim(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.reduce_min' op expect reduced dimension size to be 1, got 3}}
  %0 = tosa.reduce_min %x {axis = 1 : i32} : (tensor<2x3xi8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @gather_batch(%v: tensor<2x5x3xi8>, %i: tensor<3x4xi32>) {
  // expected-error @+1 {{'tosa.gather' op requires indices dimension 0 to have size 2, got 3}}
  %0 = tosa.gather %v, %i : (tensor<2x5x3xi8>, tensor<3x4xi32>) -> tensor<2x4x3xi8>
  return
}

// -----

func.func @clamp_shape(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.clamp' op requires the same shape for all operands and results}}
  %0 = tosa.clamp %x {min_val = 0 : i8, max_val = 5 : i8} : (tensor<2x3xi8>) -> tensor<2x2xi8>
  return
}

// -----

func.func @negate_zp_type(%x: tensor<4xi8>, %zp: tensor<1xi16>, %ozp: tensor<1xi8>) {
  // expected-error @+1 {{'tosa.negate' op expect both input1 and its zero point are the same element type, got 'i8' and 'i16'}}
  %0 = tosa.negate %x, %zp, %ozp : (tensor<4xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @unary_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tosa.exp' op requires the same shape for all operands and results}}
  %0 = tosa.exp %x : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @binary_result_rank(%a: tensor<4xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'tosa.bitwise_and' op result type has different rank than operands}}
  %0 = tosa.bitwise_and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<1x4xi32>
  return
}

// -----

func.func @mul_float_shift(%a: tensor<4xf32>) {
  %s = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{'tosa.mul' op require shift to be 0 for float type}}
  %0 = tosa.mul %a, %a, %s : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  return
}

// -----

func.func @const_shape_rank() {
  // expected-error @+1 {{'tosa.const_shape' op expect elements in attribute values with rank 1}}
  %0 = tosa.const_shape {values = dense<[[1, 2]]> : tensor<1x2xindex>} : () -> !tosa.shape<2>
  return
}

// -----

func.func @tile_multiples(%x: tensor<2x3xi8>) {
  %m = tosa.const_shape {values = dense<[2, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.tile' op expect element of 'multiples' to be positive integer or -1.}}
  %0 = tosa.tile %x, %m : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<4x3xi8>
  return
}

// -----

func.func @reverse_axis(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.reverse' op expect input tensor rank (2) to be larger than reverse axis (2)}}
  %0 = tosa.reverse %x {axis = 2 : i32} : (tensor<2x3xi8>) -> tensor<2x3xi8>
  return
}

// -----

func.func @argmax_shape(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{'tosa.argmax' op expected output shape '2', got '3'}}
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3xi8>) -> tensor<3xi32>
  return
}

// -----

func.func @resize_scale(%x: tensor<1x4x4x1xi8>) {
  %scale = tosa.const_shape {values = dense<[2, 1, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.resize' op expect all scale values to be > 0, got 2, 1, 0, 1}}
  %0 = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x1xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x4x1xi8>
  return
}

// -----

func.func @resize_output(%x: tensor<1x4x4x1xi8>) {
  %scale = tosa.const_shape {values = dense<[2, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.resize' op calculated output height did not match expected: calculated=7, expected=8}}
  %0 = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x1xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x8x4x1xi8>
  return
}

// -----

func.func @rfft_width(%x: tensor<1x4x8xf32>) {
  // expected-error @+1 {{'tosa.rfft2d' op expected output width to be equal to input_width / 2 + 1, got 4}}
  %0, %1 = tosa.rfft2d %x : (tensor<1x4x8xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>)
  return
}

// -----

func.func @fft_power_of_two(%r: tensor<1x6x8xf32>) {
  // expected-error @+1 {{'tosa.fft2d' op expected height to be a power of two, got 6}}
  %0, %1 = tosa.fft2d %r, %r {inverse = true} : (tensor<1x6x8xf32>, tensor<1x6x8xf32>) -> (tensor<1x6x8xf32>, tensor<1x6x8xf32>)
  return
}

// -----

func.func @nan_mode_keyword(%a: tensor<4xf32>) {
  // expected-error @+1 {{invalid nan_mode 'SOMETIMES' (expected one of PROPAGATE, IGNORE)}}
  %0 = tosa.maximum %a, %a {nan_mode = SOMETIMES} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

module {
  tosa.variable @v = dense<0> : tensor<2xi8>
  func.func @variable_write_shape(%x: tensor<3xi8>) {
    // expected-error @+1 {{'tosa.variable_write' op require same shapes for 'input1' ('tensor<3xi8>') and the input tensor ('tensor<2xi8>')}}
    tosa.variable_write @v, %x : tensor<3xi8>
    return
  }
}
