// The f8 types: literals (decimal rounds to nearest even; hex is the bit pattern),
// printing as mlir-opt prints them, and convert to and from them in the interpreter.
// RUN: qrun %s --split-input-file | FileCheck %s
// RUN: qopt %s --split-input-file | FileCheck %s --check-prefix=PRINT

// CHECK: PASS: @e4m3fn
// CHECK-NEXT: PASS: @e5m2
// CHECK-NEXT: 2 passed, 0 failed

// 0.1 -> 1.625 * 2^-4 = 0.1015625; 3.1415 -> 3.25 (steps of 0.25 in [2, 4)); 0x01 is the
// smallest subnormal 2^-9; 0x7E is the largest value 448; 1000 overflows to NaN (no
// infinity); converting to i16 truncates, NaN -> 0.
// PRINT-LABEL: func.func @e4m3fn
// PRINT: dense<[1.015630e-01, 3.250000e+00, 1.953130e-03, 4.480000e+02, 0x7F]> : tensor<5xf8E4M3FN>
func.func @e4m3fn() {
  %0 = stablehlo.constant dense<[0.1, 3.1415, 0x01, 0x7E, 0x7F]> : tensor<5xf8E4M3FN>
  %1 = stablehlo.convert %0 : (tensor<5xf8E4M3FN>) -> tensor<5xf32>
  check.expect_eq_const %1, dense<[0.1015625, 3.25, 0.001953125, 448.0, 0x7FC00000]> : tensor<5xf32>
  %x = stablehlo.constant dense<[0.1, 1000.0, -300.7, 464.0]> : tensor<4xf32>
  %2 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  %3 = stablehlo.bitcast_convert %2 : (tensor<4xf8E4M3FN>) -> tensor<4xui8>
  // -300.7 -> -288 (steps of 32 in [256, 448]) = 0xF9; 464 ties back to 448 (0x7E).
  check.expect_eq_const %3, dense<[29, 127, 249, 126]> : tensor<4xui8>
  %4 = stablehlo.convert %2 : (tensor<4xf8E4M3FN>) -> tensor<4xi16>
  check.expect_eq_const %4, dense<[0, 0, -288, 448]> : tensor<4xi16>
  func.return
}

// -----

// E5M2 has infinities: 1e6 overflows to inf (0x7C); its largest value is 57344 (0x7B).
// Integers convert with one rounding: 7 -> 7 (1.75 * 4), 9 -> 8 (steps of 2 in [8, 16)).
func.func @e5m2() {
  %x = stablehlo.constant dense<[1.0e6, 57344.0, -1.0e6]> : tensor<3xf32>
  %0 = stablehlo.convert %x : (tensor<3xf32>) -> tensor<3xf8E5M2>
  %1 = stablehlo.bitcast_convert %0 : (tensor<3xf8E5M2>) -> tensor<3xui8>
  check.expect_eq_const %1, dense<[124, 123, 252]> : tensor<3xui8>
  %i = stablehlo.constant dense<[7, 9]> : tensor<2xi32>
  %2 = stablehlo.convert %i : (tensor<2xi32>) -> tensor<2xf8E5M2>
  check.expect_eq_const %2, dense<[7.0, 8.0]> : tensor<2xf8E5M2>
  func.return
}
