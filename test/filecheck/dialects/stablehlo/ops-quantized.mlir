// Quantized variants of every op the StableHLO spec lets take quantized types:
// per-tensor everywhere it is allowed, per-axis where the spec allows it (add,
// constant, quantize/dequantize, the reshape/broadcast/transpose family, and the
// rhs/result of dot_general and convolution).
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: qopt %s --print-op-generic | qopt | FileCheck %s
// RUN: %if iree-opt %{ qopt %s | iree-opt > /dev/null %}
// RUN: %if iree-opt %{ iree-opt %s > /dev/null %}

!q = !quant.uniform<i8:f32, 0.1:-3>
!r = !quant.uniform<i8:f32, 0.2:4>
!pa = !quant.uniform<i8:f32:1, {0.1,0.2,0.3}>

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x3x!q>, %b: tensor<2x3x!q>, %p: tensor<2x3xi1>, %s: tensor<!q>) {
  // CHECK: stablehlo.abs %a : (tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 2.000000e-01:4>>
  %0 = stablehlo.abs %a : (tensor<2x3x!q>) -> tensor<2x3x!r>
  // CHECK: stablehlo.negate %a : tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %1 = stablehlo.negate %a : tensor<2x3x!q>
  %2 = stablehlo.sign %a : tensor<2x3x!q>
  %3 = stablehlo.tanh %a : tensor<2x3x!q>
  %4 = stablehlo.logistic %a : tensor<2x3x!q>
  %5 = stablehlo.exponential %a : tensor<2x3x!q>
  %6 = stablehlo.exponential_minus_one %a : tensor<2x3x!q>
  %7 = stablehlo.log %a : tensor<2x3x!q>
  %8 = stablehlo.log_plus_one %a : tensor<2x3x!q>
  %9 = stablehlo.sqrt %a : tensor<2x3x!q>
  %10 = stablehlo.rsqrt %a : tensor<2x3x!q>
  %11 = stablehlo.cbrt %a : tensor<2x3x!q>
  %12 = stablehlo.sine %a : tensor<2x3x!q>
  %13 = stablehlo.cosine %a : tensor<2x3x!q>
  %14 = stablehlo.floor %a : tensor<2x3x!q>
  %15 = stablehlo.ceil %a : tensor<2x3x!q>
  %16 = stablehlo.round_nearest_even %a : tensor<2x3x!q>
  // CHECK: stablehlo.round_nearest_afz %a : tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %17 = stablehlo.round_nearest_afz %a : tensor<2x3x!q>
  // CHECK: stablehlo.add %a, %b : (tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 2.000000e-01:4>>
  %18 = stablehlo.add %a, %b : (tensor<2x3x!q>, tensor<2x3x!q>) -> tensor<2x3x!r>
  %19 = stablehlo.subtract %a, %b : tensor<2x3x!q>
  %20 = stablehlo.multiply %a, %b : tensor<2x3x!q>
  %21 = stablehlo.divide %a, %b : tensor<2x3x!q>
  %22 = stablehlo.remainder %a, %b : tensor<2x3x!q>
  %23 = stablehlo.power %a, %b : tensor<2x3x!q>
  %24 = stablehlo.maximum %a, %b : tensor<2x3x!q>
  %25 = stablehlo.minimum %a, %b : tensor<2x3x!q>
  // CHECK: stablehlo.atan2 %a, %b : tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %26 = stablehlo.atan2 %a, %b : tensor<2x3x!q>
  // CHECK: stablehlo.clamp %s, %a, %s : (tensor<!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %27 = stablehlo.clamp %s, %a, %s : (tensor<!q>, tensor<2x3x!q>, tensor<!q>) -> tensor<2x3x!q>
  // CHECK: stablehlo.compare GE, %a, %b, FLOAT : (tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<2x3xi1>
  %28 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<2x3x!q>, tensor<2x3x!q>) -> tensor<2x3xi1>
  // CHECK: stablehlo.select %p, %a, %b : tensor<2x3xi1>, tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %29 = stablehlo.select %p, %a, %b : tensor<2x3xi1>, tensor<2x3x!q>
  func.return
}

// CHECK-LABEL: func.func @per_axis
func.func @per_axis(%a: tensor<2x3x!pa>, %v: tensor<3x!quant.uniform<i8:f32:0, {0.1,0.2,0.3}>>) {
  // CHECK: stablehlo.add %a, %a : tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>
  %0 = stablehlo.add %a, %a : tensor<2x3x!pa>
  // CHECK: stablehlo.constant() <{value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>}> : () -> tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>
  %1 = stablehlo.constant() <{value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>}> : () -> tensor<2x3x!pa>
  // CHECK: stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>) -> tensor<3x2x!quant.uniform<i8:f32:0, {1.000000e-01,2.000000e-01,3.000000e-01}>>
  %2 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3x!pa>) -> tensor<3x2x!quant.uniform<i8:f32:0, {0.1,0.2,0.3}>>
  // CHECK: stablehlo.reshape %a : (tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>) -> tensor<2x1x3x!quant.uniform<i8:f32:2, {1.000000e-01,2.000000e-01,3.000000e-01}>>
  %3 = stablehlo.reshape %a : (tensor<2x3x!pa>) -> tensor<2x1x3x!quant.uniform<i8:f32:2, {0.1,0.2,0.3}>>
  // CHECK: stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3x!quant.uniform<i8:f32:0, {1.000000e-01,2.000000e-01,3.000000e-01}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>
  %4 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<3x!quant.uniform<i8:f32:0, {0.1,0.2,0.3}>>) -> tensor<2x3x!pa>
  %5 = stablehlo.uniform_dequantize %a : (tensor<2x3x!pa>) -> tensor<2x3xf32>
  // CHECK: stablehlo.uniform_quantize %5 : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>
  %6 = stablehlo.uniform_quantize %5 : (tensor<2x3xf32>) -> tensor<2x3x!pa>
  func.return
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%a: tensor<2x3x!q>, %s: tensor<!q>, %i: tensor<i32>) {
  // CHECK: stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<4x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %0 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3x!q>, tensor<2x3x!q>) -> tensor<4x3x!q>
  %1 = stablehlo.slice %a [0:2, 1:3] : (tensor<2x3x!q>) -> tensor<2x2x!q>
  %2 = stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 2] : (tensor<2x3x!q>, tensor<i32>, tensor<i32>) -> tensor<1x2x!q>
  // CHECK: stablehlo.pad %a, %s, low = [1, 0], high = [0, 1], interior = [0, 0] : (tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<3x4x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %3 = stablehlo.pad %a, %s, low = [1, 0], high = [0, 1], interior = [0, 0] : (tensor<2x3x!q>, tensor<!q>) -> tensor<3x4x!q>
  // CHECK: stablehlo.reduce(%a init: %s) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<!quant.uniform<i8:f32, 1.000000e-01:-3>>) -> tensor<2x!quant.uniform<i8:f32, 1.000000e-01:-3>>
  %4 = stablehlo.reduce(%a init: %s) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3x!q>, tensor<!q>) -> tensor<2x!q>
  func.return
}

// CHECK-LABEL: func.func @contractions
func.func @contractions(%x: tensor<2x4x!q>, %w: tensor<4x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>, %v: tensor<4x!q>, %wt: tensor<4x!quant.uniform<i8:f32, 0.5>>) {
  // CHECK: stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<4x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>) -> tensor<2x3x!quant.uniform<i32:f32:1, {1.000000e-02,2.000000e-02,3.000000e-02}>>
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4x!q>, tensor<4x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>) -> tensor<2x3x!quant.uniform<i32:f32:1, {0.01,0.02,0.03}>>
  // CHECK: stablehlo.dot %x, %w : (tensor<2x4x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<4x3x!quant.uniform<i8:f32:1, {1.000000e-01,2.000000e-01,3.000000e-01}>>) -> tensor<2x3x!quant.uniform<i8:f32, 5.000000e-01>>
  %1 = stablehlo.dot %x, %w : (tensor<2x4x!q>, tensor<4x3x!quant.uniform<i8:f32:1, {0.1,0.2,0.3}>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5>>
  // CHECK: stablehlo.dot %v, %wt : (tensor<4x!quant.uniform<i8:f32, 1.000000e-01:-3>>, tensor<4x!quant.uniform<i8:f32, 5.000000e-01>>) -> tensor<!quant.uniform<i32:f32, 5.000000e-02>>
  %2 = stablehlo.dot %v, %wt : (tensor<4x!q>, tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<!quant.uniform<i32:f32, 0.05>>
  func.return
}
