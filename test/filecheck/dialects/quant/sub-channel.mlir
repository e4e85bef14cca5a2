// Sub-channel (blockwise) !quant.uniform: parsed and printed byte for byte as
// upstream MLIR prints it (CHECK lines are iree-opt 3.13's output for this input).
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2

// {dimension:block size, ...} as written (not sorted), then one scale[:zero point]
// per block as a nested literal of the tensor's rank; zero points of 0 are omitted.
// CHECK: func.func private @blocks(tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{\{\{}}2.000000e+00:10, 3.000000e+00:20}, {4.000000e+00:30, 5.000000e+00:40}}>>)
func.func private @blocks(tensor<2x4x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:10, 3.0:20}, {4.0:30, 5.0:40}}>>)

// CHECK: func.func private @order(tensor<2x4x!quant.uniform<i8:f32:{1:2, 0:1}, {{\{\{}}2.000000e+00, 3.000000e+00}, {4.000000e+00, 5.000000e+00:-3}}>>)
func.func private @order(tensor<2x4x!quant.uniform<i8:f32:{1:2,0:1}, {{2.0, 3.0}, {4.0, 5.0:-3}}>>)

// No block sizes at all, a rank-1 literal, an unlisted dimension (one block), rank 3.
// CHECK: func.func private @forms(!quant.uniform<i8:f32:{}, {{\{\{}}2.000000e+00}}>, !quant.uniform<i4:f32:{0:2}, {2.000000e+00:-3, 3.000000e+00}>, !quant.uniform<u8:f32:{0:1, 1:4}, {{\{\{}}2.000000e+00:127}, {3.000000e+00:127}}>, !quant.uniform<i8<-7:7>:f16:{0:1, 1:4}, {{\{\{\{}}2.000000e+00:1}}, {{\{\{}}3.000000e+00}}}>)
func.func private @forms(!quant.uniform<i8:f32:{}, {{2.0}}>, !quant.uniform<i4:f32:{0:2}, {2.0:-3, 3.0}>, !quant.uniform<u8:f32:{0:1,1:4}, {{2.0:127}, {3.0:127}}>, !quant.uniform<i8<-7:7>:f16:{0:1,1:4}, {{{2.0:1}}, {{3.0}}}>)

// The cast ops take sub-channel types on ranked tensors with dynamic dimensions too.
// CHECK-LABEL: func.func @casts
// CHECK: quant.qcast %{{.*}} : tensor<2x?xf32> to tensor<2x?x!quant.uniform<i8:f32:{0:1, 1:2}, {{.*}}>>
// CHECK: quant.dcast %{{.*}} : tensor<2x?x!quant.uniform<i8:f32:{0:1, 1:2}, {{.*}}>> to tensor<2x?xf32>
// CHECK: quant.scast %{{.*}} : tensor<2x?x!quant.uniform<i8:f32:{0:1, 1:2}, {{.*}}>> to tensor<2x?xi8>
func.func @casts(%x: tensor<2x?xf32>) {
  %q = quant.qcast %x : tensor<2x?xf32> to tensor<2x?x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:1, 3.0}, {4.0, 5.0}}>>
  %d = quant.dcast %q : tensor<2x?x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:1, 3.0}, {4.0, 5.0}}>> to tensor<2x?xf32>
  %s = quant.scast %q : tensor<2x?x!quant.uniform<i8:f32:{0:1, 1:2}, {{2.0:1, 3.0}, {4.0, 5.0}}>> to tensor<2x?xi8>
  func.return
}
