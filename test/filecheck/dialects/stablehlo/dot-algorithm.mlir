// dot_general's `algorithm`: the pretty form, the generic `#stablehlo.dot_algorithm<...>`,
// and the spec's rules (C21-C24 and the list of algorithms known to run somewhere).
// RUN: qopt %s --split-input-file | FileCheck %s
// RUN: qopt %s --split-input-file --print-op-generic | qopt | FileCheck %s
// RUN: qopt %S/Inputs/dot-algorithm-invalid.mlir --split-input-file --verify-diagnostics

// CHECK-LABEL: func.func @pretty
// CHECK: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
func.func @pretty(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// Any two f8 types accumulating in f32 (imprecisely or not); bf16 decomposed 6 ways.
// CHECK-LABEL: func.func @generic
// CHECK: algorithm = <lhs_precision_type = f8E4M3FNUZ, rhs_precision_type = f8E5M2, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true>
// CHECK: algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 6, allow_imprecise_accumulation = false>
func.func @generic(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.dot_general"(%a, %b) <{
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>,
    algorithm = #stablehlo.dot_algorithm<lhs_precision_type = f8E4M3FNUZ, rhs_precision_type = f8E5M2, accumulation_type = f32,
                                         lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1,
                                         allow_imprecise_accumulation = true>
  }> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = "stablehlo.dot_general"(%a, %0) {
    dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>,
    algorithm = #stablehlo.dot_algorithm<lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32,
                                         lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 6,
                                         allow_imprecise_accumulation = false>
  } : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %1 : tensor<2x2xf32>
}
