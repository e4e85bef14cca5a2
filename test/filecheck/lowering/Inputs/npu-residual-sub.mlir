// A residual-style elementwise sub as ONNX's QLinearAdd-like lowering writes it: each
// operand widened by a rescale that only shifts left (<< 20), rescaled i32 -> i32, the
// difference, then the rescale to i8.
func.func @main(%a: tensor<1x4x4x16xi8>, %b: tensor<1x4x4x16xi8>) -> tensor<1x4x4x16xi8> {
  %one = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %ten = tosa.const values(dense<10> : tensor<1xi8>) : () -> tensor<1xi8>
  %ma = tosa.const values(dense<1518500250> : tensor<1xi32>) : () -> tensor<1xi32>
  %mb = tosa.const values(dense<1288490189> : tensor<1xi32>) : () -> tensor<1xi32>
  %sa = tosa.const values(dense<31> : tensor<1xi8>) : () -> tensor<1xi8>
  %so = tosa.const values(dense<51> : tensor<1xi8>) : () -> tensor<1xi8>
  %za = tosa.const values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
  %zb = tosa.const values(dense<7> : tensor<1xi8>) : () -> tensor<1xi8>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %wa = tosa.rescale %a, %one, %ten, %za, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x4x4x16xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x16xi32>
  %wb = tosa.rescale %b, %one, %ten, %zb, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x4x4x16xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x4x4x16xi32>
  %ra = tosa.rescale %wa, %ma, %sa, %z32, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x4x4x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<1x4x4x16xi32>
  %rb = tosa.rescale %wb, %mb, %sa, %z32, %z32 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x4x4x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi32>) -> tensor<1x4x4x16xi32>
  %d = tosa.sub %ra, %rb : (tensor<1x4x4x16xi32>, tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
  %o = tosa.rescale %d, %ma, %so, %z32, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x4x4x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x4x4x16xi8>
  return %o : tensor<1x4x4x16xi8>
}
