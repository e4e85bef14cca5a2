// Verifier errors of the quant cast ops, each located at the op.
// RUN: qopt %s --split-input-file --verify-diagnostics

func.func @qcast_expressed_mismatch(%a: f16) {
  // expected-error @+1 {{expressed type in quantized type expected to match float type}}
  %0 = quant.qcast %a : f16 to !quant.uniform<i8:f32, 1.0>
  func.return
}

// -----

func.func @qcast_needs_quantized_result(%a: f32) {
  // expected-error @+1 {{'quant.qcast' op expects a quantized type, got i8}}
  %0 = quant.qcast %a : f32 to i8
  func.return
}

// -----

func.func @qcast_needs_float_input(%a: i32) {
  // expected-error @+1 {{'quant.qcast' op expects a floating-point type, got i32}}
  %0 = quant.qcast %a : i32 to !quant.uniform<i8:f32, 1.0>
  func.return
}

// -----

func.func @qcast_shape_mismatch(%a: tensor<4xf32>) {
  // expected-error @+1 {{'quant.qcast' op requires the same shape for input and result}}
  %0 = quant.qcast %a : tensor<4xf32> to tensor<5x!quant.uniform<i8:f32, 1.0>>
  func.return
}

// -----

func.func @qcast_scalar_to_tensor(%a: f32) {
  // expected-error @+1 {{'quant.qcast' op requires the same shape for input and result}}
  %0 = quant.qcast %a : f32 to tensor<1x!quant.uniform<i8:f32, 1.0>>
  func.return
}

// -----

func.func @qcast_scalar_per_axis(%a: f32) {
  // expected-error @+1 {{scalar types may not use per-axis quantization}}
  %0 = quant.qcast %a : f32 to !quant.uniform<i8:f32:0, {1.0}>
  func.return
}

// -----

func.func @dcast_expressed_mismatch(%a: !quant.uniform<i8:f32, 1.0>) {
  // expected-error @+1 {{expressed type in quantized type expected to match float type}}
  %0 = quant.dcast %a : !quant.uniform<i8:f32, 1.0> to f64
  func.return
}

// -----

func.func @dcast_needs_quantized_input(%a: f32) {
  // expected-error @+1 {{'quant.dcast' op expects a quantized type, got f32}}
  %0 = quant.dcast %a : f32 to f32
  func.return
}

// -----

func.func @scast_storage_mismatch(%a: tensor<2xi16>) {
  // expected-error @+1 {{storage type in quantized type expected to match integer type}}
  %0 = quant.scast %a : tensor<2xi16> to tensor<2x!quant.uniform<i8:f32, 1.0>>
  func.return
}

// -----

func.func @scast_two_integers(%a: tensor<2xi8>) {
  // expected-error @+1 {{'quant.scast' op casts between a quantized type and an integer type, got tensor<2xi8> to tensor<2xi8>}}
  %0 = quant.scast %a : tensor<2xi8> to tensor<2xi8>
  func.return
}

// -----

func.func @scast_float(%a: tensor<2xf32>) {
  // expected-error @+1 {{'quant.scast' op casts between a quantized type and an integer type}}
  %0 = quant.scast %a : tensor<2xf32> to tensor<2x!quant.uniform<i8:f32, 1.0>>
  func.return
}
