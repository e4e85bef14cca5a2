// The region, data-movement, dynamic-shape, numeric and distribution ops print as
// stablehlo-opt prints them: pretty forms where upstream has one, generic otherwise.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s | qopt | FileCheck %s

// CHECK-LABEL: func.func @pretty
func.func @pretty(%x: tensor<2x3xf32>, %i: tensor<4xi32>, %s: tensor<2xi64>, %t: tuple<tensor<i32>>, %n: tensor<i32>) {
  // CHECK: %0 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xf32>
  %0 = "stablehlo.reverse"(%x) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %1 = stablehlo.popcnt %i : tensor<4xi32>
  %1 = "stablehlo.popcnt"(%i) : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %2 = stablehlo.count_leading_zeros %i : tensor<4xi32>
  %2 = "stablehlo.count_leading_zeros"(%i) : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %3 = stablehlo.is_finite %x : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = "stablehlo.is_finite"(%x) : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: %4 = stablehlo.reduce_precision %x, format = e5m10 : tensor<2x3xf32>
  %4 = "stablehlo.reduce_precision"(%x) {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %5 = stablehlo.tan %x : tensor<2x3xf32>
  %5 = "stablehlo.tan"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %6 = stablehlo.complex %x, %x : tensor<2x3xcomplex<f32>>
  %6 = "stablehlo.complex"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
  // CHECK: %7 = stablehlo.real %6 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  %7 = "stablehlo.real"(%6) : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  // CHECK: %8 = stablehlo.imag %x : tensor<2x3xf32>
  %8 = "stablehlo.imag"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %9 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  %9 = "stablehlo.get_dimension_size"(%x) {dimension = 1 : i64} : (tensor<2x3xf32>) -> tensor<i32>
  // CHECK: %10 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<2xi64>) -> tensor<2x3xi32>
  %10 = "stablehlo.dynamic_iota"(%s) {iota_dimension = 0 : i64} : (tensor<2xi64>) -> tensor<2x3xi32>
  // CHECK: %11 = stablehlo.dynamic_reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %11 = "stablehlo.dynamic_reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  // CHECK: %12 = stablehlo.dynamic_broadcast_in_dim %i, %s, dims = [1] : (tensor<4xi32>, tensor<2xi64>) -> tensor<2x4xi32>
  %12 = "stablehlo.dynamic_broadcast_in_dim"(%i, %s) {broadcast_dimensions = array<i64: 1>} : (tensor<4xi32>, tensor<2xi64>) -> tensor<2x4xi32>
  // CHECK: %13 = stablehlo.dynamic_update_slice %i, %i, %n : (tensor<4xi32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %13 = "stablehlo.dynamic_update_slice"(%i, %i, %n) : (tensor<4xi32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  // CHECK: %14 = stablehlo.tuple %n, %n : tuple<tensor<i32>, tensor<i32>>
  %14 = "stablehlo.tuple"(%n, %n) : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  // CHECK: %15 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<i32>>) -> tensor<i32>
  %15 = "stablehlo.get_tuple_element"(%t) {index = 0 : i32} : (tuple<tensor<i32>>) -> tensor<i32>
  // CHECK: %16 = stablehlo.replica_id : tensor<ui32>
  %16 = "stablehlo.replica_id"() : () -> tensor<ui32>
  // CHECK: %17 = stablehlo.partition_id : tensor<ui32>
  %17 = "stablehlo.partition_id"() : () -> tensor<ui32>
  // CHECK:      %18 = stablehlo.while(%iterArg = %n) : tensor<i32>
  // CHECK-NEXT: cond {
  // CHECK-NEXT:   %{{.*}} = stablehlo.compare LT, %iterArg, %iterArg : (tensor<i32>, tensor<i32>) -> tensor<i1>
  // CHECK-NEXT:   stablehlo.return %{{.*}} : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT:   stablehlo.return %iterArg : tensor<i32>
  // CHECK-NEXT: }
  %18 = "stablehlo.while"(%n) ({
  ^bb0(%iterArg: tensor<i32>):
    %c = stablehlo.compare LT, %iterArg, %iterArg : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%iterArg: tensor<i32>):
    stablehlo.return %iterArg : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  func.return
}

// CHECK-LABEL: func.func @generic
func.func @generic(%x: tensor<4xf32>, %p: tensor<i1>) {
  // CHECK: "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "stablehlo.if"(%p) ({
  %1 = "stablehlo.if"(%p) ({
    stablehlo.return %x : tensor<4xf32>
  }, {
    stablehlo.return %0 : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  // CHECK: "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<0> : tensor<1x1xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return
}
