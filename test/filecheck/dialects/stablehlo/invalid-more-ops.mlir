// Verifier rules of the region, data-movement, dynamic-shape, numeric and distribution
// ops, each with its exact diagnostic at the op.
// RUN: qopt %s --split-input-file --verify-diagnostics

func.func @f(%a: tensor<i32>) {
// expected-error @+1 {{'stablehlo.while' op expect condition block return a zero-ranked tensor of i1 but got 'tensor<i32>'}}
  %r = stablehlo.while(%arg0 = %a) : tensor<i32>
  cond {
    stablehlo.return %arg0 : tensor<i32>
  } do {
    stablehlo.return %arg0 : tensor<i32>
  }
  func.return }

// -----

func.func @f(%a: tensor<i32>, %b: tensor<i64>) {
// expected-error @+1 {{'stablehlo.while' op expect operands to be compatible with body block return types but got 'tensor<i32>' vs 'tensor<i64>'}}
  %r = stablehlo.while(%arg0 = %a) : tensor<i32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    stablehlo.return %b : tensor<i64>
  }
  func.return }

// -----

func.func @f(%a: tensor<i32>) {
// expected-error @+1 {{'stablehlo.while' op expect condition body returns a single value but got 2}}
  %r = stablehlo.while(%arg0 = %a) : tensor<i32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c, %c : tensor<i1>, tensor<i1>
  } do {
    stablehlo.return %arg0 : tensor<i32>
  }
  func.return }

// -----

// Upstream needs only compatible types; the pretty form carries one type per loop value,
// so qdialect wants the regions to take exactly the operands' types.
func.func @f(%a: tensor<2xf32>) {
// expected-error @+1 {{'stablehlo.while' op cond must take the operands' types (tensor<2xf32>), got (tensor<?xf32>)}}
  %r = "stablehlo.while"(%a) ({
  ^bb0(%x: tensor<?xf32>):
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%x: tensor<2xf32>):
    stablehlo.return %x : tensor<2xf32>
  }) : (tensor<2xf32>) -> tensor<2xf32>
  func.return }

// -----

func.func @f(%p: tensor<2xi1>, %a: tensor<i32>) {
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.if' op operand should be rank 0 tensor but got rank 1}}
  %r = "stablehlo.if"(%p) ({ stablehlo.return %a : tensor<i32> }, { stablehlo.return %a : tensor<i32> }) : (tensor<2xi1>) -> tensor<i32>
  func.return }

// -----

func.func @f(%p: tensor<i1>, %a: tensor<i32>, %b: tensor<i64>) {
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.if' op branch 0 and branch 1 have mismatched return types: 'tensor<i32>' vs 'tensor<i64>'}}
  %r = "stablehlo.if"(%p) ({ stablehlo.return %a : tensor<i32> }, { stablehlo.return %b : tensor<i64> }) : (tensor<i1>) -> tensor<i32>
  func.return }

// -----

func.func @f(%i: tensor<i64>, %a: tensor<i32>) {
// expected-error @+1 {{'stablehlo.case' op operand #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %r = "stablehlo.case"(%i) ({ stablehlo.return %a : tensor<i32> }) : (tensor<i64>) -> tensor<i32>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.sort' op dimension attribute value must be in range [-1, 1), but found 1}}
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 1 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.sort' op comparator block argument #0 should be of type 'tensor<i32>' but got 'tensor<f32>'}}
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  func.return }

// -----

func.func @f(%x: tensor<2x2xi32>) {
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.map' op requires monotonically increasing dimension numbers, but got: 1, 0}}
  %r = "stablehlo.map"(%x) ({
  ^bb0(%a: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  }) {dimensions = array<i64: 1, 0>} : (tensor<2x2xi32>) -> tensor<2x2xi32>
  func.return }

// -----

func.func @f(%x: tensor<2x3xf32>) {
// expected-error @+1 {{'stablehlo.reverse' op dimensions should be unique. Got: 0, 0}}
  %r = stablehlo.reverse %x, dims = [0, 0] : tensor<2x3xf32>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.popcnt' op result #0 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %r = stablehlo.popcnt %x : (tensor<4xi32>) -> tensor<4xf32>
  func.return }

// -----

func.func @f(%x: tensor<4xf32>) {
// expected-error @+1 {{'stablehlo.popcnt' op operand #0 must be ranked tensor of integer values, but got 'tensor<4xf32>'}}
  %r = stablehlo.popcnt %x : tensor<4xf32>
  func.return }

// -----

func.func @f(%x: tensor<4xf32>) {
// expected-error @+1 {{'stablehlo.reduce_precision' op attribute 'exponent_bits' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %r = stablehlo.reduce_precision %x, format = e0m10 : tensor<4xf32>
  func.return }

// -----

func.func @f(%x: tensor<4xf32>, %y: tensor<4xf64>) {
// expected-error @+1 {{'stablehlo.complex' op requires the same element type for all operands}}
  %r = stablehlo.complex %x, %y : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xcomplex<f32>>
  func.return }

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
// expected-error @+2 {{'stablehlo.real' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
// expected-error @+1 {{'stablehlo.real' op failed to infer returned types}}
  %r = stablehlo.real %x : (tensor<4xcomplex<f32>>) -> tensor<4xf64>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.is_finite' op operand #0 must be ranked tensor of floating-point or per-tensor quantized values, but got 'tensor<4xi32>'}}
  %r = stablehlo.is_finite %x : (tensor<4xi32>) -> tensor<4xi1>
  func.return }

// -----

func.func @f(%x: tensor<2x3xf32>) {
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.get_dimension_size' op requires dimension attribute in range [0, 2); found (2)}}
  %r = stablehlo.get_dimension_size %x, dim = 2 : (tensor<2x3xf32>) -> tensor<i32>
  func.return }

// -----

func.func @f(%s: tensor<3xi64>) {
// expected-error @+1 {{'stablehlo.dynamic_iota' op output_shape must have 2 elements, got tensor<3xi64>}}
  %r = stablehlo.dynamic_iota %s, dim = 0 : (tensor<3xi64>) -> tensor<2x2xi32>
  func.return }

// -----

func.func @f(%x: tensor<6xi32>, %s: tensor<2xi64>) {
// expected-error @+1 {{'stablehlo.dynamic_reshape' op number of output elements (4) doesn't match expected number of elements (6)}}
  %r = stablehlo.dynamic_reshape %x, %s : (tensor<6xi32>, tensor<2xi64>) -> tensor<2x2xi32>
  func.return }

// -----

func.func @f(%x: tensor<2xi32>, %s: tensor<2xi64>) {
// expected-error @+1 {{'stablehlo.dynamic_broadcast_in_dim' op duplicate expansion hint for at least one operand dimension}}
  %r = stablehlo.dynamic_broadcast_in_dim %x, %s, dims = [1] {known_expanding_dimensions = array<i64: 0>, known_nonexpanding_dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<2xi64>) -> tensor<2x2xi32>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>, %u: tensor<5xi32>, %i: tensor<i64>) {
// expected-error @+2 {{failed to infer returned types}}
// expected-error @+1 {{'stablehlo.dynamic_update_slice' op expects size at dimension 0 of update to be in range [0, 4]. Got: 5.}}
  %r = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xi32>, tensor<5xi32>, tensor<i64>) -> tensor<4xi32>
  func.return }

// -----

func.func @f(%x: tensor<5xi32>, %i: tensor<2x2xi64>, %u: tensor<2xi32>) {
// expected-error @+1 {{'stablehlo.scatter' op Scatter op has 1 elements in scatter_dims_to_operand_dims and the bound of dimension index_vector_dim=1 of scatter_indices is 2. These two numbers must be equal.}}
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5xi32>, tensor<2x2xi64>, tensor<2xi32>) -> tensor<5xi32>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>, %s: tensor<2xi32>, %z: tensor<i32>) {
// expected-error @+1 {{'stablehlo.select_and_scatter' op expects window to have positive value for 0-th window dimension, but got 0.}}
  %r = "stablehlo.select_and_scatter"(%x, %s, %z) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = stablehlo.compare GE, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {window_dimensions = array<i64: 0>, window_strides = array<i64: 2>} : (tensor<4xi32>, tensor<2xi32>, tensor<i32>) -> tensor<4xi32>
  func.return }

// -----

func.func @f() {
// expected-error @+1 {{'stablehlo.replica_id' op result must be a tensor<ui32>, got tensor<i32>}}
  %r = stablehlo.replica_id : tensor<i32>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.all_gather' op all_gather_dim must be a valid index of operand}}
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.all_reduce' op replica id #0 seen more than once}}
  %g = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  func.return }

// -----

// Collectives: upstream's replica-group, channel and shape rules, in its words.
func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.all_reduce' op replica id #1 not seen in replica groups}}
  %g = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {replica_groups = dense<[[0, 2]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.all_gather' op Invalid replica id -1}}
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, -1]]> : tensor<1x2xi64>} : (tensor<4xi32>) -> tensor<8xi32>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.all_reduce' op channel_id must be positive when useGlobalDeviceIds is set but got: 0}}
  %g = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>, use_global_device_ids} : (tensor<4xi32>) -> tensor<4xi32>
  func.return }

// -----

func.func @f(%x: tensor<4xi8>) {
// expected-error @+1 {{'stablehlo.reduce_scatter' op result element-type is expected to be 'i32', but got 'i8'}}
  %g = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xi8>) -> tensor<4xi8>
  func.return }

// -----

func.func @f(%x: tensor<4xi32>) {
// expected-error @+1 {{'stablehlo.collective_permute' op duplicate sources not allowed.}}
  %g = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<4xi32>) -> tensor<4xi32>
  func.return }

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
// expected-error @+2 {{'stablehlo.abs' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xcomplex<f32>>'}}
// expected-error @+1 {{'stablehlo.abs' op failed to infer returned types}}
  %r = stablehlo.abs %x : tensor<4xcomplex<f32>>
  func.return }

// -----

func.func @rfft_of_complex(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.fft' op RFFT requires f32 or f64 input type, but is given 'complex<f32>'.}}
  %0 = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<3xcomplex<f32>>
  func.return
}

// -----

func.func @rfft_half_spectrum(%x: tensor<4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.fft' op inferred type(s) 'tensor<3xcomplex<f32>>' are incompatible with return type(s) of operation 'tensor<4xcomplex<f32>>'}}
  %0 = stablehlo.fft %x, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  func.return
}

// -----

func.func @fft_too_many_dims(%x: tensor<2x2x2x2xcomplex<f32>>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.fft' op rank must be between 1 and 3, but got 4.}}
  %0 = stablehlo.fft %x, type = FFT, length = [2, 2, 2, 2] : (tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>>
  func.return
}

// -----

func.func @triangular_solve_not_square(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.triangular_solve' op two minor dimensions of operand 'a' must be compatible, but got 'tensor<2x3xf32>'}}
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  func.return
}

// -----

func.func @triangular_solve_shared_dim(%a: tensor<3x3xf32>, %b: tensor<2x1xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'stablehlo.triangular_solve' op shared dimension of operands 'a' and 'b' must be compatible, but got 'tensor<3x3xf32>' and 'tensor<2x1xf32>'}}
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x3xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  func.return
}

// -----

func.func private @foo()
func.func @composite_name() {
  // expected-error @+1 {{'stablehlo.composite' op name must be a valid namespaced op name}}
  stablehlo.composite "0.foo" {decomposition = @foo} : () -> ()
  func.return
}

// -----

func.func @composite_no_function(%a: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.composite' op 'missing' does not reference a valid function}}
  %0 = stablehlo.composite "my.op" %a {decomposition = @missing} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func private @g(%a: tensor<f64>) -> tensor<f32>
func.func @composite_signature(%a: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.composite' op operand at index 0 has type 'tensor<f32>', but decomposition has type 'tensor<f64>'}}
  %0 = stablehlo.composite "my.op" %a {decomposition = @g} : (tensor<f32>) -> tensor<f32>
  func.return
}

// -----

func.func private @h(%a: tensor<f32>)
func.func @composite_results(%a: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.composite' op has 1 result(s), but decomposition has 0}}
  %0 = stablehlo.composite "my.op" %a {decomposition = @h} : (tensor<f32>) -> tensor<f32>
  func.return
}
