// qrun runs one process (replica 0, partition 0): collectives over a group of one
// return their operand; a group naming another process is reported at the op.
// RUN: not qrun %s 2>&1 | FileCheck %s

// CHECK: PASS: @one_process
// CHECK: FAIL: @needs_two_processes
// CHECK-NEXT: collectives.mlir:[[# @LINE + 34]]:3: error: 'stablehlo.all_reduce' names process 1, but the interpreter runs one process (replica 0, partition 0)
// CHECK: 1 passed, 1 failed

func.func @one_process() {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  check.expect_eq_const %r, dense<0> : tensor<ui32>
  check.expect_eq_const %p, dense<0> : tensor<ui32>
  %x = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %sum = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>, channel_handle = #stablehlo.channel_handle<handle = 0, type = 0>} : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %sum, dense<[1, 2, 3, 4]> : tensor<4xi32>
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %g, dense<[1, 2, 3, 4]> : tensor<4xi32>
  %t = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %t, dense<[1, 2, 3, 4]> : tensor<4xi32>
  %rs = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %rs, dense<[1, 2, 3, 4]> : tensor<4xi32>
  %cp = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %cp, dense<[1, 2, 3, 4]> : tensor<4xi32>
  %cb = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const %cb, dense<[1, 2, 3, 4]> : tensor<4xi32>
  func.return
}

func.func @needs_two_processes() {
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %sum = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  func.return
}
