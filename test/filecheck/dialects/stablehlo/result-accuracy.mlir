// #stablehlo.result_accuracy on the transcendental ops: upstream's syntax (tolerances in
// order, each optional, then the mode), zero tolerances not printed, the default value
// not printed at all, and upstream's errors for negative or misplaced tolerances.
// RUN: qopt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK-LABEL: func.func @accuracy
// CHECK: stablehlo.exponential %a : tensor<2xf32>
// CHECK: stablehlo.tanh %{{.*}} {result_accuracy = #stablehlo.result_accuracy<atol = 1.000000e-05, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<2xf32>
// CHECK: stablehlo.log %{{.*}} {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : tensor<2xf32>
func.func @accuracy(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.exponential"(%a) {result_accuracy = #stablehlo.result_accuracy<atol = 0.0, rtol = 0.0, ulps = 0, mode = #stablehlo.result_accuracy_mode<DEFAULT>>} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "stablehlo.tanh"(%0) {result_accuracy = #stablehlo.result_accuracy<atol = 1.0e-5, rtol = 0.0, ulps = 2, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "stablehlo.log"(%1) {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %2 : tensor<2xf32>
}

// -----

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{Invalid tolerances for ResultAccuracyAttr with mode HIGHEST, must be all zero.}}
  %0 = "stablehlo.sine"(%a) {result_accuracy = #stablehlo.result_accuracy<ulps = 1, mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{Negative tolerance}}
  %0 = "stablehlo.cosine"(%a) {result_accuracy = #stablehlo.result_accuracy<rtol = -1.0e-3, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
