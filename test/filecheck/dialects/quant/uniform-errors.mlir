// Each invalid type is exactly one `file:line:col: error:` line and exit status 1.
// RUN: not qopt %s --split-input-file 2>&1 | FileCheck %s
// RUN: not qopt %s --split-input-file 2>&1 >/dev/null | wc -l | FileCheck %s --check-prefix=COUNT
// Five chunks, five lines: no tracebacks, no second diagnostics.
// COUNT: 5

// CHECK: uniform-errors.mlir:8:58: error: scale -1.000000e+00 out of expressed type range [1.401298e-45, 3.402823e+38]
func.func private @negative_scale(!quant.uniform<i8:f32, -1.0>)

// -----

// CHECK: uniform-errors.mlir:13:54: error: illegal storage type maximum: 300
func.func private @maximum_too_big(!quant.uniform<i8<0:300>:f32, 0.1>)

// -----

// CHECK: uniform-errors.mlir:18:52: error: illegal storage min and storage max: (5:1)
func.func private @min_above_max(!quant.uniform<i8<5:1>:f32, 0.1>)

// -----

// CHECK: uniform-errors.mlir:23:1: error: 'func.func' op signature: quantized dimension must be less than tensor rank (dimension 5, rank 2)
func.func private @axis_out_of_rank(tensor<2x2x!quant.uniform<i8:f32:5, {0.1,0.2}>>)

// -----

// CHECK: uniform-errors.mlir:28:1: error: 'func.func' op signature: quantized dimension size does not match number of scales (dimension 1 has size 3, the type has 2 scales)
func.func private @scale_count_mismatch(tensor<2x3x!quant.uniform<i8:f32:1, {0.1,0.2}>>)
