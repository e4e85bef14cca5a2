// fft and triangular_solve: printed in upstream's forms, and run by the interpreter.
// Expected values are worked out by hand from the definitions.
// RUN: qrun %s | FileCheck %s
// RUN: qopt %s | FileCheck %s --check-prefix=PRINT

// CHECK: PASS: @fft_kinds
// CHECK: PASS: @triangular_solve_variants
// CHECK: 2 passed, 0 failed

// PRINT: stablehlo.fft %{{.*}}, type = FFT, length = [2] : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
// PRINT: stablehlo.fft %{{.*}}, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
// PRINT: "stablehlo.triangular_solve"(%{{.*}}, %{{.*}}) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}>
func.func @fft_kinds() {
  %x = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f64>>
  %f = stablehlo.fft %x, type = FFT, length = [2] : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %f, dense<[(4.0, -2.0), (-2.0, 6.0)]> : tensor<2xcomplex<f64>>
  %i = "stablehlo.fft"(%f) {fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 2>} : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
  check.expect_almost_eq_const %i, dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f64>>
  %r = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %rf = stablehlo.fft %r, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
  check.expect_almost_eq_const %rf, dense<[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0)]> : tensor<3xcomplex<f32>>
  %back = stablehlo.fft %rf, type = IRFFT, length = [4] : (tensor<3xcomplex<f32>>) -> tensor<4xf32>
  check.expect_almost_eq_const %back, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  func.return
}

func.func @triangular_solve_variants() {
  // The upper triangle of `a` is never read: 7.0 must not change any result.
  %a = stablehlo.constant dense<[[2.0, 7.0], [1.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[2.0], [9.0]]> : tensor<2x1xf32>
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  check.expect_almost_eq_const %x, dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %t = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  check.expect_almost_eq_const %t, dense<[[-0.125], [2.25]]> : tensor<2x1xf32>
  %u = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  check.expect_almost_eq_const %u, dense<[[2.0], [7.0]]> : tensor<2x1xf32>
  %row = stablehlo.constant dense<[[2.0, 9.0]]> : tensor<1x2xf32>
  %right = "stablehlo.triangular_solve"(%a, %row) {left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  check.expect_almost_eq_const %right, dense<[[-0.125, 2.25]]> : tensor<1x2xf32>
  func.return
}
