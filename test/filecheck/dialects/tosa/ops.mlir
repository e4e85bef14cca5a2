// Every TOSA op in the form upstream MLIR prints it (this text is upstream's
// own output); qopt must print it back unchanged, and the generic form must
// come back to it.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s --print-op-generic | qopt | FileCheck %s
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2

// CHECK-LABEL: func.func @f(
func.func @f(%arg0: tensor<1x8x8x4xi8>, %arg1: tensor<16x3x3x4xi8>, %arg2: tensor<3x3x4x2xi8>, %arg3: tensor<16xi32>, %arg4: tensor<8xi32>, %arg5: tensor<4xi32>, %arg6: tensor<1x4x8xi8>, %arg7: tensor<1x8x5xi8>, %arg8: tensor<256xi8>, %arg9: tensor<2x3xi8>) -> tensor<4xi8> {
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.const  values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.depthwise_conv2d %arg0, %arg2, %arg4, %{{[0-9]+}}, %{{[0-9]+}} pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32)  : (tensor<1x8x8x4xi8>, tensor<3x3x4x2xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x8xi32>
  %2 = tosa.depthwise_conv2d %arg0, %arg2, %arg4, %0, %1 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32)  : (tensor<1x8x8x4xi8>, tensor<3x3x4x2xi8>, tensor<8xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x6x6x8xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.transpose_conv2d %arg0, %arg1, %arg3, %{{[0-9]+}}, %{{[0-9]+}} out_pad([0, 0, 0, 0]) stride([1, 1]) acc_type(i32)  : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x10x10x16xi32>
  %3 = tosa.transpose_conv2d %arg0, %arg1, %arg3, %0, %1 out_pad([0, 0, 0, 0]) stride([1, 1]) acc_type(i32)  : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x10x10x16xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.matmul %arg6, %arg7, %{{[0-9]+}}, %{{[0-9]+}} : (tensor<1x4x8xi8>, tensor<1x8x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x5xi32>
  %4 = tosa.matmul %arg6, %arg7, %0, %1 : (tensor<1x4x8xi8>, tensor<1x8x5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x5xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
  %5 = tosa.const  values(dense<2> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.avg_pool2d %arg0, %{{[0-9]+}}, %{{[0-9]+}} kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(i32) : (tensor<1x8x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
  %6 = tosa.avg_pool2d %arg0, %0, %5 kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) acc_type(i32) : (tensor<1x8x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.max_pool2d %arg0 kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) : (tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8>
  %7 = tosa.max_pool2d %arg0 kernel([2, 2]) stride([2, 2]) pad([0, 0, 0, 0]) : (tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.table %arg0, %arg8 : (tensor<1x8x8x4xi8>, tensor<256xi8>) -> tensor<1x8x8x4xi8>
  %8 = tosa.table %arg0, %arg8 : (tensor<1x8x8x4xi8>, tensor<256xi8>) -> tensor<1x8x8x4xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.add %arg5, %arg5 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %9 = tosa.add %arg5, %arg5 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.sub %arg5, %arg5 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %10 = tosa.sub %arg5, %arg5 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.arithmetic_right_shift %arg5, %arg5 round(true) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %11 = tosa.arithmetic_right_shift %arg5, %arg5 round(true) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %12 = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.negate %arg5, %{{[0-9]+}}, %{{[0-9]+}} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
  %13 = tosa.negate %arg5, %12, %12 : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.maximum %arg5, %arg5 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %14 = tosa.maximum %arg5, %arg5 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.minimum %arg5, %arg5 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %15 = tosa.minimum %arg5, %arg5 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const_shape  values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %16 = tosa.const_shape  values(dense<[3, 2]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %{{[0-9]+}} = tosa.reshape %arg9, %{{[0-9]+}} : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<3x2xi8>
  %17 = tosa.reshape %arg9, %16 : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<3x2xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.transpose %arg9 perms([1, 0]) : (tensor<2x3xi8>) -> tensor<3x2xi8>
  %18 = tosa.transpose %arg9 perms([1, 0]) : (tensor<2x3xi8>) -> tensor<3x2xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.concat %arg9, %arg9 axis(0) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<4x3xi8>
  %19 = tosa.concat %arg9, %arg9 axis(0) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<4x3xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const_shape  values(dense<[1, 0, 0, 2]> : tensor<4xindex>) : () -> !tosa.shape<4>
  %20 = tosa.const_shape  values(dense<[1, 0, 0, 2]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
  %21 = tosa.const  values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.pad %arg9, %{{[0-9]+}}, %{{[0-9]+}} : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<3x5xi8>
  %22 = tosa.pad %arg9, %20, %21 : (tensor<2x3xi8>, !tosa.shape<4>, tensor<1xi8>) -> tensor<3x5xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const_shape  values(dense<[0, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
  %23 = tosa.const_shape  values(dense<[0, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const_shape  values(dense<2> : tensor<2xindex>) : () -> !tosa.shape<2>
  %24 = tosa.const_shape  values(dense<2> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK-NEXT: %{{[0-9]+}} = tosa.slice %arg9, %{{[0-9]+}}, %{{[0-9]+}} : (tensor<2x3xi8>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xi8>
  %25 = tosa.slice %arg9, %23, %24 : (tensor<2x3xi8>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.cast %arg9  : (tensor<2x3xi8>) -> tensor<2x3xi32>
  %26 = tosa.cast %arg9  : (tensor<2x3xi8>) -> tensor<2x3xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.reduce_sum %{{[0-9]+}} axis(1) : (tensor<2x3xi32>) -> tensor<2x1xi32>
  %27 = tosa.reduce_sum %26 axis(1) : (tensor<2x3xi32>) -> tensor<2x1xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.reduce_max %arg9 axis(0) : (tensor<2x3xi8>) -> tensor<1x3xi8>
  %28 = tosa.reduce_max %arg9 axis(0) : (tensor<2x3xi8>) -> tensor<1x3xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<31> : tensor<1xi8>) : () -> tensor<1xi8>
  %29 = tosa.const  values(dense<31> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %30 = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<1073741824> : tensor<4xi32>) : () -> tensor<4xi32>
  %31 = tosa.const  values(dense<1073741824> : tensor<4xi32>) : () -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<31> : tensor<4xi8>) : () -> tensor<4xi8>
  %32 = tosa.const  values(dense<31> : tensor<4xi8>) : () -> tensor<4xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.apply_scale %arg5, %{{[0-9]+}}, %{{[0-9]+}} rounding_mode<DOUBLE_ROUND> : (tensor<4xi32>, tensor<4xi32>, tensor<4xi8>) -> tensor<4xi32>
  %33 = tosa.apply_scale %arg5, %31, %32 rounding_mode<DOUBLE_ROUND> : (tensor<4xi32>, tensor<4xi32>, tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %34 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.rescale %arg5, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  %35 = tosa.rescale %arg5, %30, %29, %12, %34 scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
// CHECK: return
return %35 : tensor<4xi8>
}

// CHECK-LABEL: func.func @more(
func.func @more(%arg0: tensor<1x8x8x4xi8>, %arg1: tensor<16x3x3x4xi8>, %arg2: tensor<16xi32>, %arg3: tensor<4xi32>, %arg4: tensor<1x4x8xi16>, %arg5: tensor<1x8x5xi8>, %arg6: tensor<513xi16>, %arg7: tensor<4xi16>, %arg8: tensor<4xi48>) -> tensor<4xi8> {
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
  %0 = tosa.const  values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %1 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.conv2d %arg0, %arg1, %arg2, %{{[0-9]+}}, %{{[0-9]+}} pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32)  : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x16xi32>
  %2 = tosa.conv2d %arg0, %arg1, %arg2, %0, %1 pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32)  : (tensor<1x8x8x4xi8>, tensor<16x3x3x4xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x16xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
  %3 = tosa.const  values(dense<3> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.mul %arg3, %arg3, %{{[0-9]+}} : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  %4 = tosa.mul %arg3, %arg3, %3 : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %5 = tosa.const  values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
// CHECK-NEXT: %{{[0-9]+}} = tosa.matmul %arg4, %arg5, %{{[0-9]+}}, %{{[0-9]+}} : (tensor<1x4x8xi16>, tensor<1x8x5xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x4x5xi48>
  %6 = tosa.matmul %arg4, %arg5, %5, %1 : (tensor<1x4x8xi16>, tensor<1x8x5xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<1x4x5xi48>
// CHECK-NEXT: %{{[0-9]+}} = tosa.table %arg7, %arg6 : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
  %7 = tosa.table %arg7, %arg6 : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<16384> : tensor<1xi16>) : () -> tensor<1xi16>
  %8 = tosa.const  values(dense<16384> : tensor<1xi16>) : () -> tensor<1xi16>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<20> : tensor<1xi8>) : () -> tensor<1xi8>
  %9 = tosa.const  values(dense<20> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<0> : tensor<1xi48>) : () -> tensor<1xi48>
  %10 = tosa.const  values(dense<0> : tensor<1xi48>) : () -> tensor<1xi48>
// CHECK-NEXT: %{{[0-9]+}} = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %11 = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.rescale %arg8, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} scale32(false) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi48>, tensor<1xi16>, tensor<1xi8>, tensor<1xi48>, tensor<1xi8>) -> tensor<4xi8>
  %12 = tosa.rescale %arg8, %8, %9, %10, %11 scale32(false) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi48>, tensor<1xi16>, tensor<1xi8>, tensor<1xi48>, tensor<1xi8>) -> tensor<4xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.clamp %{{[0-9]+}} min_val(-100 : i8) max_val(100 : i8) : (tensor<4xi8>) -> tensor<4xi8>
  %13 = tosa.clamp %12 min_val(-100 : i8) max_val(100 : i8) : (tensor<4xi8>) -> tensor<4xi8>
// CHECK-NEXT: %{{[0-9]+}} = tosa.cast %{{[0-9]+}}  : (tensor<4xi8>) -> tensor<4xf32>
  %14 = tosa.cast %13  : (tensor<4xi8>) -> tensor<4xf32>
// CHECK: return
return %13 : tensor<4xi8>
}


// CHECK-LABEL: func.func @bits_and_gather(
func.func @bits_and_gather(%arg0: tensor<2x3xi32>, %arg1: tensor<2x1xi32>, %arg2: tensor<1x256x1xi32>, %arg3: tensor<1x6xi32>) -> tensor<1x6x1xi32> {
// CHECK-NEXT: %{{[0-9]+}} = tosa.clz %arg0 : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %0 = tosa.clz %arg0 : (tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.logical_left_shift %{{[0-9]+}}, %arg1 : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
  %1 = tosa.logical_left_shift %0, %arg1 : (tensor<2x3xi32>, tensor<2x1xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %{{[0-9]+}} = tosa.gather %arg2, %arg3 : (tensor<1x256x1xi32>, tensor<1x6xi32>) -> tensor<1x6x1xi32>
  %2 = tosa.gather %arg2, %arg3 : (tensor<1x256x1xi32>, tensor<1x6xi32>) -> tensor<1x6x1xi32>
// CHECK: return
return %2 : tensor<1x6x1xi32>
}
