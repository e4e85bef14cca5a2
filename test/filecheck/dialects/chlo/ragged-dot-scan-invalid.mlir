// chlo.ragged_dot's and chlo.scan's verifiers and syntax errors, in upstream's order
// and words.
// RUN: qopt %s --split-input-file --verify-diagnostics

func.func @f(%lhs: tensor<2x11x5xf32>, %rhs: tensor<3x2x5x7xf32>, %sizes: tensor<11x3xi64>) -> tensor<2x11x7xf32> {
  // The lhs batch dimension (2) must lead group_sizes' shape.
  // expected-error @+1 {{'chlo.ragged_dot' op group_sizes is expected to have shape [2, 3], got [11, 3]}}
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>
  } : (tensor<2x11x5xf32>, tensor<3x2x5x7xf32>, tensor<11x3xi64>) -> tensor<2x11x7xf32>
  func.return %0 : tensor<2x11x7xf32>
}

// -----

func.func @f(%lhs: tensor<11x5xf32>, %rhs: tensor<3x5x7xf32>, %sizes: tensor<3xi64>) -> tensor<11x7xf32> {
  // expected-error @+1 {{'chlo.ragged_dot' op Expects lhs_ragged_dim to be in range [0, lhs_rank) i.e. [0, 2). got: 2.}}
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [2], rhs_group_dimensions = [0]>
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  func.return %0 : tensor<11x7xf32>
}

// -----

func.func @f(%lhs: tensor<11x5xf32>, %rhs: tensor<3x5x7xf32>, %sizes: tensor<2xi64>) -> tensor<11x7xf32> {
  // expected-error @+1 {{'chlo.ragged_dot' op rhs group dimension is expected to have size=2, got 3}}
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<11x5xf32>, tensor<3x5x7xf32>, tensor<2xi64>) -> tensor<11x7xf32>
  func.return %0 : tensor<11x7xf32>
}

// -----

func.func @f(%lhs: tensor<11x5xf32>, %rhs: tensor<5x7xf32>, %sizes: tensor<3xi64>) -> tensor<11x7xf32> {
  // A ragged contraction adds the group dimension to the result.
  // expected-error @+1 {{'chlo.ragged_dot' op inferred shape '[3, 11, 7]' is incompatible with return type of operation 'tensor<11x7xf32>'}}
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1]>
  } : (tensor<11x5xf32>, tensor<5x7xf32>, tensor<3xi64>) -> tensor<11x7xf32>
  func.return %0 : tensor<11x7xf32>
}

// -----

func.func @f(%lhs: tensor<11x5xf32>, %rhs: tensor<5x7xf32>, %sizes: tensor<3xi64>) -> tensor<3x11x7xf32> {
  // expected-error @+1 {{'chlo.ragged_dot' op expects precision config to be empty or have <= 2 elements, got 3}}
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1]>,
    precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>, #chlo<precision DEFAULT>]
  } : (tensor<11x5xf32>, tensor<5x7xf32>, tensor<3xi64>) -> tensor<3x11x7xf32>
  func.return %0 : tensor<3x11x7xf32>
}

// -----

func.func @f(%lhs: tensor<11x5xf32>, %rhs: tensor<5x7xf32>, %sizes: tensor<3xi64>) -> tensor<3x11x7xf32> {
  %0 = "chlo.ragged_dot"(%lhs, %rhs, %sizes) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_contracting_dimensions = [1],
      // expected-error @+2 {{duplicated `lhs_contracting_dimensions` entry}}
      // expected-error @+1 {{failed parsing ragged dot dimension numbers attribute}}
      lhs_contracting_dimensions = [1]>
  } : (tensor<11x5xf32>, tensor<5x7xf32>, tensor<3xi64>) -> tensor<3x11x7xf32>
  func.return %0 : tensor<3x11x7xf32>
}

// -----

func.func @f(%xs: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'chlo.scan' op attribute 'dimension' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0:2 = chlo.scan(%xs) inits(%c) dimension=-1 {
  ^bb0(%x: tensor<3xf32>, %a: tensor<3xf32>):
    stablehlo.return %x, %a : tensor<3xf32>, tensor<3xf32>
  } : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)
  func.return %0#0 : tensor<2x3xf32>
}

// -----

func.func @f(%c: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.scan' op at least one of inputs or outputs must be present}}
  %0 = chlo.scan() inits(%c) dimension=0 {
  ^bb0(%a: tensor<3xf32>):
    stablehlo.return %a : tensor<3xf32>
  } : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @f(%xs: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  // The body returns one output and one carry, so the results must be those (the
  // output with the scan dimension put back): shapes are compared, not element types.
  // expected-error @+2 {{'chlo.scan' op inferred type(s) 'tensor<2x3xf32>', 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>', 'tensor<3xf32>'}}
  // expected-error @+1 {{'chlo.scan' op failed to infer returned types}}
  %0:2 = chlo.scan(%xs) inits(%c) dimension=0 {
  ^bb0(%x: tensor<3xf32>, %a: tensor<3xf32>):
    stablehlo.return %x, %a : tensor<3xf32>, tensor<3xf32>
  } : (tensor<2x3xf32>, tensor<3xf32>) -> (tensor<2x4xf32>, tensor<3xf32>)
  func.return %0#0 : tensor<2x4xf32>
}

// -----

func.func @f(%xs: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{custom op 'chlo.scan' operand types must match the number of inputs and inits}}
  %0:2 = chlo.scan(%xs) inits(%c) dimension=0 {
  ^bb0(%x: tensor<3xf32>, %a: tensor<3xf32>):
    stablehlo.return %x, %a : tensor<3xf32>, tensor<3xf32>
  } : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)
  func.return %0#0 : tensor<2x3xf32>
}

// -----

func.func @f(%xs: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{custom op 'chlo.scan' not enough result types to cover the required carries}}
  %0 = chlo.scan(%xs) inits(%c, %c) dimension=0 {
  ^bb0(%x: tensor<3xf32>, %a: tensor<3xf32>, %b: tensor<3xf32>):
    stablehlo.return %a, %b : tensor<3xf32>, tensor<3xf32>
  } : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
