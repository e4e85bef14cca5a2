// while, if, case, map, sort and tuples run their regions as the spec says.
// Every expected value below is worked out by hand from the spec.
// RUN: qrun %s | FileCheck %s

// CHECK: PASS: @while_factorial
// CHECK: PASS: @if_reads_outer_values
// CHECK: PASS: @case_clamps_index
// CHECK: PASS: @map_per_element
// CHECK: PASS: @sort_stable_two_operands
// CHECK: PASS: @sort_negative_dimension
// CHECK: PASS: @tuples
// CHECK: 7 passed, 0 failed

// acc = 1; for i in 1..5: acc *= i  ->  acc = 120, i = 6
func.func @while_factorial() {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %five = stablehlo.constant dense<5> : tensor<i32>
  %i, %acc = stablehlo.while(%arg0 = %one, %arg1 = %one) : tensor<i32>, tensor<i32>
  cond {
    %c = stablehlo.compare LE, %arg0, %five : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %next_acc = stablehlo.multiply %arg1, %arg0 : tensor<i32>
    %next_i = stablehlo.add %arg0, %one : tensor<i32>
    stablehlo.return %next_i, %next_acc : tensor<i32>, tensor<i32>
  }
  check.expect_eq_const %i, dense<6> : tensor<i32>
  check.expect_eq_const %acc, dense<120> : tensor<i32>
  func.return
}

// The branches read %x from the enclosing block; 3 > 2 takes the first.
func.func @if_reads_outer_values() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %gt = stablehlo.compare GT, %three, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %lt = stablehlo.compare LT, %three, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %a = "stablehlo.if"(%gt) ({
    %d = stablehlo.add %x, %x : tensor<2xi32>
    stablehlo.return %d : tensor<2xi32>
  }, {
    stablehlo.return %x : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xi32>
  %b = "stablehlo.if"(%lt) ({
    %d = stablehlo.add %x, %x : tensor<2xi32>
    stablehlo.return %d : tensor<2xi32>
  }, {
    stablehlo.return %x : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xi32>
  check.expect_eq_const %a, dense<[2, 4]> : tensor<2xi32>
  check.expect_eq_const %b, dense<[1, 2]> : tensor<2xi32>
  func.return
}

// Index 1 runs branch 1; 7 and -1 are out of range and run the last branch.
func.func @case_clamps_index() {
  %i1 = stablehlo.constant dense<1> : tensor<i32>
  %i7 = stablehlo.constant dense<7> : tensor<i32>
  %im1 = stablehlo.constant dense<-1> : tensor<i32>
  %c10 = stablehlo.constant dense<10> : tensor<i64>
  %c20 = stablehlo.constant dense<20> : tensor<i64>
  %c30 = stablehlo.constant dense<30> : tensor<i64>
  %r1 = "stablehlo.case"(%i1) ({
    stablehlo.return %c10 : tensor<i64>
  }, {
    stablehlo.return %c20 : tensor<i64>
  }, {
    stablehlo.return %c30 : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  %r7 = "stablehlo.case"(%i7) ({
    stablehlo.return %c10 : tensor<i64>
  }, {
    stablehlo.return %c20 : tensor<i64>
  }, {
    stablehlo.return %c30 : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  %rm1 = "stablehlo.case"(%im1) ({
    stablehlo.return %c10 : tensor<i64>
  }, {
    stablehlo.return %c20 : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  check.expect_eq_const %r1, dense<20> : tensor<i64>
  check.expect_eq_const %r7, dense<30> : tensor<i64>
  check.expect_eq_const %rm1, dense<20> : tensor<i64>
  func.return
}

// a * b - a per element.
func.func @map_per_element() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %r = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %p = stablehlo.multiply %x, %y : tensor<i32>
    %s = stablehlo.subtract %p, %x : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %r, dense<[[4, 10], [18, 28]]> : tensor<2x2xi32>
  func.return
}

// Keys [3, 1, 2, 1] ascending; the two 1s keep their order, so values [20, 40, 30, 10].
func.func @sort_stable_two_operands() {
  %keys = stablehlo.constant dense<[3, 1, 2, 1]> : tensor<4xi32>
  %vals = stablehlo.constant dense<[10, 20, 30, 40]> : tensor<4xi32>
  %k, %v = "stablehlo.sort"(%keys, %vals) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  check.expect_eq_const %k, dense<[1, 1, 2, 3]> : tensor<4xi32>
  check.expect_eq_const %v, dense<[20, 40, 30, 10]> : tensor<4xi32>
  func.return
}

// dimension = -1 is the last dimension; GT sorts descending within each row.
func.func @sort_negative_dimension() {
  %x = stablehlo.constant dense<[[1.0, 3.0, 2.0], [6.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %r, dense<[[3.0, 2.0, 1.0], [6.0, 5.0, 4.0]]> : tensor<2x3xf32>
  func.return
}

func.func @tuples() {
  %a = stablehlo.constant dense<[1.5, 2.5]> : tensor<2xf32>
  %b = stablehlo.constant dense<7> : tensor<i8>
  %inner = stablehlo.tuple %b : tuple<tensor<i8>>
  %t = stablehlo.tuple %a, %inner : tuple<tensor<2xf32>, tuple<tensor<i8>>>
  %x = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tuple<tensor<i8>>>) -> tensor<2xf32>
  %y = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tuple<tensor<i8>>>) -> tuple<tensor<i8>>
  %z = stablehlo.get_tuple_element %y[0] : (tuple<tensor<i8>>) -> tensor<i8>
  check.expect_eq_const %x, dense<[1.5, 2.5]> : tensor<2xf32>
  check.expect_eq_const %z, dense<7> : tensor<i8>
  func.return
}
