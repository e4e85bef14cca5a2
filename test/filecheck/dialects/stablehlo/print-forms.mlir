// Forms upstream prints that are easy to get wrong: an optimization_barrier without
// operands prints `()` (its attributes come first), an empty precision config still
// prints `precision = []`, a custom_call target that is not an identifier prints as a
// quoted symbol.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s | qopt | FileCheck %s

// CHECK-LABEL: func.func @forms
// CHECK: stablehlo.optimization_barrier()
// CHECK: stablehlo.optimization_barrier {tag = 1 : i32}()
// CHECK: %{{.*}} = stablehlo.optimization_barrier {tag = 2 : i32} %arg0 : tensor<3xi64>
// CHECK: stablehlo.dot %arg0, %arg0, precision = [] : (tensor<3xi64>, tensor<3xi64>) -> tensor<i64>
// CHECK: stablehlo.dot %arg0, %arg0 : (tensor<3xi64>, tensor<3xi64>) -> tensor<i64>
// CHECK: stablehlo.custom_call @"not-an-id"(%arg0) : (tensor<3xi64>) -> tensor<3xi64>
func.func @forms(%arg0: tensor<3xi64>) {
  "stablehlo.optimization_barrier"() : () -> ()
  "stablehlo.optimization_barrier"() {tag = 1 : i32} : () -> ()
  %0 = "stablehlo.optimization_barrier"(%arg0) {tag = 2 : i32} : (tensor<3xi64>) -> tensor<3xi64>
  %1 = "stablehlo.dot"(%arg0, %arg0) {precision_config = []} : (tensor<3xi64>, tensor<3xi64>) -> tensor<i64>
  %2 = "stablehlo.dot"(%arg0, %arg0) : (tensor<3xi64>, tensor<3xi64>) -> tensor<i64>
  %3 = stablehlo.custom_call @"not-an-id"(%arg0) : (tensor<3xi64>) -> tensor<3xi64>
  return
}
