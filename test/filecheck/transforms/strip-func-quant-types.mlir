// strip-func-quant-types: function arguments and results of quantized types take their
// storage types; quant.scast converts at the boundary (arguments at the entry block's
// start, returned values and call operands right after their definition, call results
// right after the call), so the body still computes on quantized types.
// RUN: qopt %s --split-input-file -p strip-func-quant-types | FileCheck %s
// RUN: qopt %s --split-input-file -p strip-func-quant-types | qopt --split-input-file | FileCheck %s

!q8 = !quant.uniform<i8:f32, 0.5:-3>
!qa = !quant.uniform<u8:f32:1, {0.5:10, 0.25:20}>

// CHECK-LABEL: func.func @boundary(%x: tensor<2x2xi8>, %w: tensor<2x2xi8>, %f: tensor<2xf32>) -> (tensor<2x2xi8>, tensor<2xf32>)
// CHECK-NEXT: %[[W:.*]] = quant.scast %w : tensor<2x2xi8> to tensor<2x2x!quant.uniform<u8:f32:1, {5.000000e-01:10,2.500000e-01:20}>>
// CHECK-NEXT: %[[X:.*]] = quant.scast %x : tensor<2x2xi8> to tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT: %[[S:.*]] = quant.scast %[[X]] : tensor<2x2x!quant.uniform<i8:f32, 5.000000e-01:-3>> to tensor<2x2xi8>
// CHECK-NEXT: %{{.*}} = quant.dcast %[[W]]
// CHECK-NEXT: return %[[S]], %f : tensor<2x2xi8>, tensor<2xf32>
func.func @boundary(%x: tensor<2x2x!q8>, %w: tensor<2x2x!qa>, %f: tensor<2xf32>) -> (tensor<2x2x!q8>, tensor<2xf32>) {
  %d = quant.dcast %w : tensor<2x2x!qa> to tensor<2x2xf32>
  return %x, %f : tensor<2x2x!q8>, tensor<2xf32>
}

// -----

// Scalars, unranked tensors, the builtin `ui8` spelling and float storage keep their
// storage type exactly (`ui8` stays `ui8`; f8E4M3FN stays f8E4M3FN).
// CHECK-LABEL: func.func private @decl(i16, tensor<*xui8>, tensor<3xf8E4M3FN>) -> tensor<?xi8>
func.func private @decl(!quant.uniform<i16:f32, 2.0>, tensor<*x!quant.uniform<ui8:f32, 1.0>>, tensor<3x!quant.uniform<f8E4M3FN:f32, 0.5>>) -> tensor<?x!quant.uniform<i8:f32, 1.0>>

// -----

!q = !quant.uniform<i8:f32, 0.5:-3>
// CHECK-LABEL: func.func private @callee(tensor<4xi8>) -> (tensor<4xi8>, tensor<4xf32>)
func.func private @callee(tensor<4x!q>) -> (tensor<4x!q>, tensor<4xf32>)

// CHECK-LABEL: func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[Q:.*]] = quant.qcast %x
// CHECK-NEXT: %[[QS:.*]] = quant.scast %[[Q]] : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>> to tensor<4xi8>
// CHECK-NEXT: %[[R:.*]]:2 = call @callee(%[[QS]]) : (tensor<4xi8>) -> (tensor<4xi8>, tensor<4xf32>)
// CHECK-NEXT: %[[R0:.*]] = quant.scast %[[R]]#0 : tensor<4xi8> to tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NEXT: %[[D:.*]] = quant.dcast %[[R0]]
// CHECK-NEXT: stablehlo.add %[[D]], %[[R]]#1 : tensor<4xf32>
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!q>
  %r:2 = func.call @callee(%q) : (tensor<4x!q>) -> (tensor<4x!q>, tensor<4xf32>)
  %d = quant.dcast %r#0 : tensor<4x!q> to tensor<4xf32>
  %a = stablehlo.add %d, %r#1 : tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Nothing quantized at the boundary: unchanged.
// CHECK-LABEL: func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[Q:.*]] = quant.qcast
// CHECK-NEXT: %[[D:.*]] = quant.dcast %[[Q]]
// CHECK-NEXT: return %[[D]] : tensor<4xf32>
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %q = quant.qcast %x : tensor<4xf32> to tensor<4x!quant.uniform<i8:f32, 0.5>>
  %d = quant.dcast %q : tensor<4x!quant.uniform<i8:f32, 0.5>> to tensor<4xf32>
  return %d : tensor<4xf32>
}
