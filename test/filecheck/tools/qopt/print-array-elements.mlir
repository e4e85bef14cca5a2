// Array elements of MLIR's default types, i64 integers and f64 floats, print without
// their type, as mlir-opt prints them; other element types, and values outside arrays,
// keep it. (The expected line is mlir-opt's output for this input.)
// RUN: qopt %s --allow-unregistered-dialect | FileCheck %s
// RUN: qopt %s --allow-unregistered-dialect | qopt --allow-unregistered-dialect | FileCheck %s

// CHECK: "test.x"() {a = [1, 2 : i32, 1.000000e+00, 2.000000e+00 : f32, [3], {d = 4 : i64}, -1, true, 5 : index, 6 : ui64, 7 : si64], b = 3 : i64, c = 1.000000e+00 : f64} : () -> ()
"test.x"() {a = [1 : i64, 2 : i32, 1.0 : f64, 2.0 : f32, [3 : i64], {d = 4 : i64}, -1 : i64, true, 5 : index, 6 : ui64, 7 : si64], b = 3 : i64, c = 1.0 : f64} : () -> ()
