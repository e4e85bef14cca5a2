// Sub-channel quantized types in StableHLO ops: the spec's quantized types are
// per-tensor or per-axis, so only uniform_quantize and uniform_dequantize (and ops that
// take any element type, which move storage) accept the blockwise form.
// RUN: qopt %s --split-input-file --verify-diagnostics

!s = !quant.uniform<i8:f32:{0:1, 1:2}, {{0.5:1, 0.25}, {2.0, 1.0:-3}}>
func.func @quantize_dequantize(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %q = stablehlo.uniform_quantize %x : (tensor<2x4xf32>) -> tensor<2x4x!s>
  %t = stablehlo.reshape %q : (tensor<2x4x!s>) -> tensor<2x4x!s>
  %d = stablehlo.uniform_dequantize %t : (tensor<2x4x!s>) -> tensor<2x4xf32>
  func.return %d : tensor<2x4xf32>
}

// -----

!s = !quant.uniform<i8:f32:{0:2}, {{0.5}, {0.25}}>
!t = !quant.uniform<i8:f32, 0.1>
func.func @dot_general(%a: tensor<2x4x!t>, %w: tensor<4x3x!s>) -> tensor<2x3x!t> {
  // expected-error @+1 {{'stablehlo.dot_general' op does not take sub-channel quantized types}}
  %0 = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<2x4x!t>, tensor<4x3x!s>) -> tensor<2x3x!t>
  func.return %0 : tensor<2x3x!t>
}

// -----

!s = !quant.uniform<i8:f32:{1:2}, {{0.5, 0.25}}>
func.func @add(%a: tensor<3x4x!s>) -> tensor<3x4x!s> {
  // expected-error @+1 {{'stablehlo.add' op operand #0 must be ranked tensor of integer or boolean or floating-point or complex or per-tensor quantized or per-axis quantized values}}
  %0 = stablehlo.add %a, %a : tensor<3x4x!s>
  func.return %0 : tensor<3x4x!s>
}
