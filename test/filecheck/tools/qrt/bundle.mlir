// qrt runs a .qbundle: qopt partitions a residual block whose skip branch
// passes a host op (tosa.maximum) into two NPU regions, bundles their binaries
// with the host program, and qrt's result equals qrun's on the unpartitioned
// TOSA, element for element.
// RUN: rm -rf %t && mkdir -p %t
// RUN: qopt %s -p 'npu-partition' -t bundle -o %t/model.qbundle
// RUN: qrt %t/model.qbundle --describe | FileCheck %s --check-prefix=DESCRIBE
// RUN: qrt %t/model.qbundle --random-inputs 3 --save-inputs %t/x.npz --outputs %t/npu.npz --stats --trace 2> %t/trace.txt | FileCheck %s --check-prefix=STATS
// RUN: FileCheck %s --check-prefix=TRACE < %t/trace.txt
// RUN: qrun %s --entry main --inputs %t/x.npz --outputs %t/ref.npz
// RUN: qrun --compare %t/npu.npz %t/ref.npz | FileCheck %s --check-prefix=SAME
// A bundle needs -o; a file that is not a bundle, and a bundle with missing
// inputs, are one-line errors.
// RUN: not qopt %s -p 'npu-partition' -t bundle 2>&1 | FileCheck %s --check-prefix=NOOUT
// RUN: not qrt %s 2>&1 | FileCheck %s --check-prefix=NOTBUNDLE
// RUN: not qrt %t/model.qbundle 2>&1 | FileCheck %s --check-prefix=NOINPUTS

// DESCRIBE: entry: @main
// DESCRIBE-NEXT: host: {{[0-9]+}} ops
// DESCRIBE-NEXT: region @main_npu0: machine 'default' (digest {{[0-9a-f]+}}), {{[0-9]+}} instructions, weights
// DESCRIBE-NEXT: in arg0: int8[4, 8]
// DESCRIBE-NEXT: out result0: int8[4, 8]
// DESCRIBE-NEXT: out result1: int8[4, 8]
// DESCRIBE-NEXT: region @main_npu1:
// DESCRIBE-NEXT: in arg0: int8[4, 8]
// DESCRIBE-NEXT: in arg1: int8[4, 8]
// DESCRIBE-NEXT: out result0: int8[4, 8]

// STATS: @main_npu0 1
// STATS-NEXT: @main_npu1 1
// STATS-NEXT: total 2

// TRACE: npu  @main_npu0
// TRACE-NEXT: host tosa.maximum
// TRACE-NEXT: npu  @main_npu1

// SAME: result0 {{.*}} ok

// NOOUT: error: -t bundle writes a binary file: give -o FILE.qbundle
// NOTBUNDLE: qrt: error: '{{.*}}bundle.mlir': not a bundle (not a zip archive
// NOINPUTS: qrt: error: @main takes 1 arguments: pass --inputs or --random-inputs


func.func @main(%x: tensor<4x8xi8>) -> tensor<4x8xi8> {
  %s3 = tosa.const_shape values(dense<[1, 4, 8]> : tensor<3xindex>) : () -> !tosa.shape<3>
  %s2 = tosa.const_shape values(dense<[4, 8]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %w = tosa.const values(dense<1> : tensor<1x8x8xi8>) : () -> tensor<1x8x8xi8>
  %z8 = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %z32 = tosa.const values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %m = tosa.const values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %sh = tosa.const values(dense<33> : tensor<1xi8>) : () -> tensor<1xi8>
  %wide = tosa.const values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %f1_a = tosa.reshape %x, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %f1_acc = tosa.matmul %f1_a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %f1_acc2 = tosa.reshape %f1_acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %f1 = tosa.rescale %f1_acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  %f2_a = tosa.reshape %f1, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %f2_acc = tosa.matmul %f2_a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %f2_acc2 = tosa.reshape %f2_acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %f2 = tosa.rescale %f2_acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  %h = tosa.maximum %f1, %f1 : (tensor<4x8xi8>, tensor<4x8xi8>) -> tensor<4x8xi8>
  %wa = tosa.rescale %f2, %m, %wide, %z8, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4x8xi32>
  %wb = tosa.rescale %h, %m, %wide, %z8, %z32 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4x8xi32>
  %sum = tosa.add %wa, %wb : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %y = tosa.rescale %sum, %m, %wide, %z32, %z8 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  %f3_a = tosa.reshape %y, %s3 : (tensor<4x8xi8>, !tosa.shape<3>) -> tensor<1x4x8xi8>
  %f3_acc = tosa.matmul %f3_a, %w, %z8, %z8 : (tensor<1x4x8xi8>, tensor<1x8x8xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8xi32>
  %f3_acc2 = tosa.reshape %f3_acc, %s2 : (tensor<1x4x8xi32>, !tosa.shape<2>) -> tensor<4x8xi32>
  %f3 = tosa.rescale %f3_acc2, %m, %sh, %z32, %z8 scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4x8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x8xi8>
  func.return %f3 : tensor<4x8xi8>
}

