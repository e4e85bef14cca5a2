// Ops that upstream StableHLO checks in their type inference, in its words and order: a
// failed check is followed by "failed to infer returned types"; what ODS checks before
// the inference (operand counts, attribute constraints, traits) and what an op's own
// verifier checks after it are reported alone. Positive cases first, with the dynamic
// shapes upstream accepts.
// RUN: qopt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK-LABEL: func.func @accepted
// CHECK: stablehlo.dynamic_update_slice
// CHECK: stablehlo.map
// CHECK: stablehlo.if
func.func @accepted(%x: tensor<?x2xi32>, %u: tensor<1x2xi32>, %i: tensor<i64>, %p: tensor<i1>) -> tensor<3x2xi32> {
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<?x2xi32>, tensor<1x2xi32>, tensor<i64>, tensor<i64>) -> tensor<3x2xi32>
  %1 = "stablehlo.map"(%0, %0) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
  %2 = "stablehlo.if"(%p) ({ stablehlo.return %1 : tensor<3x2xi32> }, { stablehlo.return %0 : tensor<3x2xi32> }) : (tensor<i1>) -> tensor<3x2xi32>
  func.return %2 : tensor<3x2xi32>
}

// -----

// Shapes need only be compatible: a static operand with a dynamic result, a dynamic
// operand with a static one (upstream's traits check compatibility, not equality).
// CHECK-LABEL: func.func @compatible_shapes
// CHECK: stablehlo.complex %x, %y : (tensor<4xf32>, tensor<?xf32>) -> tensor<?xcomplex<f32>>
// CHECK: stablehlo.complex %y, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xcomplex<f32>>
// CHECK: stablehlo.reverse %x, dims = [0] : (tensor<4xf32>) -> tensor<?xf32>
// CHECK: stablehlo.reverse %y, dims = [0] : (tensor<?xf32>) -> tensor<4xf32>
func.func @compatible_shapes(%x: tensor<4xf32>, %y: tensor<?xf32>) {
  %0 = stablehlo.complex %x, %y : (tensor<4xf32>, tensor<?xf32>) -> tensor<?xcomplex<f32>>
  %1 = stablehlo.complex %y, %y : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xcomplex<f32>>
  %2 = stablehlo.reverse %x, dims = [0] : (tensor<4xf32>) -> tensor<?xf32>
  %3 = stablehlo.reverse %y, dims = [0] : (tensor<?xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @complex_shapes(%x: tensor<4xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.complex' op requires the same shape for all operands and results}}
  %0 = stablehlo.complex %x, %y : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @reverse_shape(%x: tensor<4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.reverse' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = stablehlo.reverse %x, dims = [0] : (tensor<4xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @reverse_element(%x: tensor<4x!quant.uniform<i8:f32, 2.0:1>>) {
  // expected-error @+1 {{'stablehlo.reverse' op requires the same element type for all operands and results}}
  %0 = stablehlo.reverse %x, dims = [0] : (tensor<4x!quant.uniform<i8:f32, 2.0:1>>) -> tensor<4x!quant.uniform<i8:f32, 3.0:1>>
  func.return
}

// -----

func.func @slice_stride(%x: tensor<6xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.slice' op stride must be positive but got 0 in dimension 0}}
  %0 = stablehlo.slice %x [1:4:0] : (tensor<6xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @slice_start_after_limit(%x: tensor<6xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.slice' op start index 5 is larger than limit index 2 in dimension 0}}
  %0 = stablehlo.slice %x [5:2] : (tensor<6xf32>) -> tensor<0xf32>
  func.return
}

// -----

func.func @concatenate_none() {
  // expected-error @+1 {{'stablehlo.concatenate' op expected 1 or more operands, but found 0}}
  %0 = "stablehlo.concatenate"() {dimension = 0 : i64} : () -> tensor<0xf32>
  func.return
}

// -----

func.func @concatenate_negative(%x: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op attribute 'dimension' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = stablehlo.concatenate %x, %x, dim = -1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @concatenate_scalars(%x: tensor<f32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.concatenate' op rank-0 values cannot be concatenated}}
  %0 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @dynamic_slice_negative(%x: tensor<4xf32>, %i: tensor<i32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.dynamic_slice' op has negative size index to dynamic slice: -2}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [-2] : (tensor<4xf32>, tensor<i32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @dynamic_update_slice_rank(%x: tensor<4x4xf32>, %u: tensor<2xf32>, %i: tensor<i32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op update rank does not match operand rank: 1 vs 2.}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<4x4xf32>, tensor<2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
  func.return
}

// -----

func.func @pad_rank(%x: tensor<2x2xf32>, %v: tensor<f32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.pad' op edge_padding_low length (1) must match operand rank (2)}}
  %0 = stablehlo.pad %x, %v, low = [1], high = [1], interior = [0] : (tensor<2x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  func.return
}

// -----

func.func @pad_negative_size(%x: tensor<2xf32>, %v: tensor<f32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.pad' op Padding result in negative size for dimension 0}}
  %0 = stablehlo.pad %x, %v, low = [-2], high = [-1], interior = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<0xf32>
  func.return
}

// -----

func.func @transpose_rank(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.transpose' op TransposeOp operand rank 2 does not match permutation size 3}}
  %0 = stablehlo.transpose %x, dims = [0, 1, 2] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @transpose_no_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.transpose' op requires attribute 'permutation'}}
  %0 = "stablehlo.transpose"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @select_branches(%p: tensor<i1>, %a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.select' op requires compatible types for non-predicate operands}}
  %0 = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @map_arity(%x: tensor<2xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.map' op expects number of operands to match the arity of map computation, but got: 1 and 2}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @map_argument_type(%x: tensor<2xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.map' op element type of operands and computation arguments must match, but got: 'f32' and 'i32'}}
  %0 = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @map_shapes(%x: tensor<2xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.map' op requires the same shape for all operands and results}}
  %0 = "stablehlo.map"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @if_arguments(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.if' op branch 0 must have 0 arguments, but found 1}}
  %0 = "stablehlo.if"(%p) ({
  ^bb0(%arg: tensor<f32>):
    stablehlo.return %arg : tensor<f32>
  }, {
    stablehlo.return %a : tensor<f32>
  }) : (tensor<i1>) -> tensor<f32>
  func.return
}

// -----

func.func @case_result(%i: tensor<i32>, %a: tensor<f32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.case' op inferred type(s) 'tensor<f32>' are incompatible with return type(s) of operation 'tensor<i32>'}}
  %0 = "stablehlo.case"(%i) ({ stablehlo.return %a : tensor<f32> }) : (tensor<i32>) -> tensor<i32>
  func.return
}

// -----

func.func @iota_scalar() {
  // expected-error @+1 {{'stablehlo.iota' op does not support scalars.}}
  %0 = stablehlo.iota dim = 0 : tensor<i32>
  func.return
}

// -----

func.func @reverse_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.reverse' op all dimensions should be non-negative. Got dimension: -1.}}
  %0 = stablehlo.reverse %x, dims = [-1] : tensor<2x3xf32>
  func.return
}

// -----

// dot_general and dynamic_broadcast_in_dim are checked by their verifiers (upstream's
// verifyDotGeneralOp, verifyDynamicBroadcastInDimOp): their failures stand alone.
func.func @dot_general_duplicate(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op has duplicated dimension from lhs_batching_dimensions and lhs_contracting_dimensions: 1}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [1] x [0], contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<3x2x4xf32>
  func.return
}

// -----

func.func @dot_general_range(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op rhs_contracting_dimensions value: 2 is out of range: [0, 2)}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [2] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @dynamic_broadcast_shape(%x: tensor<3xf32>) {
  %s = stablehlo.constant dense<[2, 4]> : tensor<2xi64>
  // expected-error @+1 {{'stablehlo.dynamic_broadcast_in_dim' op output shape [2, 4] is incompatible with return type of operation 'tensor<2x3xf32>'}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @dynamic_broadcast_unknown_rank_shape(%x: tensor<3xf32>, %s: tensor<?xi64>) {
  // expected-error @+1 {{'stablehlo.dynamic_broadcast_in_dim' op operand #1 must be statically shaped 1-dimensional tensor of index or integer values, but got 'tensor<?xi64>'}}
  %0 = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] : (tensor<3xf32>, tensor<?xi64>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @tuple_of_other_types(%a: tensor<f32>, %b: tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>> {
  // expected-error @+2 {{'stablehlo.tuple' op inferred type(s) 'tuple<tensor<f32>, tensor<f32>>' are incompatible with return type(s) of operation 'tuple<tensor<f32>, tensor<f32>, tensor<f32>>'}}
  // expected-error @+1 {{'stablehlo.tuple' op failed to infer returned types}}
  %0 = "stablehlo.tuple"(%a, %b) : (tensor<f32>, tensor<f32>) -> tuple<tensor<f32>, tensor<f32>, tensor<f32>>
  func.return %0 : tuple<tensor<f32>, tensor<f32>, tensor<f32>>
}

// -----

// Elementwise ops word a shape or element type mismatch by their upstream trait: most
// have "compatible types" (bounds-aware), add and convert "the same shape", abs, real
// and imag "the same shape and base type".
func.func @multiply_shapes(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.multiply' op requires compatible types for all operands and results}}
  %0 = stablehlo.multiply %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<?xf32>
  func.return
}

// -----

func.func @negate_elements(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.negate' op requires compatible types for all operands and results}}
  %0 = stablehlo.negate %a : (tensor<3xf32>) -> tensor<3xf64>
  func.return
}

// -----

func.func @subtract_over_bound(%a: tensor<?xf32, #stablehlo.bounds<4>>) {
  // expected-error @+1 {{'stablehlo.subtract' op requires compatible types for all operands and results}}
  %0 = stablehlo.subtract %a, %a : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32, #stablehlo.bounds<4>>) -> tensor<5xf32>
  func.return
}

// -----

func.func @real_shapes(%a: tensor<3xcomplex<f32>>) {
  // expected-error @+1 {{'stablehlo.real' op all non-scalar operands/results must have the same shape and base type}}
  %0 = stablehlo.real %a : (tensor<3xcomplex<f32>>) -> tensor<4xf32>
  func.return
}

// -----

func.func @add_shapes(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.add' op requires the same shape for all operands and results}}
  %0 = stablehlo.add %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<?xf32>
  func.return
}

// -----

// add infers its type pairwise, bounds included: a static size must fit the other
// operand's bound, and the result must fit the inferred bound.
func.func @add_size_over_bound(%a: tensor<3xf32>, %b: tensor<?xf32, #stablehlo.bounds<2>>) {
  // expected-error @+2 {{'stablehlo.add' op failed to infer returned types}}
  // expected-error @+1 {{Mismatched dimension size 3 and bound 2 in dimension 0}}
  %0 = stablehlo.add %a, %b : (tensor<3xf32>, tensor<?xf32, #stablehlo.bounds<2>>) -> tensor<?xf32>
  func.return
}

// -----

func.func @add_result_over_bound(%a: tensor<?xf32, #stablehlo.bounds<4>>, %b: tensor<?xf32, #stablehlo.bounds<6>>) {
  // expected-error @+2 {{'stablehlo.add' op failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.add' op inferred type(s) 'tensor<?xf32, #stablehlo.bounds<4>>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  %0 = stablehlo.add %a, %b : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<?xf32, #stablehlo.bounds<6>>) -> tensor<5xf32>
  func.return
}

// -----

// CHECK-LABEL: func.func @bounds_fit
func.func @bounds_fit(%a: tensor<?xf32, #stablehlo.bounds<4>>, %b: tensor<3xf32>) -> tensor<?xf32, #stablehlo.bounds<4>> {
  %0 = stablehlo.add %a, %b : (tensor<?xf32, #stablehlo.bounds<4>>, tensor<3xf32>) -> tensor<3xf32>
  %1 = stablehlo.multiply %a, %a : tensor<?xf32, #stablehlo.bounds<4>>
  func.return %1 : tensor<?xf32, #stablehlo.bounds<4>>
}
