// Every NPU instruction op round-trips, in the custom and the generic form.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s --print-op-generic | qopt | FileCheck %s
// The assembly qopt emits is the whole program, which qasm reads back to the same binary:
// RUN: qopt %s -t npu-asm > %t.s && qasm %t.s -o %t.1.npub && qopt %s -t npu-bin -o %t.2.npub && cmp %t.1.npub %t.2.npub
// RUN: qopt %s -t npu-asm | FileCheck %s --check-prefix=ASM

// CHECK: npu.program machine = "default" {
// CHECK-NEXT: npu.load [buf = weight, row = 3, dram = 4096, rows = 16, row_bytes = 13, stride = 32, pad = -128, pad_top = 1, pad_bottom = 2, pad_left = 3]
// CHECK-NEXT: npu.load2d [buf = input, row = 100, dram = 64, rows = 56, row_bytes = 16, stride = 192, blocks = 14, block_stride = 21504, pad = -5, pad_top = 1, pad_bottom = 0]
// CHECK-NEXT: npu.signal [queue = ld2cp]
// CHECK-NEXT: npu.wait [queue = ld2cp]
// CHECK-NEXT: npu.fill [buf = accumulator, row = 0, rows = 8, value = -2147483648]
// CHECK-NEXT: npu.matmul [in = 1, w = 0, acc = 2, m = 4, k_tiles = 2, accumulate = 1, in_step = 2, k_step = 5, buf = input]
// CHECK-NEXT: npu.alu [op = shr, dst = 0, src = 4, rows = 4, use_imm = 1, imm = 7]
// CHECK-NEXT: npu.requant [acc = 0, out = 0, rows = 4, params = 0, zp = -3, lo = -100, hi = 127, round = double]
// CHECK-NEXT: npu.widen [buf = output, in = 0, acc = 8, rows = 4, zp = 5, shift = 20, scaled = 0, params = 0, round = single, combine = set]
// CHECK-NEXT: npu.lut [buf = input, in = 0, out = 4, rows = 2, table = 1]
// CHECK-NEXT: npu.pool [op = sum, buf = input, in = 0, acc = 12, rows = 2, taps = 4, row_step = 2, tap_step = 1]
// CHECK-NEXT: npu.signal [queue = cp2st]
// CHECK-NEXT: npu.wait [queue = cp2st]
// CHECK-NEXT: npu.store [buf = output, row = 0, dram = 8192, rows = 4, row_bytes = 16, stride = 16]
// CHECK-NEXT: npu.store2d [buf = output, row = 0, dram = 8256, rows = 2, row_bytes = 16, stride = 16, blocks = 2, block_stride = 32, row_step = 3]
// CHECK-NEXT: npu.halt
// CHECK-NEXT: }
// ASM: .machine "default" 0x{{[0-9a-f]+}}
// ASM-NEXT: .text
// ASM-NEXT: load buf=weight row=3 dram=4096 rows=16 row_bytes=13 stride=32 pad=-128 pad_top=1 pad_bottom=2 pad_left=3
// ASM-NEXT: load2d buf=input row=100 dram=64 rows=56 row_bytes=16 stride=192 blocks=14 block_stride=21504 pad=-5 pad_top=1 pad_bottom=0
// ASM: alu op=shr dst=0 src=4 rows=4 use_imm=1 imm=7
// ASM: halt
npu.program machine = "default" {
  npu.load [buf = weight, row = 3, dram = 0x1000, rows = 16, row_bytes = 13, stride = 32, pad = -128, pad_top = 1, pad_bottom = 2, pad_left = 3]
  npu.load2d [buf = input, row = 100, dram = 64, rows = 56, row_bytes = 16, stride = 192, blocks = 14, block_stride = 21504, pad = -5, pad_top = 1, pad_bottom = 0]
  npu.signal [queue = ld2cp]
  npu.wait [queue = ld2cp]
  npu.fill [buf = accumulator, row = 0, rows = 8, value = -2147483648]
  npu.matmul [in = 1, w = 0, acc = 2, m = 4, k_tiles = 2, accumulate = 1, in_step = 2, k_step = 5, buf = input]
  npu.alu [op = shr, dst = 0, src = 4, rows = 4, use_imm = 1, imm = 7]
  npu.requant [acc = 0, out = 0, rows = 4, params = 0, zp = -3, lo = -100, hi = 127, round = double]
  npu.widen [buf = output, in = 0, acc = 8, rows = 4, zp = 5, shift = 20, scaled = 0, params = 0, round = single, combine = set]
  npu.lut [buf = input, in = 0, out = 4, rows = 2, table = 1]
  npu.pool [op = sum, buf = input, in = 0, acc = 12, rows = 2, taps = 4, row_step = 2, tap_step = 1]
  npu.signal [queue = cp2st]
  npu.wait [queue = cp2st]
  npu.store [buf = output, row = 0, dram = 0x2000, rows = 4, row_bytes = 16, stride = 16]
  npu.store2d [buf = output, row = 0, dram = 0x2040, rows = 2, row_bytes = 16, stride = 16, blocks = 2, block_stride = 32, row_step = 3]
  npu.halt
}
