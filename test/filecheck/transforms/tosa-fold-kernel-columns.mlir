// tosa-fold-kernel-columns: a 3x3 convolution of ResNet's last stage (7x7 pixels, here
// 64 channels and 256 outputs) reads its input padded left and right with the input zero
// point, one slice per kernel column, concatenated as 3 x 64 channels, and becomes a 3x1
// convolution with no column padding; the model's window stays in an attribute. With a
// stride of 2 the columns are picked by stride phase (a reshape, then slices). A 28x28
// convolution gains too little and is left alone, and so is a layer whose gain does not
// pay for its copies.
// RUN: qopt %s --split-input-file -p tosa-fold-kernel-columns | FileCheck %s
// RUN: qopt %s --split-input-file -p tosa-fold-kernel-columns | qopt --split-input-file > /dev/null
// RUN: not qopt %s --split-input-file -p 'tosa-fold-kernel-columns{min-gain=1.5}' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: tosa-fold-kernel-columns: min-gain must be in [0, 1)

// CHECK-LABEL: func.func @stage4
// CHECK-NOT: tensor<256x3x3x64xi8>
// CHECK: %[[P:.*]] = tosa.pad %x, %{{.*}}, %zx : (tensor<1x7x7x64xi8>, !tosa.shape<8>, tensor<1xi8>) -> tensor<1x7x9x64xi8>
// CHECK: %[[C0:.*]] = tosa.slice %[[P]], {{.*}} -> tensor<1x7x7x64xi8>
// CHECK: %[[C1:.*]] = tosa.slice %[[P]], {{.*}} -> tensor<1x7x7x64xi8>
// CHECK: %[[C2:.*]] = tosa.slice %[[P]], {{.*}} -> tensor<1x7x7x64xi8>
// CHECK: %[[X:.*]] = tosa.concat %[[C0]], %[[C1]], %[[C2]] axis(3) : (tensor<1x7x7x64xi8>, tensor<1x7x7x64xi8>, tensor<1x7x7x64xi8>) -> tensor<1x7x7x192xi8>
// CHECK: tosa.const values({{.*}}) : () -> tensor<256x3x1x192xi8>
// CHECK: tosa.conv2d %[[X]], {{.*}} pad([1, 1, 0, 0]) stride([1, 1]) dilation([1, 1]) acc_type(i32) {qdialect.model_window = array<i64: 7, 7, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 7, 7>}
func.func @stage4(%x: tensor<1x7x7x64xi8>) -> tensor<1x7x7x256xi32> {
  %w = tosa.const values(dense<1> : tensor<256x3x3x64xi8>) : () -> tensor<256x3x3x64xi8>
  %b = tosa.const values(dense<0> : tensor<256xi32>) : () -> tensor<256xi32>
  %zx = tosa.const values(dense<-5> : tensor<1xi8>) : () -> tensor<1xi8>
  %zw = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %zx, %zw pad([1, 1, 1, 1]) stride([1, 1]) dilation([1, 1]) acc_type(i32) : (tensor<1x7x7x64xi8>, tensor<256x3x3x64xi8>, tensor<256xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x7x7x256xi32>
  func.return %y : tensor<1x7x7x256xi32>
}

// -----

// CHECK-LABEL: func.func @stride2
// CHECK: tosa.pad %x, {{.*}} -> tensor<1x14x16x128xi8>
// CHECK: tosa.reshape {{.*}} -> tensor<1x14x8x2x128xi8>
// CHECK-COUNT-3: tosa.slice {{.*}} -> tensor<1x14x7x1x128xi8>
// CHECK: tosa.concat {{.*}} -> tensor<1x14x7x384xi8>
// CHECK: tosa.conv2d {{.*}} pad([1, 0, 0, 0]) stride([2, 1]) dilation([1, 1])
func.func @stride2(%x: tensor<1x14x14x128xi8>) -> tensor<1x7x7x512xi32> {
  %w = tosa.const values(dense<1> : tensor<512x3x3x128xi8>) : () -> tensor<512x3x3x128xi8>
  %b = tosa.const values(dense<0> : tensor<512xi32>) : () -> tensor<512xi32>
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %z, %z pad([1, 0, 1, 0]) stride([2, 2]) dilation([1, 1]) acc_type(i32) : (tensor<1x14x14x128xi8>, tensor<512x3x3x128xi8>, tensor<512xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x7x7x512xi32>
  func.return %y : tensor<1x7x7x512xi32>
}

// -----

// The same stride-2 layer with 64 channels and 256 outputs saves 4,032 array passes:
// less than the copies cost (2,352 cycles of bytes and the start-up of five copy layers,
// 4,000), so it is left alone.
// CHECK-LABEL: func.func @stride2_small
// CHECK-NOT: tosa.concat
// CHECK: tosa.conv2d %x, {{.*}} pad([1, 0, 1, 0]) stride([2, 2])
func.func @stride2_small(%x: tensor<1x14x14x64xi8>) -> tensor<1x7x7x256xi32> {
  %w = tosa.const values(dense<1> : tensor<256x3x3x64xi8>) : () -> tensor<256x3x3x64xi8>
  %b = tosa.const values(dense<0> : tensor<256xi32>) : () -> tensor<256xi32>
  %z = tosa.const values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %z, %z pad([1, 0, 1, 0]) stride([2, 2]) dilation([1, 1]) acc_type(i32) : (tensor<1x14x14x64xi8>, tensor<256x3x3x64xi8>, tensor<256xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x7x7x256xi32>
  func.return %y : tensor<1x7x7x256xi32>
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
