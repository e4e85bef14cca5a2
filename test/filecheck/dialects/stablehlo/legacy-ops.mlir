// StableHLO's legacy ops that upstream still defines and its round-trip tests use, though
// the spec has none: einsum, unary_einsum (pretty form `config = "..."`) and
// cross-replica-sum (generic form only, as upstream prints it).
// RUN: qopt %s --split-input-file --verify-diagnostics | FileCheck %s
// RUN: qopt %s --split-input-file --verify-diagnostics | qopt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @einsum
// CHECK: stablehlo.einsum %a, %b, config = "ab,bc->ac" : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi16>
// CHECK: stablehlo.unary_einsum %a, config = "ab->b" : (tensor<2x3xi8>) -> tensor<3xi8>
// CHECK: "stablehlo.cross-replica-sum"(%c) <{replica_groups = dense<0> : tensor<1x1xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
func.func @einsum(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>, %c: tensor<4xf32>) {
  %0 = "stablehlo.einsum"(%a, %b) {einsum_config = "ab,bc->ac"} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi16>
  %1 = stablehlo.unary_einsum %a, config = "ab->b" : (tensor<2x3xi8>) -> tensor<3xi8>
  %2 = "stablehlo.cross-replica-sum"(%c) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @bad_config(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op einsum_config 'ab->ac' must read 'in,in->out'}}
  %0 = stablehlo.einsum %a, %b, config = "ab->ac" : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @rank(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op einsum_config 'abc,bc->ac' names 3 dimensions of the operand #0, which has rank 2}}
  %0 = stablehlo.einsum %a, %b, config = "abc,bc->ac" : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @sizes(%a: tensor<2x3xf32>, %b: tensor<5x4xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op dimension 'b' of einsum_config 'ab,bc->ac' has sizes 3 and 5}}
  %0 = stablehlo.einsum %a, %b, config = "ab,bc->ac" : (tensor<2x3xf32>, tensor<5x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @output_letter(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.unary_einsum' op output dimension 'z' of 'ab->z' is in no input}}
  %0 = stablehlo.unary_einsum %a, config = "ab->z" : (tensor<2x3xf32>) -> tensor<7xf32>
  return
}

// -----

func.func @output_twice(%a: tensor<2x2xf32>) {
  // expected-error @+1 {{'stablehlo.unary_einsum' op einsum_config 'ab->aa' repeats an output dimension}}
  %0 = stablehlo.unary_einsum %a, config = "ab->aa" : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @sum_type(%c: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.cross-replica-sum' op result type tensor<4xf16> must equal the operand type tensor<4xf32>}}
  %0 = "stablehlo.cross-replica-sum"(%c) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf16>
  return
}
