// With strict-op-spec-alignment, tosa-validate also checks the specification's ERROR_IF
// conditions the verifiers leave: RESIZE's constant scale, offset and border, SCATTER's
// constant indices, and control-flow regions isolated from above. Upstream's words; the
// bounds are the spec's.
// RUN: qopt %s --split-input-file --verify-diagnostics -p 'tosa-validate{level=none profile=pro_int,pro_fp extension=controlflow strict-op-spec-alignment}'
// RUN: qopt %s --split-input-file -p 'tosa-validate{level=none profile=pro_int,pro_fp extension=controlflow}' | FileCheck %s --check-prefix=LENIENT
// LENIENT-COUNT-5: func.func

func.func @downscale(%x: tensor<1x37x37x1xi8>) -> tensor<1x3x3x1xi8> {
  // 1/18 is below the 1/16 downscale limit.
  %scale = tosa.const_shape {values = dense<[1, 18, 1, 18]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.resize' op expect a downscale ratio larger than 1/16, got y=1/18, x=1/18}}
  %0 = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x37x37x1xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x3x3x1xi8>
  return %0 : tensor<1x3x3x1xi8>
}

// -----

func.func @border(%x: tensor<1x4x4x1xi8>) -> tensor<1x7x9x1xi8> {
  // border_x must be in [-16 * scale_x_n, scale_x_n): 2 >= 2.
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[0, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error @+1 {{'tosa.resize' op expect borderX / scaleXNumerator to be in range [-16, 1), got 2/2}}
  %0 = tosa.resize %x, %scale, %offset, %border {mode = NEAREST_NEIGHBOR} : (tensor<1x4x4x1xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x9x1xi8>
  return %0 : tensor<1x7x9x1xi8>
}

// -----

func.func @not_isolated(%c: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // The then region reads %b, defined outside it.
  // expected-error @+1 {{'tosa.cond_if' op is not conformant to the TOSA specification. It requires the 'then' region is isolated from above.}}
  %0 = tosa.cond_if %c (%x = %a) : tensor<i1> (tensor<f32>) -> tensor<f32> {
  ^bb0(%x: tensor<f32>):
    %1 = tosa.add %x, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    tosa.yield %1 : tensor<f32>
  } else {
  ^bb0(%x: tensor<f32>):
    tosa.yield %x : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// SCATTER writes each position once: constant indices may not repeat within a batch.
func.func @scatter_twice(%v: tensor<2x8x3xf32>, %x: tensor<2x3x3xf32>) -> tensor<2x8x3xf32> {
  %i = tosa.const values(dense<[[0, 1, 2], [4, 5, 4]]> : tensor<2x3xi32>) : () -> tensor<2x3xi32>
  // expected-error @+1 {{'tosa.scatter' op indices values contain duplicates}}
  %0 = tosa.scatter %v, %i, %x : (tensor<2x8x3xf32>, tensor<2x3xi32>, tensor<2x3x3xf32>) -> tensor<2x8x3xf32>
  return %0 : tensor<2x8x3xf32>
}

// -----

func.func @scatter_once_per_batch(%v: tensor<2x8x3xf32>, %x: tensor<2x3x3xf32>) -> tensor<2x8x3xf32> {
  %i = tosa.const values(dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xi32>) : () -> tensor<2x3xi32>
  %0 = tosa.scatter %v, %i, %x : (tensor<2x8x3xf32>, tensor<2x3xi32>, tensor<2x3x3xf32>) -> tensor<2x8x3xf32>
  return %0 : tensor<2x8x3xf32>
}
