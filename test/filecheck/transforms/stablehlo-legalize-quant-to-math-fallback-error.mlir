// With fallback=error (integer-only targets), every op that would need float arithmetic is an error.
// RUN: qopt %s --split-input-file --verify-diagnostics -p 'stablehlo-legalize-quant-to-math{fallback=error}'

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @multiply(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.2>>, %c: tensor<4x!quant.uniform<i32:f32, 0.001>>) {
  // expected-error @+1 {{'stablehlo.multiply' op has no exact integer lowering in stablehlo-legalize-quant-to-math (fallback=error)}}
  %0 = stablehlo.multiply %a, %a : tensor<4x!q>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @tanh(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.2>>, %c: tensor<4x!quant.uniform<i32:f32, 0.001>>) {
  // expected-error @+1 {{'stablehlo.tanh' op has no exact integer lowering in stablehlo-legalize-quant-to-math (fallback=error)}}
  %0 = stablehlo.tanh %a : tensor<4x!q>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @add_different_scales(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.2>>, %c: tensor<4x!quant.uniform<i32:f32, 0.001>>) {
  // expected-error @+1 {{'stablehlo.add' op has no exact integer lowering in stablehlo-legalize-quant-to-math (fallback=error)}}
  %0 = stablehlo.add %a, %a : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!quant.uniform<i8:f32, 0.3>>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @compare_different_types(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.2>>, %c: tensor<4x!quant.uniform<i32:f32, 0.001>>) {
  // expected-error @+1 {{'stablehlo.compare' op has no exact integer lowering in stablehlo-legalize-quant-to-math (fallback=error)}}
  %0 = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4x!q>, tensor<4x!quant.uniform<i8:f32, 0.2>>) -> tensor<4xi1>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @requantize(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.2>>, %c: tensor<4x!quant.uniform<i32:f32, 0.001>>) {
  // expected-error @+1 {{'stablehlo.uniform_quantize' op requantizes between different scales, which has no exact integer lowering in stablehlo-legalize-quant-to-math (fallback=error)}}
  %0 = stablehlo.uniform_quantize %a : (tensor<4x!q>) -> tensor<4x!quant.uniform<i8:f32, 0.3>>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @maximum_different_types(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.2>>, %c: tensor<4x!quant.uniform<i32:f32, 0.001>>) {
  // expected-error @+1 {{'stablehlo.maximum' op has no exact integer lowering in stablehlo-legalize-quant-to-math (fallback=error)}}
  %0 = stablehlo.maximum %a, %a : (tensor<4x!q>, tensor<4x!q>) -> tensor<4x!quant.uniform<i8:f32, 0.2>>
  func.return
}

// -----

!q = !quant.uniform<i8:f32, 0.1:3>
func.func @i32_add(%a: tensor<4x!q>, %b: tensor<4x!quant.uniform<i8:f32, 0.2>>, %c: tensor<4x!quant.uniform<i32:f32, 0.001>>) {
  // expected-error @+1 {{'stablehlo.add' op has no exact integer lowering in stablehlo-legalize-quant-to-math (fallback=error)}}
  %0 = stablehlo.add %c, %c : tensor<4x!quant.uniform<i32:f32, 0.001>>
  func.return
}
