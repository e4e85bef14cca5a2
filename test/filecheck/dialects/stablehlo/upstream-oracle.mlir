// qopt prints what upstream MLIR (iree-opt's stablehlo) prints, modulo SSA
// value names and the `module`/`return`/`call` spellings xDSL uses.
// REQUIRES: iree-opt
// RUN: bash %S/Inputs/compare-with-upstream.sh %S/ops.mlir %S/ops-quantized.mlir
// RUN: bash %S/Inputs/compare-with-upstream.sh %S/samples/calls_and_custom_calls.mlir %S/samples/dynamic_shapes.mlir %S/samples/gather_embedding.mlir %S/samples/int8_dot.mlir %S/samples/jax_cnn.mlir %S/samples/jax_mlp.mlir %S/samples/qdq_pattern.mlir %S/samples/quantized_conv.mlir %S/samples/quantized_dot_general.mlir %S/samples/reductions.mlir %S/samples/softmax.mlir
// With --upstream-names the value names match upstream's too.
// RUN: bash %S/Inputs/compare-names-with-upstream.sh %S/ops.mlir %S/ops-more.mlir %S/ops-quantized.mlir %S/samples/jax_cnn.mlir %S/samples/reductions.mlir %S/samples/calls_and_custom_calls.mlir %S/../../tools/qopt/upstream-names.mlir %S/print-forms.mlir
