// Invalid sub-channel !quant.uniform types and containers: upstream MLIR's messages.
// RUN: qopt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{illegal quantized dimension: -1}}
func.func private @f(!quant.uniform<u8:f32:{0:1,-1:2}, {{2.0:120,3.0:127}, {2.0,3.0}}>)

// -----

// expected-error @+1 {{illegal block size: 0}}
func.func private @f(!quant.uniform<u8:f32:{0:0,1:2}, {{2.0:120,3.0:127}, {2.0,3.0}}>)

// -----

// expected-error @+1 {{illegal block size: -1}}
func.func private @f(!quant.uniform<u8:f32:{0:-1,1:2}, {{2.0:120,3.0:127}, {2.0,3.0}}>)

// -----

// Stricter than upstream, which accepts a dimension listed twice.
// expected-error @+1 {{duplicate quantized dimension: 0}}
func.func private @f(!quant.uniform<u8:f32:{0:1,0:2}, {{2.0}, {3.0}}>)

// -----

// expected-error @+1 {{expected ':'}}
func.func private @f(!quant.uniform<u8:f32:{0,1:2}, {{2.0:120,3.0:127}, {2.0,3.0}}>)

// -----

// expected-error @+1 {{expected integer value}}
func.func private @f(!quant.uniform<u8:f32:{:1,1:2}, {{2.0:120,3.0:127}, {2.0,3.0}}>)

// -----

// expected-error @+1 {{expected integer value}}
func.func private @f(!quant.uniform<u8:f32:{0:1,}, {{2.0:120,3.0:127}, {2.0,3.0}}>)

// -----

// Without braces the block sizes read as a per-axis dimension.
// expected-error @+1 {{expected ','}}
func.func private @f(!quant.uniform<u8:f32:0:1,1:2, {{2.0:120,3.0:127}, {2.0,3.0}}>)

// -----

// The parameters are one literal.
// expected-error @+2 {{expected '>'}}
func.func private @f(!quant.uniform<u8:f32:{0:1,1:2},
    {2.0:120,3.0:127}, {2.0,3.0}>)

// -----

// expected-error @+2 {{ranks are not consistent between elements}}
func.func private @f(!quant.uniform<u8:f32:{0:1,1:2},
    {{2.0:120,3.0:127}, {2.0}}>)

// -----

// expected-error @+1 {{ranks are not consistent between elements}}
func.func private @f(!quant.uniform<u8:f32:{0:1,1:2}, {{2.0:120,3.0:127}, 2.0}>)

// -----

// expected-error @+1 {{expected floating point literal}}
func.func private @f(!quant.uniform<u8:f32:{0:1,1:2}, {{2.0:120,3.0:127}, {2.0,}}>)

// -----

// expected-error @+1 {{expected integer value}}
func.func private @f(!quant.uniform<u8:f32:{0:1,1:2}, {{2.0:120,3.0:127}, {2.0,3.0:}}>)

// -----

// expected-error @+1 {{expected floating point literal}}
func.func private @f(!quant.uniform<u8:f32:{0:1, 1:2}, {}>)

// -----

// expected-error @+2 {{scale 6.600000e+04 out of expressed type range}}
func.func private @f(!quant.uniform<i8:f16:{0:1,1:2},
    {{6.6e4:120,2.0:127}, {2.0:100,3.0}}>)

// -----

// A zero point outside the storage range is StableHLO's rule, checked by its ops.
func.func @f(%x: tensor<2x4x!quant.uniform<i8:f32:{0:1,1:2}, {{2.0:120,3.0:127}, {2.0:256,3.0}}>>) {
  // expected-error-re @+1 {{'stablehlo.uniform_dequantize' op operand #0 must be ranked tensor of {{.*}} (zero point 256 out of storage range [-128, 127])}}
  %0 = stablehlo.uniform_dequantize %x : (tensor<2x4x!quant.uniform<i8:f32:{0:1,1:2}, {{2.0:120,3.0:127}, {2.0:256,3.0}}>>) -> tensor<2x4xf32>
  return
}

// -----

// Against the tensor: these are checked wherever the tensor type is written.

// expected-error @+1 {{tensor containing the sub-channel quantized type must be ranked}}
func.func private @f(tensor<*x!quant.uniform<u8:f32:{0:1,1:2}, {{2.0,3.0}, {2.0,3.0}}>>)

// -----

// expected-error @+1 {{quantized dimension 3 must be less than tensor rank 2}}
func.func private @f(tensor<2x4x!quant.uniform<u8:f32:{0:1,3:2}, {{2.0,3.0}, {2.0,3.0}}>>)

// -----

// expected-error @+1 {{tensor dimension size 4 at axis 1 must be divisible by the corresponding block size 3}}
func.func private @f(tensor<2x4x!quant.uniform<u8:f32:{0:1,1:3}, {{2.0,3.0}, {2.0,3.0}}>>)

// -----

// expected-error @+1 {{tensor dimension size of zero is not allowed with sub-channel quantization}}
func.func private @f(tensor<0x4x!quant.uniform<u8:f32:{1:2}, {{2.0,3.0}, {2.0,3.0}}>>)

// -----

// expected-error @+1 {{Rank of scales 3 must match the rank of the tensor 2}}
func.func private @f(tensor<?x?x!quant.uniform<u8:f32:{},{{{2.0:120}}}>>)

// -----

// The size found is printed (upstream prints the expected size twice).
// expected-error @+1 {{dimension size 1 of scales tensor at axis 1 should match (tensor dimension at axis / block sizes at axis) = 2}}
func.func private @f(tensor<2x4x!quant.uniform<u8:f32:{0:1,1:2}, {{2.0:120}, {2.0}}>>)

// -----

func.func @scalar(%a: f32) {
  // expected-error @+1 {{scalar types may not use sub-channel quantization}}
  %0 = quant.qcast %a : f32 to !quant.uniform<u8:f32:{0:1,1:2}, {{2.0,3.0}, {2.0,3.0}}>
  func.return
}
