// A reducer (or a scatter body) may take wider types than its inputs (the spec's
// is_promotable): the elements are converted before the body sees them, so i8 inputs
// summed in i32 do not wrap and f32 inputs summed in f64 keep the f64 sum (all_reduce:
// run-parallel.mlir).
// Expected values by hand.
// RUN: qrun %s | FileCheck %s

// CHECK: PASS: @i8_summed_in_i32
// CHECK: PASS: @f32_summed_in_f64
// CHECK: PASS: @window_sum_in_i16
// CHECK: PASS: @select_and_scatter_in_i32
// CHECK: 4 passed, 0 failed

// 100 + 100 + 100 = 300 and -128 - 128 + 5 = -251 fit i32, not i8.
func.func @i8_summed_in_i32() {
  %x = stablehlo.constant dense<[[100, 100, 100], [-128, -128, 5]]> : tensor<2x3xi8>
  %z = stablehlo.constant dense<0> : tensor<i8>
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<2x3xi8>, tensor<i8>) -> tensor<2xi32>
   reducer(%a: tensor<i32>, %b: tensor<i32>) {
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  check.expect_eq_const %0, dense<[300, -251]> : tensor<2xi32>
  func.return
}

// 0.1f + 0.2f in f64: 0.100000001490116119384765625 + 0.20000000298023223876953125.
func.func @f32_summed_in_f64() {
  %x = stablehlo.constant dense<[0.1, 0.2]> : tensor<2xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f64>
   reducer(%a: tensor<f64>, %b: tensor<f64>) {
    %s = stablehlo.add %a, %b : tensor<f64>
    stablehlo.return %s : tensor<f64>
  }
  check.expect_eq_const %0, dense<0.300000004470348358154296875> : tensor<f64>
  func.return
}

// A 2-wide window sum of i8 in i16: 127 + 127 = 254.
func.func @window_sum_in_i16() {
  %x = stablehlo.constant dense<[127, 127, -100]> : tensor<3xi8>
  %z = stablehlo.constant dense<0> : tensor<i8>
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<i16>, %b: tensor<i16>):
    %s = stablehlo.add %a, %b : tensor<i16>
    stablehlo.return %s : tensor<i16>
  }) {window_dimensions = array<i64: 2>} : (tensor<3xi8>, tensor<i8>) -> tensor<2xi16>
  check.expect_eq_const %0, dense<[254, 27]> : tensor<2xi16>
  func.return
}

// Each 2-wide window selects its larger element; the scatter body doubles the sum in
// i32: (0 + 100) * 2 = 200, which i8 would wrap to -56.
func.func @select_and_scatter_in_i32() {
  %x = stablehlo.constant dense<[1, 5, 2, 7]> : tensor<4xi8>
  %s = stablehlo.constant dense<[100, 100]> : tensor<2xi8>
  %z = stablehlo.constant dense<0> : tensor<i8>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %c = stablehlo.compare GE, %a, %b : (tensor<i8>, tensor<i8>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %t = stablehlo.add %a, %b : tensor<i32>
    %u = stablehlo.add %t, %t : tensor<i32>
    stablehlo.return %u : tensor<i32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xi8>, tensor<2xi8>, tensor<i8>) -> tensor<4xi32>
  check.expect_eq_const %0, dense<[0, 200, 0, 200]> : tensor<4xi32>
  func.return
}

