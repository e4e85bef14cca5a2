// Invalid quantization points (used by ../stablehlo-legalize-fake-quant.mlir).

func.func @case0(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant: missing attribute(s) storage_bits, axis}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = dense<0.5> : tensor<1xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64}, decomposition = @fq0} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @fq0(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @case1(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant: scales must be positive finite numbers}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = dense<0.0> : tensor<1xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @fq1} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @fq1(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @case2(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant: zero points must be integers in i8's range [-128, 127]}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = dense<0.5> : tensor<1xf64>, zero_point = dense<200> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @fq2} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @fq2(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @case3(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant: storage range [0, 300] is not a range inside i8's [-128, 127]}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = dense<0.5> : tensor<1xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = 0 : i64, storage_max = 300 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @fq3} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @fq3(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @case4(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant: storage_bits 7 is not an integer width (2 to 32)}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = dense<0.5> : tensor<1xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 7 : i64, axis = -1 : i64}, decomposition = @fq4} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @fq4(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @case5(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant: axis 1 is out of range for a rank-1 tensor}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = dense<0.5> : tensor<1xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = 1 : i64}, decomposition = @fq5} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @fq5(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @case6(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant: axis 0 has 2 channels, but 3 scales and 1 zero points}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = dense<[1.0, 2.0, 3.0]> : tensor<3xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = 0 : i64}, decomposition = @fq6} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @fq6(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @case7(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant: per-tensor parameters (axis -1) take one scale and one zero point, not 2 and 1}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = dense<[1.0, 2.0]> : tensor<2xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @fq7} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @fq7(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @case8(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant: attribute 'scale' is not a number or a tensor of numbers}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = "half", zero_point = dense<0> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @fq8} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @fq8(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

func.func @weights_outside() -> tensor<2xf32> {
  %w = stablehlo.constant dense<[6, -9]> : tensor<2xi8>
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.dequantize: a constant's values lie outside the storage range [-8, 7]}}
  %0 = stablehlo.composite "qdialect.dequantize" %w {composite_attributes = {scale = dense<0.5> : tensor<1xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = -8 : i64, storage_max = 7 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @dq} : (tensor<2xi8>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @dq(%x: tensor<2xi8>) -> tensor<2xf32> {
  %0 = stablehlo.convert %x : (tensor<2xi8>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dequantize_wrong_width(%x: tensor<2xi16>) -> tensor<2xf32> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.dequantize reads i8 storage values, not i16}}
  %0 = stablehlo.composite "qdialect.dequantize" %x {composite_attributes = {scale = dense<0.5> : tensor<1xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @dq16} : (tensor<2xi16>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @dq16(%x: tensor<2xi16>) -> tensor<2xf32> {
  %0 = stablehlo.convert %x : (tensor<2xi16>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @fake_quant_of_integers(%x: tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{stablehlo-legalize-fake-quant: qdialect.fake_quant maps an f32 tensor to its own type}}
  %0 = stablehlo.composite "qdialect.fake_quant" %x {composite_attributes = {scale = dense<0.5> : tensor<1xf64>, zero_point = dense<0> : tensor<1xi64>, storage_min = -128 : i64, storage_max = 127 : i64, storage_bits = 8 : i64, axis = -1 : i64}, decomposition = @id8} : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}
func.func private @id8(%x: tensor<2xi8>) -> tensor<2xi8> {
  return %x : tensor<2xi8>
}
