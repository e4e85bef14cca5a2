// async_start/async_done around a collective, and collective_reduce and
// collective_broadcast with and without has_dynamic_root, over a grid of two processes.
// Expected values are worked out by hand.
// RUN: qrun %s | FileCheck %s
// RUN: qopt %s | qopt | FileCheck %s --check-prefix=PRINT

// CHECK: PASS: @main
// CHECK: 1 passed, 0 failed

// PRINT: "stablehlo.async_start"(%{{.*}}) ({
// PRINT: }) : (tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>>
// PRINT: "stablehlo.async_done"(%{{.*}}) : (!stablehlo.future<tensor<4xf32>>) -> tensor<4xf32>

func.func private @async_sum(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.async_start"(%x) ({
  ^bb0(%b: tensor<4xf32>):
    %1 = "stablehlo.all_reduce"(%b) ({
    ^bb1(%p: tensor<f32>, %q: tensor<f32>):
      %2 = stablehlo.add %p, %q : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }) : (tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>>
  %3 = "stablehlo.async_done"(%0) : (!stablehlo.future<tensor<4xf32>>) -> tensor<4xf32>
  func.return %3 : tensor<4xf32>
}

// Operand 0 is reduced onto process 0 (the group's first), operand 1 onto process 1
// (root index 1); the other process gets zeros.
func.func private @reduce_to_roots(%x: tensor<2xi32>, %y: tensor<2xi32>, %root: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %0:2 = "stablehlo.collective_reduce"(%x, %y, %root) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %m = stablehlo.maximum %p, %q : tensor<i32>
    stablehlo.return %m : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  %1 = "stablehlo.collective_reduce"(%x) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %0#0, %0#1, %1 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}

// Every process gets process 1's value (root index 1).
func.func private @broadcast_from_1(%x: tensor<2xi32>, %root: tensor<1xi32>) -> tensor<2xi32> {
  %0 = "stablehlo.collective_broadcast"(%x, %root) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = stablehlo.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  %s:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@async_sum], [@async_sum]]} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  check.expect_eq_const %s#0, dense<[11.0, 22.0, 33.0, 44.0]> : tensor<4xf32>
  check.expect_eq_const %s#1, dense<[11.0, 22.0, 33.0, 44.0]> : tensor<4xf32>

  %x0 = stablehlo.constant dense<[1, 8]> : tensor<2xi32>
  %x1 = stablehlo.constant dense<[5, 2]> : tensor<2xi32>
  %roots = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
  %r:6 = "interpreter.run_parallel"(%x0, %x1, %roots, %x1, %x0, %roots) {programs = [[@reduce_to_roots], [@reduce_to_roots]]} : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  // Process 0: max(x0, x1) = [5, 8] for operand 0; zeros for operand 1; the sum [6, 10].
  check.expect_eq_const %r#0, dense<[5, 8]> : tensor<2xi32>
  check.expect_eq_const %r#1, dense<0> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<[6, 10]> : tensor<2xi32>
  // Process 1: zeros for operand 0; max(x1, x0) = [5, 8] for operand 1; zeros.
  check.expect_eq_const %r#3, dense<0> : tensor<2xi32>
  check.expect_eq_const %r#4, dense<[5, 8]> : tensor<2xi32>
  check.expect_eq_const %r#5, dense<0> : tensor<2xi32>

  %one = stablehlo.constant dense<[1]> : tensor<1xi32>
  %c:2 = "interpreter.run_parallel"(%x0, %one, %x1, %one) {programs = [[@broadcast_from_1], [@broadcast_from_1]]} : (tensor<2xi32>, tensor<1xi32>, tensor<2xi32>, tensor<1xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %c#0, dense<[5, 2]> : tensor<2xi32>
  check.expect_eq_const %c#1, dense<[5, 2]> : tensor<2xi32>
  func.return
}
