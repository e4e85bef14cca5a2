// interpreter.run_parallel runs a replicas x partitions grid of processes, one row per
// replica; the collectives exchange data between them. Values worked out by hand.
// RUN: qrun %s --split-input-file | FileCheck %s

// CHECK: PASS: @main
// CHECK: PASS: @main
// CHECK: PASS: @main
// CHECK: PASS: @main
// CHECK: 4 passed, 0 failed

module @two_replicas {
  func.func @step(%x: tensor<2xi32>) -> (tensor<2xi32>, tensor<4xi32>, tensor<2xi32>, tensor<ui32>) {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
    %all = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<4xi32>
    // replica 0 sends to 1, 1 to 0: each receives the other's operand.
    %swapped = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
    %id = stablehlo.replica_id : tensor<ui32>
    func.return %sum, %all, %swapped, %id : tensor<2xi32>, tensor<4xi32>, tensor<2xi32>, tensor<ui32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %b = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
    %r:8 = "interpreter.run_parallel"(%a, %b) {programs = [[@step], [@step]]} : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<4xi32>, tensor<2xi32>, tensor<ui32>, tensor<2xi32>, tensor<4xi32>, tensor<2xi32>, tensor<ui32>)
    check.expect_eq_const %r#0, dense<[11, 22]> : tensor<2xi32>
    check.expect_eq_const %r#1, dense<[1, 2, 10, 20]> : tensor<4xi32>
    check.expect_eq_const %r#2, dense<[10, 20]> : tensor<2xi32>
    check.expect_eq_const %r#3, dense<0> : tensor<ui32>
    check.expect_eq_const %r#4, dense<[11, 22]> : tensor<2xi32>
    check.expect_eq_const %r#5, dense<[1, 2, 10, 20]> : tensor<4xi32>
    check.expect_eq_const %r#6, dense<[1, 2]> : tensor<2xi32>
    check.expect_eq_const %r#7, dense<1> : tensor<ui32>
    func.return
  }
}

// -----

// all_to_all: each process splits [p0 p1] along dimension 0 and keeps piece k from
// process k, concatenated along dimension 0. Process 0 gets [1, 5], process 1 [2, 6].
module @all_to_all {
  func.func @swap(%x: tensor<2xi32>) -> tensor<2xi32> {
    %r = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
    func.return %r : tensor<2xi32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %b = stablehlo.constant dense<[5, 6]> : tensor<2xi32>
    %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@swap], [@swap]]} : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
    check.expect_eq_const %r#0, dense<[1, 5]> : tensor<2xi32>
    check.expect_eq_const %r#1, dense<[2, 6]> : tensor<2xi32>
    func.return
  }
}

// -----

// One replica, two partitions: partition_id counts along the row.
module @partitions {
  func.func private @pid() -> tensor<ui32> {
    %p = stablehlo.partition_id : tensor<ui32>
    func.return %p : tensor<ui32>
  }
  func.func @main() {
    %r:2 = "interpreter.run_parallel"() {programs = [[@pid, @pid]]} : () -> (tensor<ui32>, tensor<ui32>)
    check.expect_eq_const %r#0, dense<0> : tensor<ui32>
    check.expect_eq_const %r#1, dense<1> : tensor<ui32>
    func.return
  }
}

// -----

// A promoted all_reduce: i8 operands summed in an i32 body. 100 + 100 = 200 and
// -100 - 100 = -200 fit i32; in i8 they would wrap to -56 and 56.
module @promoted_all_reduce {
  func.func @step(%x: tensor<2xi8>) -> tensor<2xi32> {
    %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi8>) -> tensor<2xi32>
    func.return %sum : tensor<2xi32>
  }
  func.func @main() {
    %a = stablehlo.constant dense<[100, -100]> : tensor<2xi8>
    %r:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@step], [@step]]} : (tensor<2xi8>, tensor<2xi8>) -> (tensor<2xi32>, tensor<2xi32>)
    check.expect_eq_const %r#0, dense<[200, -200]> : tensor<2xi32>
    check.expect_eq_const %r#1, dense<[200, -200]> : tensor<2xi32>
    func.return
  }
}
