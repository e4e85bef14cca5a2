// The README's end-to-end command: quantized StableHLO -> TOSA -> NPU binary ->
// simulator, then the same inputs through the TOSA program on the reference
// interpreter, and the two outputs compared element by element (no tolerance).
// RUN: rm -rf %t && mkdir -p %t
// RUN: qopt %S/../../../examples/resnet_block.mlir -p 'stablehlo-legalize-to-tosa,canonicalize,tosa-to-npu' -t npu-bin -o %t/resnet.npub
// RUN: qsim %t/resnet.npub --random-inputs 0 --stats | FileCheck %s --check-prefix=SIM
// RUN: qopt %S/../../../examples/resnet_block.mlir -p 'stablehlo-legalize-to-tosa,canonicalize' -o %t/resnet.tosa.mlir
// RUN: qrun %t/resnet.tosa.mlir --entry main --random-inputs 0 --save-inputs %t/x.npz --outputs %t/want.npz
// RUN: qsim %t/resnet.npub --inputs %t/x.npz --outputs %t/got.npz --orders 3
// RUN: qrun --compare %t/want.npz %t/got.npz | FileCheck %s --check-prefix=SAME

// SIM: result0: int8[1, 8, 8, 8]
// SIM: cycles:
// SIM: MAC utilization:
// SAME: result0 {{.*}} 0 0 ok
// SAME: 1 passed, 0 failed
