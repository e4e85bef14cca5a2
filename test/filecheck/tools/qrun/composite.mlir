// stablehlo.composite runs its decomposition; it prints in upstream's form.
// RUN: qrun %s | FileCheck %s
// RUN: qopt %s | FileCheck %s --check-prefix=PRINT

// CHECK: PASS: @main
// CHECK: 1 passed, 0 failed

// PRINT: stablehlo.composite "my.add_n" %{{.*}} {composite_attributes = {n = 2 : i64}, decomposition = @add_n.impl, version = 1 : i32} : (tensor<i64>) -> tensor<i64>
// PRINT: stablehlo.composite "my.first" %{{.*}}, %{{.*}} {decomposition = @first} : (tensor<f32>, tensor<f32>) -> tensor<f32>

func.func private @add_n.impl(%arg0: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.constant dense<2> : tensor<i64>
  %1 = stablehlo.add %arg0, %0 : tensor<i64>
  func.return %1 : tensor<i64>
}

func.func private @first(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

func.func @main() {
  %0 = stablehlo.constant dense<1> : tensor<i64>
  %1 = stablehlo.composite "my.add_n" %0 {composite_attributes = {n = 2 : i64}, decomposition = @add_n.impl, version = 1 : i32} : (tensor<i64>) -> tensor<i64>
  check.expect_eq_const %1, dense<3> : tensor<i64>
  %a = stablehlo.constant dense<1.5> : tensor<f32>
  %b = stablehlo.constant dense<2.5> : tensor<f32>
  // The generic form, with the name among the attributes.
  %2 = "stablehlo.composite"(%a, %b) {name = "my.first", decomposition = @first} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  check.expect_eq_const %2, dense<1.5> : tensor<f32>
  func.return
}
