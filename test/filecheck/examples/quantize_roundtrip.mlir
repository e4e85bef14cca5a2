// The README's example command: CSE merges the duplicate qcast, canonicalize
// erases the unused dcast (quant casts have no side effects).
// RUN: qopt --pass-pipeline='builtin.module(canonicalize,cse)' %S/../../../examples/quantize_roundtrip.mlir | FileCheck %s

// CHECK-LABEL: func.func @activations
// CHECK-NEXT:    %q = quant.qcast %x : tensor<1x4xf32> to tensor<1x4x!quant.uniform<i8:f32, 0.0078431372549019607:-3>>
// CHECK-NEXT:    %s = quant.scast %q
// CHECK-NEXT:    %d = quant.dcast %q
// CHECK-NEXT:    return %s, %d
// CHECK-LABEL: func.func @weights
// CHECK-NEXT:    %q = quant.scast %w : tensor<3x4xi8> to tensor<3x4x!quant.uniform<i8<-127:127>:f32:1, {2.000000e-02,1.500000e-02,1.250000e-02,1.000000e-02}>>
// CHECK-NEXT:    %d = quant.dcast %q
// CHECK-NEXT:    return %d
