// Reductions: sum and max over several dimensions (compact form), a general
// body, and a two-output argmax-style reduce.
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: qopt %s | FileCheck %s
// CHECK: applies stablehlo.add across dimensions = [0, 2]
// CHECK: applies stablehlo.maximum across dimensions = [1]
// CHECK: %{{[0-9]+}}:2 = stablehlo.reduce(%arg0 init: %{{.*}}), (%{{.*}} init: %{{.*}}) across dimensions = [1]
// CHECK-NEXT: reducer(%{{.*}}: tensor<f32>, %{{.*}}: tensor<f32>) (%{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>)  {
func.func @reductions(%arg0: tensor<4x5x6xf32>) -> (tensor<5xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xi32>) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 2] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<5xf32>
  %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<4x6xf32>
  %2 = stablehlo.iota dim = 1 : tensor<4x5x6xi32>
  %3:2 = stablehlo.reduce(%arg0 init: %cst_0), (%2 init: %c) across dimensions = [1] : (tensor<4x5x6xf32>, tensor<4x5x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x6xf32>, tensor<4x6xi32>)
   reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
    %4 = stablehlo.compare  GT, %arg1, %arg3,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
    %6 = stablehlo.select %4, %arg2, %arg4 : tensor<i1>, tensor<i32>
    stablehlo.return %5, %6 : tensor<f32>, tensor<i32>
  }
  return %0, %1, %3#0, %3#1 : tensor<5xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xi32>
}
