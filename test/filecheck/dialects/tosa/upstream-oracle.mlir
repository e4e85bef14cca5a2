// qopt prints the TOSA ops exactly as upstream MLIR (iree-opt) does, modulo
// SSA value names and the `module`/`return` spellings xDSL uses.
// REQUIRES: iree-opt
// RUN: bash %S/../stablehlo/Inputs/compare-with-upstream.sh %S/ops.mlir
// RUN: bash %S/../stablehlo/Inputs/compare-names-with-upstream.sh %S/print-spacing.mlir %S/../../tools/qopt/print-signed-zeros.mlir
