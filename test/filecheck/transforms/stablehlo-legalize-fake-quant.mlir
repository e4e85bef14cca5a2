// Composite quantization points (what qdialect.qat exports) as uniform_quantize /
// uniform_dequantize; then the QDQ program folds to quantized ops as any other.
// RUN: qopt %s -p stablehlo-legalize-fake-quant | FileCheck %s
// RUN: qopt %s -p stablehlo-legalize-fake-quant,stablehlo-legalize-qdq-to-quantized-op | FileCheck %s --check-prefix=INT
// RUN: qopt %s -p stablehlo-legalize-fake-quant,stablehlo-legalize-qdq-to-quantized-op,stablehlo-legalize-to-tosa,canonicalize | FileCheck %s --check-prefix=TOSA
// RUN: qopt %S/Inputs/stablehlo-legalize-fake-quant-invalid.mlir -p stablehlo-legalize-fake-quant --split-input-file --verify-diagnostics
//
// The input (scale 0.5, zero point 3) quantizes as it flows; the i8 weights (per output
// channel, in a dequantize composite) become a quantized constant; the bias, a broadcast
// int32 constant with per-axis parameters along the broadcast's dimension 3, becomes a
// quantized [2] constant along its own dimension 0, broadcast; the output point reading
// the i32 sum's dequantization requantizes it directly, into a type whose storage range
// [3, 127] is the ReLU folded in. The decompositions and JAX's hoisted constant go.

// CHECK-LABEL: func.func public @main
// CHECK-NEXT: %[[X:.*]] = stablehlo.uniform_quantize %arg0 : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1x!quant.uniform<i8:f32, 5.000000e-01:3>>
// CHECK-NEXT: %[[XD:.*]] = stablehlo.uniform_dequantize %[[X]]
// CHECK-NEXT: %[[W:.*]] = stablehlo.constant() <{value = dense<{{\[\[\[\[}}6, -7]]]]> : tensor<1x1x1x2xi8>}> : () -> tensor<1x1x1x2x!quant.uniform<i8<-8:7>:f32:3, {2.500000e-01,1.250000e-01}>>
// CHECK-NEXT: %[[WD:.*]] = stablehlo.uniform_dequantize %[[W]]
// CHECK-NEXT: %[[C:.*]] = stablehlo.convolution(%[[XD]], %[[WD]])
// CHECK-NEXT: %[[ACC:.*]] = stablehlo.uniform_quantize %[[C]] : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.250000e-01,6.250000e-02}>>
// CHECK-NEXT: %[[ACCD:.*]] = stablehlo.uniform_dequantize %[[ACC]]
// CHECK-NEXT: %[[B:.*]] = stablehlo.constant() <{value = dense<[4, -2]> : tensor<2xi32>}> : () -> tensor<2x!quant.uniform<i32:f32:0, {1.250000e-01,6.250000e-02}>>
// CHECK-NEXT: %[[BB:.*]] = stablehlo.broadcast_in_dim %[[B]], dims = [3] : (tensor<2x!quant.uniform<i32:f32:0, {{.*}}>>) -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.250000e-01,6.250000e-02}>>
// CHECK-NEXT: %[[BD:.*]] = stablehlo.uniform_dequantize %[[BB]]
// CHECK-NEXT: %[[SUM:.*]] = stablehlo.add %[[ACCD]], %[[BD]]
// CHECK-NEXT: %[[SQ:.*]] = stablehlo.uniform_quantize %[[SUM]] : {{.*}} -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.250000e-01,6.250000e-02}>>
// CHECK-NEXT: %[[OUT:.*]] = stablehlo.uniform_quantize %[[SQ]] : {{.*}} -> tensor<1x2x2x2x!quant.uniform<i8<3:127>:f32, 2.500000e-01:3>>
// CHECK-NEXT: %[[OUTD:.*]] = stablehlo.uniform_dequantize %[[OUT]]
// CHECK-NEXT: return %[[OUTD]]
// CHECK-NOT: func.func

// INT: %[[C:.*]] = stablehlo.convolution(%{{.*}}, %{{.*}}) {{.*}} -> tensor<1x2x2x2x!quant.uniform<i32:f32:3, {1.250000e-01,6.250000e-02}>>
// INT: %[[SUM:.*]] = stablehlo.add %[[C]], %{{.*}} : tensor<1x2x2x2x!quant.uniform<i32:f32:3,
// INT: stablehlo.uniform_quantize %[[SUM]] {{.*}} -> tensor<1x2x2x2x!quant.uniform<i8<3:127>:f32, 2.500000e-01:3>>

// A rescale saturates to i8; the output type's storage range [3, 127] is a clamp after it.
// TOSA: %[[R:.*]] = tosa.rescale
// TOSA-NEXT: %[[CL:.*]] = tosa.clamp %[[R]] min_val(3 : i8) max_val(127 : i8)
// TOSA-NEXT: stablehlo.bitcast_convert %[[CL]] {{.*}} -> tensor<1x2x2x2x!quant.uniform<i8<3:127>:f32, 2.500000e-01:3>>

func.func public @main(%arg0: tensor<1x2x2x1xf32>) -> tensor<1x2x2x2xf32> {
  %hoisted = stablehlo.constant dense<[0.25, 0.125]> : tensor<2xf32>
  %x = stablehlo.composite "qdialect.fake_quant" %arg0 {composite_attributes = {scale = dense<0.5> : tensor<1xf64>, zero_point = dense<3> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @fq} : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %wi = stablehlo.constant dense<[[[[6, -7]]]]> : tensor<1x1x1x2xi8>
  %w = stablehlo.composite "qdialect.dequantize" %hoisted, %wi {composite_attributes = {scale = dense<[0.25, 0.125]> : tensor<2xf64>, zero_point = dense<0> : tensor<2xi64>, storage_min = -8 : i64, storage_max = 7 : i64, storage_bits = 8 : i64, axis = 3 : i64}, decomposition = @dq} : (tensor<2xf32>, tensor<1x1x1x2xi8>) -> tensor<1x1x1x2xf32>
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x2x1xf32>, tensor<1x1x1x2xf32>) -> tensor<1x2x2x2xf32>
  %acc = stablehlo.composite "qdialect.fake_quant" %c {composite_attributes = {scale = dense<[0.125, 0.0625]> : tensor<2xf64>, zero_point = dense<0> : tensor<2xi64>, storage_min = -2147483648 : i64, storage_max = 2147483647 : i64, storage_bits = 32 : i64, axis = 3 : i64}, decomposition = @fq2} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %bi = stablehlo.constant dense<[4, -2]> : tensor<2xi32>
  %bb = stablehlo.broadcast_in_dim %bi, dims = [3] : (tensor<2xi32>) -> tensor<1x2x2x2xi32>
  %b = stablehlo.composite "qdialect.dequantize" %bb {composite_attributes = {scale = dense<[0.125, 0.0625]> : tensor<2xf64>, zero_point = dense<0> : tensor<2xi64>, storage_min = -2147483648 : i64, storage_max = 2147483647 : i64, storage_bits = 32 : i64, axis = 3 : i64}, decomposition = @dq_bias} : (tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xf32>
  %sum = stablehlo.add %acc, %b : tensor<1x2x2x2xf32>
  %s = stablehlo.composite "qdialect.fake_quant" %sum {composite_attributes = {scale = dense<[0.125, 0.0625]> : tensor<2xf64>, zero_point = dense<0> : tensor<2xi64>, storage_min = -2147483648 : i64, storage_max = 2147483647 : i64, storage_bits = 32 : i64, axis = 3 : i64}, decomposition = @fq2} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %out = stablehlo.composite "qdialect.fake_quant" %s {composite_attributes = {scale = dense<0.25> : tensor<1xf64>, zero_point = dense<3> : tensor<1xi64>, storage_min = 3 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @fq2} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %out : tensor<1x2x2x2xf32>
}
// Stand-ins for the decompositions (JAX writes the arithmetic; the pass never reads it).
func.func private @fq(%x: tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32> {
  return %x : tensor<1x2x2x1xf32>
}
func.func private @fq2(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  return %x : tensor<1x2x2x2xf32>
}
func.func private @dq(%s: tensor<2xf32>, %x: tensor<1x1x1x2xi8>) -> tensor<1x1x1x2xf32> {
  %0 = func.call @helper(%x) : (tensor<1x1x1x2xi8>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}
func.func private @helper(%x: tensor<1x1x1x2xi8>) -> tensor<1x1x1x2xf32> {
  %0 = stablehlo.convert %x : (tensor<1x1x1x2xi8>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}
func.func private @dq_bias(%x: tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xf32> {
  %0 = stablehlo.convert %x : (tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
