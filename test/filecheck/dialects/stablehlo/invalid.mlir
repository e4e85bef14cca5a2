// Every StableHLO verifier rule, each with its exact diagnostic at the op.
// RUN: qopt %s --split-input-file --verify-diagnostics

// elementwise operand is not a tensor
// expected-error @+1 {{'stablehlo.add' op operand and result must be a tensor, got f32}}
func.func @f(%a: f32) { %0 = "stablehlo.add"(%a, %a) : (f32, f32) -> f32
  func.return }

// -----

// elementwise shapes differ
// expected-error @+1 {{'stablehlo.add' op requires the same shape for all operands and results}}
func.func @f(%a: tensor<4xf32>, %b: tensor<5xf32>) { %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  func.return }

// -----

// float-only op on integers
// expected-error @+1 {{'stablehlo.tanh' op operand #0 must be ranked tensor of floating-point or complex or per-tensor quantized values, but got 'tensor<4xi32>'}}
func.func @f(%a: tensor<4xi32>) { %0 = stablehlo.tanh %a : tensor<4xi32>
  func.return }

// -----

// abs of unsigned integers
// expected-error @+1 {{'stablehlo.abs' op operand #0 must be ranked tensor of signed integer or floating-point or complex or per-tensor quantized values, but got 'tensor<4xui8>'}}
func.func @f(%a: tensor<4xui8>) { %0 = stablehlo.abs %a : tensor<4xui8>
  func.return }

// -----

// mixing quantized and float
// expected-error @+1 {{'stablehlo.add' op expects  all operands and results to be either quantized or non-quantized}}
func.func @f(%a: tensor<4x!quant.uniform<i8:f32, 0.1>>, %b: tensor<4xf32>) { %0 = stablehlo.add %a, %b : (tensor<4x!quant.uniform<i8:f32, 0.1>>, tensor<4xf32>) -> tensor<4xf32>
  func.return }

// -----

// quantized storage types differ
// expected-error @+1 {{'stablehlo.add' op mismatched operands and result quantization storage types}}
func.func @f(%a: tensor<4x!quant.uniform<i8:f32, 0.1>>, %b: tensor<4x!quant.uniform<i16:f32, 0.1>>) { %0 = stablehlo.add %a, %b : (tensor<4x!quant.uniform<i8:f32, 0.1>>, tensor<4x!quant.uniform<i16:f32, 0.1>>) -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  func.return }

// -----

// quantized expressed types differ
// expected-error @+2 {{'stablehlo.abs' op inferred type(s) 'tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>' are incompatible with return type(s) of operation 'tensor<4x!quant.uniform<i8:f16, 1.000000e-01>>'}}
// expected-error @+1 {{'stablehlo.abs' op failed to infer returned types}}
func.func @f(%a: tensor<4x!quant.uniform<i8:f32, 0.1>>) { %0 = stablehlo.abs %a : (tensor<4x!quant.uniform<i8:f32, 0.1>>) -> tensor<4x!quant.uniform<i8:f16, 0.1>>
  func.return }

// -----

// per-axis quantization is only for add
// expected-error @+1 {{'stablehlo.subtract' op operand #0 must be ranked tensor of floating-point or boolean or integer or complex or per-tensor quantized values, but got 'tensor<2x!quant.uniform<i8:f32:0, {1.000000e-01,2.000000e-01}>>'}}
func.func @f(%a: tensor<2x!quant.uniform<i8:f32:0, {0.1,0.2}>>) { %0 = stablehlo.subtract %a, %a : tensor<2x!quant.uniform<i8:f32:0, {0.1,0.2}>>
  func.return }

// -----

// per-axis add with different axes
// expected-error @+1 {{'stablehlo.add' op quantization_dimension of rhs and result are not same 'tensor<2x2x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01}>>' vs 'tensor<2x2x!quant.uniform<i8:f32:0, {1.000000e-01,2.000000e-01}>>'}}
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32:0, {0.1,0.2}>>, %b: tensor<2x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>) { %0 = stablehlo.add %a, %b : (tensor<2x2x!quant.uniform<i8:f32:0, {0.1,0.2}>>, tensor<2x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {0.1,0.2}>>
  func.return }

// -----

// element types differ
// expected-error @+1 {{'stablehlo.multiply' op requires compatible types for all operands and results}}
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf16>) { %0 = stablehlo.multiply %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  func.return }

// -----

// clamp bound shape
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.clamp' op min shape [2] is not scalar and is not compatible to operand shape [4]}}
func.func @f(%a: tensor<4xf32>, %m: tensor<2xf32>) { %0 = stablehlo.clamp %m, %a, %m : (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return }

// -----

// compare result is not boolean
// expected-error @+1 {{'stablehlo.compare' op result must be a tensor of i1, got tensor<4xi8>}}
func.func @f(%a: tensor<4xf32>) { %0 = stablehlo.compare GT, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi8>
  func.return }

// -----

// compare type does not match the elements
// expected-error @+1 {{'stablehlo.compare' op compare_type FLOAT does not match element type i32}}
func.func @f(%a: tensor<4xi32>) { %0 = stablehlo.compare GT, %a, %a, FLOAT : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  func.return }

// -----

// select predicate is not boolean
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.select' op pred must be a tensor of i1, got tensor<4xi8>}}
func.func @f(%p: tensor<4xi8>, %a: tensor<4xf32>) { %0 = stablehlo.select %p, %a, %a : (tensor<4xi8>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return }

// -----

// select predicate shape
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.select' op requires the same shape for all operands}}
func.func @f(%p: tensor<2xi1>, %a: tensor<4xf32>) { %0 = stablehlo.select %p, %a, %a : (tensor<2xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return }

// -----

// convert of quantized values
// expected-error @+1 {{'stablehlo.convert' op does not accept quantized types; use uniform_quantize or uniform_dequantize}}
func.func @f(%a: tensor<4x!quant.uniform<i8:f32, 0.1>>) { %0 = stablehlo.convert %a : (tensor<4x!quant.uniform<i8:f32, 0.1>>) -> tensor<4xf32>
  func.return }

// -----

// bitcast_convert to a wider type needs a trailing dimension
// expected-error @+1 {{'stablehlo.bitcast_convert' op rank of smaller element type (1) should be 1 more than rank of larger element type (1), but 1 != 1 + 1.}}
func.func @f(%a: tensor<4xi8>) { %0 = stablehlo.bitcast_convert %a : (tensor<4xi8>) -> tensor<4xi32>
  func.return }

// -----

// bitcast_convert to a narrower type adds a dimension
// expected-error @+1 {{'stablehlo.bitcast_convert' op rank of smaller element type (1) should be 1 more than rank of larger element type (1), but 1 != 1 + 1.}}
func.func @f(%a: tensor<4xi32>) { %0 = stablehlo.bitcast_convert %a : (tensor<4xi32>) -> tensor<4xi8>
  func.return }

// -----

// uniform_quantize to a float type
// expected-error @+1 {{'stablehlo.uniform_quantize' op result must be a quantized tensor, got tensor<4xf32>}}
func.func @f(%a: tensor<4xf32>) { %0 = stablehlo.uniform_quantize %a : (tensor<4xf32>) -> tensor<4xf32>
  func.return }

// -----

// uniform_quantize from integers
// expected-error @+1 {{'stablehlo.uniform_quantize' op operand must be a floating-point or quantized tensor, got tensor<4xi32>}}
func.func @f(%a: tensor<4xi32>) { %0 = stablehlo.uniform_quantize %a : (tensor<4xi32>) -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  func.return }

// -----

// uniform_quantize expressed type mismatch
// expected-error @+1 {{'stablehlo.uniform_quantize' op Expressed type of result expected to be 'f16', but got 'f32'}}
func.func @f(%a: tensor<4xf16>) { %0 = stablehlo.uniform_quantize %a : (tensor<4xf16>) -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  func.return }

// -----

// uniform_dequantize of floats
// expected-error @+1 {{'stablehlo.uniform_dequantize' op operand must be a quantized tensor, got tensor<4xf32>}}
func.func @f(%a: tensor<4xf32>) { %0 = stablehlo.uniform_dequantize %a : (tensor<4xf32>) -> tensor<4xf32>
  func.return }

// -----

// uniform_dequantize result type
// expected-error @+1 {{'stablehlo.uniform_dequantize' op result element type must be the expressed type f32, got f16}}
func.func @f(%a: tensor<4x!quant.uniform<i8:f32, 0.1>>) { %0 = stablehlo.uniform_dequantize %a : (tensor<4x!quant.uniform<i8:f32, 0.1>>) -> tensor<4xf16>
  func.return }

// -----

// constant value type differs from the result
// expected-error @+2 {{'stablehlo.constant' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf16>'}}
// expected-error @+1 {{'stablehlo.constant' op failed to infer returned types}}
func.func @f() { %0 = "stablehlo.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf16>
  func.return }

// -----

// quantized constant holds storage integers (upstream compares the value's type with the
// result's storage type)
// expected-error @+2 {{'stablehlo.constant' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4x!quant.uniform<i8:f32, 1.000000e-01>>'}}
// expected-error @+1 {{'stablehlo.constant' op failed to infer returned types}}
func.func @f() { %0 = stablehlo.constant() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<4x!quant.uniform<i8:f32, 0.1>>
  func.return }

// -----

// reshape changes the number of elements
// expected-error @+1 {{'stablehlo.reshape' op number of output elements (5) doesn't match expected number of elements (6)}}
func.func @f(%a: tensor<2x3xf32>) { %0 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<5xf32>
  func.return }

// -----

// reshape moves elements across a per-axis dimension
// expected-error @+1 {{'stablehlo.reshape' op product of dimensions before quantization dimension must match between operand and result for 2 and 1}}
func.func @f(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>) { %0 = stablehlo.reshape %a : (tensor<2x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {0.1,0.2,0.3}>>
  func.return }

// -----

// transpose permutation invalid
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.transpose' op attribute permutation must be a permutation of [0, 1] but got 0, 0}}
func.func @f(%a: tensor<2x3xf32>) { %0 = stablehlo.transpose %a, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return }

// -----

// transpose result shape
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
func.func @f(%a: tensor<2x3xf32>) { %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return }

// -----

// transpose per-axis dimension
// expected-error @+1 {{'stablehlo.transpose' op operand quantization_dimension 1 is not same as permutation[1] = 0}}
func.func @f(%a: tensor<3x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>) { %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<3x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>) -> tensor<3x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>
  func.return }

// -----

// broadcast_in_dim dimension count
// expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions size (2) does not match operand rank (1)}}
func.func @f(%a: tensor<3xf32>) { %0 = stablehlo.broadcast_in_dim %a, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return }

// -----

// broadcast_in_dim dimension out of range
// expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions contains invalid value 2 for result with rank 2}}
func.func @f(%a: tensor<3xf32>) { %0 = stablehlo.broadcast_in_dim %a, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return }

// -----

// broadcast_in_dim size mismatch
// expected-error @+1 {{'stablehlo.broadcast_in_dim' op size of operand dimension 0 (3) is not equal to 1 or size of result dimension 0 (2)}}
func.func @f(%a: tensor<3xf32>) { %0 = stablehlo.broadcast_in_dim %a, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>
  func.return }

// -----

// broadcast_in_dim per-axis dimension
// expected-error @+1 {{'stablehlo.broadcast_in_dim' op result quantization_dimension 0 not same as broadcast_dimensions[0] = 1}}
func.func @f(%a: tensor<3x!quant.uniform<i8:f32:0, {0.1,0.2,0.3}>>) { %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3x!quant.uniform<i8:f32:0, {0.1,0.2,0.3}>>) -> tensor<3x3x!quant.uniform<i8:f32:0, {0.1,0.2,0.3}>>
  func.return }

// -----

// concatenate ranks differ
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.concatenate' op operands (0) and (1) do not match rank}}
func.func @f(%a: tensor<3xf32>, %b: tensor<1x3xf32>) { %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<3xf32>, tensor<1x3xf32>) -> tensor<4xf32>
  func.return }

// -----

// concatenate dimension out of range
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.concatenate' op dimension 1 is out-of-bounds for input rank 1}}
func.func @f(%a: tensor<3xf32>) { %0 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  func.return }

// -----

// concatenate other dimensions differ
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.concatenate' op shapes of operand (0) and (1) are not compatible at non-concat index 1: (2, 3) != (2, 4)}}
func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) { %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  func.return }

// -----

// concatenate result shape
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.concatenate' op inferred type(s) 'tensor<2x6xf32>' are incompatible with return type(s) of operation 'tensor<2x5xf32>'}}
func.func @f(%a: tensor<2x3xf32>) { %0 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x5xf32>
  func.return }

// -----

// slice out of bounds
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.slice' op limit index 6 is larger than dimension size 4 in dimension 0}}
func.func @f(%a: tensor<4xf32>) { %0 = stablehlo.slice %a [2:6] : (tensor<4xf32>) -> tensor<4xf32>
  func.return }

// -----

// slice result shape
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.slice' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
func.func @f(%a: tensor<8xf32>) { %0 = stablehlo.slice %a [0:8:3] : (tensor<8xf32>) -> tensor<2xf32>
  func.return }

// -----

// dynamic_slice index count
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.dynamic_slice' op has mismatched number of slice sizes (2) and number of start indices (1)}}
func.func @f(%a: tensor<4x4xf32>, %i: tensor<i32>) { %0 = stablehlo.dynamic_slice %a, %i, sizes = [2, 2] : (tensor<4x4xf32>, tensor<i32>) -> tensor<2x2xf32>
  func.return }

// -----

// dynamic_slice size too large
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.dynamic_slice' op has slice size 5 greater than dimension size 4 in dimension 0 of operand}}
func.func @f(%a: tensor<4xf32>, %i: tensor<i32>) { %0 = stablehlo.dynamic_slice %a, %i, sizes = [5] : (tensor<4xf32>, tensor<i32>) -> tensor<5xf32>
  func.return }

// -----

// dynamic_slice index type
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.dynamic_slice' op start indices must be rank-0 integer tensors, got tensor<f32>}}
func.func @f(%a: tensor<4xf32>, %i: tensor<f32>) { %0 = stablehlo.dynamic_slice %a, %i, sizes = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  func.return }

// -----

// pad value is not a scalar
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.pad' op padding value must be a rank-0 tensor}}
func.func @f(%a: tensor<4xf32>, %v: tensor<1xf32>) { %0 = stablehlo.pad %a, %v, low = [1], high = [1], interior = [0] : (tensor<4xf32>, tensor<1xf32>) -> tensor<6xf32>
  func.return }

// -----

// pad negative interior
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.pad' op Interior padding cannot be negative: -1}}
func.func @f(%a: tensor<4xf32>, %v: tensor<f32>) { %0 = stablehlo.pad %a, %v, low = [0], high = [0], interior = [-1] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return }

// -----

// pad result shape
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.pad' op inferred type(s) 'tensor<10xf32>' are incompatible with return type(s) of operation 'tensor<8xf32>'}}
func.func @f(%a: tensor<4xf32>, %v: tensor<f32>) { %0 = stablehlo.pad %a, %v, low = [1], high = [2], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<8xf32>
  func.return }

// -----

// iota dimension out of range
// expected-error @+1 {{'stablehlo.iota' op iota dimension cannot go beyond the output rank.}}
func.func @f() { %0 = stablehlo.iota dim = 2 : tensor<4x4xi32>
  func.return }

// -----

// dot_general batching dimension counts differ
// expected-error @+1 {{'stablehlo.dot_general' op lhs and rhs should have the same number of batching dimensions}}
func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) { %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return }

// -----

// dot_general contracting sizes differ
// expected-error @+1 {{'stablehlo.dot_general' op contracting dimension sizes must match for lhs/rhs}}
func.func @f(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  func.return }

// -----

// dot_general result shape
// expected-error @+1 {{'stablehlo.dot_general' op inferred shape '[3, 6]' is incompatible with return type of operation 'tensor<6x3xf32>'}}
func.func @f(%a: tensor<3x4xf32>, %b: tensor<4x6xf32>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x6xf32>) -> tensor<6x3xf32>
  func.return }

// -----

// dot_general quantized rhs zero point
// expected-error @+1 {{'stablehlo.dot_general' op Zero point of rhs should be 0}}
func.func @f(%a: tensor<3x4x!quant.uniform<i8:f32, 0.1>>, %b: tensor<4x6x!quant.uniform<i8:f32, 0.1:2>>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4x!quant.uniform<i8:f32, 0.1>>, tensor<4x6x!quant.uniform<i8:f32, 0.1:2>>) -> tensor<3x6x!quant.uniform<i32:f32, 0.01>>
  func.return }

// -----

// dot_general per-axis lhs
// expected-error @+1 {{'stablehlo.dot_general' op lhs must not be per-axis quantized}}
func.func @f(%a: tensor<3x4x!quant.uniform<i8:f32:0, {0.1,0.1,0.1}>>, %b: tensor<4x6x!quant.uniform<i8:f32, 0.1>>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4x!quant.uniform<i8:f32:0, {0.1,0.1,0.1}>>, tensor<4x6x!quant.uniform<i8:f32, 0.1>>) -> tensor<3x6x!quant.uniform<i32:f32, 0.01>>
  func.return }

// -----

// dot_general per-axis rhs along the contracting dimension
// expected-error @+1 {{'stablehlo.dot_general' op Quantization dimension of rhs should not be in the contracting dimension of rhs}}
func.func @f(%a: tensor<3x2x!quant.uniform<i8:f32, 0.1>>, %b: tensor<2x6x!quant.uniform<i8:f32:0, {0.1,0.2}>>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x2x!quant.uniform<i8:f32, 0.1>>, tensor<2x6x!quant.uniform<i8:f32:0, {0.1,0.2}>>) -> tensor<3x6x!quant.uniform<i32:f32, 0.01>>
  func.return }

// -----

// dot_general quantized lhs with float rhs
// expected-error @+1 {{'stablehlo.dot_general' op rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold}}
func.func @f(%a: tensor<3x4x!quant.uniform<i8:f32, 0.1>>, %b: tensor<4x6xf32>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4x!quant.uniform<i8:f32, 0.1>>, tensor<4x6xf32>) -> tensor<3x6xf32>
  func.return }

// -----

// dot_general quantized operands need a quantized result
// expected-error @+1 {{'stablehlo.dot_general' op rhs should be quantized for quantized operations and is_quantized(lhs)=is_quantized(result) should hold}}
func.func @f(%a: tensor<3x4x!quant.uniform<i8:f32, 0.1>>, %b: tensor<4x6x!quant.uniform<i8:f32, 0.1>>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4x!quant.uniform<i8:f32, 0.1>>, tensor<4x6x!quant.uniform<i8:f32, 0.1>>) -> tensor<3x6xf32>
  func.return }

// -----

// dot_general hybrid result must be float
// expected-error @+1 {{'stablehlo.dot_general' op mismatched rhs quantization expressed type and lhs and result element type (rhs expresses f32)}}
func.func @f(%a: tensor<3x4xf16>, %b: tensor<4x6x!quant.uniform<i8:f32, 0.1>>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf16>, tensor<4x6x!quant.uniform<i8:f32, 0.1>>) -> tensor<3x6xf16>
  func.return }

// -----

// dot_general per-axis result dimension
// expected-error @+1 {{'stablehlo.dot_general' op result quantization dimension must be 1}}
func.func @f(%a: tensor<3x4x!quant.uniform<i8:f32, 0.1>>, %b: tensor<4x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4x!quant.uniform<i8:f32, 0.1>>, tensor<4x2x!quant.uniform<i8:f32:1, {0.1,0.2}>>) -> tensor<3x2x!quant.uniform<i32:f32:0, {0.1,0.2,0.3}>>
  func.return }

// -----

// dot_general precision config length (upstream allows one entry, not three)
// expected-error @+1 {{'stablehlo.dot_general' op expects precision config to be empty or have <= 2 elements, got 3}}
func.func @f(%a: tensor<3x4xf32>, %b: tensor<4x6xf32>) { %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT, HIGH] : (tensor<3x4xf32>, tensor<4x6xf32>) -> tensor<3x6xf32>
  func.return }

// -----

// dot operands of rank 3
// expected-error @+1 {{'stablehlo.dot' op expected both lhs/rhs ranks to be either 1 or 2}}
func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<4x6xf32>) { %0 = stablehlo.dot %a, %b : (tensor<2x3x4xf32>, tensor<4x6xf32>) -> tensor<2x3x6xf32>
  func.return }

// -----

// dot contracting size
// expected-error @+1 {{'stablehlo.dot' op expected both lhs/rhs ranks to be either 1 or 2}}
func.func @f(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) { %0 = stablehlo.dot %a, %b : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  func.return }

// -----

// convolution group counts both above one
// expected-error @+1 {{'stablehlo.convolution' op expects batch_group_count and feature_group_count not to be both greater than 1. Got 2 and 2 resp.}}
func.func @f(%a: tensor<2x8x8x4xf32>, %w: tensor<3x3x2x4xf32>) { %0 = stablehlo.convolution(%a, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<2x8x8x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x6x6x4xf32>
  func.return }

// -----

// convolution input features and kernel disagree
// expected-error @+1 {{'stablehlo.convolution' op expects input feature dimension (4) / feature_group_count = kernel input feature dimension (3). Got feature_group_count = 1.}}
func.func @f(%a: tensor<1x8x8x4xf32>, %w: tensor<3x3x3x16xf32>) { %0 = stablehlo.convolution(%a, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  func.return }

// -----

// convolution rank from dim_numbers
// expected-error @+1 {{'stablehlo.convolution' op expects convolution arguments to have same number of dimensions. Got: 'tensor<1x8x4xf32>' and 'tensor<3x3x4x16xf32>'.}}
func.func @f(%a: tensor<1x8x4xf32>, %w: tensor<3x3x4x16xf32>) { %0 = stablehlo.convolution(%a, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x6x6x16xf32>
  func.return }

// -----

// convolution stride entries
// expected-error @+1 {{'stablehlo.convolution' op expects window-strides to have same dimension-size as size of window dimensions (2), but got: 1.}}
func.func @f(%a: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x16xf32>) { %0 = stablehlo.convolution(%a, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x3x3x16xf32>
  func.return }

// -----

// convolution result shape
// expected-error @+1 {{'stablehlo.convolution' op inferred shape '[1, 4, 4, 16]' is incompatible with return type of operation 'tensor<1x8x8x16xf32>'}}
func.func @f(%a: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x16xf32>) { %0 = stablehlo.convolution(%a, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x16xf32>) -> tensor<1x8x8x16xf32>
  func.return }

// -----

// convolution per-axis weights along the input features
// expected-error @+1 {{'stablehlo.convolution' op quantization dimension of rhs should be same with kernel_output_feature_dimension}}
func.func @f(%a: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.1>>, %w: tensor<1x1x2x3x!quant.uniform<i8:f32:2, {0.1,0.2}>>) { %0 = stablehlo.convolution(%a, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.1>>, tensor<1x1x2x3x!quant.uniform<i8:f32:2, {0.1,0.2}>>) -> tensor<1x4x4x3x!quant.uniform<i32:f32, 0.01>>
  func.return }

// -----

// reduce dimension out of range
// expected-error @+1 {{'stablehlo.reduce' op Out-of-bounds dimension 1, expected to be in range [0, 1)}}
func.func @f(%a: tensor<4xf32>, %z: tensor<f32>) { %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return }

// -----

// reduce result shape
// expected-error @+2 {{'stablehlo.reduce' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
// expected-error @+1 {{'stablehlo.reduce' op failed to infer returned types}}
func.func @f(%a: tensor<4x5xf32>, %z: tensor<f32>) { %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
  func.return }

// -----

// reduce body arguments
// expected-error @+1 {{'stablehlo.reduce' op Reduction-region must take 2 parameters, but takes 1 parameter(s)}}
func.func @f(%a: tensor<4xf32>, %z: tensor<f32>) { %0 = "stablehlo.reduce"(%a, %z) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return }

// -----

// reduce_window dimension count
// expected-error @+1 {{'stablehlo.reduce_window' op expects window-dimensions size == input rank, but got window-dimensions size: 1 and input: 'tensor<4x4xf32>' with rank = 2.}}
func.func @f(%a: tensor<4x4xf32>, %z: tensor<f32>) { %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %1 = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<3x3xf32>
  func.return }

// -----

// reduce_window result shape
// expected-error @+2 {{'stablehlo.reduce_window' op inferred type(s) 'tensor<2x2xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
// expected-error @+1 {{'stablehlo.reduce_window' op failed to infer returned types}}
func.func @f(%a: tensor<4x4xf32>, %z: tensor<f32>) { %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %1 = stablehlo.maximum %x, %y : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<3x3xf32>
  func.return }

// -----

// gather slice sizes count
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.gather' op slice_sizes size (1) not equal to operand rank (2)}}
func.func @f(%a: tensor<4x3xf32>, %i: tensor<2x1xi32>) { %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<4x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  func.return }

// -----

// gather result shape
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.gather' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
func.func @f(%a: tensor<4x3xf32>, %i: tensor<2x1xi32>) { %0 = "stablehlo.gather"(%a, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<2x1xi32>) -> tensor<3x3xf32>
  func.return }

// -----

// optimization_barrier changes types
// expected-error @+1 {{'stablehlo.optimization_barrier' op results must have the operands' types}}
func.func @f(%a: tensor<4xf32>) { %0 = "stablehlo.optimization_barrier"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  func.return }

// -----

// reduce body terminator
// expected-error @+1 {{'stablehlo.reduce' op The reduction-region expected to return some value(s)}}
func.func @f(%a: tensor<4xf32>, %z: tensor<f32>) { %0 = "stablehlo.reduce"(%a, %z) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    "stablehlo.return"() : () -> ()
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  func.return }

// -----

// custom_call results are free-form but operands are typed
// expected-error @+1 {{custom op 'stablehlo.custom_call' number of operands and types do not match: got 2 operands and 1 types}}
func.func @f(%a: tensor<4xf32>) { %0 = stablehlo.custom_call @foo(%a, %a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return }

// -----

// reshape cannot rescale a per-tensor quantized tensor
// expected-error @+1 {{'stablehlo.reshape' op expect same quantization scale and zero_point}}
func.func @f(%a: tensor<2x2x!quant.uniform<i8:f32, 0.1>>) { %0 = stablehlo.reshape %a : (tensor<2x2x!quant.uniform<i8:f32, 0.1>>) -> tensor<4x!quant.uniform<i8:f32, 0.2>>
  func.return }
