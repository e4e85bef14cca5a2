// quant.qcast / quant.dcast / quant.scast in the custom and the generic form.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2
// RUN: qopt %s --print-op-generic | qopt | FileCheck %s

!q = !quant.uniform<i8:f32, 2.0:10>
!qa = !quant.uniform<u8:f32:1, {2.0:10,3.0:20}>

// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%a: f32, %t: tensor<4x2xf32>, %i: tensor<4x2xi8>) -> (f32, tensor<4x2xf32>)
func.func @casts(%a: f32, %t: tensor<4x2xf32>, %i: tensor<4x2xi8>) -> (f32, tensor<4x2xf32>) {
  // CHECK-NEXT: %0 = quant.qcast %a : f32 to !quant.uniform<i8:f32, 2.000000e+00:10>
  // GENERIC: "quant.qcast"(%a) : (f32) -> !quant.uniform<i8:f32, 2.000000e+00:10>
  %0 = quant.qcast %a : f32 to !q
  // CHECK-NEXT: %1 = quant.dcast %0 : !quant.uniform<i8:f32, 2.000000e+00:10> to f32
  // GENERIC: "quant.dcast"(%0) : (!quant.uniform<i8:f32, 2.000000e+00:10>) -> f32
  %1 = quant.dcast %0 : !q to f32
  // CHECK-NEXT: %2 = quant.qcast %t : tensor<4x2xf32> to tensor<4x2x!quant.uniform<u8:f32:1, {2.000000e+00:10,3.000000e+00:20}>>
  %2 = quant.qcast %t : tensor<4x2xf32> to tensor<4x2x!qa>
  // CHECK-NEXT: %3 = quant.scast %2 : tensor<4x2x!quant.uniform<u8:f32:1, {2.000000e+00:10,3.000000e+00:20}>> to tensor<4x2xi8>
  // GENERIC: "quant.scast"(%2) : (tensor<4x2x!quant.uniform<u8:f32:1, {2.000000e+00:10,3.000000e+00:20}>>) -> tensor<4x2xi8>
  %3 = quant.scast %2 : tensor<4x2x!qa> to tensor<4x2xi8>
  // CHECK-NEXT: %4 = quant.scast %i : tensor<4x2xi8> to tensor<4x2x!quant.uniform<u8:f32:1, {2.000000e+00:10,3.000000e+00:20}>>
  %4 = quant.scast %i : tensor<4x2xi8> to tensor<4x2x!qa>
  // CHECK-NEXT: %5 = quant.dcast %4 : tensor<4x2x!quant.uniform<u8:f32:1, {2.000000e+00:10,3.000000e+00:20}>> to tensor<4x2xf32>
  %5 = quant.dcast %4 : tensor<4x2x!qa> to tensor<4x2xf32>
  // CHECK-NEXT: return %1, %5 : f32, tensor<4x2xf32>
  func.return %1, %5 : f32, tensor<4x2xf32>
}

// Unranked and dynamically shaped containers are accepted; the per-axis
// dimension check applies only to static sizes.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%t: tensor<?x2xf32>, %u: tensor<*xf32>) {
  // CHECK-NEXT: quant.qcast %t : tensor<?x2xf32> to tensor<?x2x!quant.uniform<u8:f32:1, {2.000000e+00:10,3.000000e+00:20}>>
  %0 = quant.qcast %t : tensor<?x2xf32> to tensor<?x2x!qa>
  // CHECK-NEXT: quant.qcast %u : tensor<*xf32> to tensor<*x!quant.uniform<u8:f32:1, {2.000000e+00:10,3.000000e+00:20}>>
  %1 = quant.qcast %u : tensor<*xf32> to tensor<*x!qa>
  func.return
}
