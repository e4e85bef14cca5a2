// canonicalize folds a quant.scast that undoes another (there and back is nothing), as
// upstream's fold does; a single scast, or two that do not return to the first type,
// stay. A qcast of a dcast of the same type folds where the round trip is exact (integer
// storage of at most 16 bits in f32 or f64); a dcast of a qcast never folds: unlike
// upstream, qdialect keeps the quantization error it computes.
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

// -----

// CHECK-LABEL: func.func @requantize_exact
// CHECK-NEXT: return %q
func.func @requantize_exact(%q: tensor<4x!quant.uniform<u8:f32, 2.0:128>>) -> tensor<4x!quant.uniform<u8:f32, 2.0:128>> {
  %0 = quant.dcast %q : tensor<4x!quant.uniform<u8:f32, 2.0:128>> to tensor<4xf32>
  %1 = quant.qcast %0 : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 2.0:128>>
  return %1 : tensor<4x!quant.uniform<u8:f32, 2.0:128>>
}

// -----

// In bf16 (8 significant bits) the round trip is not exact: with scale 0.3, q = 255
// dequantizes to 76.5 and quantizes back to 254 (qrun shows it).
// CHECK-LABEL: func.func @requantize_bf16
// CHECK-NEXT: quant.dcast
// CHECK-NEXT: quant.qcast
func.func @requantize_bf16(%q: tensor<4x!quant.uniform<u8:bf16, 0.3:0>>) -> tensor<4x!quant.uniform<u8:bf16, 0.3:0>> {
  %0 = quant.dcast %q : tensor<4x!quant.uniform<u8:bf16, 0.3:0>> to tensor<4xbf16>
  %1 = quant.qcast %0 : tensor<4xbf16> to tensor<4x!quant.uniform<u8:bf16, 0.3:0>>
  return %1 : tensor<4x!quant.uniform<u8:bf16, 0.3:0>>
}

// -----

// Another type: a requantization, kept.
// CHECK-LABEL: func.func @requantize_other_type
// CHECK-NEXT: quant.dcast
// CHECK-NEXT: quant.qcast
func.func @requantize_other_type(%q: tensor<4x!quant.uniform<u8:f32, 2.0:128>>) -> tensor<4x!quant.uniform<u8:f32, 3.0:128>> {
  %0 = quant.dcast %q : tensor<4x!quant.uniform<u8:f32, 2.0:128>> to tensor<4xf32>
  %1 = quant.qcast %0 : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 3.0:128>>
  return %1 : tensor<4x!quant.uniform<u8:f32, 3.0:128>>
}

// -----

// The quantization error stays: qcast then dcast is not the identity.
// CHECK-LABEL: func.func @quantize_then_dequantize
// CHECK-NEXT: quant.qcast
// CHECK-NEXT: quant.dcast
func.func @quantize_then_dequantize(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<u8:f32, 2.0:128>>
  %1 = quant.dcast %0 : tensor<4x!quant.uniform<u8:f32, 2.0:128>> to tensor<4xf32>
  return %1 : tensor<4xf32>
}
