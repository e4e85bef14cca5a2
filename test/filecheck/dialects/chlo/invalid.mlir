// chlo's verifiers and type inference, in upstream's words.
// RUN: qopt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.broadcast_maximum' op requires compatible element types for all operands and results}}
  %0 = chlo.broadcast_maximum %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @f(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'chlo.broadcast_add' op cannot broadcast 'tensor<2xf32>', 'tensor<3xf32>'}}
  // expected-error @+1 {{'chlo.broadcast_add' op failed to infer returned types}}
  %0 = chlo.broadcast_add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @f(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xcomplex<f32>> {
  // expected-error @+2 {{'chlo.broadcast_complex' op mismatched operand types}}
  // expected-error @+1 {{'chlo.broadcast_complex' op failed to infer returned types}}
  %0 = chlo.broadcast_complex %a, %b : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

func.func @f(%a: tensor<4xi64>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.constant_like' op value's type doesn't match element return type}}
  %0 = "chlo.constant_like"(%a) {value = 3.2 : f32} : (tensor<4xi64>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @f(%a: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+2 {{'chlo.top_k' op operand's last dimension must be at least 8}}
  // expected-error @+1 {{'chlo.top_k' op failed to infer returned types}}
  %0:2 = chlo.top_k(%a, k = 8) : tensor<4xf32> -> (tensor<8xf32>, tensor<8xi32>)
  func.return %0#0 : tensor<8xf32>
}

// -----

func.func @f(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.mulhi' op operand #0 must be ranked tensor of 2/4/8/16/32/64-bit integer values, but got 'tensor<4xi1>'}}
  %0 = chlo.mulhi %a, %a : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

func.func @next_after_integers(%x: tensor<4xi32>) {
  // expected-error @+1 {{'chlo.next_after' op operand #0 must be tensor of floating-point values, but got 'tensor<4xi32>'}}
  %0 = chlo.next_after %x, %x : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  func.return
}

// -----

func.func @zeta_mixed(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error @+1 {{'chlo.zeta' op requires compatible types for all operands and results}}
  %0 = chlo.zeta %x, %y : tensor<4xf32>, tensor<4xf64> -> tensor<4xf32>
  func.return
}
