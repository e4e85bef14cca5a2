// The fully connected layer of tosa-to-npu.mlir, for the binary round trip.
func.func @main(%x: tensor<2x6xi8>) -> tensor<2x5xi8> {
  %w = tosa.const values(dense<1> : tensor<1x6x5xi8>) : () -> tensor<1x6x5xi8>
  %s1 = tosa.const_shape values(dense<[1, 2, 6]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %a = tosa.reshape %x, %s1 : (tensor<2x6xi8>, !tosa.shape<3>) -> tensor<1x2x6xi8>
  %za = tosa.const values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %zb = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %w, %za, %zb : (tensor<1x2x6xi8>, tensor<1x6x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x5xi32>
  %s2 = tosa.const_shape values(dense<[2, 5]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %acc2 = tosa.reshape %acc, %s2 : (tensor<1x2x5xi32>, !tosa.shape<2>) -> tensor<2x5xi32>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %sh = tosa.const values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %iz = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %oz = tosa.const values(dense<-4> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %acc2, %m, %sh, %iz, %oz scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<2x5xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x5xi8>
  %c = tosa.clamp %r min_val(-4 : i8) max_val(100 : i8) : (tensor<2x5xi8>) -> tensor<2x5xi8>
  func.return %c : tensor<2x5xi8>
}
