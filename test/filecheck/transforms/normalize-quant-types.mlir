// normalize-quant-types: sub-channel types with one block, or blocks along one
// dimension of one element each, become per-tensor / per-axis types, everywhere.
// RUN: qopt %s --split-input-file -p normalize-quant-types | FileCheck %s

// CHECK-LABEL: func.func private @callee(tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>, tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>) -> tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>
// CHECK-LABEL: func.func @to_per_tensor(%a: tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>, %b: tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>)
// CHECK: call @callee(%a, %b) : (tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>, tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>) -> tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>>
// CHECK: quant.dcast %{{.*}} : tensor<?x?x!quant.uniform<i8:f32, 2.000000e+00:127>> to tensor<?x?xf32>
!one = !quant.uniform<i8:f32:{}, {{2.0:127}}>
!blocks = !quant.uniform<i8:f32:{0:1,1:4}, {{2.0:127}}>
func.func private @callee(tensor<?x?x!one>, tensor<?x?x!blocks>) -> tensor<?x?x!one>
func.func @to_per_tensor(%a: tensor<?x?x!one>, %b: tensor<?x?x!blocks>) -> tensor<?x?xf32> {
  %0 = func.call @callee(%a, %b) : (tensor<?x?x!one>, tensor<?x?x!blocks>) -> tensor<?x?x!one>
  %1 = quant.dcast %0 : tensor<?x?x!one> to tensor<?x?xf32>
  func.return %1 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @to_per_axis(%a: tensor<2x8x!quant.uniform<i8:f32:0, {2.000000e+00:127,3.000000e+00:127}>>)
// CHECK: quant.dcast %a : tensor<2x8x!quant.uniform<i8:f32:0, {2.000000e+00:127,3.000000e+00:127}>> to tensor<2x8xf32>
func.func @to_per_axis(%a: tensor<2x8x!quant.uniform<i8:f32:{0:1,1:8}, {{2.0:127}, {3.0:127}}>>) -> tensor<2x8xf32> {
  %0 = quant.dcast %a : tensor<2x8x!quant.uniform<i8:f32:{0:1,1:8}, {{2.0:127}, {3.0:127}}>> to tensor<2x8xf32>
  func.return %0 : tensor<2x8xf32>
}

// -----

// Blocks along two dimensions, or blocks longer than one element, stay sub-channel.
// CHECK-LABEL: func.func @kept
// CHECK-SAME: tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{\{\{}}2.000000e+00, 1.000000e+00}, {3.000000e+00, 5.000000e+00}}>>
// CHECK-SAME: tensor<4x3x!quant.uniform<i8:f32:{0:2}, {{\{\{}}2.000000e+00}, {3.000000e+00}}>>
func.func @kept(%a: tensor<2x4x!quant.uniform<i8:f32:{0:1,1:2}, {{2.0, 1.0}, {3.0, 5.0}}>>, %b: tensor<4x3x!quant.uniform<i8:f32:{0:2}, {{2.0}, {3.0}}>>) {
  func.return
}
