// Storage types written as MLIR's builtin signed/unsigned integers (`ui8`, `si8`,
// `ui4`, `si16`, ...) parse and print back as written, as upstream MLIR prints them;
// numerically `uiN` is `uN` and `siN` is `iN`. They are distinct types (MLIR's
// storage type is `ui8`, not the signless `i8` of `u8`).
// RUN: qopt %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: qopt %s --split-input-file --verify-diagnostics | qopt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func private @spellings
// CHECK-SAME: !quant.uniform<ui8:f32, 1.000000e+00>
// CHECK-SAME: !quant.uniform<si8:f32, 1.000000e+00:-128>
// CHECK-SAME: !quant.uniform<u8:f32, 1.000000e+00:255>
// CHECK-SAME: !quant.uniform<ui4:f32, 5.000000e-01:15>
// CHECK-SAME: !quant.uniform<si16<-100:100>:f32:0, {1.000000e+00,2.000000e+00:3}>
func.func private @spellings(!quant.uniform<ui8:f32, 1.0>, !quant.uniform<si8:f32, 1.0:-128>, !quant.uniform<u8:f32, 1.0:255>, !quant.uniform<ui4:f32, 0.5:15>, !quant.uniform<si16<-100:100>:f32:0, {1.0, 2.0:3}>)

// -----

// StableHLO's quantized forms with `ui8` storage, as its own tests write them.
// CHECK-LABEL: func.func @clamp
// CHECK: stablehlo.clamp %arg0, %arg0, %arg0 : tensor<1x!quant.uniform<ui8:f32, 3.400000e+01:16>>
func.func @clamp(%arg0: tensor<1x!quant.uniform<ui8:f32, 34.0:16>>) -> tensor<1x!quant.uniform<ui8:f32, 34.0:16>> {
  %0 = "stablehlo.clamp"(%arg0, %arg0, %arg0) : (tensor<1x!quant.uniform<ui8:f32, 34.0:16>>, tensor<1x!quant.uniform<ui8:f32, 34.0:16>>, tensor<1x!quant.uniform<ui8:f32, 34.0:16>>) -> tensor<1x!quant.uniform<ui8:f32, 34.0:16>>
  func.return %0: tensor<1x!quant.uniform<ui8:f32, 34.0:16>>
}

// -----

// The range and width rules are those of `uN` and `iN`.
// expected-error @+1 {{illegal storage type minimum: -200}}
func.func private @si8_minimum(!quant.uniform<si8<-200:0>:f32, 1.0>)

// -----

// expected-error @+1 {{illegal storage type size: 33}}
func.func private @ui33(!quant.uniform<ui33:f32, 1.0>)

// -----

// expected-error @+1 {{illegal storage type prefix}}
func.func private @xi8(!quant.uniform<xi8:f32, 1.0>)
