// Upstream's checks and words for the token ops, batch norm, rng, cholesky, broadcast,
// set_dimension_size, bounds, custom_call layouts and aliases, run_parallel, and the ODS
// constraints (confined integer attributes, static-shape operands) checked before an
// op's own rules. Inference failures are followed by "failed to infer returned types".
// RUN: qopt %s --split-input-file --verify-diagnostics

func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'stablehlo.all_to_all' op attribute 'split_count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %0 : tensor<4x4xf32>
}

// -----

func.func @f(%x: tensor<6x4xf32>) -> tensor<3x8xf32> {
  // expected-error @+2 {{'stablehlo.all_to_all' op split dimension has size 6, expected to be a multiple of split_count 4}}
  // expected-error @+1 {{'stablehlo.all_to_all' op failed to infer returned types}}
  %0 = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<6x4xf32>) -> tensor<3x8xf32>
  func.return %0 : tensor<3x8xf32>
}

// -----

func.func @f() -> tensor<?xi32> {
  // expected-error @+1 {{'stablehlo.constant' op result #0 must be statically shaped tensor of}}
  %0 = "stablehlo.constant"() <{value = dense<1> : tensor<2xi32>}> : () -> tensor<?xi32>
  func.return %0 : tensor<?xi32>
}

// -----

func.func @f(%x: tensor<6xf32>, %s: tensor<?xindex>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.dynamic_reshape' op operand #1 must be statically shaped 1-dimensional tensor of index or integer values, but got 'tensor<?xindex>'}}
  %0 = stablehlo.dynamic_reshape %x, %s : (tensor<6xf32>, tensor<?xindex>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @f() -> tensor<4xf32> {
  %s = stablehlo.constant dense<[3]> : tensor<1xi64>
  // expected-error @+1 {{'stablehlo.dynamic_iota' op output shape [3] is incompatible with return type of operation 'tensor<4xf32>'}}
  %0 = stablehlo.dynamic_iota %s, dim = 0 : (tensor<1xi64>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %low: tensor<1xi32>) -> tensor<9xf32> {
  %pad = stablehlo.constant dense<0.0> : tensor<f32>
  %interior = stablehlo.constant dense<[-2]> : tensor<1xi32>
  // expected-error @+1 {{'stablehlo.dynamic_pad' op interior_padding must be non-negative, but got -2}}
  %0 = stablehlo.dynamic_pad %x, %pad, %low, %low, %interior : (tensor<4xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<9xf32>
  func.return %0 : tensor<9xf32>
}

// -----

func.func @f(%t: !stablehlo.token) -> tensor<2xi32> {
  // expected-error @+1 {{'stablehlo.infeed' op last element of result types is expected to be of token type, but got 'tensor<2xi32>'}}
  %0:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xi32>, tensor<2xi32>)
  func.return %0#0 : tensor<2xi32>
}

// -----

func.func @f(%t: !stablehlo.token) -> tensor<2xi32> {
  // expected-error @+1 {{'stablehlo.infeed' op layout-attribute size must be 1 (which is the number of op-results - 1 (for token result)), but got 2}}
  %0:2 = "stablehlo.infeed"(%t) {layout = [[0], [0]]} : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  func.return %0#0 : tensor<2xi32>
}

// -----

func.func @f(%t: !stablehlo.token) -> tensor<2xi32> {
  // expected-error @+1 {{'stablehlo.recv' op channel_type should be HOST_TO_DEVICE when is_host_transfer is true}}
  %0:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  func.return %0#0 : tensor<2xi32>
}

// -----

func.func @f(%x: tensor<2xi32>, %t: !stablehlo.token) -> !stablehlo.token {
  // expected-error @+2 {{'stablehlo.send' op channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false}}
  // expected-error @+1 {{'stablehlo.send' op failed to infer returned types}}
  %0 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>} : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  func.return %0 : !stablehlo.token
}

// -----

func.func @main() {
  // expected-error @+1 {{'interpreter.run_parallel' op Function "nowhere" not found}}
  "interpreter.run_parallel"() {programs = [[@nowhere]]} : () -> ()
  func.return
}

// -----

func.func @one(%x: tensor<i32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}

func.func @main(%x: tensor<i32>) {
  // expected-error @+1 {{'interpreter.run_parallel' op Number of inputs (2) should match the sum of the number of inputs of all programs (1)}}
  %0 = "interpreter.run_parallel"(%x, %x) {programs = [[@one]]} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  func.return
}

// -----

func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op incorrect layout dense<[1, 2]> : tensor<2xindex> for type 'tensor<2x3xf32>', layout must be a permutation of [0, 2)}}
  %0 = "stablehlo.custom_call"(%x) {call_target_name = "foo", operand_layouts = [dense<[1, 2]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op expects operandIndex in the output_operand_alias attribute to be in range [0, 1); got: 1.}}
  %0 = "stablehlo.custom_call"(%x) {call_target_name = "foo", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %v: tensor<4xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'stablehlo.batch_norm_inference' op expects the size of single-dimensional operands to be compatible with feature count, but the size of single-dimensional operands is 4 and the feature count is 3.}}
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op failed to infer returned types}}
  %0 = "stablehlo.batch_norm_inference"(%x, %v, %v, %v, %v) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @f(%x: tensor<4x3xf32>, %v: tensor<3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'stablehlo.batch_norm_training' op attribute 'feature_index' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0:3 = "stablehlo.batch_norm_training"(%x, %v, %v) {epsilon = 1.0e-3 : f32, feature_index = -1 : i64} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  func.return %0#0 : tensor<4x3xf32>
}

// -----

func.func @f(%a: tensor<i32>, %shape: tensor<1xi64>) -> tensor<?xi32> {
  // expected-error @+2 {{'stablehlo.rng' op mu and sigma must be floats}}
  // expected-error @+1 {{'stablehlo.rng' op failed to infer returned types}}
  %0 = stablehlo.rng %a, %a, %shape, distribution = NORMAL : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<?xi32>
  func.return %0 : tensor<?xi32>
}

// -----

func.func @f(%a: tensor<1xf32>, %b: tensor<f32>, %shape: tensor<1xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{'stablehlo.rng' op operand #0 must be 0D tensor of pred (AKA boolean or 1-bit integer) or integer or floating-point values, but got 'tensor<1xf32>'}}
  %0 = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<1xf32>, tensor<f32>, tensor<1xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

func.func @f(%state: tensor<2xui64>) -> tensor<4xui32> {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op output state shape must be compatible with initial state shape. Got: 'tensor<2xui64>' and 'tensor<3xui64>'}}
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return %0#1 : tensor<4xui32>
}

// -----

func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'stablehlo.cholesky' op minor dimensions of 'a' must have equal size, got shape 2, 3.}}
  // expected-error @+1 {{'stablehlo.cholesky' op failed to infer returned types}}
  %0 = stablehlo.cholesky %a, lower = true : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @f(%x: tensor<3xi32>) -> tensor<2x2xi32> {
  // expected-error @+2 {{'stablehlo.broadcast' op inferred type(s) 'tensor<2x3xi32>' are incompatible with return type(s) of operation 'tensor<2x2xi32>'}}
  // expected-error @+1 {{'stablehlo.broadcast' op failed to infer returned types}}
  %0 = stablehlo.broadcast %x, sizes = [2] : (tensor<3xi32>) -> tensor<2x2xi32>
  func.return %0 : tensor<2x2xi32>
}

// -----

func.func @f(%x: tensor<4x2xf32>, %size: tensor<1xi32>) -> tensor<4x?xf32> {
  // expected-error @+2 {{'stablehlo.set_dimension_size' op size operand should be of rank-0}}
  // expected-error @+1 {{'stablehlo.set_dimension_size' op failed to infer returned types}}
  %0 = stablehlo.set_dimension_size %x, %size, dim = 1 : (tensor<4x2xf32>, tensor<1xi32>) -> tensor<4x?xf32>
  func.return %0 : tensor<4x?xf32>
}

// -----

// expected-error @+1 {{Bounds length is 1, expected to be equal to rank(2) of the tensor}}
func.func @f(%x: tensor<?x?xf32, #stablehlo.bounds<3>>) {
  func.return
}

// -----

// expected-error @+1 {{Static dimension 1 cannot have a bound, use ShapedType::kDynamic to indicate a missing bound in tensor}}
func.func @f(%x: tensor<?x4xf32, #stablehlo.type_extensions<bounds = [8, 4]>>) {
  func.return
}

// -----

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.sort' op comparator must return single output but got 2}}
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt, %lt : tensor<i1>, tensor<i1>
  }) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{future element type must be a ranked tensor, but got 'i32'}}
func.func private @f() -> !stablehlo.future<tensor<2xi32>, i32>

// -----

func.func @f(%x: tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>> {
  // expected-error @+2 {{'stablehlo.async_start' op region must contain a collective or slice operation}}
  // expected-error @+1 {{'stablehlo.async_start' op failed to infer returned types}}
  %0 = "stablehlo.async_start"(%x) ({
  ^bb0(%b: tensor<4xf32>):
    %1 = stablehlo.negate %b : tensor<4xf32>
    stablehlo.return %1 : tensor<4xf32>
  }) : (tensor<4xf32>) -> !stablehlo.future<tensor<4xf32>>
  func.return %0 : !stablehlo.future<tensor<4xf32>>
}

// -----

func.func @f(%x: !stablehlo.future<tensor<4xf32>>) -> tensor<4xi32> {
  // expected-error @+2 {{'stablehlo.async_done' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xi32>'}}
  // expected-error @+1 {{'stablehlo.async_done' op failed to infer returned types}}
  %0 = "stablehlo.async_done"(%x) : (!stablehlo.future<tensor<4xf32>>) -> tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

func.func @f(%x: tensor<4xf32>, %root: tensor<2xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.collective_reduce' op last operand of collective_reduce with has_dynamic_root=true must have the same number of elements as data operands (1), but got 2}}
  %0 = "stablehlo.collective_reduce"(%x, %root) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<4xf32>, tensor<2xi32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @f(%x: tensor<4xf32>, %root: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'stablehlo.collective_broadcast' op last operand of collective_broadcast with has_dynamic_root=true must be a rank-1 i32 tensor, but got 'tensor<1xf32>'}}
  %0 = "stablehlo.collective_broadcast"(%x, %root) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, has_dynamic_root} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
