// What stablehlo-legalize-quant-to-math cannot lower is an error naming the op, at the op.
// RUN: qopt %s --split-input-file --verify-diagnostics -p stablehlo-legalize-quant-to-math
// RUN: not qopt %s --split-input-file -p stablehlo-legalize-quant-to-math 2>&1 | FileCheck %s --check-prefix=ONELINE
// ONELINE-NOT: Traceback

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @dynamic_quantize(%x: tensor<?x4xf32>) -> tensor<?x4x!q> {
  // expected-error @+1 {{'stablehlo.uniform_quantize' op has the non-static type tensor<?x4xf32>; stablehlo-legalize-quant-to-math needs static shapes}}
  %0 = stablehlo.uniform_quantize %x : (tensor<?x4xf32>) -> tensor<?x4x!q>
  func.return %0 : tensor<?x4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @dynamic_dequantize(%q: tensor<?x!q>) -> tensor<?xf32> {
  // expected-error @+1 {{'stablehlo.uniform_dequantize' op has the non-static type tensor<?xi8>; stablehlo-legalize-quant-to-math needs static shapes}}
  %0 = stablehlo.uniform_dequantize %q : (tensor<?x!q>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @dynamic_add(%a: tensor<?x!q>) -> tensor<?x!q> {
  // expected-error @+1 {{'stablehlo.add' op has the non-static type}}
  %0 = stablehlo.add %a, %a : tensor<?x!q>
  func.return %0 : tensor<?x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @dynamic_dot(%x: tensor<?x4x!q>, %w: tensor<4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<?x2x!quant.uniform<i8:f32, 1.0>> {
  // expected-error @+1 {{'stablehlo.dot_general' op has the non-static type}}
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<?x4x!q>, tensor<4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<?x2x!quant.uniform<i8:f32, 1.0>>
  func.return %0 : tensor<?x2x!quant.uniform<i8:f32, 1.0>>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @reduce(%a: tensor<4x!q>, %z: tensor<!q>) -> tensor<!q> {
  // expected-error @+1 {{'stablehlo.reduce' op with quantized types cannot be lowered by stablehlo-legalize-quant-to-math (it has a region; apply it to dequantized values instead)}}
  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<4x!q>, tensor<!q>) -> tensor<!q>
  func.return %0 : tensor<!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @reduce_window(%a: tensor<4x!q>, %z: tensor<!q>) -> tensor<2x!q> {
  // expected-error @+1 {{'stablehlo.reduce_window' op with quantized types cannot be lowered}}
  %0 = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%x: tensor<!q>, %y: tensor<!q>):
    %1 = stablehlo.maximum %x, %y : tensor<!q>
    stablehlo.return %1 : tensor<!q>
  }) : (tensor<4x!q>, tensor<!q>) -> tensor<2x!q>
  func.return %0 : tensor<2x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @custom_call(%a: tensor<4x!q>) -> tensor<4x!q> {
  // expected-error @+1 {{'stablehlo.custom_call' op with quantized types is not supported by stablehlo-legalize-quant-to-math}}
  %0 = stablehlo.custom_call @my.kernel(%a) : (tensor<4x!q>) -> tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @iota() -> tensor<4x!q> {
  // expected-error @+1 {{'stablehlo.iota' op with quantized types is not supported by stablehlo-legalize-quant-to-math}}
  %0 = stablehlo.iota dim = 0 : tensor<4x!q>
  func.return %0 : tensor<4x!q>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @bitcast(%a: tensor<4x!q>) -> tensor<4xi8> {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op with quantized types is not supported by stablehlo-legalize-quant-to-math}}
  %0 = stablehlo.bitcast_convert %a : (tensor<4x!q>) -> tensor<4xi8>
  func.return %0 : tensor<4xi8>
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @qcast_scalar(%x: f32) -> !q {
  // expected-error @+1 {{'quant.qcast' op has the non-static type f32; stablehlo-legalize-quant-to-math needs static shapes}}
  %0 = quant.qcast %x : f32 to !q
  func.return %0 : !q
}

// -----

// Sub-channel types: only quantize, dequantize, constants and data movement.
func.func @sub_channel_other_op(%a: tensor<3x4x!quant.uniform<i8:f32:{1:2}, {{0.5:1, 0.25}}>>) -> tensor<3x4xi8> {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op on a sub-channel quantized type is not supported by stablehlo-legalize-quant-to-math}}
  %0 = stablehlo.bitcast_convert %a : (tensor<3x4x!quant.uniform<i8:f32:{1:2}, {{0.5:1, 0.25}}>>) -> tensor<3x4xi8>
  func.return %0 : tensor<3x4xi8>
}
