// An elementwise add whose second operand is a per-channel constant [1,1,1,4]
// broadcast over H and W (@main), and one whose broadcast operand is computed
// (@computed): the NPU reads elementwise operands in the result's shape, so only
// a constant, which the plan tiles into the weights section, may broadcast.
func.func @main(%x: tensor<1x2x3x4xi8>) -> tensor<1x2x3x4xi8> {
  %c = tosa.const values(dense<[[[[1, -2, 3, -4]]]]> : tensor<1x1x1x4xi8>) : () -> tensor<1x1x1x4xi8>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %wx = tosa.rescale %x, %m, %s, %z8, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x2x3x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x3x4xi32>
  %wc = tosa.rescale %c, %m, %s, %z8, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x1x1x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x4xi32>
  %sum = tosa.add %wx, %wc : (tensor<1x2x3x4xi32>, tensor<1x1x1x4xi32>) -> tensor<1x2x3x4xi32>
  %out = tosa.rescale %sum, %m, %s, %z32, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x2x3x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x3x4xi8>
  func.return %out : tensor<1x2x3x4xi8>
}

func.func @computed(%x: tensor<1x2x3x4xi8>, %y: tensor<1x1x1x4xi8>) -> tensor<1x2x3x4xi8> {
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %wx = tosa.rescale %x, %m, %s, %z8, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x2x3x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x3x4xi32>
  %wy = tosa.rescale %y, %m, %s, %z8, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x1x1x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x4xi32>
  %sum = tosa.add %wx, %wy : (tensor<1x2x3x4xi32>, tensor<1x1x1x4xi32>) -> tensor<1x2x3x4xi32>
  %out = tosa.rescale %sum, %m, %s, %z32, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x2x3x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x3x4xi8>
  func.return %out : tensor<1x2x3x4xi8>
}
