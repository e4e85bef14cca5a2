// Every op in the pretty form upstream stablehlo-opt prints (this text is
// upstream's own output); qopt must print it back unchanged.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// The generic form round-trips to the same pretty form:
// RUN: qopt %s --print-op-generic | qopt | FileCheck %s

// CHECK: func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xi32>, %arg3: tensor<4xi1>, %arg4: tensor<f32>, %arg5: tensor<2x3xf32>, %arg6: tensor<3x5xf32>, %arg7: tensor<1x8x8x3xf32>, %arg8: tensor<3x3x3x16xf32>, %arg9: tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>, %arg10: tensor<1x8x8x3x!quant.uniform<i8:f32, 1.000000e-01:3>>, %arg11: tensor<3x3x3x16x!quant.uniform<i8:f32:3, {1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01}>>) -> tensor<4xf32> {
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xi32>, %arg3: tensor<4xi1>, %arg4: tensor<f32>, %arg5: tensor<2x3xf32>, %arg6: tensor<3x5xf32>, %arg7: tensor<1x8x8x3xf32>, %arg8: tensor<3x3x3x16xf32>, %arg9: tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>, %arg10: tensor<1x8x8x3x!quant.uniform<i8:f32, 1.000000e-01:3>>, %arg11: tensor<3x3x3x16x!quant.uniform<i8:f32:3, {1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01}>>) -> tensor<4xf32> {
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.add %arg0, %arg1 : tensor<4xf32>
  %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.abs %arg0 : tensor<4xf32>
  %1 = stablehlo.abs %arg0 : tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.compare EQ, %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = stablehlo.compare EQ, %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.select %arg3, %arg0, %arg1 : tensor<4xi1>, tensor<4xf32>
  %4 = stablehlo.select %arg3, %arg0, %arg1 : tensor<4xi1>, tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.clamp %arg4, %arg0, %arg4 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %5 = stablehlo.clamp %arg4, %arg0, %arg4 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.clamp %arg0, %arg0, %arg0 : tensor<4xf32>
  %6 = stablehlo.clamp %arg0, %arg0, %arg0 : tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
  %7 = stablehlo.convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
  %8 = stablehlo.bitcast_convert %arg0 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %qcst = stablehlo.constant() <{value = dense<[1, 2, 3, 4]> : tensor<4xi8>}> : () -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>
  %qcst = stablehlo.constant() <{value = dense<[1, 2, 3, 4]> : tensor<4xi8>}> : () -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.dot_general %arg5, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  %9 = stablehlo.dot_general %arg5, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.dot_general %arg5, %arg6, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  %10 = stablehlo.dot_general %arg5, %arg6, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.dot %arg5, %arg6 : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  %11 = stablehlo.dot %arg5, %arg6 : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.dot %arg5, %arg6, precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  %12 = stablehlo.dot %arg5, %arg6, precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.convolution(%arg7, %arg8) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = {{\[\[}}1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  %13 = stablehlo.convolution(%arg7, %arg8) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.convolution(%arg10, %arg11) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3x!quant.uniform<i8:f32, 1.000000e-01:3>>, tensor<3x3x3x16x!quant.uniform<i8:f32:3, {1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01}>>) -> tensor<1x6x6x16x!quant.uniform<i32:f32:3, {1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02}>>
  %14 = stablehlo.convolution(%arg10, %arg11) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3x!quant.uniform<i8:f32, 1.000000e-01:3>>, tensor<3x3x3x16x!quant.uniform<i8:f32:3, {1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01,1.000000e-01}>>) -> tensor<1x6x6x16x!quant.uniform<i32:f32:3, {1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02,1.000000e-02}>>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.reduce(%arg0 init: %arg4) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %15 = stablehlo.reduce(%arg0 init: %arg4) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.reduce(%arg0 init: %arg4) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %16 = stablehlo.reduce(%arg0 init: %arg4) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: reducer(%{{arg[0-9_]+}}: tensor<f32>, %{{arg[0-9_]+}}: tensor<f32>)  {
   reducer(%arg12: tensor<f32>, %arg13: tensor<f32>)  {
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.add %{{arg[0-9_]+}}, %{{arg[0-9_]+}} : tensor<f32>
    %41 = stablehlo.add %arg13, %arg12 : tensor<f32>
// CHECK-NEXT: stablehlo.return %{{[0-9]+}} : tensor<f32>
    stablehlo.return %41 : tensor<f32>
// CHECK-NEXT: }
  }
// CHECK-NEXT: %{{[0-9]+}} = "stablehlo.reduce_window"(%arg7, %arg4) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  %17 = "stablehlo.reduce_window"(%arg7, %arg4) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
// CHECK-NEXT: ^bb0(%{{arg[0-9_]+}}: tensor<f32>, %{{arg[0-9_]+}}: tensor<f32>):
  ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.maximum %{{arg[0-9_]+}}, %{{arg[0-9_]+}} : tensor<f32>
    %41 = stablehlo.maximum %arg12, %arg13 : tensor<f32>
// CHECK-NEXT: stablehlo.return %{{[0-9]+}} : tensor<f32>
    stablehlo.return %41 : tensor<f32>
// CHECK-NEXT: }) : (tensor<1x8x8x3xf32>, tensor<f32>) -> tensor<1x4x4x3xf32>
  }) : (tensor<1x8x8x3xf32>, tensor<f32>) -> tensor<1x4x4x3xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.reshape %arg5 : (tensor<2x3xf32>) -> tensor<6xf32>
  %18 = stablehlo.reshape %arg5 : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.transpose %arg5, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %19 = stablehlo.transpose %arg5, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
  %20 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %21 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.slice %arg5 [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %22 = stablehlo.slice %arg5 [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %c = stablehlo.constant dense<0> : tensor<i32>
  %c = stablehlo.constant dense<0> : tensor<i32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.dynamic_slice %arg5, %c, %c, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  %23 = stablehlo.dynamic_slice %arg5, %c, %c, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.pad %arg5, %arg4, low = [0, 1], high = [1, 0], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>
  %24 = stablehlo.pad %arg5, %arg4, low = [0, 1], high = [1, 0], interior = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>
// CHECK-NEXT: %idx = stablehlo.constant dense<0> : tensor<2x1xi32>
  %idx = stablehlo.constant dense<0> : tensor<2x1xi32>
// CHECK-NEXT: %{{[0-9]+}} = "stablehlo.gather"(%arg5, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %25 = "stablehlo.gather"(%arg5, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.iota dim = 0 : tensor<4xi32>
  %26 = stablehlo.iota dim = 0 : tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.custom_call @foo(%arg0) {backend_config = "x", has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %27 = stablehlo.custom_call @foo(%arg0) {backend_config = "x", has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}}:2 = stablehlo.optimization_barrier %arg0, %arg5 : tensor<4xf32>, tensor<2x3xf32>
  %28:2 = stablehlo.optimization_barrier %arg0, %arg5 : tensor<4xf32>, tensor<2x3xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.uniform_quantize %arg0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>
  %29 = stablehlo.uniform_quantize %arg0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.uniform_dequantize %arg9 : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>) -> tensor<4xf32>
  %30 = stablehlo.uniform_dequantize %arg9 : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>) -> tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.add %arg9, %arg9 : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>, tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:3>>
  %31 = stablehlo.add %arg9, %arg9 : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>, tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:3>>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.abs %arg9 : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:3>>
  %32 = stablehlo.abs %arg9 : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:3>>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.uniform_quantize %arg9 : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:3>>
  %33 = stablehlo.uniform_quantize %arg9 : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:3>>) -> tensor<4x!quant.uniform<i8:f32, 2.000000e-01:3>>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.dynamic_slice %arg5, %c, %c, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
  %34 = stablehlo.dynamic_slice %arg5, %c, %c, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x2xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.iota dim = 1 : tensor<2x4xf32>
  %35 = stablehlo.iota dim = 1 : tensor<2x4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.round_nearest_afz %arg0 : tensor<4xf32>
  %36 = stablehlo.round_nearest_afz %arg0 : tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.atan2 %arg0, %arg1 : tensor<4xf32>
  %37 = stablehlo.atan2 %arg0, %arg1 : tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.custom_call @check.eq(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %38 = stablehlo.custom_call @check.eq(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %{{[0-9]+}}:2 = stablehlo.reduce(%arg0 init: %arg4), (%arg2 init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  %39:2 = stablehlo.reduce(%arg0 init: %arg4), (%arg2 init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
// CHECK-NEXT: reducer(%{{arg[0-9_]+}}: tensor<f32>, %{{arg[0-9_]+}}: tensor<f32>) (%{{arg[0-9_]+}}: tensor<i32>, %{{arg[0-9_]+}}: tensor<i32>)  {
   reducer(%arg12: tensor<f32>, %arg14: tensor<f32>) (%arg13: tensor<i32>, %arg15: tensor<i32>)  {
// CHECK-NEXT: stablehlo.return %{{arg[0-9_]+}}, %{{arg[0-9_]+}} : tensor<f32>, tensor<i32>
    stablehlo.return %arg12, %arg13 : tensor<f32>, tensor<i32>
// CHECK-NEXT: }
  }
// CHECK-NEXT: %{{[0-9]+}} = stablehlo.convolution(%arg7, %arg8) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = {{\[\[}}1, 2], [1, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  %40 = stablehlo.convolution(%arg7, %arg8) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 2], [1, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
// CHECK-NEXT: return %arg0 : tensor<4xf32>
  return %arg0 : tensor<4xf32>
// CHECK-NEXT: }
}

// Bitwise ops and shifts (integer and boolean).
// CHECK-LABEL: func.func @bitwise
func.func @bitwise(%a: tensor<4xi32>, %b: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi1>) {
// CHECK-NEXT: stablehlo.shift_left %a, %b : tensor<4xi32>
  %0 = stablehlo.shift_left %a, %b : tensor<4xi32>
// CHECK-NEXT: stablehlo.shift_right_arithmetic %{{[0-9]+}}, %b : tensor<4xi32>
  %1 = stablehlo.shift_right_arithmetic %0, %b : tensor<4xi32>
// CHECK-NEXT: stablehlo.shift_right_logical %{{[0-9]+}}, %b : tensor<4xi32>
  %2 = stablehlo.shift_right_logical %1, %b : tensor<4xi32>
// CHECK-NEXT: stablehlo.and %{{[0-9]+}}, %b : tensor<4xi32>
  %3 = stablehlo.and %2, %b : tensor<4xi32>
// CHECK-NEXT: stablehlo.or %{{[0-9]+}}, %b : tensor<4xi32>
  %4 = stablehlo.or %3, %b : tensor<4xi32>
// CHECK-NEXT: stablehlo.xor %{{[0-9]+}}, %b : tensor<4xi32>
  %5 = stablehlo.xor %4, %b : tensor<4xi32>
// CHECK-NEXT: stablehlo.not %{{[0-9]+}} : tensor<4xi32>
  %6 = stablehlo.not %5 : tensor<4xi32>
// CHECK-NEXT: stablehlo.not %p : tensor<4xi1>
  %7 = stablehlo.not %p : tensor<4xi1>
  func.return %6, %7 : tensor<4xi32>, tensor<4xi1>
}
