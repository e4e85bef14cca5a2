// Tokens (after_all, create_token, infeed, outfeed, send/recv across a grid of two
// processes), the batch norm ops, cholesky and broadcast, printed in upstream's forms
// and run by the interpreter. Expected values are worked out by hand.
// RUN: qrun %s | FileCheck %s
// RUN: qopt %s | FileCheck %s --check-prefix=PRINT

// CHECK: PASS: @main
// CHECK: PASS: @batch_norm
// CHECK: PASS: @cholesky_and_broadcast
// CHECK: 3 passed, 0 failed

// PRINT: %{{.*}} = stablehlo.after_all %{{.*}}, %{{.*}} : !stablehlo.token
// PRINT: %{{.*}} = stablehlo.after_all : !stablehlo.token
// PRINT: %{{.*}} = stablehlo.create_token : !stablehlo.token
// PRINT: %{{.*}} = stablehlo.cholesky %{{.*}}, lower = true : tensor<2x2xf32>
// PRINT: %{{.*}} = stablehlo.cholesky %{{.*}} : tensor<2x2xf32>
// PRINT: %{{.*}} = stablehlo.broadcast %{{.*}}, sizes = [2] : (tensor<3xi32>) -> tensor<2x3xi32>

func.func private @feed0() -> tensor<2xi32> {
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

func.func private @feed1() -> tensor<2xi32> {
  %0 = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// Replica 0 reads the infeed twice and sends the sum on channel 5; replica 1 receives it.
func.func private @producer(%t: !stablehlo.token) -> (tensor<2xi32>, !stablehlo.token) {
  %a:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %b:2 = "stablehlo.infeed"(%a#1) : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  %sum = stablehlo.add %a#0, %b#0 : tensor<2xi32>
  %joined = stablehlo.after_all %a#1, %b#1 : !stablehlo.token
  %sent = "stablehlo.send"(%sum, %joined) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  %out = "stablehlo.outfeed"(%sum, %sent) : (tensor<2xi32>, !stablehlo.token) -> !stablehlo.token
  func.return %sum, %out : tensor<2xi32>, !stablehlo.token
}

func.func private @consumer(%t: !stablehlo.token) -> (tensor<2xi32>, !stablehlo.token) {
  %r:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (!stablehlo.token) -> (tensor<2xi32>, !stablehlo.token)
  func.return %r#0, %r#1 : tensor<2xi32>, !stablehlo.token
}

func.func @main() {
  %t = stablehlo.after_all : !stablehlo.token
  %old = stablehlo.create_token : !stablehlo.token
  %r:4 = "interpreter.run_parallel"(%t, %old) {infeed = [@feed0, @feed1], programs = [[@producer], [@consumer]]} : (!stablehlo.token, !stablehlo.token) -> (tensor<2xi32>, !stablehlo.token, tensor<2xi32>, !stablehlo.token)
  check.expect_eq_const %r#0, dense<[4, 6]> : tensor<2xi32>
  check.expect_eq_const %r#2, dense<[4, 6]> : tensor<2xi32>
  func.return
}

// Feature 0 of x holds [1, 2, 3, 4] (mean 2.5, variance 1.25), feature 1 holds [3, 4, 1, 2]
// (the same statistics). Inference with mean 2, variance 4, scale 2, offset 1 maps v to
// (v - 2) / 2 * 2 + 1 = v - 1.
func.func @batch_norm() {
  %x = stablehlo.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[3.0, 4.0], [1.0, 2.0]]]]> : tensor<1x2x2x2xf32>
  %one = stablehlo.constant dense<1.0> : tensor<2xf32>
  %0:3 = "stablehlo.batch_norm_training"(%x, %one, %one) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const %0#1, dense<[2.5, 2.5]> : tensor<2xf32>
  check.expect_almost_eq_const %0#2, dense<[1.25, 1.25]> : tensor<2xf32>
  // (1 - 2.5) / sqrt(1.25) + 1 = -0.3416408, (2 - 2.5) / sqrt(1.25) + 1 = 0.5527864, ...
  check.expect_almost_eq_const %0#0, dense<[[[[-0.3416408, 0.5527864], [1.4472136, 2.3416408]], [[1.4472136, 2.3416408], [-0.3416408, 0.5527864]]]]> : tensor<1x2x2x2xf32>
  %two = stablehlo.constant dense<2.0> : tensor<2xf32>
  %four = stablehlo.constant dense<4.0> : tensor<2xf32>
  %1 = "stablehlo.batch_norm_inference"(%x, %two, %one, %two, %four) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  check.expect_almost_eq_const %1, dense<[[[[0.0, 1.0], [2.0, 3.0]], [[2.0, 3.0], [0.0, 1.0]]]]> : tensor<1x2x2x2xf32>
  // The gradient of a sum of outputs (grad_output all ones) with respect to the operand is
  // zero (normalization removes a constant shift), to scale the sum of the normalized
  // values (zero), to offset the element count per feature (4).
  %ones = stablehlo.constant dense<1.0> : tensor<1x2x2x2xf32>
  %2:3 = "stablehlo.batch_norm_grad"(%x, %one, %0#1, %0#2, %ones) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  check.expect_almost_eq_const %2#0, dense<0.0> : tensor<1x2x2x2xf32>
  check.expect_almost_eq_const %2#1, dense<0.0> : tensor<2xf32>
  check.expect_almost_eq_const %2#2, dense<4.0> : tensor<2xf32>
  func.return
}

// [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]]; the upper factor is L^T.
func.func @cholesky_and_broadcast() {
  %a = stablehlo.constant dense<[[4.0, 2.0], [2.0, 5.0]]> : tensor<2x2xf32>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_almost_eq_const %l, dense<[[2.0, 0.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %u = stablehlo.cholesky %a : tensor<2x2xf32>
  check.expect_almost_eq_const %u, dense<[[2.0, 1.0], [0.0, 2.0]]> : tensor<2x2xf32>
  %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.broadcast %v, sizes = [2] : (tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %b, dense<[[1, 2, 3], [1, 2, 3]]> : tensor<2x3xi32>
  func.return
}
