// A symbol defined twice in one symbol table: MLIR's error at the second definition,
// with its note at the first (iree-opt reports both at these lines).
// RUN: qopt %s --split-input-file --verify-diagnostics

module {
  // expected-note@below {{see existing symbol definition here}}
  tosa.variable @stored_var = dense<-1> : tensor<2x4x8xi32>
  // expected-error@+1 {{redefinition of symbol named 'stored_var'}}
  tosa.variable @stored_var = dense<-3> : tensor<2x4x8xi32>
}

// -----

// expected-note@below {{see existing symbol definition here}}
func.func private @f(i8)
// expected-error@+1 {{redefinition of symbol named 'f'}}
func.func @f(%a: i8) {
  return
}
