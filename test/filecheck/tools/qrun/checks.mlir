// qrun runs every public function without arguments and reports its checks.
// RUN: qrun %s | FileCheck %s
// RUN: qrun %s --split-input-file | FileCheck %s --check-prefix=SPLIT

// CHECK: PASS: @float_ops
// CHECK: PASS: @integer_ops
// CHECK: PASS: @quantized_ops
// CHECK: PASS: @custom_call_checks
// CHECK-NOT: @helper
// CHECK: 4 passed, 0 failed
// SPLIT: 4 passed, 0 failed

func.func @float_ops() {
  %a = stablehlo.constant dense<[1.0, -2.0, 0.5]> : tensor<3xf32>
  %b = stablehlo.constant dense<[0.5, 0.5, 0.5]> : tensor<3xf32>
  %0 = stablehlo.multiply %a, %b : tensor<3xf32>
  %1 = stablehlo.tanh %0 : tensor<3xf32>
  check.expect_eq_const %0, dense<[0.5, -1.0, 0.25]> : tensor<3xf32>
  check.expect_almost_eq_const %1, dense<[0.462117165, -0.761594176, 0.244918659]> : tensor<3xf32>, tolerance = 1.000000e-06
  check.expect_close %1, %1, max_ulp_difference = 0 : tensor<3xf32>, tensor<3xf32>
  func.return
}

// -----

func.func @integer_ops() {
  %a = stablehlo.constant dense<[7, -7, 127]> : tensor<3xi8>
  %b = stablehlo.constant dense<[2, 2, 1]> : tensor<3xi8>
  %0 = stablehlo.divide %a, %b : tensor<3xi8>
  %1 = stablehlo.add %a, %b : tensor<3xi8>
  %2 = func.call @helper(%0) : (tensor<3xi8>) -> tensor<3xi8>
  check.expect_eq_const %0, dense<[3, -3, 127]> : tensor<3xi8>
  check.expect_eq_const %1, dense<[9, -5, -128]> : tensor<3xi8>
  check.expect_eq %2, %0 : tensor<3xi8>
  func.return
}

func.func private @helper(%x: tensor<3xi8>) -> tensor<3xi8> {
  func.return %x : tensor<3xi8>
}

// -----

func.func @quantized_ops() {
  %x = stablehlo.constant dense<[4.0, 15.0]> : tensor<2xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>
  %d = stablehlo.uniform_dequantize %q : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2xf32>
  %s = stablehlo.bitcast_convert %q : (tensor<2x!quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>>) -> tensor<2xi8>
  check.expect_eq_const %s, dense<[10, 10]> : tensor<2xi8>
  check.expect_almost_eq_const %d, dense<[4.0, 15.0]> : tensor<2xf32>
  func.return
}

// -----

func.func @custom_call_checks() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  stablehlo.custom_call @check.eq(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%a, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}
