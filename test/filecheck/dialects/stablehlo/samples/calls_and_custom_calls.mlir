// Private helpers called with `call`, sharding and other unknown dialect
// attributes (kept verbatim), custom_call with a backend config, and an
// optimization barrier.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: qopt %s | FileCheck %s
// CHECK: func.func public @main(%arg0: tensor<4x8xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> (tensor<4x8xf32> {jax.result_info = "", mhlo.sharding = "{replicated}"})
// CHECK: call @relu(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: stablehlo.custom_call @Sharding(%0) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: %{{[0-9]+}}:2 = stablehlo.optimization_barrier %1, %arg0 : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK: func.func private @relu(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32>
module @jit_sharded attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> (tensor<4x8xf32> {jax.result_info = "", mhlo.sharding = "{replicated}"}) {
    %0 = call @relu(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.custom_call @Sharding(%0) {backend_config = "", mhlo.sharding = "{replicated}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %2:2 = stablehlo.optimization_barrier %1, %arg0 : tensor<4x8xf32>, tensor<4x8xf32>
    %3 = stablehlo.add %2#0, %2#1 : tensor<4x8xf32>
    return %3 : tensor<4x8xf32>
  }
  func.func private @relu(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
}
