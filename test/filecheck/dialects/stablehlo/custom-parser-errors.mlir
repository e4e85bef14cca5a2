// Errors raised by an op's custom parser read as MLIR's OpAsmParser reports them:
// prefixed with "custom op 'X'"; errors from inside a type or attribute, and type
// clashes between uses of a value, come from the core parser and are not prefixed.
// RUN: not qopt %s --split-input-file 2>&1 | FileCheck %s

// CHECK: error: custom op 'stablehlo.reduce_precision' expected exponent mantissa in format e#m#, saw z4f2{{$}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce_precision %x, format = z4f2 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK: error: custom op 'stablehlo.reduce_precision' unable to parse exponent '2147483648'{{$}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce_precision %x, format = e2147483648m2 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK: error: custom op 'stablehlo.abs' 1 operands present, but expected 2{{$}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK: error: custom op 'stablehlo.add' expected single output{{$}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK: error: custom op 'stablehlo.concatenate' expected 'dim'{{$}}
func.func @f(%x: tensor<4xf32>) -> tensor<8xf32> {
  %0 = stablehlo.concatenate %x, %x, dimension = 0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// -----

// CHECK: error: custom op 'stablehlo.custom_call' expected valid '@'-identifier for symbol name{{$}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call 42(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// A type the op's parser reads: the core parser's words, no prefix.
// CHECK: error: expected non-function type{{$}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %x : 42
  func.return %0 : tensor<4xf32>
}

// -----

// CHECK: error: use of value '%x' expects different type than prior uses: 'tensor<4xi32>' vs 'tensor<4xf32>'{{$}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %x : tensor<4xi32>
  func.return %0 : tensor<4xf32>
}

// -----

// An attribute the op's values cannot build is an error at that op, not at the enclosing
// function's parser.
// CHECK: error: Integer value 99999999999999999999 is out of range for type i64
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = chlo.top_k(%x, k = 99999999999999999999) : tensor<4xf32> -> (tensor<4xf32>, tensor<4xi32>)
  func.return %0#0 : tensor<4xf32>
}

// -----

// CHECK: error: bound 99999999999999999999 does not fit a 64-bit integer
func.func @f(%x: tensor<?xf32, #stablehlo.bounds<99999999999999999999>>) {
  func.return
}
