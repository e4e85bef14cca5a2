// Replica groups named by mesh axes run over a grid of processes: the groups are the
// devices sharing every coordinate but the named axes, ordered along the named axes
// (upstream's reference flattening). Four replicas on a 2x2 mesh, axes x then y, so
// device (x, y) is 2x + y; the values are worked out by hand.
// RUN: not qrun %s --split-input-file 2>&1 | FileCheck %s

// CHECK: PASS: @main
// CHECK: FAIL: @main
// CHECK-NEXT: mesh-axes-groups.mlir:[[# @LINE + 66]]:{{[0-9]+}}: error: 'stablehlo.all_reduce' replica_groups name a sub-axis of 'x'; sub-axes cannot be expanded into groups
// CHECK: FAIL: @main
// CHECK-NEXT: mesh-axes-groups.mlir:[[# @LINE + 85]]:{{[0-9]+}}: error: 'stablehlo.all_reduce' mesh symbol 'plain' carries no #stablehlo.mesh attribute

module @mesh_2x2 {
  func.func private @grid() attributes {mesh = #stablehlo.mesh<axes = [<name = "x", size = 2>, <name = "y", size = 2>]>}
  func.func @step(%v: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>) {
    // axes [x]: groups {0, 2} and {1, 3}.
    %over_x = "stablehlo.all_reduce"(%v) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [<name = "x", size = 2>, <name = "y", size = 2>]>, axes = [#stablehlo.axis_ref<name = "x">]>} : (tensor<i32>) -> tensor<i32>
    // axes [y], the mesh by symbol: groups {0, 1} and {2, 3}.
    %over_y = "stablehlo.all_reduce"(%v) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @grid, axes = [#stablehlo.axis_ref<name = "y">]>} : (tensor<i32>) -> tensor<i32>
    // device_ids [0, 2, 1, 3] put device 2 at (0, 1) and 1 at (1, 0): axes [x] now
    // groups {0, 1} and {2, 3}.
    %permuted = "stablehlo.all_reduce"(%v) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [<name = "x", size = 2>, <name = "y", size = 2>], device_ids = dense<[0, 2, 1, 3]> : tensor<4xi64>>, axes = [#stablehlo.axis_ref<name = "x">]>} : (tensor<i32>) -> tensor<i32>
    // axes [y, x]: one group ordered y-major, devices 0, 2, 1, 3.
    %v1 = stablehlo.reshape %v : (tensor<i32>) -> tensor<1xi32>
    %gathered = "stablehlo.all_gather"(%v1) {all_gather_dim = 0 : i64, replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @grid, axes = [#stablehlo.axis_ref<name = "y">, #stablehlo.axis_ref<name = "x">]>} : (tensor<1xi32>) -> tensor<4xi32>
    func.return %over_x, %over_y, %permuted, %gathered : tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>
  }
  func.func @main() {
    %d0 = stablehlo.constant dense<1> : tensor<i32>
    %d1 = stablehlo.constant dense<10> : tensor<i32>
    %d2 = stablehlo.constant dense<100> : tensor<i32>
    %d3 = stablehlo.constant dense<1000> : tensor<i32>
    %r:16 = "interpreter.run_parallel"(%d0, %d1, %d2, %d3) {programs = [[@step], [@step], [@step], [@step]]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>)
    // Replica 0.
    check.expect_eq_const %r#0, dense<101> : tensor<i32>
    check.expect_eq_const %r#1, dense<11> : tensor<i32>
    check.expect_eq_const %r#2, dense<11> : tensor<i32>
    check.expect_eq_const %r#3, dense<[1, 100, 10, 1000]> : tensor<4xi32>
    // Replica 1.
    check.expect_eq_const %r#4, dense<1010> : tensor<i32>
    check.expect_eq_const %r#5, dense<11> : tensor<i32>
    check.expect_eq_const %r#6, dense<11> : tensor<i32>
    check.expect_eq_const %r#7, dense<[1, 100, 10, 1000]> : tensor<4xi32>
    // Replica 2.
    check.expect_eq_const %r#8, dense<101> : tensor<i32>
    check.expect_eq_const %r#9, dense<1100> : tensor<i32>
    check.expect_eq_const %r#10, dense<1100> : tensor<i32>
    check.expect_eq_const %r#11, dense<[1, 100, 10, 1000]> : tensor<4xi32>
    // Replica 3.
    check.expect_eq_const %r#12, dense<1010> : tensor<i32>
    check.expect_eq_const %r#13, dense<1100> : tensor<i32>
    check.expect_eq_const %r#14, dense<1100> : tensor<i32>
    check.expect_eq_const %r#15, dense<[1, 100, 10, 1000]> : tensor<4xi32>
    func.return
  }
}

// -----

// A sub-axis has no expansion (upstream's reference flattening refuses it too).
module @sub_axis {
  func.func @step(%v: tensor<i32>) -> tensor<i32> {
    %r = "stablehlo.all_reduce"(%v) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = #stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [<name = "x", size = 2>]>, axes = [#stablehlo.axis_ref<name = "x", sub_axis_info = (1)2>]>} : (tensor<i32>) -> tensor<i32>
    func.return %r : tensor<i32>
  }
  func.func @main() {
    %d0 = stablehlo.constant dense<1> : tensor<i32>
    %d1 = stablehlo.constant dense<10> : tensor<i32>
    %r:2 = "interpreter.run_parallel"(%d0, %d1) {programs = [[@step], [@step]]} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    func.return
  }
}

// -----

// A mesh symbol must carry the mesh to be run.
module @symbol_without_mesh {
  func.func private @plain()
  func.func @step(%v: tensor<i32>) -> tensor<i32> {
    %r = "stablehlo.all_reduce"(%v) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) {replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @plain, axes = []>} : (tensor<i32>) -> tensor<i32>
    func.return %r : tensor<i32>
  }
  func.func @main() {
    %d0 = stablehlo.constant dense<1> : tensor<i32>
    %r = "interpreter.run_parallel"(%d0) {programs = [[@step]]} : (tensor<i32>) -> tensor<i32>
    func.return
  }
}
