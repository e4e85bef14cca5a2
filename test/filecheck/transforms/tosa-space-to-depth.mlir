// tosa-space-to-depth: a stride-2 convolution of three channels read from the argument
// becomes reshape -> transpose -> reshape (2x2 pixel blocks as 12 channels, the host's
// to lay out) and a stride-1 convolution with a 2x2 kernel; the model's window stays in
// an attribute for counting its MACs. A stride-1 convolution is left alone.
// RUN: qopt %s --split-input-file -p tosa-space-to-depth | FileCheck %s
// RUN: qopt %s --split-input-file -p tosa-space-to-depth | qopt --split-input-file > /dev/null

// CHECK-LABEL: func.func @stem
// CHECK: %[[R6:.*]] = tosa.reshape %x, %{{.*}} : (tensor<1x8x8x3xi8>, !tosa.shape<6>) -> tensor<1x4x2x4x2x3xi8>
// CHECK-NEXT: %[[T:.*]] = tosa.transpose %[[R6]] perms([0, 1, 3, 2, 4, 5]) : (tensor<1x4x2x4x2x3xi8>) -> tensor<1x4x4x2x2x3xi8>
// CHECK: %[[R4:.*]] = tosa.reshape %[[T]], %{{.*}} : (tensor<1x4x4x2x2x3xi8>, !tosa.shape<4>) -> tensor<1x4x4x12xi8>
// CHECK: tosa.const values({{.*}}) : () -> tensor<4x2x2x12xi8>
// CHECK: tosa.conv2d %[[R4]], %{{.*}} pad([1, 0, 1, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32) {qdialect.model_window = array<i64: 8, 8, 3, 3, 3, 2, 2, 1, 1, 1, 0, 1, 0, 4, 4>}  : (tensor<1x4x4x12xi8>, tensor<4x2x2x12xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
func.func @stem(%x: tensor<1x8x8x3xi8>) -> tensor<1x4x4x4xi32> {
  %w = tosa.const values(dense<1> : tensor<4x3x3x3xi8>) : () -> tensor<4x3x3x3xi8>
  %b = tosa.const values(dense<0> : tensor<4xi32>) : () -> tensor<4xi32>
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %z, %z pad([1, 0, 1, 0]) stride([2, 2]) dilation([1, 1]) acc_type(i32) : (tensor<1x8x8x3xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x4xi32>
  func.return %y : tensor<1x4x4x4xi32>
}

// -----

// CHECK-LABEL: func.func @stride_one
// CHECK-NOT: tosa.transpose
// CHECK: tosa.conv2d %x, {{.*}} stride([1, 1])
func.func @stride_one(%x: tensor<1x8x8x3xi8>) -> tensor<1x8x8x4xi32> {
  %w = tosa.const values(dense<1> : tensor<4x3x3x3xi8>) : () -> tensor<4x3x3x3xi8>
  %b = tosa.const values(dense<0> : tensor<4xi32>) : () -> tensor<4xi32>
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %z, %z pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x8x8x3xi8>, tensor<4x3x3x3xi8>, tensor<4xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x8x8x4xi32>
  func.return %y : tensor<1x8x8x4xi32>
}
