// rng, rng_bit_generator, set_dimension_size, bounded dynamism, output-operand aliases
// and batch norm: parsed in upstream's generic and pretty forms and printed as upstream
// prints them (`type_extensions<bounds = [..]>` prints as `#stablehlo.bounds<..>`); the
// output parses back to itself.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s | qopt | FileCheck %s

// CHECK-LABEL: func.func @random
// CHECK: stablehlo.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<3xi64>) -> tensor<2x3x5xf32>
// CHECK: stablehlo.rng %{{.*}}, %{{.*}}, %{{.*}}, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<3xi64>) -> tensor<?x?x?xf32>
// CHECK: stablehlo.rng_bit_generator %{{.*}}, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
func.func @random(%a: tensor<f32>, %shape: tensor<3xi64>, %state: tensor<2xui64>) -> tensor<4x4xui32> {
  %c = stablehlo.constant dense<[2, 3, 5]> : tensor<3xi64>
  %0 = "stablehlo.rng"(%a, %a, %c) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<3xi64>) -> tensor<2x3x5xf32>
  %1 = stablehlo.rng %a, %a, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %2:2 = "stablehlo.rng_bit_generator"(%state) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)
  func.return %2#1 : tensor<4x4xui32>
}

// CHECK-LABEL: func.func @bounded
// CHECK-SAME: tensor<?x4xf32, #stablehlo.bounds<8, ?>>
// CHECK: stablehlo.set_dimension_size %{{.*}}, %{{.*}}, dim = 1 : (tensor<4x2xf32>, tensor<i32>) -> tensor<4x?xf32, #stablehlo.bounds<?, 2>>
// CHECK: stablehlo.broadcast_in_dim %{{.*}}, dims = [0, 1] : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>>
func.func @bounded(%x: tensor<?x4xf32, #stablehlo.type_extensions<bounds = [8, ?]>>, %y: tensor<4x2xf32>, %n: tensor<i32>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>> {
  %0 = "stablehlo.set_dimension_size"(%y, %n) {dimension = 1 : i64} : (tensor<4x2xf32>, tensor<i32>) -> tensor<4x?xf32, #stablehlo.bounds<?, 2>>
  %1 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<?x4xf32, #stablehlo.bounds<8, ?>>) -> tensor<?x4xf32, #stablehlo.bounds<8, ?>>
  func.return %1 : tensor<?x4xf32, #stablehlo.bounds<8, ?>>
}

// CHECK-LABEL: func.func @aliases
// CHECK: output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = [1]>]
func.func @aliases(%t: tuple<tensor<1x1xf32>, tensor<2x3xf32>>, %x: tensor<5x5xf32>) {
  %0 = "stablehlo.custom_call"(%t, %x) {call_target_name = "foo", output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = [1]>]} : (tuple<tensor<1x1xf32>, tensor<2x3xf32>>, tensor<5x5xf32>) -> tuple<tensor<2x3xf32>>
  func.return
}

// CHECK-LABEL: func.func @batch_norm
// CHECK: "stablehlo.batch_norm_inference"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
func.func @batch_norm(%x: tensor<4x3xf32>, %v: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %v, %v, %v, %v) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}
