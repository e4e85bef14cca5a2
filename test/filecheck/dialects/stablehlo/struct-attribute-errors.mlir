// The dimension-number attributes upstream reads with its struct parser (#stablehlo.dot,
// gather, scatter, conv raw, #chlo.ragged_dot): fields in any order, a trailing comma,
// the empty lists and zero integers left out when printed; a bad field is reported in
// upstream's words and followed, as MLIR reports it, by the attribute's own error at the
// same place. A missing `>` before a line break is reported at the end of the previous
// line, where MLIR's parser puts a wrong-token error.
// RUN: not qopt %s --split-input-file 2>/dev/null | FileCheck %s
// RUN: qopt %s --split-input-file --verify-diagnostics

// CHECK: module attributes {d = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [3]>, g = #stablehlo.gather<>, s = #stablehlo.scatter<update_window_dims = [1], index_vector_dim = 1>}
module attributes {
  d = #stablehlo.dot<rhs_contracting_dimensions = [3], lhs_contracting_dimensions = [2],
                     rhs_batching_dimensions = [1], lhs_batching_dimensions = [0],>,
  g = #stablehlo.gather<index_vector_dim = 0>,
  s = #stablehlo.scatter<index_vector_dim = 1, update_window_dims = [1]>
} {}

// -----

module attributes {
  d = #stablehlo.dot<
    lhs_batching_dimensions = [0],
    // expected-error @+2 {{duplicated `lhs_batching_dimensions` entry}}
    // expected-error @+1 {{failed parsing dot dimension numbers attribute}}
    lhs_batching_dimensions = [0]
  >
} {}

// -----

module attributes {
  // expected-error @+2 {{expected one of: `offset_dims`, `collapsed_slice_dims`, `operand_batching_dims`, `start_indices_batching_dims`, `start_index_map`, `index_vector_dim`}}
  // expected-error @+1 {{failed parsing gather dimension numbers attribute}}
  g = #stablehlo.gather<offset_dim = [0]>
} {}

// -----

module attributes {
  // expected-error @+2 {{expected '>'}}
  // expected-error @+2 {{failed parsing scatter dimension numbers attribute}}
  s = #stablehlo.scatter<update_window_dims = [1]  // no comma before the next field
    index_vector_dim = 1>
} {}

// -----

module attributes {
  // The raw form of #stablehlo.conv reports its failure in upstream's (dot) words.
  // expected-error @+2 {{duplicated `input_batch_dimension` entry}}
  // expected-error @+1 {{failed parsing dot dimension numbers attribute}}
  c = #stablehlo.conv<raw input_batch_dimension = 0, input_batch_dimension = 0>
} {}
