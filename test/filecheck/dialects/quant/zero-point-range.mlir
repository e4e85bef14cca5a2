// A zero point outside the storage range: MLIR's quant types accept it, so qdialect's
// do too (they parse and print as upstream MLIR prints them, and the quant ops compute
// with them: the formulas stay well defined, zero is just not representable). The
// StableHLO spec requires storage_min <= zero_point <= storage_max of its quantized
// element types, and upstream StableHLO's type constraints check it: its ops reject
// such a type with upstream's constraint message, followed by the reason.
// RUN: qopt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func private @types
// CHECK-SAME: !quant.uniform<i8:f32, 2.000000e+00:128>
// CHECK-SAME: !quant.uniform<u8:f32, 1.000000e+00:-1>
// CHECK-SAME: !quant.uniform<u8<1:255>:f32, 1.000000e-01>
// CHECK-SAME: !quant.uniform<i8<-8:7>:f32:0, {1.000000e-01:1,2.000000e-01:127}>
// CHECK-SAME: !quant.uniform<f4E2M1FN:f32, 9.987200e-01:127>
func.func private @types(!quant.uniform<i8:f32, 2.0:128>, !quant.uniform<u8:f32, 1.0:-1>, !quant.uniform<u8<1:255>:f32, 0.1>, !quant.uniform<i8<-8:7>:f32:0, {0.1:1,0.2:127}>, !quant.uniform<f4E2M1FN<-6:6>:f32, 0.99872:127>)

// -----

// CHECK-LABEL: func.func @quant_ops
// CHECK: quant.qcast %x : tensor<2xf32> to tensor<2x!quant.uniform<i8:f32, 2.000000e+00:128>>
func.func @quant_ops(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = quant.qcast %x : tensor<2xf32> to tensor<2x!quant.uniform<i8:f32, 2.0:128>>
  %1 = quant.dcast %0 : tensor<2x!quant.uniform<i8:f32, 2.0:128>> to tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

func.func @operand(%x: tensor<2x!quant.uniform<i8:f32, 2.0:128>>) {
  // expected-error-re @+1 {{'stablehlo.abs' op operand #0 must be ranked tensor of {{.*}} values, but got 'tensor<2x!quant.uniform<i8:f32, 2.000000e+00:128>>' (zero point 128 out of storage range [-128, 127])}}
  %0 = stablehlo.abs %x : tensor<2x!quant.uniform<i8:f32, 2.0:128>>
  return
}

// -----

// An omitted zero point is 0, outside [1, 255].
func.func @result(%x: tensor<2xf32>) {
  // expected-error-re @+1 {{'stablehlo.uniform_quantize' op result #0 must be ranked tensor of {{.*}} (zero point 0 out of storage range [1, 255])}}
  %0 = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<u8<1:255>:f32, 0.1>>
  return
}

// -----

func.func @per_axis(%x: tensor<2x!quant.uniform<i8<-8:7>:f32:0, {0.1:1,0.2:127}>>) {
  // expected-error-re @+1 {{'stablehlo.uniform_dequantize' op operand #0 must be ranked tensor of {{.*}} (zero point 127 out of storage range [-8, 7])}}
  %0 = stablehlo.uniform_dequantize %x : (tensor<2x!quant.uniform<i8<-8:7>:f32:0, {0.1:1,0.2:127}>>) -> tensor<2xf32>
  return
}
