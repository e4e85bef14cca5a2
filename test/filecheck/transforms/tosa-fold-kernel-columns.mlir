// tosa-fold-kernel-columns: a 3x3 convolution over 8 input channels (half a 16-lane
// tile per tap) reads its input padded left and right with the input zero point, one
// slice per kernel column, concatenated as 3 x 8 channels, and becomes a 3x1 convolution
// with no column padding (6 tile passes per pixel instead of 9); the model's window stays
// in an attribute. With a stride of 2 the columns are picked by stride phase (a reshape,
// then slices): a stem over RGB. Whole channel tiles gain nothing (the lowering already
// skips the taps on padding) and are left alone, and so is a layer whose gain does not
// pay for its copies.
// RUN: qopt %s --split-input-file -p tosa-fold-kernel-columns | FileCheck %s
// RUN: qopt %s --split-input-file -p tosa-fold-kernel-columns | qopt --split-input-file > /dev/null
// RUN: not qopt %s --split-input-file -p 'tosa-fold-kernel-columns{min-gain=1.5}' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: tosa-fold-kernel-columns: min-gain must be in [0, 1)

// CHECK-LABEL: func.func @narrow
// CHECK-NOT: tensor<32x3x3x8xi8>
// CHECK: %[[P:.*]] = tosa.pad %x, %{{.*}}, %zx : (tensor<1x56x56x8xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x56x58x8xi8>
// CHECK: %[[C0:.*]] = tosa.slice %[[P]], {{.*}} -> tensor<1x56x56x8xi8>
// CHECK: %[[C1:.*]] = tosa.slice %[[P]], {{.*}} -> tensor<1x56x56x8xi8>
// CHECK: %[[C2:.*]] = tosa.slice %[[P]], {{.*}} -> tensor<1x56x56x8xi8>
// CHECK: %[[X:.*]] = tosa.concat %[[C0]], %[[C1]], %[[C2]] axis(3) : (tensor<1x56x56x8xi8>, tensor<1x56x56x8xi8>, tensor<1x56x56x8xi8>) -> tensor<1x56x56x24xi8>
// CHECK: tosa.const values({{.*}}) : () -> tensor<32x3x1x24xi8>
// CHECK: tosa.conv2d %[[X]], {{.*}} pad([1, 1, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32) {qdialect.model_window = array<i64: 56, 56, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 56, 56>}
func.func @narrow(%x: tensor<1x56x56x8xi8>) -> tensor<1x56x56x32xi32> {
  %w = tosa.const values(dense<1> : tensor<32x3x3x8xi8>) : () -> tensor<32x3x3x8xi8>
  %b = tosa.const values(dense<0> : tensor<32xi32>) : () -> tensor<32xi32>
  %zx = tosa.const values(dense<-5> : tensor<1xi8>) : () -> tensor<1xi8>
  %zw = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %zx, %zw pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x56x56x8xi8>, tensor<32x3x3x8xi8>, tensor<32xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x56x56x32xi32>
  func.return %y : tensor<1x56x56x32xi32>
}

// -----

// CHECK-LABEL: func.func @stem
// CHECK: tosa.pad %x, {{.*}} -> tensor<1x224x226x3xi8>
// CHECK: tosa.reshape {{.*}} -> tensor<1x224x113x2x3xi8>
// CHECK-COUNT-3: tosa.slice {{.*}} -> tensor<1x224x112x1x3xi8>
// CHECK: tosa.concat {{.*}} -> tensor<1x224x112x9xi8>
// CHECK: tosa.conv2d {{.*}} pad([1, 0, 0, 0]) stride([2, 1]) dilation([1, 1])
func.func @stem(%x: tensor<1x224x224x3xi8>) -> tensor<1x112x112x32xi32> {
  %w = tosa.const values(dense<1> : tensor<32x3x3x3xi8>) : () -> tensor<32x3x3x3xi8>
  %b = tosa.const values(dense<0> : tensor<32xi32>) : () -> tensor<32xi32>
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %z, %z pad([1, 0, 1, 0]) stride([2, 2]) dilation([1, 1]) acc_type(i32) : (tensor<1x224x224x3xi8>, tensor<32x3x3x3xi8>, tensor<32xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x112x112x32xi32>
  func.return %y : tensor<1x112x112x32xi32>
}

// -----

// A small stride-2 layer over 8 channels saves 120 array passes: less than the copies
// cost (the start-up of five copy layers alone is 4,000 cycles), so it is left alone.
// CHECK-LABEL: func.func @stride2_small
// CHECK-NOT: tosa.concat
// CHECK: tosa.conv2d %x, {{.*}} pad([1, 0, 1, 0]) stride([2, 2])
func.func @stride2_small(%x: tensor<1x14x14x8xi8>) -> tensor<1x7x7x16xi32> {
  %w = tosa.const values(dense<1> : tensor<16x3x3x8xi8>) : () -> tensor<16x3x3x8xi8>
  %b = tosa.const values(dense<0> : tensor<16xi32>) : () -> tensor<16xi32>
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %z, %z pad([1, 0, 1, 0]) stride([2, 2]) dilation([1, 1]) acc_type(i32) : (tensor<1x14x14x8xi8>, tensor<16x3x3x8xi8>, tensor<16xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x7x7x16xi32>
  func.return %y : tensor<1x7x7x16xi32>
}

// -----

// CHECK-LABEL: func.func @wide
// CHECK-NOT: tosa.concat
// CHECK: tosa.conv2d %x, {{.*}} pad([1, 1, 1, 1])
func.func @wide(%x: tensor<1x28x28x128xi8>) -> tensor<1x28x28x128xi32> {
  %w = tosa.const values(dense<1> : tensor<128x3x3x128xi8>) : () -> tensor<128x3x3x128xi8>
  %b = tosa.const values(dense<0> : tensor<128xi32>) : () -> tensor<128xi32>
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %z, %z pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x28x28x128xi8>, tensor<128x3x3x128xi8>, tensor<128xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x28x28x128xi32>
  func.return %y : tensor<1x28x28x128xi32>
}
