// MLIR's `expected-*-re` forms and op errors worded `'dialect.op' op message`, so
// upstream-style expectations match as written.
// RUN: qopt %s --split-input-file --verify-diagnostics
// RUN: not qopt %s --split-input-file 2>&1 | FileCheck %s

// CHECK: verify-diagnostics-re.mlir:[[# @LINE + 3]]:3: error: 'stablehlo.add' op requires the same element type
func.func @mixed(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error-re @+1 {{'stablehlo.{{[a-z]+}}' op requires the same element type}}
  %0 = stablehlo.add %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Dominance errors are op errors too (MLIR emits them with emitOpError).
func.func @use_before_def() -> tensor<2xi8> {
  // expected-error-re @+1 {{op operand #{{[0-9]+}} does not dominate this use}}
  %1 = stablehlo.add %0, %0 : tensor<2xi8>
  %0 = stablehlo.constant dense<1> : tensor<2xi8>
  return %1 : tensor<2xi8>
}

// -----

// A type error in the parser is located at the type, with no op prefix.
// expected-error-re @+1 {{illegal storage type maximum: {{[0-9]+}}}}
func.func private @zp(!quant.uniform<i8<0:300>:f32, 0.1>)
