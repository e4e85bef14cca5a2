// Every op a lowering creates takes the name of the op it lowers (`InheritLocation`),
// so the source model's tensor names survive to TOSA and the NPU's layer map, where
// qcompare matches tensors across stages (docs/debugging.md).
// RUN: qopt %s -p 'stablehlo-legalize-qdq-to-quantized-op,stablehlo-legalize-to-tosa,canonicalize' --mlir-print-debuginfo | FileCheck %s
// RUN: qopt %s -p 'stablehlo-legalize-qdq-to-quantized-op,stablehlo-legalize-to-tosa,canonicalize,tosa-to-npu' | FileCheck %s --check-prefix=MAP

!a = !quant.uniform<i8:f32, 0.05>
!w = !quant.uniform<i8<-127:127>:f32, 0.01>
!s = !quant.uniform<i8:f32, 0.1>

// CHECK-LABEL: func.func @main
// CHECK: tosa.conv2d {{.*}} loc("conv1")
// CHECK: tosa.rescale {{.*}} loc("conv1")
// CHECK: tosa.rescale {{.*}} loc("add1")
// CHECK: tosa.rescale {{.*}} loc("add1")
// CHECK: tosa.add {{.*}} loc("add1")
// CHECK: tosa.rescale {{.*}} loc("add1")
// CHECK-NOT: loc(unknown)
// CHECK: return

// The layer map names the layer computing each tensor.
// MAP: npu.layers = "[{\22name\22: \22conv1\22, \22code\22: [0, [[END:[0-9]+]]], {{.*}}}, {\22name\22: \22add1\22, \22code\22: {{\[}}[[END]],
func.func @main(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8> {
  %xq = stablehlo.bitcast_convert %x : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2x!a> loc("input")
  %xd = stablehlo.uniform_dequantize %xq : (tensor<1x4x4x2x!a>) -> tensor<1x4x4x2xf32> loc("input")
  %wq = stablehlo.constant() {value = dense<[[[[10, -20], [30, 40]]]]> : tensor<1x1x2x2xi8>} : () -> tensor<1x1x2x2x!w> loc("conv1")
  %wd = stablehlo.uniform_dequantize %wq : (tensor<1x1x2x2x!w>) -> tensor<1x1x2x2xf32> loc("conv1")
  %c = stablehlo.convolution(%xd, %wd) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32> loc("conv1")
  %cq = stablehlo.uniform_quantize %c : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2x!s> loc("conv1")
  %cd = stablehlo.uniform_dequantize %cq : (tensor<1x4x4x2x!s>) -> tensor<1x4x4x2xf32> loc("conv1")
  %s = stablehlo.add %cd, %xd : tensor<1x4x4x2xf32> loc("add1")
  %sq = stablehlo.uniform_quantize %s : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2x!s> loc("add1")
  %out = stablehlo.bitcast_convert %sq : (tensor<1x4x4x2x!s>) -> tensor<1x4x4x2xi8> loc("add1")
  return %out : tensor<1x4x4x2xi8> loc("add1")
}
