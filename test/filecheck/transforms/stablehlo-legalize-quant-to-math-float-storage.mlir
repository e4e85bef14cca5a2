// Float storage types (f8E5M2, f8E4M3FN, f4E2M1FN) in stablehlo-legalize-quant-to-math:
// quantize divides, adds the zero point (always: + 0.0 turns -0.0 into +0.0, a different
// stored value), clamps to the storage range and converts to the storage type, whose
// conversion rounds to nearest even (no round_nearest_even); f4E2M1FN has no NaN, so NaN
// is first replaced by 0. Dequantize is the integer formula on the float storage values.
// RUN: qopt %s --split-input-file -p stablehlo-legalize-quant-to-math | FileCheck %s

// CHECK-LABEL: func.func @qcast_f8(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN>
// CHECK: %[[D:.*]] = stablehlo.divide %x, %{{.*}} : tensor<4xf32>
// CHECK: %[[A:.*]] = stablehlo.add %[[D]], %{{.*}} : tensor<4xf32>
// CHECK: %[[C:.*]] = stablehlo.clamp %{{.*}}, %[[A]], %{{.*}} : tensor<4xf32>
// CHECK-NOT: round_nearest_even
// CHECK: %[[Q:.*]] = stablehlo.convert %[[C]] : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
// CHECK: return %[[Q]] : tensor<4xf8E4M3FN>
func.func @qcast_f8(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<f8E4M3FN:f32, 0.5>> {
  %0 = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<f8E4M3FN:f32, 0.5>>
  return %0 : tensor<4x!quant.uniform<f8E4M3FN:f32, 0.5>>
}

// -----

// CHECK-LABEL: func.func @qcast_f4(%x: tensor<4xf32>) -> tensor<4xf4E2M1FN>
// CHECK: %[[C:.*]] = stablehlo.clamp
// CHECK: %[[NAN:.*]] = stablehlo.compare NE, %[[C]], %[[C]], FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[S:.*]] = stablehlo.select %[[NAN]], %{{.*}}, %[[C]] : tensor<4xi1>, tensor<4xf32>
// CHECK: stablehlo.convert %[[S]] : (tensor<4xf32>) -> tensor<4xf4E2M1FN>
func.func @qcast_f4(%x: tensor<4xf32>) -> tensor<4x!quant.uniform<f4E2M1FN:f32, 0.25>> {
  %0 = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<f4E2M1FN:f32, 0.25>>
  return %0 : tensor<4x!quant.uniform<f4E2M1FN:f32, 0.25>>
}

// -----

// CHECK-LABEL: func.func @dcast(%q: tensor<2xf8E5M2>) -> tensor<2xf32>
// CHECK: %[[F:.*]] = stablehlo.convert %q : (tensor<2xf8E5M2>) -> tensor<2xf32>
// CHECK: %[[C:.*]] = stablehlo.subtract %[[F]], %{{.*}} : tensor<2xf32>
// CHECK: stablehlo.multiply %[[C]], %{{.*}} : tensor<2xf32>
func.func @dcast(%q: tensor<2x!quant.uniform<f8E5M2:f32:0, {0.5:2, 4.0}>>) -> tensor<2xf32> {
  %0 = quant.dcast %q : tensor<2x!quant.uniform<f8E5M2:f32:0, {0.5:2, 4.0}>> to tensor<2xf32>
  return %0 : tensor<2xf32>
}
