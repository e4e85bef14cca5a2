// A two-layer MLP as jax.jit(...).lower(...).as_text() prints it: module
// attributes, public main with result_info, #loc aliases defined after use.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}

// CHECK: module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32x10xf32>, %arg4: tensor<10xf32>) -> (tensor<8x10xf32> {jax.result_info = "result"})
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// CHECK-NOT: loc(
// DEBUG: loc("jit(mlp)/jit(main)/dot_general[dimension_numbers=(([1], [0]), ([], []))]"("/tmp/mlp.py":7:11))
#loc1 = loc("x")
#loc2 = loc("w1")
module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32> loc("x"), %arg1: tensor<16x32xf32> loc("w1"), %arg2: tensor<32xf32> loc("b1"), %arg3: tensor<32x10xf32> loc("w2"), %arg4: tensor<10xf32> loc("b2")) -> (tensor<8x10xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32> loc(#loc8)
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32> loc(#loc9)
    %2 = stablehlo.add %0, %1 : tensor<8x32xf32> loc(#loc9)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32> loc(#loc)
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32> loc(#loc10)
    %4 = stablehlo.maximum %2, %3 : tensor<8x32xf32> loc(#loc10)
    %5 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x10xf32>) -> tensor<8x10xf32> loc(#loc11)
    %6 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<10xf32>) -> tensor<8x10xf32> loc(#loc12)
    %7 = stablehlo.add %5, %6 : tensor<8x10xf32> loc(#loc12)
    return %7 : tensor<8x10xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc3 = loc("/tmp/mlp.py":7:11)
#loc4 = loc("/tmp/mlp.py":7:22)
#loc5 = loc("/tmp/mlp.py":8:9)
#loc6 = loc("/tmp/mlp.py":9:11)
#loc7 = loc("/tmp/mlp.py":9:22)
#loc8 = loc("jit(mlp)/jit(main)/dot_general[dimension_numbers=(([1], [0]), ([], []))]"(#loc3))
#loc9 = loc("jit(mlp)/jit(main)/add"(#loc4))
#loc10 = loc("jit(mlp)/jit(main)/max"(#loc5))
#loc11 = loc("jit(mlp)/jit(main)/dot_general[dimension_numbers=(([1], [0]), ([], []))]"(#loc6))
#loc12 = loc("jit(mlp)/jit(main)/add"(#loc7))
