// --verify-diagnostics has MLIR's semantics: every expectation met, nothing unexpected.
// RUN: qopt %s --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=OUT
// RUN: not qopt %S/Inputs/bad-expectations.mlir --split-input-file --verify-diagnostics 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// Successful chunks are still printed.
// OUT: func.func @ok
func.func @ok() {
  func.return
}

// -----

// Designators: none (same line), @+N, @-N, @above, @below, @N (absolute line).
func.func private @same(!quant.uniform<i8:f32, 0.1:3.5>) // expected-error {{expected integer value}}

// -----

func.func private @minus(!quant.uniform<i8:f32, 0.1:3.5>)
// expected-error @-1 {{expected integer}}

// -----

// expected-error @below {{expected integer}}
func.func private @below(!quant.uniform<i8:f32, 0.1:3.5>)

// -----

func.func private @above(!quant.uniform<i8:f32, 0.1:3.5>)
// expected-error @above {{expected integer}}

// -----

// expected-error @35 {{expected integer}}
func.func private @absolute(!quant.uniform<i8:f32, 0.1:3.5>)

// BAD: bad-expectations.mlir:3:1: error: expected error "this never happens" was not produced
// BAD: bad-expectations.mlir:10:49: error: unexpected error: expected integer value
// BAD: bad-expectations.mlir:16:49: error: unexpected error: expected integer value
// BAD: bad-expectations.mlir:15:1: error: expected error "expected float value" was not produced
// BAD: bad-expectations.mlir:22:49: error: unexpected error: expected integer value
// BAD: bad-expectations.mlir:21:1: error: expected error "expected integer value" was not produced
// BAD: bad-expectations.mlir:28:49: error: unexpected error: expected integer value
// BAD: bad-expectations.mlir:27:1: error: expected warning "expected integer value" was not produced
// BAD: bad-expectations.mlir:33:4: error: expected-error location points outside the input
// BAD-NOT: error
