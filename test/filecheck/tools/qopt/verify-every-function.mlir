// MLIR verifies each function (each op isolated from above) on its own, so every
// function's first error is reported, not only the file's first. Symbol uses (a mesh a
// collective names) are checked only once every op has verified, as MLIR's symbol table
// does: with another error in the file, a missing mesh is not reported.
// RUN: qopt %s --split-input-file --verify-diagnostics
// RUN: not qopt %s --split-input-file 2>&1 | filecheck %s

// CHECK: verify-every-function.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.reverse' op requires the same element type for all operands and results
func.func @first(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reverse' op requires the same element type for all operands and results}}
  %0 = stablehlo.reverse %x, dims = [0] : (tensor<4xf32>) -> tensor<4xf64>
  func.return
}

func.func @fine(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}

// CHECK: verify-every-function.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.add' op operand #0 must be ranked tensor of
func.func @second(%x: memref<4xf32>) {
  // expected-error-re @+1 {{'stablehlo.add' op operand #0 must be ranked tensor of {{.*}}, but got 'memref<4xf32>'}}
  %0 = "stablehlo.add"(%x, %x) : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>
  func.return
}

// Not reported: the functions above failed, so symbol uses are not checked.
// CHECK-NOT: mesh symbol 'nowhere'
func.func @mesh_missing(%x: tensor<16x8xf32>) -> tensor<16x16xf32> {
  %0 = "stablehlo.all_gather"(%x) {
    all_gather_dim = 1 : i64,
    replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @nowhere, axes = [0 : i64]>,
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>
  } : (tensor<16x8xf32>) -> tensor<16x16xf32>
  func.return %0 : tensor<16x16xf32>
}

// -----

// CHECK: error: 'stablehlo.all_gather' op replica_groups: mesh symbol 'elsewhere' not found
func.func @only_mesh_missing(%x: tensor<16x8xf32>) -> tensor<16x16xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op replica_groups: mesh symbol 'elsewhere' not found}}
  %0 = "stablehlo.all_gather"(%x) {
    all_gather_dim = 1 : i64,
    replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @elsewhere, axes = [0 : i64]>,
    channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>
  } : (tensor<16x8xf32>) -> tensor<16x16xf32>
  func.return %0 : tensor<16x16xf32>
}
