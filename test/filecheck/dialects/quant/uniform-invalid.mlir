// Invalid !quant.uniform forms: each error is reported at the offending token
// with the exact message below, and nothing else is reported.
// RUN: qopt %s --split-input-file --verify-diagnostics

// unknown quant type
// expected-error @+1 {{unknown quantized type foobar}}
func.func private @f0(!quant.foobar)

// -----

// trailing token
// expected-error @+1 {{expected '>'}}
func.func private @f1(!quant.uniform<i8<-4:3>:f32, 0.99872:1 23>)

// -----

// missing storage max
// expected-error @+1 {{expected ':'}}
func.func private @f2(!quant.uniform<i8<16>:f32, 0.99872:1>)

// -----

// missing type colon
// expected-error @+1 {{expected ':'}}
func.func private @f3(!quant.uniform<i8<-4:3>f32, 0.99872:1>)

// -----

// missing comma
// expected-error @+1 {{expected ','}}
func.func private @f4(!quant.uniform<i8<-4:3>:f32 0.99872:1>)

// -----

// illegal prefix
// expected-error @+1 {{illegal storage type prefix}}
func.func private @f5(!quant.uniform<int8<-4:3>:f32, 0.99872:1>)

// -----

// no width
// expected-error @+1 {{illegal storage type prefix}}
func.func private @f6(!quant.uniform<i<-4:3>:f32, 0.99872:1>)

// -----

// float storage
// expected-error @+1 {{illegal storage type prefix}}
func.func private @f7(!quant.uniform<f8:f32, 0.5>)

// -----

// size 33
// expected-error @+1 {{illegal storage type size: 33 (supported: 2 to 32 bits)}}
func.func private @f8(!quant.uniform<i33:f32, 0.99872:127>)

// -----

// size 1
// expected-error @+1 {{illegal storage type size: 1 (supported: 2 to 32 bits)}}
func.func private @f9(!quant.uniform<i1:f32, 0.5>)

// -----

// size 0
// expected-error @+1 {{illegal storage type size: 0 (supported: 2 to 32 bits)}}
func.func private @f10(!quant.uniform<u0:f32, 0.5>)

// -----

// min > max
// expected-error @+1 {{illegal storage min and storage max: (2:1)}}
func.func private @f11(!quant.uniform<i8<2:1>:f32, 0.99872:1>)

// -----

// min == max
// expected-error @+1 {{illegal storage min and storage max: (1:1)}}
func.func private @f12(!quant.uniform<i8<1:1>:f32, 0.99872:1>)

// -----

// max above type
// expected-error @+1 {{illegal storage type maximum: 9}}
func.func private @f13(!quant.uniform<i4<-1:9>:f32, 0.99872:1>)

// -----

// min below type
// expected-error @+1 {{illegal storage type minimum: -9}}
func.func private @f14(!quant.uniform<i4<-9:1>:f32, 0.99872:1>)

// -----

// unsigned min below zero
// expected-error @+1 {{illegal storage type minimum: -1}}
func.func private @f15(!quant.uniform<u8<-1:10>:f32, 0.5>)

// -----

// scale not a number
// expected-error @+1 {{expected floating point literal}}
func.func private @f16(!quant.uniform<i8<-4:3>:f32, abc:1>)

// -----

// missing zero point
// expected-error @+1 {{expected integer value}}
func.func private @f17(!quant.uniform<i8<-4:3>:f32, 0.1:>)

// -----

// zero point not an integer
// expected-error @+1 {{expected integer value}}
func.func private @f18(!quant.uniform<i8<-4:3>:f32, 0.1:abc>)

// -----

// integer expressed type
// expected-error @+1 {{expressed type must be f16, bf16, f32 or f64, got i32}}
func.func private @f19(!quant.uniform<i8:i32, 0.1>)

// -----

// negative scale
// expected-error @+1 {{scale -1.000000e+00 out of expressed type range [1.401298e-45, 3.402823e+38]}}
func.func private @f20(!quant.uniform<i8:f32, -1.0>)

// -----

// zero scale
// expected-error @+1 {{scale 0.000000e+00 out of expressed type range [1.401298e-45, 3.402823e+38]}}
func.func private @f21(!quant.uniform<i8:f32, 0.0>)

// -----

// decimal integer scale
// expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
// expected-note @+1 {{add a trailing dot to make the literal a float}}
func.func private @f22(!quant.uniform<i8:f32, 1>)

// -----

// infinite scale
// expected-error @+1 {{scale INF out of expressed type range [1.401298e-45, 3.402823e+38]}}
func.func private @f23(!quant.uniform<i8:f32, 0x7FF0000000000000>)

// -----

// NaN scale
// expected-error @+1 {{scale nan out of expressed type range [1.401298e-45, 3.402823e+38]}}
func.func private @f24(!quant.uniform<i8:f32, 0x7FF8000000000000>)

// -----

// f32 overflow
// expected-error @+1 {{scale 1.000000e+39 out of expressed type range [1.401298e-45, 3.402823e+38]}}
func.func private @f25(!quant.uniform<i8:f32, 1.0e39>)

// -----

// f16 underflow
// expected-error @+1 {{scale 5.800000e-08 out of expressed type range [5.960464e-08, 6.550400e+04]}}
func.func private @f26(!quant.uniform<i8:f16, 5.8e-8>)

// -----

// f16 overflow
// expected-error @+1 {{scale 6.600000e+04 out of expressed type range [5.960464e-08, 6.550400e+04]}}
func.func private @f27(!quant.uniform<i8:f16, 6.6e4>)

// -----

// f16 overflow per axis
// expected-error @+1 {{scale 6.600000e+04 out of expressed type range [5.960464e-08, 6.550400e+04]}}
func.func private @f28(!quant.uniform<i8:f16:0, {2.0,6.6e4}>)

// -----

// A zero point MLIR parses into an int64_t
// expected-error @+1 {{integer value too large}}
func.func private @f29(!quant.uniform<i8:f32, 0.1:9223372036854775808>)

// -----

// negative axis
// expected-error @+1 {{illegal quantized dimension: -1}}
func.func private @f33(!quant.uniform<i8:f32:-1, {2.0,3.0:1}>)

// -----

// per-axis without braces
// expected-error @+1 {{per-axis quantization (axis 0) expects '{scale[:zero_point],...}'}}
func.func private @f34(!quant.uniform<i8:f32:0, 0.5>)

// -----

// per-tensor with braces
// expected-error @+1 {{expected floating point literal}}
func.func private @f35(!quant.uniform<i8:f32, {0.5}>)

// -----

// axis not below rank
// expected-error @+1 {{quantized dimension must be less than tensor rank (dimension 5, rank 2)}}
func.func private @f36(tensor<2x2x!quant.uniform<i8:f32:5, {0.1,0.2}>>)

// -----

// dim size != number of scales
// expected-error @+1 {{quantized dimension size does not match number of scales (dimension 1 has size 3, the type has 2 scales)}}
func.func private @f37(tensor<2x3x!quant.uniform<i8:f32:1, {0.1,0.2}>>)

// -----

// memref dim mismatch
// expected-error @+1 {{quantized dimension size does not match number of scales (dimension 0 has size 4, the type has 2 scales)}}
func.func private @f38(memref<4x!quant.uniform<i8:f32:0, {0.1,0.2}>>)

// -----

// vector dim mismatch
// expected-error @+1 {{quantized dimension size does not match number of scales (dimension 0 has size 4, the type has 2 scales)}}
func.func private @f39(vector<4x!quant.uniform<i8:f32:0, {0.1,0.2}>>)

// -----

// A syntax error is reported before a zero point outside the storage range, as
// upstream (which accepts such zero points) reports it.
// expected-error @+1 {{expected '>'}}
func.func private @late_zero_point(!quant.uniform<i8<-4:3>:f32, 0.99872:127 23>)

// -----

// An unclosed bracket in a pretty dialect body is the lexer's error in MLIR, reported
// before the quant parser sees the body (pretty and opaque spellings alike).
// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
!qalias = !quant.uniform<i8<-4:3:f32, 0.99872:127>

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
!qalias = !quant<any<i8<-4:3:f32>>
