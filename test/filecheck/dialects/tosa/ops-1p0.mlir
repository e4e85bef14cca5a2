// Every TOSA v1.0 operator beyond the quantized core, written as upstream MLIR
// writes them (attribute dictionaries, bare enum keywords, bound region
// arguments): qopt parses, verifies and prints them, and its output and the
// generic form read back to the same text.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s --print-op-generic | qopt | FileCheck %s
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2

func.func @unary(%f: tensor<2x3xf32>, %i: tensor<2x3xi32>, %b: tensor<2x3xi1>) -> tensor<2x3xf32> {
  %0 = tosa.abs %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %1 = tosa.bitwise_not %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %2 = tosa.ceil %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = tosa.cos %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.erf %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.exp %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = tosa.floor %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = tosa.log %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = tosa.logical_not %b : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %9 = tosa.reciprocal %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = tosa.rsqrt %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = tosa.sigmoid %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %12 = tosa.sin %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %13 = tosa.tanh %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %14 = tosa.identity %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %14 : tensor<2x3xf32>
}
func.func @binary(%i: tensor<2x3xi32>, %j: tensor<1x3xi32>, %b: tensor<2x3xi1>, %f: tensor<2x3xf32>) -> tensor<2x3xi1> {
  %0 = tosa.bitwise_and %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %1 = tosa.bitwise_or %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %2 = tosa.bitwise_xor %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %3 = tosa.intdiv %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %4 = tosa.logical_and %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %5 = tosa.logical_or %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %6 = tosa.logical_xor %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %7 = tosa.logical_right_shift %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  %8 = tosa.pow %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = tosa.equal %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
  %10 = tosa.greater %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
  %11 = tosa.greater_equal %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
  %12 = tosa.select %b, %i, %j : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
  return %11 : tensor<2x3xi1>
}
func.func @data(%x: tensor<2x3xi8>, %b: tensor<2x3xi1>, %v: tensor<1x4x2xi8>, %idx: tensor<1x2xi32>, %in: tensor<1x2x2xi8>) -> tensor<2xi32> {
  %0 = tosa.reduce_all %b {axis = 0 : i32} : (tensor<2x3xi1>) -> tensor<1x3xi1>
  %1 = tosa.reduce_any %b {axis = 1 : i32} : (tensor<2x3xi1>) -> tensor<2x1xi1>
  %2 = tosa.reduce_min %x {axis = 1 : i32} : (tensor<2x3xi8>) -> tensor<2x1xi8>
  %3 = tosa.reduce_product %x {axis = 1 : i32} : (tensor<2x3xi8>) -> tensor<2x1xi8>
  %4 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3xi8>) -> tensor<2xi32>
  %5 = tosa.reverse %x {axis = 1 : i32} : (tensor<2x3xi8>) -> tensor<2x3xi8>
  %m = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %6 = tosa.tile %x, %m : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<4x3xi8>
  %7 = tosa.scatter %v, %idx, %in : (tensor<1x4x2xi8>, tensor<1x2xi32>, tensor<1x2x2xi8>) -> tensor<1x4x2xi8>
  return %4 : tensor<2xi32>
}
func.func @resize(%x: tensor<1x3x3x2xi8>) -> tensor<1x5x5x2xi32> {
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %0 = tosa.resize %x, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x3x3x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x5x5x2xi32>
  return %0 : tensor<1x5x5x2xi32>
}
func.func @fft(%r: tensor<1x4x8xf32>, %i: tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x5xf32>) {
  %0, %1 = tosa.fft2d %r, %i {inverse = false} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  %2, %3 = tosa.rfft2d %r : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
  return %0, %2 : tensor<1x4x8xf32>, tensor<1x4x5xf32>
}
func.func @conv3d(%x: tensor<1x4x8x8x3xi8>, %w: tensor<5x1x1x1x3xi8>, %b: tensor<5xi32>) -> tensor<1x4x8x8x5xi32> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x4x8x8x3xi8>, tensor<5x1x1x1x3xi8>, tensor<5xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8x8x5xi32>
  return %0 : tensor<1x4x8x8x5xi32>
}
func.func @control(%c: tensor<i1>, %a: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %0 = tosa.cond_if %c (%x = %a, %y = %a) : tensor<i1> (tensor<f32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %1 = tosa.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  } else {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    tosa.yield %y : tensor<f32>
  }
  %2 = tosa.while_loop (%i = %n) : (tensor<i32>) -> tensor<i32> {
  ^bb0(%i: tensor<i32>):
    %3 = tosa.greater %n, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %3 : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>):
    tosa.yield %i : tensor<i32>
  }
  return %0 : tensor<f32>
}

// CHECK-LABEL: func.func @unary(
// CHECK: %0 = tosa.abs %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK: %1 = tosa.bitwise_not %i : (tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK: %2 = tosa.ceil %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %3 = tosa.cos %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %4 = tosa.erf %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %5 = tosa.exp %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %6 = tosa.floor %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %7 = tosa.log %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %8 = tosa.logical_not %b : (tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: %9 = tosa.reciprocal %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %10 = tosa.rsqrt %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %11 = tosa.sigmoid %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %12 = tosa.sin %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %13 = tosa.tanh %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %14 = tosa.identity %f : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-LABEL: func.func @binary(
// CHECK: %0 = tosa.bitwise_and %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK: %1 = tosa.bitwise_or %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK: %2 = tosa.bitwise_xor %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK: %3 = tosa.intdiv %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK: %4 = tosa.logical_and %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: %5 = tosa.logical_or %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: %6 = tosa.logical_xor %b, %b : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
// CHECK: %7 = tosa.logical_right_shift %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK: %8 = tosa.pow %f, %f : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %9 = tosa.equal %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
// CHECK: %10 = tosa.greater %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
// CHECK: %11 = tosa.greater_equal %i, %j : (tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
// CHECK: %12 = tosa.select %b, %i, %j : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK-LABEL: func.func @data(
// CHECK: %0 = tosa.reduce_all %b axis(0) : (tensor<2x3xi1>) -> tensor<1x3xi1>
// CHECK: %1 = tosa.reduce_any %b axis(1) : (tensor<2x3xi1>) -> tensor<2x1xi1>
// CHECK: %2 = tosa.reduce_min %x axis(1) : (tensor<2x3xi8>) -> tensor<2x1xi8>
// CHECK: %3 = tosa.reduce_product %x axis(1) : (tensor<2x3xi8>) -> tensor<2x1xi8>
// CHECK: %4 = tosa.argmax %x axis(1) : (tensor<2x3xi8>) -> tensor<2xi32>
// CHECK: %5 = tosa.reverse %x axis(1) : (tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK: %m = tosa.const_shape  values(dense<[2, 1]> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK: %6 = tosa.tile %x, %m : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<4x3xi8>
// CHECK: %7 = tosa.scatter %v, %idx, %in : (tensor<1x4x2xi8>, tensor<1x2xi32>, tensor<1x2x2xi8>) -> tensor<1x4x2xi8>
// CHECK-LABEL: func.func @resize(
// CHECK: %scale = tosa.const_shape  values(dense<[2, 1, 2, 1]> : tensor<4xindex>) : () -> !tosa.shape<4>
// CHECK: %offset = tosa.const_shape  values(dense<0> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK: %border = tosa.const_shape  values(dense<0> : tensor<2xindex>) : () -> !tosa.shape<2>
// CHECK: %0 = tosa.resize %x, %scale, %offset, %border mode<BILINEAR> : (tensor<1x3x3x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x5x5x2xi32>
// CHECK-LABEL: func.func @fft(
// CHECK: %0:2 = tosa.fft2d %r, %i inverse(false)  : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
// CHECK: %1:2 = tosa.rfft2d %r  : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
// CHECK-LABEL: func.func @conv3d(
// CHECK: %zp = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
// CHECK: %0 = tosa.conv3d %x, %w, %b, %zp, %zp pad([0, 0, 0, 0, 0, 0]) stride([1, 1, 1]) dilation([1, 1, 1]) acc_type(i32)  : (tensor<1x4x8x8x3xi8>, tensor<5x1x1x1x3xi8>, tensor<5xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x8x8x5xi32>
// CHECK-LABEL: func.func @control(
// CHECK: %0 = tosa.cond_if %c (%x = %a, %y = %a) : tensor<i1> (tensor<f32>, tensor<f32>) -> tensor<f32> {
// Both branches print their block header, as upstream prints them.
// CHECK-NEXT: ^bb0(%x: tensor<f32>, %y: tensor<f32>):
// CHECK-NEXT: %1 = tosa.add %x, %y : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: tosa.yield %1 : tensor<f32>
// CHECK: ^bb0(%x_1: tensor<f32>, %y_1: tensor<f32>):
// CHECK: tosa.yield %y_1 : tensor<f32>
// CHECK: %2 = tosa.while_loop (%i = %n) : (tensor<i32>) -> tensor<i32> {
// CHECK: %3 = tosa.greater %n, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK: tosa.yield %3 : tensor<i1>
// CHECK: ^bb0(%i_1: tensor<i32>):
// CHECK: tosa.yield %i_1 : tensor<i32>
