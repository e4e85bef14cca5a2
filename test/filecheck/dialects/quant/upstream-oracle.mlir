// Upstream MLIR (iree-opt) reads what qopt prints, and prints the same types.
// REQUIRES: iree-opt
// RUN: qopt %S/uniform.mlir | iree-opt | grep 'func.func' | sed -e 's/^ *//' > %t.upstream
// RUN: qopt %S/uniform.mlir | grep 'func.func' | sed -e 's/^ *//' -e 's/ -> ()$//' > %t.ours
// RUN: diff %t.upstream %t.ours
// RUN: qopt %S/ops.mlir | iree-opt > /dev/null
