// Custom type lists with their own rules (upstream's parseSelectOpType, TupleOpType,
// complex's result type, PairwiseOpType, the precision enum), in MLIR's words, with
// both errors where MLIR reports two for one failure.
// RUN: qopt %s --split-input-file --verify-diagnostics

func.func @f(%p: tensor<4xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.select' expected functional type or list of two types}}
  %0 = stablehlo.select %p, %a, %a : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.tuple' expected tuple type}}
  %0 = stablehlo.tuple %a : tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected '->' in function type}}
  %0 = stablehlo.tuple %a : (tensor<4xf32>)
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.complex' expected tensor with complex element type}}
  %0 = stablehlo.complex %a, %a : tensor<4xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{custom op 'stablehlo.transpose' expected integer value}}
  // expected-error @+1 {{expected ']'}}
  %0 = stablehlo.transpose %a, dims = [1, x] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+2 {{expected non-function type}}
  // expected-error @+1 {{custom op 'stablehlo.optimization_barrier' expected type list}}
  %0 = stablehlo.optimization_barrier %a : %a
  func.return
}

// -----

func.func @f(%a: tensor<2x2xf32>) {
  // expected-error @+2 {{custom op 'stablehlo.dot_general' failed to parse StableHLO_PrecisionAttr parameter 'value' which is to be a `::mlir::stablehlo::Precision`}}
  // expected-error @+1 {{custom op 'stablehlo.dot_general' expected ::mlir::stablehlo::Precision to be one of: DEFAULT, HIGH, HIGHEST}}
  %0 = stablehlo.dot_general %a, %a, contracting_dims = [1] x [0], precision = [DEFAULT, FAST] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return
}

// -----

func.func @f(%a: tensor<2x2xf32>) {
  // expected-error @+2 {{custom op 'stablehlo.dot' expected valid keyword}}
  // expected-error @+1 {{custom op 'stablehlo.dot' failed to parse StableHLO_PrecisionAttr parameter}}
  %0 = stablehlo.dot %a, %a, precision = [1] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return
}
