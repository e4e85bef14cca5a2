// Input from a file, stdin or '-'; output to stdout or -o; printing options.
// RUN: qopt %s | FileCheck %s
// RUN: qopt < %s | FileCheck %s
// RUN: qopt - < %s | FileCheck %s
// RUN: qopt %s -o %t && FileCheck %s < %t
// RUN: qopt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qopt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG
// RUN: not qopt %S/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not qopt %s -o %S/no-such-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: not qopt %s --no-such-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: qopt --version | FileCheck %s --check-prefix=VERSION
// RUN: qopt --list-passes | FileCheck %s --check-prefix=PASSES
// RUN: qopt --help | FileCheck %s --check-prefix=PASSES

// CHECK: func.func @f(%a: tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>
// CHECK-NEXT: return %a : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>
// GENERIC: "func.func"() <{{{.*}}function_type = (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>) -> tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>{{.*}}}>
// GENERIC: "func.return"(%{{.*}}) : (tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>>) -> ()
// DEBUG: return %a : tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-1>> loc("here.py":3:7)
// MISSING: error: cannot read '{{.*}}does-not-exist.mlir': No such file or directory
// UNWRITABLE: error: cannot write '{{.*}}out.mlir': No such file or directory
// FLAG: error: unrecognized arguments: --no-such-flag (see `qopt --help`)
// VERSION: qopt (qdialect)
// PASSES: canonicalize: Fold constants
// PASSES: cse: Eliminate common subexpressions
// PASSES: dce: Erase operations

func.func @f(%a: tensor<4x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-1>> {
  func.return %a : tensor<4x!quant.uniform<i8:f32, 0.5:-1>> loc("here.py":3:7)
}
