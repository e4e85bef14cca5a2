// The chlo ops parse in upstream's generic and pretty forms, print in the pretty ones, and
// the output parses back to itself.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s | qopt | FileCheck %s

// CHECK-LABEL: func.func @broadcasting
// CHECK: chlo.broadcast_add %{{.*}}, %{{.*}} {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: chlo.broadcast_compare %{{.*}}, %{{.*}} {comparison_direction = #chlo<comparison_direction GT>} : (tensor<?xf32>, tensor<2x1xf32>) -> tensor<2x?xi1>
// CHECK: chlo.broadcast_select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x?xi1>, tensor<f32>, tensor<2x1xf32>) -> tensor<2x?xf32>
// CHECK: chlo.broadcast_complex %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f32>>
func.func @broadcasting(%v: tensor<3xf32>, %m: tensor<2x3xf32>, %d: tensor<?xf32>, %c: tensor<2x1xf32>, %s: tensor<f32>) -> tensor<2x?xf32> {
  %0 = "chlo.broadcast_add"(%v, %m) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_compare %d, %c {comparison_direction = #chlo<comparison_direction GT>} : (tensor<?xf32>, tensor<2x1xf32>) -> tensor<2x?xi1>
  %2 = chlo.broadcast_select %1, %s, %c : (tensor<2x?xi1>, tensor<f32>, tensor<2x1xf32>) -> tensor<2x?xf32>
  %3 = chlo.broadcast_complex %v, %v : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f32>>
  func.return %2 : tensor<2x?xf32>
}

// CHECK-LABEL: func.func @special
// CHECK: chlo.erf_inv %{{.*}} : tensor<4xf32> -> tensor<4xf32>
// CHECK: chlo.is_inf %{{.*}} : tensor<4xf32> -> tensor<4xi1>
// CHECK: %{{.*}}:2 = chlo.top_k(%{{.*}}, k = 2) : tensor<3x4xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
// CHECK: chlo.mulhi %{{.*}}, %{{.*}} : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK: chlo.constant dense<1> : tensor<i32>
// CHECK: "chlo.constant_like"(%{{.*}}) <{value = 2.500000e+00 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
func.func @special(%x: tensor<4xf32>, %m: tensor<3x4xf32>, %i: tensor<4xi32>) {
  %0 = "chlo.erf_inv"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = chlo.is_inf %x : tensor<4xf32> -> tensor<4xi1>
  %2:2 = chlo.top_k(%m, k=2) : tensor<3x4xf32> -> (tensor<3x2xf32>, tensor<3x2xi32>)
  %3 = "chlo.mulhi"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = "chlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %5 = "chlo.constant_like"(%x) {value = 2.5 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}

// The elementwise binary ops without broadcasting print `%x, %y : X, Y -> R`.
// CHECK-LABEL: func.func @binary
// CHECK: chlo.next_after %x, %y : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
// CHECK: chlo.polygamma %x, %y : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
// CHECK: chlo.zeta %x, %y : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
func.func @binary(%x: tensor<4xf64>, %y: tensor<4xf64>) {
  %0 = "chlo.next_after"(%x, %y) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %1 = chlo.polygamma %x, %y : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  %2 = chlo.zeta %x, %y : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  func.return
}
