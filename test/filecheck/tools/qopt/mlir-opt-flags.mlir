// qopt reads mlir-opt's RUN lines as written: long options with one dash, and passes
// given as flags (`--canonicalize`, `-cse`, `--name=options`), run in the order given.
// RUN: qopt %s -split-input-file -canonicalize | FileCheck %s
// RUN: qopt %s --split-input-file --canonicalize=test-convergence -cse | FileCheck %s
// RUN: qopt %s -split-input-file -verify-diagnostics --canonicalize -mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// RUN: not qopt %s --canonicalize --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not qopt %s -no-such-flag 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// The scast pair folds away (canonicalize ran).
// CHECK-LABEL: func.func @pair
// CHECK-NEXT: return %x : tensor<4xi8>
func.func @pair(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = quant.scast %x : tensor<4xi8> to tensor<4x!quant.uniform<i8:f32, 0.5>>
  %1 = quant.scast %0 : tensor<4x!quant.uniform<i8:f32, 0.5>> to tensor<4xi8>
  return %1 : tensor<4xi8>
}

// DUMP: // -----// IR Dump After canonicalize //----- //
// BOTH: error: '--pass-pipeline' cannot be used with passes given as flags
// UNKNOWN: error: unrecognized arguments: -no-such-flag
