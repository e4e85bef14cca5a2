// canonicalize folds a quant.scast that undoes another (there and back is nothing), as
// upstream's fold does; a single scast, or two that do not return to the first type,
// stay.
// RUN: qopt %s --split-input-file -p canonicalize | FileCheck %s

// CHECK-LABEL: func.func @pair(%x: tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: return %x : tensor<4xi8>
func.func @pair(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = quant.scast %x : tensor<4xi8> to tensor<4x!quant.uniform<u8:f32, 0.5:128>>
  %1 = quant.scast %0 : tensor<4x!quant.uniform<u8:f32, 0.5:128>> to tensor<4xi8>
  return %1 : tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @single
// CHECK-NEXT: %[[C:.*]] = quant.scast %x
// CHECK-NEXT: return %[[C]]
func.func @single(%x: tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.5>> {
  %0 = quant.scast %x : tensor<4xi8> to tensor<4x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<4x!quant.uniform<i8:f32, 0.5>>
}

// -----

// Through the storage type to a different quantized type: a reinterpretation, kept.
// CHECK-LABEL: func.func @retype
// CHECK-NEXT: %[[A:.*]] = quant.scast %q
// CHECK-NEXT: %[[B:.*]] = quant.scast %[[A]]
// CHECK-NEXT: return %[[B]]
func.func @retype(%q: tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4x!quant.uniform<i8:f32, 0.25:3>> {
  %0 = quant.scast %q : tensor<4x!quant.uniform<i8:f32, 0.5>> to tensor<4xi8>
  %1 = quant.scast %0 : tensor<4xi8> to tensor<4x!quant.uniform<i8:f32, 0.25:3>>
  return %1 : tensor<4x!quant.uniform<i8:f32, 0.25:3>>
}
