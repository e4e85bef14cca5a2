// Upstream MLIR (iree-opt) reads what qopt prints, and prints the same types.
// REQUIRES: iree-opt
// RUN: qopt %S/uniform.mlir | iree-opt | grep 'func.func' | sed -e 's/^ *//' > %t.upstream
// RUN: qopt %S/uniform.mlir | grep 'func.func' | sed -e 's/^ *//' -e 's/ -> ()$//' > %t.ours
// RUN: diff %t.upstream %t.ours
// RUN: qopt %S/ops.mlir | iree-opt > /dev/null
// The same for the sub-channel, !quant.any and !quant.calibrated forms.
// RUN: cat %S/sub-channel.mlir %S/any-calibrated.mlir | grep -v RUN | qopt | iree-opt | grep 'func.func private' | sed -e 's/^ *//' > %t.upstream2
// RUN: cat %S/sub-channel.mlir %S/any-calibrated.mlir | grep -v RUN | qopt | grep 'func.func private' | sed -e 's/^ *//' -e 's/ -> ()$//' > %t.ours2
// RUN: diff %t.upstream2 %t.ours2
