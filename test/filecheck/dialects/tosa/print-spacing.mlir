// TOSA ops print their spacing as upstream's assembly formats do: where a format's
// trailing optional group (`local_bound(...)`; for `tosa.cast`, none that qopt models)
// is absent, upstream still prints its space, before the attribute dictionary; present,
// it is not doubled. `tosa.custom` prints its clauses in upstream's order, and
// `--upstream-names` names fft2d/rfft2d results `%output_real, %output_imag`.
// The expected lines are upstream MLIR's (iree-opt) output for this input; the
// tosa/upstream-oracle.mlir test compares the whole file with it where iree-opt is installed.
// RUN: qopt --upstream-names %s | FileCheck %s --strict-whitespace
// RUN: qopt %s | qopt --upstream-names | FileCheck %s --strict-whitespace

// CHECK: %output_real, %output_imag = tosa.fft2d %arg0, %arg1 inverse(false)  : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
// CHECK-NEXT: %output_real_0, %output_imag_1 = tosa.fft2d %arg0, %arg1 inverse(true) local_bound(false) {note = "kept"} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
// CHECK-NEXT: %output_real_2, %output_imag_3 = tosa.rfft2d %arg0  : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
// CHECK-NEXT: %output_real_4, %output_imag_5 = tosa.rfft2d %arg0 local_bound(true) : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
// CHECK-NEXT: %0 = tosa.conv2d %arg2, %arg3, %arg4, %arg5, %arg5 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32)  {note = "kept"} : (tensor<1x4x4x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %1 = tosa.conv2d %arg2, %arg3, %arg4, %arg5, %arg5 pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) local_bound(true) {note = "kept"} : (tensor<1x4x4x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %2 = tosa.cast %arg6  {note = "kept"} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT: %3 = tosa.custom %arg6 operator_name("op") domain_name("d") implementation_attrs("") : (tensor<4xi32>) -> tensor<4xi32>

func.func @spacing(%r: tensor<1x4x8xf32>, %i: tensor<1x4x8xf32>, %x: tensor<1x4x4x4xf32>, %w: tensor<8x1x1x4xf32>, %b: tensor<8xf32>, %zp: tensor<1xf32>, %n: tensor<4xi32>) {
  %0:2 = tosa.fft2d %r, %i inverse(false) : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  %1:2 = tosa.fft2d %r, %i inverse(true) local_bound(false) {note = "kept"} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x4x8xf32>)
  %2:2 = tosa.rfft2d %r : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
  %3:2 = tosa.rfft2d %r local_bound(true) : (tensor<1x4x8xf32>) -> (tensor<1x4x5xf32>, tensor<1x4x5xf32>)
  %4 = tosa.conv2d %x, %w, %b, %zp, %zp pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) {note = "kept"} : (tensor<1x4x4x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  %5 = tosa.conv2d %x, %w, %b, %zp, %zp pad([0, 0, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(f32) local_bound(true) {note = "kept"} : (tensor<1x4x4x4xf32>, tensor<8x1x1x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  %6 = tosa.cast %n {note = "kept"} : (tensor<4xi32>) -> tensor<4xf32>
  %7 = tosa.custom %n operator_name("op") domain_name("d") implementation_attrs("") : (tensor<4xi32>) -> tensor<4xi32>
  return
}
