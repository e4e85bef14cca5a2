// The reductions (reduce, reduce_window, select_and_scatter, scatter) in upstream StableHLO's words and order: the
// inputs, the dimensions or window, the reducer body (shared rules), then the result
// types against the inferred ones. Reducers may promote (i8 inputs, i32 body); bodies
// with arguments of rank > 0 are upstream's extension, refused by the spec's rule.
// RUN: qopt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK-LABEL: func.func @promoted
// CHECK: reducer(%a: tensor<i32>, %b: tensor<i32>)
func.func @promoted(%x: tensor<4x3xi8>, %z: tensor<i8>) -> tensor<4xi32> {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x3xi8>, tensor<i8>) -> tensor<4xi32>
   reducer(%a: tensor<i32>, %b: tensor<i32>) {
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  func.return %0 : tensor<4xi32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %y: tensor<3x4xf32>, %z: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reduce' op expects all inputs to have compatible shapes. Shape at input-index 1 is not compatible with shape at input-index 0}}
  %0:2 = stablehlo.reduce(%x init: %z), (%y init: %z) across dimensions = [1] : (tensor<4x3xf32>, tensor<3x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<f32>, %d: tensor<f32>) {
    stablehlo.return %a, %b : tensor<f32>, tensor<f32>
  }
  func.return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op Out-of-bounds dimension -1, expected to be in range [0, 2)}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [-1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %z: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.reduce' op Duplicate reduction dimension: 0}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected the inner-op to be a commutative binary-op from the stablehlo dialect, with zero region, producing single result}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.subtract across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op Reduction-region must take 2 parameters, but takes 3 parameter(s)}}
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op Reduction-region here must produce tensor-typed result(s), but produces 'tuple<tensor<f32>>' instead}}
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.tuple"(%a) : (tensor<f32>) -> tuple<tensor<f32>>
    "stablehlo.return"(%t) : (tuple<tensor<f32>>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4x3xi32>, %z: tensor<i32>) -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.reduce' op The type of reduction-region's parameter at index 1 is different than the corresponding result type: 'tensor<i16>' vs 'tensor<i32>'}}
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i16>):
    "stablehlo.return"(%a) : (tensor<i32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<4x3xi32>, tensor<i32>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @f(%x: tensor<4x3xi8>, %z: tensor<i32>) -> tensor<4xi16> {
  // expected-error @+1 {{'stablehlo.reduce' op The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's corresponding init-value element-type: 'tensor<i16>' vs 'tensor<i32>'}}
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<i16>, %b: tensor<i16>):
    "stablehlo.return"(%a) : (tensor<i16>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<4x3xi8>, tensor<i32>) -> tensor<4xi16>
  func.return %0 : tensor<4xi16>
}

// -----

func.func @f(%x: tensor<4x3xi32>, %z: tensor<i8>) -> tensor<4xi16> {
  // expected-error @+1 {{'stablehlo.reduce' op The element-type of reduction-region's argument at index 1 is expected to be promotable from 'i32', but got 'i16'}}
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<i16>, %b: tensor<i16>):
    "stablehlo.return"(%a) : (tensor<i16>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<4x3xi32>, tensor<i8>) -> tensor<4xi16>
  func.return %0 : tensor<4xi16>
}

// -----

// Upstream accepts a body on slices of the result's dimensions; the spec types the body
// on 0-dimensional tensors, and so does qdialect.
func.func @f(%x: tensor<4x3xf32>, %z: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'stablehlo.reduce' op reduction-region arguments must be 0-dimensional tensors (the spec's rule), got 'tensor<3xf32>'}}
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>):
    "stablehlo.return"(%a) : (tensor<3xf32>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @f(%x: tensor<4x3xi8>, %z: tensor<i8>) -> tensor<4xi8> {
  // expected-error @+2 {{'stablehlo.reduce' op inferred type(s) 'tensor<4xi32>' are incompatible with return type(s) of operation 'tensor<4xi8>'}}
  // expected-error @+1 {{'stablehlo.reduce' op failed to infer returned types}}
  %0 = "stablehlo.reduce"(%x, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    "stablehlo.return"(%a) : (tensor<i32>) -> ()
  }) {dimensions = array<i64: 1>} : (tensor<4x3xi8>, tensor<i8>) -> tensor<4xi8>
  func.return %0 : tensor<4xi8>
}

// -----

func.func @f(%x: tensor<4x4xf32>, %z: tensor<f32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op expects the shape of padding-attribute to be {N, 2}, but got {2, 1}.}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 2>, padding = dense<0> : tensor<2x1xi64>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

func.func @f(%x: tensor<4x4xf32>, %z: tensor<f32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op expects window to have positive base dilation factor for 1-th window dimension, but got 0.}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 2>, base_dilations = array<i64: 1, 0>} : (tensor<4x4xf32>, tensor<f32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

func.func @f(%x: tensor<4x4xf32>, %z: tensor<1xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'stablehlo.reduce_window' op The shape of reduction-region's result type at index 0 differs from the op's corresponding init-value type: 'tensor<f32>' vs 'tensor<1xf32>'}}
  %0 = "stablehlo.reduce_window"(%x, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%a) : (tensor<f32>) -> ()
  }) {window_dimensions = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<1xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op expects the type of select-region's parameter at index 1 to be 'tensor<f32>', but got 'tensor<i32>'}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>):
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op expects the return-type of select-region to be tensor<i1>, but got: 'tensor<f32>'}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %s: tensor<3xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op expects source-type to be 'tensor<2xf32>', but got'tensor<3xf32>'}}
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// scatter: the dimension numbers in upstream's order and words, then its update
// computation under the shared reducer rules. A trailing comma closes the struct.
func.func @f(%x: tensor<4x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op Expects update_window_dims to be sorted; got: [2, 1].}}
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2, 1],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1,>}
    : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x4x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %i: tensor<4x1xi32>, %u: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op has duplicated dimension from scatter_dims_to_operand_dims and input_batching_dims: 0}}
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      input_batching_dims = [0], scatter_indices_batching_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<4x3xf32>, tensor<4x1xi32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.scatter' op expects bounds of the window dimensions of updates to not exceed the bounds of the corresponding dimensions of operand. For dimension 1, updates bound is 4, operand bound is 3.}}
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %i: tensor<2x1xi32>, %u: tensor<2x3xi32>) -> tensor<4x3xi32> {
  // expected-error @+1 {{'stablehlo.scatter' op The element-type of reduction-region's argument at index 1 is expected to be promotable from 'f32', but got 'i32'}}
  %0 = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1],
      inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  func.return %0 : tensor<4x3xi32>
}

// -----

// A dynamic operand infers a dynamic source shape, compatible with a static source.
func.func @select_and_scatter_dynamic(%x: tensor<?x?x?x?xf64>, %s: tensor<10x12x12x64xf64>, %z: tensor<f64>) -> tensor<10x24x24x64xf64> {
  %0 = "stablehlo.select_and_scatter"(%x, %s, %z) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %t = stablehlo.compare GE, %a, %b : (tensor<f64>, tensor<f64>) -> tensor<i1>
      stablehlo.return %t : tensor<i1>
  }, {
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %sum = stablehlo.add %a, %b : tensor<f64>
      stablehlo.return %sum : tensor<f64>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<?x?x?x?xf64>, tensor<10x12x12x64xf64>, tensor<f64>) -> tensor<10x24x24x64xf64>
  return %0 : tensor<10x24x24x64xf64>
}
