// Float storage types (f8E5M2, f8E4M3FN, f4E2M1FN) in `!quant.uniform` and `!quant.any`,
// as upstream MLIR writes and prints them: the default storage range is +-the largest
// finite value and is left out when printed; a narrower range is kept.
// RUN: qopt %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: qopt %s --split-input-file --verify-diagnostics | qopt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func private @forms
// CHECK-SAME: !quant.uniform<f8E5M2:f32, 9.987200e-01:127>
// CHECK-SAME: !quant.uniform<f8E4M3FN:f32, 2.000000e+02>
// CHECK-SAME: !quant.uniform<f4E2M1FN:f16, 5.000000e-01>
// CHECK-SAME: !quant.uniform<f8E4M3FN<-100:448>:f32, 1.000000e+00>
// CHECK-SAME: tensor<2x!quant.uniform<f8E5M2:bf16:0, {2.000000e+00,1.000000e+00:3}>>
// CHECK-SAME: !quant.any<f4E2M1FN:f32>
// CHECK-SAME: !quant.any<f8E4M3FN<-8:8>>
func.func private @forms(!quant.uniform<f8E5M2<-57344:57344>:f32, 0.99872:127>, !quant.uniform<f8E4M3FN:f32, 2.0e+2>, !quant.uniform<f4E2M1FN<-6:6>:f16, 0.5>, !quant.uniform<f8E4M3FN<-100:448>:f32, 1.0>, tensor<2x!quant.uniform<f8E5M2:bf16:0, {2.0, 1.0:3}>>, !quant.any<f4E2M1FN:f32>, !quant.any<f8E4M3FN<-8:8>>)

// -----

// quant.scast reinterprets between the quantized type and its float storage type.
// CHECK-LABEL: func.func @casts
// CHECK: quant.qcast %{{.*}} : tensor<4xf32> to tensor<4x!quant.uniform<f8E4M3FN:f32, 5.000000e-01>>
// CHECK: quant.scast %{{.*}} : tensor<4x!quant.uniform<f8E4M3FN:f32, 5.000000e-01>> to tensor<4xf8E4M3FN>
// CHECK: quant.scast %{{.*}} : tensor<4xf8E4M3FN> to tensor<4x!quant.uniform<f8E4M3FN:f32, 5.000000e-01>>
func.func @casts(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<f8E4M3FN:f32, 0.5>>
  %1 = quant.scast %0 : tensor<4x!quant.uniform<f8E4M3FN:f32, 0.5>> to tensor<4xf8E4M3FN>
  %2 = quant.scast %1 : tensor<4xf8E4M3FN> to tensor<4x!quant.uniform<f8E4M3FN:f32, 0.5>>
  %3 = quant.dcast %2 : tensor<4x!quant.uniform<f8E4M3FN:f32, 0.5>> to tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// expected-error@+1 {{illegal storage type prefix: f16 is not a storage type (integers, f8E5M2, f8E4M3FN, f4E2M1FN)}}
func.func private @not_storage(!quant.uniform<f16:f32, 1.0>)

// -----

// expected-error@+1 {{illegal storage type maximum: 7}}
func.func private @beyond_largest(!quant.uniform<f4E2M1FN<-6:7>:f32, 1.0>)

// -----

// The storage type of the quantized type and the plain type must agree.
func.func @scast_mismatch(%x: tensor<4xf8E5M2>) {
  // expected-error@+1 {{storage type in quantized type expected to match integer type}}
  %0 = quant.scast %x : tensor<4xf8E5M2> to tensor<4x!quant.uniform<f8E4M3FN:f32, 0.5>>
  return
}

// -----

// StableHLO's quantized types have integer storage (HLO_QuantizedInt): its ops refuse
// a float storage type.
func.func @stablehlo_op(%x: tensor<2x!quant.uniform<f8E4M3FN:f32, 0.5>>) {
  // expected-error@+1 {{'stablehlo.add' op operand #0 must be ranked tensor of floating-point or boolean or integer or complex or per-tensor quantized or per-axis quantized (quantized dimension in range, one scale each) values, but got 'tensor<2x!quant.uniform<f8E4M3FN:f32, 5.000000e-01>>'}}
  %0 = stablehlo.add %x, %x : tensor<2x!quant.uniform<f8E4M3FN:f32, 0.5>>
  return
}

// -----

// So are TOSA's (Tosa_QuantizedInt).
func.func @tosa_op(%x: tensor<2x!quant.uniform<f8E4M3FN:f32, 0.5>>) {
  // expected-error@+1 {{'tosa.abs' op operand #0 must be tosa-conformant tensor of number values, but got 'tensor<2x!quant.uniform<f8E4M3FN:f32, 5.000000e-01>>'}}
  %0 = tosa.abs %x : (tensor<2x!quant.uniform<f8E4M3FN:f32, 0.5>>) -> tensor<2x!quant.uniform<f8E4M3FN:f32, 0.5>>
  return
}
