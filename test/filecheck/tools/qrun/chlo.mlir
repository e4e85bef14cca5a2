// chlo's broadcasting arithmetic, comparison and select, mulhi, top_k and the special
// functions with exact numpy equivalents, run by the interpreter. Expected values are
// worked out by hand.
// RUN: qrun %s | FileCheck %s

// CHECK: PASS: @main
// CHECK: 1 passed, 0 failed

func.func @main() {
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %m = stablehlo.constant dense<[[10, 20, 30], [40, 50, 60]]> : tensor<2x3xi32>
  // Implicit (trailing) broadcasting, and broadcast_dimensions placing %c's dimension at 0.
  %sum = chlo.broadcast_add %v, %m : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %sum, dense<[[11, 22, 33], [41, 52, 63]]> : tensor<2x3xi32>
  %c = stablehlo.constant dense<[100, 200]> : tensor<2xi32>
  %rows = chlo.broadcast_subtract %m, %c {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %rows, dense<[[-90, -80, -70], [-160, -150, -140]]> : tensor<2x3xi32>
  // Integer division truncates toward zero, as stablehlo.divide does.
  %n = stablehlo.constant dense<[-7, 7]> : tensor<2xi32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %q = chlo.broadcast_divide %n, %two : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %q, dense<[-3, 3]> : tensor<2xi32>
  %gt = chlo.broadcast_compare %m, %v {comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %pick = chlo.broadcast_select %gt, %v, %zero : (tensor<2x3xi1>, tensor<3xi32>, tensor<i32>) -> tensor<2x3xi32>
  check.expect_eq_const %pick, dense<[[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi32>
  // mulhi: 2^30 * 8 = 2^33, whose high 32 bits are 2; -1 * 1 = -1, high bits all ones.
  %a = stablehlo.constant dense<[1073741824, -1]> : tensor<2xi32>
  %b = stablehlo.constant dense<[8, 1]> : tensor<2xi32>
  %hi = chlo.mulhi %a, %b : tensor<2xi32>, tensor<2xi32> -> tensor<2xi32>
  check.expect_eq_const %hi, dense<[2, -1]> : tensor<2xi32>
  // top_k: the two largest of each row, largest first; ties keep the lower index first.
  %t = stablehlo.constant dense<[[3.0, 1.0, 3.0, 2.0], [0.0, 5.0, 4.0, 5.0]]> : tensor<2x4xf32>
  %top:2 = chlo.top_k(%t, k = 2) : tensor<2x4xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
  check.expect_eq_const %top#0, dense<[[3.0, 3.0], [5.0, 5.0]]> : tensor<2x2xf32>
  check.expect_eq_const %top#1, dense<[[0, 2], [1, 3]]> : tensor<2x2xi32>
  %x = stablehlo.constant dense<[0.0, 1.0, 0x7F800000, 0xFF800000]> : tensor<4xf32>
  %inf = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  check.expect_eq_const %inf, dense<[false, false, true, true]> : tensor<4xi1>
  %pos = chlo.is_pos_inf %x : tensor<4xf32> -> tensor<4xi1>
  check.expect_eq_const %pos, dense<[false, false, true, false]> : tensor<4xi1>
  %e = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %erf = chlo.erf %e : tensor<2xf32> -> tensor<2xf32>
  // erf(1) = 0.8427007929...
  check.expect_almost_eq_const %erf, dense<[0.0, 0.84270079]> : tensor<2xf32>
  %like = "chlo.constant_like"(%e) {value = 2.5 : f32} : (tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %like, dense<2.5> : tensor<2xf32>
  func.return
}
