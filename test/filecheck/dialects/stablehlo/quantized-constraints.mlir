// RUN: qopt %s --split-input-file --verify-diagnostics
// The element types StableHLO ops admit and the quantization rules of the shape ops and
// contractions, worded as upstream's verifiers word them (so upstream-style
// expected-error lines match). Positive cases print back; see the end.

// A per-axis tensor whose scale count does not fit parses; the op that does not admit
// per-axis types is reported first, in ODS's words.
func.func @abs_per_axis(%a: tensor<1x2x!quant.uniform<i8:f32:0, {0.1:-30}>>) {
  // expected-error-re @+1 {{'stablehlo.abs' op operand #0 must be ranked tensor of {{.*}} values, but got 'tensor<1x2x!quant.uniform<i8:f32:0, {1.000000e-01:-30}>>'}}
  %0 = "stablehlo.abs"(%a) : (tensor<1x2x!quant.uniform<i8:f32:0, {0.1:-30}>>) -> tensor<1x2x!quant.uniform<i8:f32:0, {0.1:-30}>>
  func.return
}

// -----

// Variadic operand groups say so.
func.func @concatenate_per_axis(%a: tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30}>>) {
  // expected-error-re @+1 {{operand #0 must be variadic of ranked tensor of {{.*}}, but got 'tensor<2x!quant.uniform<i8:f32:0, {1.000000e-01:-30,2.000000e-01:-30}>>'}}
  %0 = "stablehlo.concatenate"(%a, %a) {dimension = 0 : i64} : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30}>>, tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30}>>) -> tensor<4x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30, 0.1:-30, 0.2:-30}>>
  func.return
}

// -----

// Ops that admit per-axis types still need the quantized dimension to fit.
func.func @transpose_bad_axis(%a: tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30}>>) {
  // expected-error-re @+1 {{'stablehlo.transpose' op operand #0 must be ranked tensor of {{.*}}per-axis{{.*}}, but got}}
  %0 = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x3x!quant.uniform<i8:f32:0, {0.1:-30}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.1:-30}>>
  func.return
}

// -----

// si8 storage is a signed integer type, not the signless one StableHLO's types take.
func.func @signed_storage(%a: tensor<4x!quant.uniform<si8:f32, 1.0>>) {
  // expected-error-re @+1 {{operand #0 must be ranked tensor of {{.*}}, but got 'tensor<4x!quant.uniform<si8:f32, 1.000000e+00>>'}}
  %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<si8:f32, 1.0>>) -> tensor<4xf32>
  func.return
}

// -----

// A bad per-axis type no op rejects is still an error: after the ops, at its declaration.
// expected-error @+1 {{'func.func' op block argument #0: quantized dimension size does not match number of scales (dimension 0 has size 3, the type has 2 scales)}}
func.func @unused(%a: tensor<3x!quant.uniform<i8:f32:0, {0.1, 0.2}>>) {
  func.return
}

// -----

func.func @reshape_scales(%a: tensor<2x2x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'stablehlo.reshape' op expect same quantization scale and zero_point but got}}
  %0 = stablehlo.reshape %a : (tensor<2x2x!quant.uniform<i8:f32, 0.1>>) -> tensor<4x!quant.uniform<i8:f32, 0.2>>
  func.return
}

// -----

func.func @reshape_axis_size(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) {
  // expected-error @+1 {{'stablehlo.reshape' op expect same quantization dimension size for operand and result}}
  %0 = stablehlo.reshape %a : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.1, 0.2}>>
  func.return
}

// -----

func.func @reshape_moves_elements(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) {
  // expected-error @+1 {{'stablehlo.reshape' op product of dimensions before quantization dimension must match between operand and result for 2 and 1}}
  %0 = stablehlo.reshape %a : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {0.1, 0.2, 0.3}>>
  func.return
}

// -----

func.func @transpose_axis(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) {
  // expected-error @+1 {{'stablehlo.transpose' op operand quantization_dimension 1 is not same as permutation[1] = 0}}
  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1, 0.2, 0.3}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.1, 0.2}>>
  func.return
}

// -----

func.func @broadcast_axis(%a: tensor<2x!quant.uniform<i8:f32:0, {0.1, 0.2}>>) {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op result quantization_dimension 0 not same as broadcast_dimensions[0] = 1}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<2x!quant.uniform<i8:f32:0, {0.1, 0.2}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {0.1, 0.2, 0.3}>>
  func.return
}

// -----

// A size-1 quantized dimension may broadcast; every result scale is the operand's one.
func.func @broadcast_scales(%a: tensor<1x!quant.uniform<i8:f32:0, {0.1:-30}>>) {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op mismatch result scale 1 (2.000000e-01) and operand scale 0 (1.000000e-01)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<1x!quant.uniform<i8:f32:0, {0.1:-30}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.2:-30}>>
  func.return
}

// -----

func.func @broadcast_zero_points(%a: tensor<1x!quant.uniform<i8:f32:0, {0.1:-30}>>) {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op mismatch result zero_point 1 (-20) and operand zero_point 0 (-30)}}
  %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<1x!quant.uniform<i8:f32:0, {0.1:-30}>>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30, 0.1:-20}>>
  func.return
}

// -----

func.func @dot_rhs_zero_point(%a: tensor<2x3x!quant.uniform<i8:f32, 0.1>>, %b: tensor<3x4x!quant.uniform<i8:f32, 0.1:3>>) {
  // expected-error @+1 {{'stablehlo.dot_general' op Zero point of rhs should be 0}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.1>>, tensor<3x4x!quant.uniform<i8:f32, 0.1:3>>) -> tensor<2x4x!quant.uniform<i8:f32, 0.1>>
  func.return
}

// -----

func.func @dot_rhs_axis(%a: tensor<2x3x!quant.uniform<i8:f32, 0.1>>, %b: tensor<3x4x!quant.uniform<i8:f32:0, {0.1, 0.2, 0.3}>>) {
  // expected-error @+1 {{'stablehlo.dot_general' op Quantization dimension of rhs should not be in the contracting dimension of rhs}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.1>>, tensor<3x4x!quant.uniform<i8:f32:0, {0.1, 0.2, 0.3}>>) -> tensor<2x4x!quant.uniform<i8:f32, 0.1>>
  func.return
}

// -----

func.func @dot_result_float(%a: tensor<2x3x!quant.uniform<i8:f32, 0.1>>, %b: tensor<3x4x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'stablehlo.dot_general' op rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.1>>, tensor<3x4x!quant.uniform<i8:f32, 0.1>>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @dot_storage(%a: tensor<2x3x!quant.uniform<i16:f32, 0.1>>, %b: tensor<3x4x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'stablehlo.dot_general' op mismatched lhs and rhs quantization storage types}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i16:f32, 0.1>>, tensor<3x4x!quant.uniform<i8:f32, 0.1>>) -> tensor<2x4x!quant.uniform<i8:f32, 0.1>>
  func.return
}

// -----

func.func @dot_expressed(%a: tensor<2x3x!quant.uniform<i8:f32, 0.1>>, %b: tensor<3x4x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'stablehlo.dot_general' op mismatched lhs, rhs and result quantization expressed types}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.1>>, tensor<3x4x!quant.uniform<i8:f32, 0.1>>) -> tensor<2x4x!quant.uniform<i8:f16, 0.1>>
  func.return
}

// -----

func.func @dot_granularity(%a: tensor<2x3x!quant.uniform<i8:f32, 0.1>>, %b: tensor<3x4x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'stablehlo.dot_general' op mismatched rhs and result quantization granularity}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.1>>, tensor<3x4x!quant.uniform<i8:f32, 0.1>>) -> tensor<2x4x!quant.uniform<i8:f32:1, {0.1, 0.1, 0.1, 0.1}>>
  func.return
}

// -----

func.func @dot_hybrid(%a: tensor<2x3xf16>, %b: tensor<3x4x!quant.uniform<i8:f32, 0.1>>) {
  // expected-error @+1 {{'stablehlo.dot_general' op mismatched rhs quantization expressed type and lhs and result element type}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf16>, tensor<3x4x!quant.uniform<i8:f32, 0.1>>) -> tensor<2x4xf16>
  func.return
}

// -----

func.func @conv_rhs_axis(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.1>>, %w: tensor<1x1x2x3x!quant.uniform<i8:f32:2, {0.1, 0.2}>>) {
  // expected-error @+1 {{'stablehlo.convolution' op quantization dimension of rhs should be same with kernel_output_feature_dimension}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.1>>, tensor<1x1x2x3x!quant.uniform<i8:f32:2, {0.1, 0.2}>>) -> tensor<1x4x4x3x!quant.uniform<i8:f32, 0.1>>
  func.return
}

// -----

func.func @conv_result_axis(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.1>>, %w: tensor<1x1x2x3x!quant.uniform<i8:f32:3, {0.1, 0.2, 0.3}>>) {
  // expected-error @+1 {{'stablehlo.convolution' op quantization dimension of result should be same with output_feature_dimension}}
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.1>>, tensor<1x1x2x3x!quant.uniform<i8:f32:3, {0.1, 0.2, 0.3}>>) -> tensor<1x4x4x3x!quant.uniform<i8:f32:2, {0.1, 0.2, 0.3, 0.4}>>
  func.return
}

// -----

func.func @bitcast_rank(%a: tensor<4xi32>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op rank of smaller element type (1) should be 1 more than rank of larger element type (1), but 1 != 1 + 1.}}
  %0 = stablehlo.bitcast_convert %a : (tensor<4xi32>) -> tensor<4xi8>
  func.return
}

// -----

func.func @bitcast_widths(%a: tensor<4xi32>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op requires compatible bit widths. Got: 'tensor<4xi32>' and 'tensor<4x2xi8>', but 8 * 2 != 32.}}
  %0 = stablehlo.bitcast_convert %a : (tensor<4xi32>) -> tensor<4x2xi8>
  func.return
}

// -----

func.func @bitcast_shapes(%a: tensor<2x4xi32>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op operand and result shapes must match except for the innermost dimension of the shape with the smaller element type}}
  %0 = stablehlo.bitcast_convert %a : (tensor<2x4xi32>) -> tensor<2x2x4xi8>
  func.return
}

// -----

func.func @bitcast_complex(%a: tensor<4xi64>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op cannot convert between real and complex types, but got: tensor<4xi64> and tensor<4xcomplex<f32>>}}
  %0 = stablehlo.bitcast_convert %a : (tensor<4xi64>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @quantize_expressed(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.uniform_quantize' op Expressed type of result expected to be 'f32', but got 'f64'}}
  %0 = stablehlo.uniform_quantize %a : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f64, 0.1>>
  func.return
}
