func.func @main() -> tensor<67108864xi8> {
  %0 = stablehlo.constant dense<1> : tensor<67108864xi8>
  return %0 : tensor<67108864xi8>
}
