// Running one function on inputs from .npz files, random inputs, dumps, compare.
// RUN: rm -rf %t && mkdir -p %t
// RUN: qrun %s --entry main --random-inputs 7 --save-inputs %t/in.npz --outputs %t/out1.npz --dump-all-tensors %t/dump.npz
// RUN: qrun %s --entry main --inputs %t/in.npz --outputs %t/out2.npz
// RUN: qrun --compare %t/out1.npz %t/out2.npz | FileCheck %s --check-prefix=SAME
// SAME: result0 {{.*}} 4x3 {{.*}} 1.000000 {{.*}} inf {{.*}} 0 {{.*}} 0  ok
// SAME: 1 passed, 0 failed
// RUN: qrun --compare %t/dump.npz %t/dump.npz | FileCheck %s --check-prefix=DUMP
// DUMP: main/q
// DUMP: main/sum
// RUN: not qrun %s --entry main 2>&1 | FileCheck %s --check-prefix=NOINPUTS
// NOINPUTS: error: @main takes 2 arguments: pass --inputs FILE.npz or --random-inputs SEED
// RUN: not qrun %s --entry nope --random-inputs 1 2>&1 | FileCheck %s --check-prefix=NOENTRY
// NOENTRY: error: no function @nope in '{{.*}}entry.mlir' (have: @main)
// RUN: not qrun %s --entry main --inputs %t/missing.npz 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot read '{{.*}}missing.npz': No such file or directory
// RUN: not qrun %s --entry main --inputs %t/out1.npz 2>&1 | FileCheck %s --check-prefix=KEYS
// KEYS: error: '{{.*}}out1.npz' lacks arg0, arg1 for @main (2 arguments)
// RUN: qrun %s --entry main --random-inputs 7 | FileCheck %s --check-prefix=PRINT
// PRINT: result0: float32[4, 3]

func.func @main(%x: tensor<4x3xf32>, %w: tensor<3x3xi8>) -> tensor<4x3xf32> {
  %q = stablehlo.uniform_quantize %x : (tensor<4x3xf32>) -> tensor<4x3x!quant.uniform<i8:f32, 0.05>>
  %d = stablehlo.uniform_dequantize %q : (tensor<4x3x!quant.uniform<i8:f32, 0.05>>) -> tensor<4x3xf32>
  %wf = stablehlo.convert %w : (tensor<3x3xi8>) -> tensor<3x3xf32>
  %sum = stablehlo.dot_general %d, %wf, contracting_dims = [1] x [0] : (tensor<4x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
  func.return %sum : tensor<4x3xf32>
}
