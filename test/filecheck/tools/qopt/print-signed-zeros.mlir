// Floats keep the sign of zero as MLIR prints them (`-0.000000e+00`, at every width,
// in scalars, dense literals and complex parts); a dense literal is a splat only when
// every element has the same bits (`[-0.0, 0.0]` is not one, a repeated NaN is); a
// complex constant may mix a hex part (its bits) with a decimal one, as MLIR prints
// `(0x7FF0000000000000,-0.000000e+00)`. Expected lines: upstream MLIR's (iree-opt) output.
// RUN: qopt --upstream-names %s | FileCheck %s
// RUN: qopt %s | qopt --upstream-names | FileCheck %s

// CHECK: %0 = tosa.const  values(dense<[-0.000000e+00, 0.000000e+00, -1.000000e+00]> : tensor<3xf32>) : () -> tensor<3xf32>
// CHECK-NEXT: %1 = tosa.const  values(dense<[-0.000000e+00, 0.000000e+00, 3.000000e+00]> : tensor<3xf8E5M2>) : () -> tensor<3xf8E5M2>
// CHECK-NEXT: %2 = tosa.const  values(dense<[-0.000000e+00, 0.000000e+00]> : tensor<2xbf16>) : () -> tensor<2xbf16>
// CHECK-NEXT: %cst = stablehlo.constant dense<(0x7FF0000000000000,-0.000000e+00)> : tensor<complex<f64>>
// CHECK-NEXT: %cst_0 = arith.constant -0.000000e+00 : f16
func.func @zeros() {
  %0 = tosa.const values(dense<[-0.0, 0.0, -1.0]> : tensor<3xf32>) : () -> tensor<3xf32>
  %1 = tosa.const values(dense<[-0.0, 0.0, 3.0]> : tensor<3xf8E5M2>) : () -> tensor<3xf8E5M2>
  %2 = tosa.const values(dense<[-0.0, 0.0]> : tensor<2xbf16>) : () -> tensor<2xbf16>
  %3 = stablehlo.constant dense<(0x7FF0000000000000, -0.0)> : tensor<complex<f64>>
  %4 = arith.constant -0.0 : f16
  return
}

// CHECK: %0 = tosa.const  values(dense<0x7FC00000> : tensor<2xf32>) : () -> tensor<2xf32>
// CHECK-NEXT: %1 = tosa.const  values(dense<[[0.000000e+00, -0.000000e+00], [1.000000e+00, 2.000000e+00]]> : tensor<2x2xf32>) : () -> tensor<2x2xf32>
// CHECK-NEXT: %cst = stablehlo.constant dense<[(0.000000e+00,1.000000e+00), (-0.000000e+00,1.000000e+00)]> : tensor<2xcomplex<f32>>
// CHECK-NEXT: %c = stablehlo.constant dense<1> : tensor<2xi8>
func.func @splats() {
  %0 = tosa.const values(dense<[0x7FC00000, 0x7FC00000]> : tensor<2xf32>) : () -> tensor<2xf32>
  %1 = tosa.const values(dense<[[0.0, -0.0], [1.0, 2.0]]> : tensor<2x2xf32>) : () -> tensor<2x2xf32>
  %2 = stablehlo.constant dense<[(0.0, 1.0), (-0.0, 1.0)]> : tensor<2xcomplex<f32>>
  %3 = stablehlo.constant dense<[1, 1]> : tensor<2xi8>
  return
}
