// The MLIR pipeline syntax and xDSL's -p list run the same passes.
// RUN: qopt --pass-pipeline='builtin.module(canonicalize,cse)' %s > %t.mlir-syntax
// RUN: qopt -p canonicalize,cse %s > %t.p-syntax
// RUN: diff %t.mlir-syntax %t.p-syntax
// RUN: FileCheck %s < %t.mlir-syntax
// A pass nested under func.func runs on each function.
// RUN: qopt --pass-pipeline='builtin.module(func.func(cse))' %s | FileCheck %s --check-prefix=NESTED
// An empty pipeline only parses, verifies and prints.
// RUN: qopt --pass-pipeline='builtin.module()' %s | FileCheck %s --check-prefix=EMPTY
// Whitespace is allowed between pipeline elements.
// RUN: qopt --pass-pipeline=' builtin.module( canonicalize , func.func( cse ) ) ' %s | FileCheck %s

// CHECK-LABEL: func.func @dedup
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    %a = arith.addi %x, %c1 : i32
// CHECK-NEXT:    return %a, %a : i32, i32
// NESTED-LABEL: func.func @dedup
// NESTED-NEXT:    %c1 = arith.constant 1 : i32
// NESTED-NEXT:    %a = arith.addi %x, %c1 : i32
// NESTED-NEXT:    return %a, %a : i32, i32
// EMPTY-LABEL: func.func @dedup
// EMPTY-NEXT:    %c1 = arith.constant 1 : i32
// EMPTY-NEXT:    %c1b = arith.constant 1 : i32
func.func @dedup(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %a = arith.addi %x, %c1 : i32
  %b = arith.addi %x, %c1b : i32
  func.return %a, %b : i32, i32
}

// Canonicalization folds x + 0; CSE alone does not.
// CHECK-LABEL: func.func @fold
// CHECK-NEXT:    return %x : i32
// NESTED-LABEL: func.func @fold
// NESTED-NEXT:    %c0 = arith.constant 0 : i32
// NESTED-NEXT:    %a = arith.addi %x, %c0 : i32
func.func @fold(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %a = arith.addi %x, %c0 : i32
  func.return %a : i32
}
