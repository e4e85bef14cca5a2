// popcnt, count_leading_zeros, is_finite, tan, reduce_precision and complex numbers.
// Expected values are worked out by hand from the spec.
// RUN: qrun %s | FileCheck %s

// CHECK: PASS: @bit_counts
// CHECK: PASS: @is_finite_and_tan
// CHECK: PASS: @reduce_precision_to_half
// CHECK: PASS: @complex_arithmetic
// CHECK: PASS: @complex_abs
// CHECK: 5 passed, 0 failed

// In 8 bits: -1 = 0xFF, -128 = 0x80, 85 = 0x55, 16 = 0x10.
func.func @bit_counts() {
  %x = stablehlo.constant dense<[0, -1, -128, 85]> : tensor<4xi8>
  %p = stablehlo.popcnt %x : tensor<4xi8>
  check.expect_eq_const %p, dense<[0, 8, 1, 4]> : tensor<4xi8>
  %y = stablehlo.constant dense<[0, 1, -1, 16]> : tensor<4xi8>
  %c = stablehlo.count_leading_zeros %y : tensor<4xi8>
  check.expect_eq_const %c, dense<[8, 7, 0, 3]> : tensor<4xi8>
  %u = stablehlo.constant dense<[255, 1]> : tensor<2xui8>
  %pu = stablehlo.popcnt %u : tensor<2xui8>
  %cu = stablehlo.count_leading_zeros %u : tensor<2xui8>
  check.expect_eq_const %pu, dense<[8, 1]> : tensor<2xui8>
  check.expect_eq_const %cu, dense<[0, 7]> : tensor<2xui8>
  %w = stablehlo.constant dense<[1, -2147483648]> : tensor<2xi32>
  %cw = stablehlo.count_leading_zeros %w : tensor<2xi32>
  check.expect_eq_const %cw, dense<[31, 0]> : tensor<2xi32>
  func.return
}

func.func @is_finite_and_tan() {
  %x = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 1.0, -0.0]> : tensor<5xf32>
  %f = stablehlo.is_finite %x : (tensor<5xf32>) -> tensor<5xi1>
  check.expect_eq_const %f, dense<[false, false, false, true, true]> : tensor<5xi1>
  %a = stablehlo.constant dense<[0.0, 0.785398163397448]> : tensor<2xf64>
  %t = stablehlo.tan %a : tensor<2xf64>
  check.expect_almost_eq_const %t, dense<[0.0, 1.0]> : tensor<2xf64>
  func.return
}

// e5m10 is f16's format. 1 + 2^-11 is a tie: to even, 1.0. 1 + 3 * 2^-11 is a tie: to
// even, 1 + 2^-9. 65519 rounds to 65504 (f16's largest); 65520 rounds to 65536, beyond
// f16's range: inf. 1e-5 is below f16's smallest normal: zero, with its sign.
func.func @reduce_precision_to_half() {
  %x = stablehlo.constant dense<[1.00048828125, 1.00146484375, 65519.0, 65520.0, -1.0e-5, 0x7FC00000]> : tensor<6xf32>
  %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<6xf32>
  check.expect_eq_const %r, dense<[1.0, 1.001953125, 65504.0, 0x7F800000, -0.0, 0x7FC00000]> : tensor<6xf32>
  // e8m7 is bfloat16's: 1 + 2^-8 is a tie between 1 and 1 + 2^-7: to even, 1.0.
  %y = stablehlo.constant dense<[1.00390625, 1.01171875]> : tensor<2xf32>
  %b = stablehlo.reduce_precision %y, format = e8m7 : tensor<2xf32>
  check.expect_eq_const %b, dense<[1.0, 1.015625]> : tensor<2xf32>
  func.return
}

// (1 + 2i)(3 + 4i) = -5 + 10i; (1 + 2i) + (3 + 4i) = 4 + 6i.
func.func @complex_arithmetic() {
  %re = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %im = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %z = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
  %a = stablehlo.slice %z [0:1] : (tensor<2xcomplex<f32>>) -> tensor<1xcomplex<f32>>
  %b = stablehlo.slice %z [1:2] : (tensor<2xcomplex<f32>>) -> tensor<1xcomplex<f32>>
  %p = stablehlo.multiply %a, %b : tensor<1xcomplex<f32>>
  %s = stablehlo.add %a, %b : tensor<1xcomplex<f32>>
  check.expect_eq_const %p, dense<[(-5.0, 10.0)]> : tensor<1xcomplex<f32>>
  check.expect_eq_const %s, dense<[(4.0, 6.0)]> : tensor<1xcomplex<f32>>
  %pr = stablehlo.real %p : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
  %pi = stablehlo.imag %p : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
  check.expect_eq_const %pr, dense<[-5.0]> : tensor<1xf32>
  check.expect_eq_const %pi, dense<[10.0]> : tensor<1xf32>
  %fi = stablehlo.imag %re : tensor<2xf32>
  check.expect_eq_const %fi, dense<[0.0, 0.0]> : tensor<2xf32>
  // A hex part of a complex literal is that part's bits, as in MLIR: (+inf, -0.0).
  %h = stablehlo.constant dense<(0x7FF0000000000000, 0x8000000000000000)> : tensor<complex<f64>>
  %hr = stablehlo.real %h : (tensor<complex<f64>>) -> tensor<f64>
  %hi = stablehlo.imag %h : (tensor<complex<f64>>) -> tensor<f64>
  check.expect_eq_const %hr, dense<0x7FF0000000000000> : tensor<f64>
  check.expect_eq_const %hi, dense<-0.0> : tensor<f64>
  func.return
}

// |3 + 4i| = 5, a float.
func.func @complex_abs() {
  %z = stablehlo.constant dense<[(3.0, 4.0), (0.0, -2.0)]> : tensor<2xcomplex<f32>>
  %a = stablehlo.abs %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_eq_const %a, dense<[5.0, 2.0]> : tensor<2xf32>
  func.return
}
