// The README's classifier command: the TFLite classifier partitioned (the NPU runs
// the layers, the host the softmax), bundled, run by qrt; then the same inputs
// through the unpartitioned TOSA on the reference interpreter, and the two outputs
// compared element by element (no tolerance).
// RUN: rm -rf %t && mkdir -p %t
// RUN: qopt %S/../../../examples/tflite_classifier.mlir -p 'canonicalize,npu-partition' -t bundle -o %t/classifier.qbundle
// RUN: qrt %t/classifier.qbundle --random-inputs 0 --stats | FileCheck %s --check-prefix=OUT
// RUN: qrt %t/classifier.qbundle --describe | FileCheck %s --check-prefix=DESCRIBE
// RUN: qrun %S/../../../examples/tflite_classifier.mlir --entry main --random-inputs 0 --save-inputs %t/x.npz --outputs %t/want.npz
// RUN: qrt %t/classifier.qbundle --inputs %t/x.npz --outputs %t/got.npz
// RUN: qrun --compare %t/want.npz %t/got.npz | FileCheck %s --check-prefix=SAME

// OUT: result0: int8[1, 10]
// OUT: function calls cycles useful MACs executed util DRAM read written
// OUT-NEXT: @main_npu0 1 {{[0-9,]+}} {{[0-9,]+}} {{[0-9,]+}} {{[0-9.]+}}%
// OUT: total 1
// OUT-NEXT: (useful MACs: the model's, taps on padding not counted;
// DESCRIBE: region @main_npu0: machine 'default'
// DESCRIBE-NOT: region
// SAME: result0 {{.*}} 0 0 ok
// SAME: 1 passed, 0 failed
