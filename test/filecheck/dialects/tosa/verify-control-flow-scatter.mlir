// tosa.cond_if, tosa.while_loop and tosa.scatter in current upstream's order and words
// (iree-opt gives the same diagnostics for this file): the graphs' arguments and results
// against the op's lists, the condition's size and type, and scatter's N, K, W, C sizes
// taken from the first operand that fixes each. A region that does not end in a
// tosa.yield is left to its block's and its last op's own checks, as upstream does.
// RUN: qopt %s --split-input-file --verify-diagnostics

func.func @if_then_arguments(%c: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tosa.cond_if' op require same number of values in 'then_graph' arguments (1) and 'input_list' (2)}}
  %0 = "tosa.cond_if"(%c, %a, %b) ({
  ^bb0(%x: tensor<f32>):
    tosa.yield %x : tensor<f32>
  }, {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    tosa.yield %y : tensor<f32>
  }) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @if_else_results(%c: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tosa.cond_if' op require same number of values in 'else_graph' results (2) and 'output_list' (1)}}
  %0 = "tosa.cond_if"(%c) ({
    tosa.yield %a : tensor<f32>
  }, {
    tosa.yield %a, %a : tensor<f32>, tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @if_condition_size(%c: tensor<2xi1>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tosa.cond_if' op 'condition' must be a size 1 tensor, got 'tensor<2xi1>'}}
  %0 = "tosa.cond_if"(%c) ({
    tosa.yield %a : tensor<f32>
  }, {
    tosa.yield %a : tensor<f32>
  }) : (tensor<2xi1>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @if_missing_terminator(%c: tensor<i1>) -> tensor<i32> {
  %0 = "tosa.cond_if"(%c) ({
    // expected-error @+1 {{block with no terminator}}
    %1 = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
  }, {
    %2 = "tosa.const"() <{values = dense<2> : tensor<i32>}> : () -> tensor<i32>
    tosa.yield %2 : tensor<i32>
  }) : (tensor<i1>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @while_body_argument_type(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'tosa.while_loop' op require same element type for 'body_graph' arguments ('f32') and 'input_list' ('i32')}}
  %0 = tosa.while_loop (%x = %a) : (tensor<i32>) -> tensor<i32> {
    %p = tosa.greater_equal %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %p : tensor<i1>
  } do {
  ^bb0(%y: tensor<f32>):
    tosa.yield %a : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @while_condition_boolean(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'tosa.while_loop' op 'cond_graph' result must be a boolean tensor, got 'tensor<i32>'}}
  %0 = tosa.while_loop (%x = %a) : (tensor<i32>) -> tensor<i32> {
    tosa.yield %x : tensor<i32>
  } do {
  ^bb0(%y: tensor<i32>):
    tosa.yield %y : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @while_in_out(%a: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'tosa.while_loop' op require same number of values in 'input_list' (1) and 'output_list' (2)}}
  %0:2 = tosa.while_loop (%x = %a) : (tensor<i32>) -> (tensor<i32>, tensor<i32>) {
    %p = tosa.greater_equal %x, %x : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %p : tensor<i1>
  } do {
  ^bb0(%y: tensor<i32>):
    tosa.yield %y : tensor<i32>
  }
  return %0#0 : tensor<i32>
}

// -----

func.func @scatter_n_from_values_in(%v: tensor<2x4x5xi32>, %i: tensor<3x2xi32>, %x: tensor<2x2x5xi32>) -> tensor<2x4x5xi32> {
  // expected-error @+1 {{'tosa.scatter' op requires indices dimension 0 to have size 2, got 3}}
  %0 = tosa.scatter %v, %i, %x : (tensor<2x4x5xi32>, tensor<3x2xi32>, tensor<2x2x5xi32>) -> tensor<2x4x5xi32>
  return %0 : tensor<2x4x5xi32>
}

// -----

func.func @scatter_n_from_input(%v: tensor<?x4x5xi32>, %i: tensor<?x2xi32>, %x: tensor<2x2x5xi32>) -> tensor<3x4x5xi32> {
  // expected-error @+1 {{'tosa.scatter' op requires values_out dimension 0 to have size 2, got 3}}
  %0 = tosa.scatter %v, %i, %x : (tensor<?x4x5xi32>, tensor<?x2xi32>, tensor<2x2x5xi32>) -> tensor<3x4x5xi32>
  return %0 : tensor<3x4x5xi32>
}

// -----

func.func @scatter_k_below_w(%v: tensor<2x4x5xi32>, %i: tensor<2x6xi32>, %x: tensor<2x6x5xi32>) -> tensor<2x4x5xi32> {
  // expected-error @+1 {{'tosa.scatter' op requires dimensions K >= W, got K=4 and W=6}}
  %0 = tosa.scatter %v, %i, %x : (tensor<2x4x5xi32>, tensor<2x6xi32>, tensor<2x6x5xi32>) -> tensor<2x4x5xi32>
  return %0 : tensor<2x4x5xi32>
}

// -----

// cond_if's custom syntax: the condition's type is required.
func.func @f(%c: tensor<i1>, %x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+2 {{expected ':'}}
  // expected-error@+1 {{custom op 'tosa.cond_if' expected type for condition operand}}
  %0 = tosa.cond_if %c -> (tensor<4xi32>) {
    tosa.yield %x : tensor<4xi32>
  } else {
    tosa.yield %x : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}

// -----

// cond_if's bound arguments need one type each.
func.func @f(%c: tensor<i1>, %x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{custom op 'tosa.cond_if' expected as many input types as operands (expected 1 got 2)}}
  %0 = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32> {
  ^bb0(%a: tensor<4xi32>):
    tosa.yield %a : tensor<4xi32>
  } else {
  ^bb0(%a: tensor<4xi32>):
    tosa.yield %a : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}

// -----

// cond_if's bound arguments are followed by a function type.
func.func @f(%c: tensor<i1>, %x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+2 {{expected non-function type}}
  // expected-error@+1 {{custom op 'tosa.cond_if' expected list of types for block arguments followed by arrow type and list of return types}}
  %0 = tosa.cond_if %c (%a = %x) : tensor<i1> (%a) -> tensor<4xi32> {
  ^bb0(%a: tensor<4xi32>):
    tosa.yield %a : tensor<4xi32>
  } else {
  ^bb0(%a: tensor<4xi32>):
    tosa.yield %a : tensor<4xi32>
  }
  return %0 : tensor<4xi32>
}
