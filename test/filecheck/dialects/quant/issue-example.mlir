// Per-axis scales print as MLIR prints them, joined by ',' without spaces.
// RUN: echo 'func.func @f(%a: tensor<2x3x!quant.uniform<i8:f32:1, {0.2:20,0.1:10,0.3:30}>>) { return }' | qopt | FileCheck %s
// CHECK: tensor<2x3x!quant.uniform<i8:f32:1, {2.000000e-01:20,1.000000e-01:10,3.000000e-01:30}>>
