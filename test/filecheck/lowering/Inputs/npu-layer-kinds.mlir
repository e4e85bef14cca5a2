// One layer of each kind that is not a MAC layer, for the stage dumps:
// max pool 2x2 -> table -> pad of the last axis (a DMA-only move) -> rescale
// (a one-input vector layer) clamped to [0, 100].
func.func @main(%x: tensor<1x4x4x4xi8>) -> tensor<1x2x2x6xi8> {
  %p = tosa.max_pool2d %x kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) : (tensor<1x4x4x4xi8>) -> tensor<1x2x2x4xi8>
  %t = tosa.const values(dense<7> : tensor<256xi8>) : () -> tensor<256xi8>
  %l = tosa.table %p, %t : (tensor<1x2x2x4xi8>, tensor<256xi8>) -> tensor<1x2x2x4xi8>
  %a = tosa.const_shape values(dense<[0, 0, 0, 0, 0, 0, 1, 1]> : tensor<8xindex>) : () -> !tosa.shape<8>
  %v = tosa.const values(dense<-5> : tensor<1xi8>) : () -> tensor<1xi8>
  %d = tosa.pad %l, %a, %v : (tensor<1x2x2x4xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x2x2x6xi8>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const values(dense<31> : tensor<1xi8>) : () -> tensor<1xi8>
  %iz = tosa.const values(dense<-5> : tensor<1xi8>) : () -> tensor<1xi8>
  %oz = tosa.const values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %d, %m, %s, %iz, %oz scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<1x2x2x6xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x6xi8>
  %c = tosa.clamp %r min_val(0 : i8) max_val(100 : i8) : (tensor<1x2x2x6xi8>) -> tensor<1x2x2x6xi8>
  func.return %c : tensor<1x2x2x6xi8>
}
