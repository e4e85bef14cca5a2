// Stage 4 of tosa-to-npu (src/lowering/npu_assemble.py): the records as one
// npu.program op, an op per instruction, carrying the plan's constant sections
// (name -> [DRAM address, bytes]), io manifest and layer map (each layer's source
// name — none in this input —, instruction range, output address and useful MACs).
// It replaces the functions.
// RUN: qopt %S/Inputs/npu-layer-kinds.mlir -p 'tosa-to-npu{machine=small}' | FileCheck %s

// CHECK: module {
// CHECK-NEXT: npu.program machine = "small" attributes {npu.io = "{\22inputs\22: [{\22name\22: \22arg0\22, \22dram\22: 0, \22shape\22: [1, 4, 4, 4], \22dtype\22: \22int8\22}], \22outputs\22: [{\22name\22: \22result0\22, \22dram\22: 512, \22shape\22: [1, 2, 2, 6], \22dtype\22: \22int8\22}]}", npu.layers = "[{\22name\22: \22\22, \22code\22: [0, 22], \22dram\22: 448, \22shape\22: [1, 2, 2, 4], \22macs\22: 0}, {{.*}}, {\22name\22: \22\22, \22code\22: [51, 68], \22dram\22: 512, \22shape\22: [1, 2, 2, 6], \22macs\22: {{[0-9]+}}}]", npu.sections = {luts = [192, dense<{{.*}}> : tensor<256xi8>], params = [64, dense<{{.*}}> : tensor<128xi8>]}} {
// CHECK-NEXT: npu.load2d [buf = input, row = 0, dram = 0, rows = 2, row_bytes = 4, stride = 8, blocks = 2, block_stride = 32, pad = -128, pad_top = 0, pad_bottom = 0]
// CHECK: npu.load [buf = params, row = 0, dram = 64, rows = 4, row_bytes = 16, stride = 16, pad = 0, pad_top = 0, pad_bottom = 0, pad_left = 0]
// CHECK: npu.pool [op = max, buf = input, in = 0, acc = 0, rows = 4, taps = 1, row_step = 1, tap_step = 1]
// CHECK: npu.halt
// CHECK-NEXT: }
// CHECK-NOT: func.func
