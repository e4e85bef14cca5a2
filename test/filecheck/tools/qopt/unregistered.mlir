// Unknown dialects are an error unless --allow-unregistered-dialect.
// RUN: qopt %s --allow-unregistered-dialect | FileCheck %s
// RUN: not qopt %s 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: "foo.bar"() {attr = 1 : i32} : () -> tensor<2x!quant.uniform<i8:f32, 1.000000e-01>>
// ERR: unregistered.mlir:8:8: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
func.func @f() {
  %0 = "foo.bar"() {attr = 1 : i32} : () -> tensor<2x!quant.uniform<i8:f32, 0.1>>
  func.return
}
