// A failing check names the function, the check's location and the mismatch,
// and qrun exits 1 (errors on stderr); an op the interpreter cannot run is an error at that op.
// RUN: not qrun %S/Inputs/failing.mlir 2>&1 | FileCheck %s
// CHECK: PASS: @good
// CHECK-NEXT: FAIL: @bad
// CHECK-NEXT: failing.mlir:10:3: error: check.expect_eq_const failed: 1 of 2 elements differ; first at index [1]: got 4, expected 5
// CHECK-NEXT: FAIL: @unsupported
// CHECK-NEXT: failing.mlir:16:3: error: custom_call target 'some.kernel' is not supported by the interpreter
// CHECK-NEXT: 1 passed, 2 failed
