// qcompare: every named tensor at every stage against float; the first below the
// thresholds named, the NPU checked against TOSA bit for bit.
// RUN: qcalib %s --data %S/../qprecision/Inputs/calib.npz -o %t.json --quiet
// RUN: qcompare %s --calibration %t.json --data %S/../qprecision/Inputs/eval.npz --samples 2 --json %t.table.json --dump %t.dumps --save-stages %t.stages | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.table.json
// RUN: not qcompare %s --calibration %t.json --data %S/../qprecision/Inputs/eval.npz --min-sqnr 60 | FileCheck %s --check-prefix=BELOW
// RUN: not qcompare %s --calibration %t.json --random-inputs 0 --stages quant,gpu 2>&1 | FileCheck %s --check-prefix=STAGE
// RUN: sed -e 's/ loc("[a-z]*")//' %s > %t.unnamed.mlir
// RUN: not qcompare %t.unnamed.mlir --calibration %t.json --random-inputs 0 2>&1 | FileCheck %s --check-prefix=UNNAMED
// RUN: qcut %t.stages/quant.mlir --inputs conv --outputs pool -o %t.cut.mlir --from-dump %t.dumps/quant.npz --sample 1 | FileCheck %s --check-prefix=CUT
// RUN: qrun %t.cut.mlir --entry main --inputs %t.cut.inputs.npz --outputs %t.out.npz
// RUN: qrun --compare %t.out.npz %t.out.npz | FileCheck %s --check-prefix=RAN

// CHECK: tensor shape | quant dB cos max|e|q | tosa dB cos max|e|q !=quant | npu dB cos max|e|q !=tosa
// CHECK: x 1x4x4x2 | inf 1.00000 -
// CHECK-NEXT: conv 1x4x4x3 | {{[0-9.]+}} {{.*}} (fused into relu)
// CHECK-NEXT: relu 1x4x4x3 | {{[0-9.]+}} {{.*}} | {{[0-9.]+}} {{.*}} | {{[0-9.]+}} {{[0-9.]+}} {{[0-9.]+}} 0
// CHECK-NEXT: pool 1x2x2x3 | {{[0-9.]+}} 0.99
// CHECK: qcompare: every tensor within the thresholds (SQNR >= 20 dB, cosine >= 0.99)
// CHECK: qcompare: wrote {{.*}}.dumps/float.npz
// CHECK: qcompare: wrote {{.*}}.stages/npu.mlir

// JSON: "stages": [
// JSON-NEXT: "quant",
// JSON: "first_below": null,
// JSON: "tensor": "conv",
// JSON-NEXT: "shape": [
// JSON: "fused_into": "relu",

// BELOW: qcompare: first below the thresholds: 'relu' in the quant stage (SQNR >= 60 dB, cosine >= 0.99)
// STAGE: qcompare: error: --stages: unknown stage(s) gpu (of quant, tosa, npu)
// UNNAMED: qcompare: error: no op of @main carries a name: tensors are matched by the source model's names
// CUT: qcut: wrote {{.*}}.cut.mlir
// CUT-NEXT: qcut: wrote {{.*}}.cut.inputs.npz (sample 1)
// RAN: 1 passed, 0 failed

func.func @main(%x: tensor<1x4x4x2xf32> loc("x")) -> tensor<1x2x2x3xf32> {
  %w = stablehlo.constant dense<[[[[0.5, -1.27, 0.25], [0.127, 0.5, -0.02]]]]> : tensor<1x1x2x3xf32>
  %c = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x4x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x4x4x3xf32> loc("conv")
  %b = stablehlo.constant dense<[0.1, -0.2, 0.3]> : tensor<3xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<3xf32>) -> tensor<1x4x4x3xf32>
  %s = stablehlo.add %c, %bb : tensor<1x4x4x3xf32> loc("conv")
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %zb = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<1x4x4x3xf32>
  %r = stablehlo.maximum %s, %zb : tensor<1x4x4x3xf32> loc("relu")
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %p = "stablehlo.reduce_window"(%r, %init) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %e: tensor<f32>):
    %m = stablehlo.maximum %a, %e : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<1x4x4x3xf32>, tensor<f32>) -> tensor<1x2x2x3xf32> loc("pool")
  func.return %p : tensor<1x2x2x3xf32>
}
