// `!quant.quantile<STORAGE:QUANTILE, {lut}[, <min:max>]>`: a lookup-table storage format
// (NF4 and the like), parsed, verified and printed as upstream MLIR does: the storage
// type prints as written (`si8`, `i8`, `ui4`, `f8E4M3FN`), the table with MLIR's f64
// printer and no spaces, the range only when it differs from the storage type's.
// RUN: qopt %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: qopt %s --split-input-file --verify-diagnostics | qopt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func private @forms
// CHECK-SAME: !quant.quantile<ui1:f16, {-1.000000e+00,1.000000e+00}>
// CHECK-SAME: !quant.quantile<si8:f32, {-1.000000e+00,-5.000000e-01,0.000000e+00,5.000000e-01,1.000000e+00}, <-2:2>>
// CHECK-SAME: !quant.quantile<ui4:bf16, {0.000000e+00,-5.000000e-01,1.000000e+00,-2.500000e-01,7.500000e-01,-1.000000e+00,5.000000e-01,2.500000e-01}, <0:7>>
// CHECK-SAME: tensor<4x!quant.quantile<i2:i8, {-3.000000e+00,-1.000000e+00,1.000000e+00,3.000000e+00}>>
// CHECK-SAME: !quant.quantile<f8E4M3FN:f32, {-1.000000e+00,0.000000e+00,1.000000e+00}, <-1:1>>
func.func private @forms(!quant.quantile<ui1:f16, {-1.0,1.0}>, !quant.quantile<si8:f32, {-1.0,-0.5,0.0,0.5,1.0}, <-2:2>>, !quant.quantile<ui4:bf16, {0.0, -0.5, 1.0, -0.25, 0.75, -1.0, 0.5, 0.25}, <0:7>>, tensor<4x!quant.quantile<i2:i8, {-3, -1, 1, 3}>>, !quant.quantile<f8E4M3FN:f32, {-1.0,0.0,1.0}, <-1:1>>)

// -----

// A range equal to the storage type's is not printed.
// CHECK: func.func private @default_range(!quant.quantile<si2:f32, {-2.000000e+00,-1.000000e+00,1.000000e+00,2.000000e+00}>)
func.func private @default_range(!quant.quantile<si2:f32, {-2.0,-1.0,1.0,2.0}, <-2:1>>)

// -----

// expected-error@+1 {{storage type must be an integer or float type}}
func.func private @storage_tensor() -> !quant.quantile<tensor<1xf32>:f32, {1.0}>

// -----

// expected-error@+1 {{storage type must be an integer or float type; the float storage types are f8E5M2, f8E4M3FN, f4E2M1FN, not f32}}
func.func private @storage_f32() -> !quant.quantile<f32:f32, {1.0}>

// -----

// expected-error@+1 {{quantile type must be a float or integer type}}
func.func private @quantile_tensor() -> !quant.quantile<ui4:tensor<1xf32>, {1.0}>

// -----

// expected-error@+1 {{quantile values must not be empty}}
func.func private @empty() -> !quant.quantile<ui4:f16, {}>

// -----

// expected-error@+1 {{storage min must be less than storage max}}
func.func private @range_order() -> !quant.quantile<si4:f32, {1.0, 2.0}, <5:3>>

// -----

// expected-error@+1 {{illegal storage type minimum: -1}}
func.func private @range_below() -> !quant.quantile<ui4:f32, {1.0, 2.0}, <-1:0>>

// -----

// One entry per storage value in [min, max]: ui4 has 16.
// expected-error@+1 {{quantile LUT size (3) must equal the number of representable storage values (16)}}
func.func private @lut_size() -> !quant.quantile<ui4:f16, {-1.0,0.0,1.0}>

// -----

// f4E2M1FN<-6:6> counts the integers in its range, 13.
// expected-error@+1 {{quantile LUT size (3) must equal the number of representable storage values (13)}}
func.func private @lut_size_float() -> !quant.quantile<f4E2M1FN:f16, {-1.0,0.0,1.0}, <-6:6>>

// -----

// A storage format, not a quantization scheme: ops that compute do not take it.
func.func @no_arithmetic(%x: tensor<2x!quant.quantile<ui1:f16, {1.0,2.0}>>) {
  // expected-error@+1 {{'stablehlo.abs' op operand #0 must be ranked tensor of}}
  %0 = stablehlo.abs %x : tensor<2x!quant.quantile<ui1:f16, {1.0,2.0}>>
  return
}
