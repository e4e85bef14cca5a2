// --upstream-names: values named as mlir-opt names them, not as the input did.
// Numbers restart in every function; entry-block arguments are %argN, counted on into
// nested regions; a nested region is numbered after its parent region, from the
// counters the parent ended with (so sibling regions reuse them); constants, top_k,
// rng_bit_generator and while's loop-carried values take upstream's names, a repeat
// getting `_N` from one counter per function.
// RUN: qopt %s --upstream-names | FileCheck %s
// RUN: qopt %s --upstream-names | qopt --upstream-names | FileCheck %s

// CHECK-LABEL: func.func @reduce(%arg0: tensor<4xf32>, %arg1: tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %0 = stablehlo.reduce(%arg0 init: %arg1) across dimensions = [0]
// CHECK-NEXT: reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)
// CHECK-NEXT: %2 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
// CHECK-NEXT: %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %3 = stablehlo.add %2, %cst_1 : tensor<f32>
// CHECK: %1 = stablehlo.add %0, %0 : tensor<f32>
// CHECK-NEXT: %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %c = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT: %c_0 = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT: return %1 : tensor<f32>
func.func @reduce(%input: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  %sum = "stablehlo.reduce"(%input, %init) ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.maximum %p, %q : tensor<f32>
      %one = stablehlo.constant dense<1.0> : tensor<f32>
      %n = stablehlo.add %m, %one : tensor<f32>
      stablehlo.return %n : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %twice = stablehlo.add %sum, %sum : tensor<f32>
  %two = stablehlo.constant dense<2.0> : tensor<f32>
  %i = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.constant dense<true> : tensor<i1>
  return %twice : tensor<f32>
}

// CHECK-LABEL: func.func @others(%arg0: tensor<4xf32>, %arg1: tensor<2xui64>)
// CHECK-NEXT: %values, %indices = chlo.top_k(%arg0, k = 2)
// CHECK-NEXT: %output_state, %output = stablehlo.rng_bit_generator %arg1, algorithm = DEFAULT
// CHECK-NEXT: %0:2 = stablehlo.optimization_barrier %arg0, %values : tensor<4xf32>, tensor<2xf32>
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c-3_i32 = arith.constant -3 : i32
// CHECK-NEXT: %false = arith.constant false
// CHECK-NEXT: %cst = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %1:2 = stablehlo.while(%iterArg = %0#0, %iterArg_1 = %cst_0) : tensor<4xf32>, tensor<f32>
// CHECK-NEXT: cond {
// CHECK-NEXT: %c = stablehlo.constant dense<true> : tensor<i1>
// CHECK: } do {
// CHECK-NEXT: %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT: %2 = stablehlo.add %iterArg_1, %cst_2 : tensor<f32>
// CHECK-NEXT: stablehlo.return %iterArg, %2 : tensor<4xf32>, tensor<f32>
// CHECK: return %1#0 : tensor<4xf32>
func.func @others(%x: tensor<4xf32>, %state: tensor<2xui64>) -> tensor<4xf32> {
  %v:2 = chlo.top_k(%x, k = 2) : tensor<4xf32> -> (tensor<2xf32>, tensor<2xi32>)
  %s:2 = "stablehlo.rng_bit_generator"(%state) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)
  %o:2 = stablehlo.optimization_barrier %x, %v#0 : tensor<4xf32>, tensor<2xf32>
  %zero = arith.constant 0 : index
  %minus = arith.constant -3 : i32
  %no = arith.constant false
  %half = arith.constant 0.5 : f32
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  %w:2 = "stablehlo.while"(%o#0, %c) ({
    ^bb0(%p: tensor<4xf32>, %q: tensor<f32>):
      %k = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %k : tensor<i1>
  }, {
    ^bb0(%p: tensor<4xf32>, %q: tensor<f32>):
      %k = stablehlo.constant dense<1.0> : tensor<f32>
      %z = stablehlo.add %q, %k : tensor<f32>
      stablehlo.return %p, %z : tensor<4xf32>, tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>)
  return %w#0 : tensor<4xf32>
}
