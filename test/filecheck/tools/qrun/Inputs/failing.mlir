func.func @good() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %a, dense<[1, 2]> : tensor<2xi32>
  func.return
}

func.func @bad() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.add %a, %a : tensor<2xi32>
  check.expect_eq_const %b, dense<[2, 5]> : tensor<2xi32>
  func.return
}

func.func @unsupported() {
  %a = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %b = stablehlo.custom_call @some.kernel(%a) : (tensor<1xf32>) -> tensor<1xf32>
  func.return
}
