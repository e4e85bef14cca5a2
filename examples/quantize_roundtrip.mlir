// A float value quantized per tensor and per axis, reinterpreted as its storage
// integers, and dequantized again. Run:
//   qopt --pass-pipeline='builtin.module(canonicalize,cse)' examples/quantize_roundtrip.mlir
!act = !quant.uniform<i8:f32, 0.0078431372549019607:-3>
!wgt = !quant.uniform<i8<-127:127>:f32:1, {0.02,0.015,0.0125,0.01}>

func.func @activations(%x: tensor<1x4xf32>) -> (tensor<1x4xi8>, tensor<1x4xf32>) {
  %q = quant.qcast %x : tensor<1x4xf32> to tensor<1x4x!act>
  %q2 = quant.qcast %x : tensor<1x4xf32> to tensor<1x4x!act>
  %s = quant.scast %q : tensor<1x4x!act> to tensor<1x4xi8>
  %d = quant.dcast %q2 : tensor<1x4x!act> to tensor<1x4xf32>
  func.return %s, %d : tensor<1x4xi8>, tensor<1x4xf32>
}

func.func @weights(%w: tensor<3x4xi8>) -> tensor<3x4xf32> {
  %q = quant.scast %w : tensor<3x4xi8> to tensor<3x4x!wgt>
  %unused = quant.dcast %q : tensor<3x4x!wgt> to tensor<3x4xf32>
  %d = quant.dcast %q : tensor<3x4x!wgt> to tensor<3x4xf32>
  func.return %d : tensor<3x4xf32>
}
