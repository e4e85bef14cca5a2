// A scale ratio no 32-bit multiplier with shift 2..62 can express is an error at the op.
// RUN: qopt %s --verify-diagnostics -p stablehlo-quant-legalize-to-tosa-rescale
// RUN: not qopt %s -p stablehlo-quant-legalize-to-tosa-rescale 2>&1 | FileCheck %s
// CHECK-NOT: Traceback
// CHECK: error:

!a = !quant.uniform<i8:f32, 1.0:0>
!o = !quant.uniform<i8:f32, 1.0e-12:0>
func.func @huge_ratio(%x: tensor<4x!a>) -> tensor<4x!o> {
  // expected-error @+1 {{stablehlo-quant-legalize-to-tosa-rescale: 'stablehlo.multiply' needs a rescale by 1000000000000.0 (scale 1000000000000.0 is too large for a 32-bit multiplier with shift >= 2)}}
  %0 = stablehlo.multiply %x, %x : (tensor<4x!a>, tensor<4x!a>) -> tensor<4x!o>
  func.return %0 : tensor<4x!o>
}
