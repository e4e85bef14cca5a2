// IR dumps and timing go to stderr; stdout keeps only the final IR.
// RUN: qopt %s -p canonicalize,cse --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: qopt %s -p canonicalize,cse --mlir-print-ir-before=cse 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE
// RUN: qopt %s -p canonicalize,cse --mlir-print-ir-after=canonicalize 2>&1 >/dev/null | FileCheck %s --check-prefix=AFTER
// RUN: qopt %s -p canonicalize,cse --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: qopt %s -p canonicalize,cse --mlir-timing 2>/dev/null | FileCheck %s --check-prefix=STDOUT

// ALL: // -----// IR Dump After canonicalize //----- //
// ALL: %c1 = arith.constant 1 : i32
// ALL: %c1b = arith.constant 1 : i32
// ALL: // -----// IR Dump After cse //----- //
// ALL-NOT: %c1b

// BEFORE-NOT: IR Dump Before canonicalize
// BEFORE: // -----// IR Dump Before cse //----- //
// BEFORE-NOT: IR Dump

// AFTER: // -----// IR Dump After canonicalize //----- //
// AFTER-NOT: IR Dump

// TIMING: Execution time report
// TIMING: Total Execution Time: {{[0-9.]+}} seconds
// TIMING: ----Wall Time----  ----Name----
// TIMING-DAG: Parser
// TIMING-DAG: Verifier
// TIMING-DAG: canonicalize
// TIMING-DAG: cse
// TIMING-DAG: Output
// TIMING: (100.0%)  Total

// STDOUT: module {
// STDOUT-NOT: Execution time report

func.func @f(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %a = arith.addi %x, %c1 : i32
  %b = arith.addi %x, %c1b : i32
  func.return %a, %b : i32, i32
}
