// stablehlo.convolution's (and dynamic_conv's) parser and verifier in upstream
// StableHLO's words and order: the dimension-number syntax (compact and raw), the window
// syntax, the group counts, the window attributes and the inferred shape.
// RUN: qopt %s --split-input-file --verify-diagnostics | filecheck %s

// The raw form writes the numbers one by one and prints in the compact form.
// CHECK-LABEL: func.func @raw_form
// CHECK: dim_numbers = [b, 1, 0, f]x[1, 0, i, o]->[b, 0, 1, f]
func.func @raw_form(%x: tensor<1x6x5x2xf32>, %w: tensor<2x3x2x4xf32>) -> tensor<1x3x5x4xf32> {
  %0 = "stablehlo.convolution"(%x, %w) {
    batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3,
      input_spatial_dimensions = [2, 1], kernel_input_feature_dimension = 2,
      kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [1, 0],
      output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>
  } : (tensor<1x6x5x2xf32>, tensor<2x3x2x4xf32>) -> tensor<1x3x5x4xf32>
  func.return %0 : tensor<1x3x5x4xf32>
}

// -----

// One reversal flag per window dimension, written as booleans or as integers.
// CHECK-LABEL: func.func @reverse_flags
// CHECK: reverse = [true, false]
func.func @reverse_flags(%x: tensor<1x4x4x1xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {reverse = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  func.return %0 : tensor<1x3x3x1xf32>
}

// -----

module attributes {
  // expected-error @+1 {{Unexpected dimension o, expecting b, f}}
  x.dims = #stablehlo.conv<[o, 0, b]x[0, i, o]->[b, 0, f]>
} {}

// -----

module attributes {
  // expected-error @+1 {{Unexpected dimension i, expecting o}}
  x.dims = #stablehlo.conv<[b, 0, f]x[i, 0, i]->[b, 0, f]>
} {}

// -----

module attributes {
  // expected-error @+1 {{Expected dimensions b not specified}}
  x.dims = #stablehlo.conv<[f, 0]x[0, i, o]->[b, 0, f]>
} {}

// -----

module attributes {
  // expected-error @+1 {{Unexpected keyword ff}}
  x.dims = #stablehlo.conv<[b, ff, 0]x[0, i, o]->[b, 0, f]>
} {}

// -----

module attributes {
  // expected-error @+1 {{Expected spatial dimensions 0, 1 not specified}}
  x.dims = #stablehlo.conv<[b, 2, f]x[0, i, o]->[b, 0, f]>
} {}

// -----

// A huge spatial number is reported like any gap, without counting up to it.
module attributes {
  // expected-error @+1 {{Expected spatial dimensions 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 not specified}}
  x.dims = #stablehlo.conv<[b, 2147483648, f]x[0, i, o]->[b, 0, f]>
} {}

// -----

module attributes {
  // expected-error @+1 {{Duplicate entries for spatial dimension 0}}
  x.dims = #stablehlo.conv<[b, 0, f, 0]x[0, i, o]->[b, 0, f]>
} {}

// -----

module attributes {
  // expected-error @+1 {{Unexpected dimension -1}}
  x.dims = #stablehlo.conv<[b, -1, f]x[0, i, o]->[b, 0, f]>
} {}

// -----

func.func @f(%x: tensor<1x4x4x1xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    // expected-error @+1 {{Unexpected keyword pad}}
    window = {pad = [[0, 0], [0, 0]], pad = [[0, 0], [0, 0]]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  func.return %0 : tensor<1x3x3x1xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x1xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    // expected-error @+1 {{Expected array with 2 elements, got 3 elements instead}}
    window = {pad = [[0, 0, 0], [0, 0]]}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x1xf32>
  func.return %0 : tensor<1x3x3x1xf32>
}

// -----

// MLIR checks inherent attributes as it parses: the error is at the attribute dictionary.
func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x1x2xf32>) -> tensor<1x3x3x2xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {}
    // expected-error @+1 {{'stablehlo.convolution' op attribute 'batch_group_count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
    {batch_group_count = -1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x2xf32>, tensor<2x2x1x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @f(%x: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects convolution arguments to have >= 2 dimensions. Got: 'tensor<2xf32>' and 'tensor<2xf32>'.}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0>
  } : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x2xi8>, %w: tensor<2x2x2x2xi16>) -> tensor<1x3x3x2xi32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects lhs and rhs to have compatible element type. Got: 'i8' and 'i16'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x2xi8>, tensor<2x2x2x2xi16>) -> tensor<1x3x3x2xi32>
  func.return %0 : tensor<1x3x3x2xi32>
}

// -----

func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects the same size for input, kernel and output spatial-dimensions, but got 2, 1, and 2 resp.}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, i, o]->[b, 0, 1, f]>
  } : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects input, kernel, and output dimension-numbers to be in-range [0, 4).}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3,
      input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2,
      kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1],
      output_batch_dimension = 0, output_feature_dimension = 4, output_spatial_dimensions = [1, 2]>
  } : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects kernel dimension-numbers to be unique, got {2, 2, 0, 1}.}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3,
      input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2,
      kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0, 1],
      output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>
  } : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @f(%x: tensor<3x4x4x2xf32>, %w: tensor<2x2x2x3xf32>) -> tensor<1x3x3x3xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects input batch dimension (3) to be divisible by batch_group_count. Got batch_group_count = 2.}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64}
    : (tensor<3x4x4x2xf32>, tensor<2x2x2x3xf32>) -> tensor<1x3x3x3xf32>
  func.return %0 : tensor<1x3x3x3xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x3xf32>, %w: tensor<2x2x1x4xf32>) -> tensor<1x3x3x4xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects input feature dimension (3) to be a multiple of feature_group_count. Got feature_group_count = 2.}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64}
    : (tensor<1x4x4x3xf32>, tensor<2x2x1x4xf32>) -> tensor<1x3x3x4xf32>
  func.return %0 : tensor<1x3x3x4xf32>
}

// -----

func.func @f(%x: tensor<2x4x4x2xf32>, %w: tensor<2x2x2x3xf32>) -> tensor<1x3x3x3xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects output feature dimension size (3) to be a multiple of batch_group_count. Got batch_group_count = 2.}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64}
    : (tensor<2x4x4x2xf32>, tensor<2x2x2x3xf32>) -> tensor<1x3x3x3xf32>
  func.return %0 : tensor<1x3x3x3xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x4xf32>, %w: tensor<2x2x2x3xf32>) -> tensor<1x3x3x3xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects kernel output feature dimension (3) to be divisible by feature_group_count. For feature_group_count = 2.}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64}
    : (tensor<1x4x4x4xf32>, tensor<2x2x2x3xf32>) -> tensor<1x3x3x3xf32>
  func.return %0 : tensor<1x3x3x3xf32>
}

// -----

// One precision entry is accepted, as upstream accepts it; three are not.
func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects precision config to be empty or have <= 2 elements, got 3}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
      precision_config = [#stablehlo<precision HIGH>, #stablehlo<precision HIGH>, #stablehlo<precision HIGH>]}
    : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
  %1 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
      precision_config = [#stablehlo<precision HIGH>]}
    : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects the shape of padding-attribute to be {N, 2}, but got {4}.}}
  %0 = "stablehlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
    padding = dense<0> : tensor<4xi64>
  } : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects window-reversal to have same dimension-size as size of window dimensions (2), but got: 3.}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {reverse = [false, false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op expects window to have positive window dilation factor for 1-th window dimension, but got -1.}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {rhs_dilate = [1, -1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'stablehlo.convolution' op inferred shape '[1, 2, 3, 2]' is incompatible with return type of operation 'tensor<1x3x3x2xf32>'}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
    : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

// dynamic_conv: convolution's checks; its padding operand has a shape to check, and
// values to check when it is a constant.
func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>, %p: tensor<3x2xi64>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_conv' op expects padding to be of shape [2, 2], but got [3, 2]}}
  %0 = "stablehlo.dynamic_conv"(%x, %w, %p) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
  } : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>, tensor<3x2xi64>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @f(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>) -> tensor<1x3x3x2xf32> {
  %p = stablehlo.constant dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>
  // expected-error @+1 {{'stablehlo.dynamic_conv' op inferred shape '[1, 5, 3, 2]' is incompatible with return type of operation 'tensor<1x3x3x2xf32>'}}
  %0 = "stablehlo.dynamic_conv"(%x, %w, %p) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
  } : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>, tensor<2x2xi64>) -> tensor<1x3x3x2xf32>
  func.return %0 : tensor<1x3x3x2xf32>
}

// -----

// A padding that is not a constant leaves the spatial sizes to the interpreter.
// CHECK-LABEL: func.func @dynamic_padding
func.func @dynamic_padding(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2xf32>, %p: tensor<2x2xi64>) -> tensor<1x?x?x2xf32> {
  %0 = "stablehlo.dynamic_conv"(%x, %w, %p) {batch_group_count = 1 : i64, feature_group_count = 1 : i64,
    dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
  } : (tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>, tensor<2x2xi64>) -> tensor<1x?x?x2xf32>
  func.return %0 : tensor<1x?x?x2xf32>
}

// -----

// Dynamic spatial sizes, of the input or of the kernel, infer dynamic output sizes,
// compatible with any static result (upstream's ops_speculatability.mlir writes these).
func.func @dynamic_spatial(%x: tensor<100x?x?x32xf64>, %w: tensor<3x3x2x32xf64>, %xs: tensor<100x26x26x32xf64>, %wd: tensor<?x?x2x32xf64>) {
  %0 = stablehlo.convolution(%x, %w)
         dim_numbers = [b, 0, 1, f] x [0, 1, o, i] -> [b, 0, 1, f],
         window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
         {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<100x?x?x32xf64>, tensor<3x3x2x32xf64>) -> tensor<100x24x24x2xf64>
  %1 = stablehlo.convolution(%xs, %wd)
         dim_numbers = [b, 0, 1, f] x [0, 1, o, i] -> [b, 0, 1, f],
         window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
         {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<100x26x26x32xf64>, tensor<?x?x2x32xf64>) -> tensor<100x24x24x2xf64>
  return
}

// -----

// A window entry that is not an integer: one error, as the custom parser reports it
// (no dense-array `expected ']'` after it).
func.func @window_entry_not_integer(%x: tensor<2x2x3x4xf32>, %w: tensor<3x5x5x3xf32>) -> tensor<3x5x5x4xf32> {
  // expected-error @+3 {{custom op 'stablehlo.convolution' expected integer value}}
  %0 = stablehlo.convolution(%x, %w)
     dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
     window = {stride = [2, 1], pad = [[0, 1], [0, q]]}
     {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
  : (tensor<2x2x3x4xf32>, tensor<3x5x5x3xf32>) -> tensor<3x5x5x4xf32>
  func.return %0 : tensor<3x5x5x4xf32>
}
