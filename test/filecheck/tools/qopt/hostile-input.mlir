// Hostile IR text: each case is a located error (never an internal error), in time
// linear in the input (docs/qopt.md, "Limits").
// RUN: qopt %s --split-input-file --verify-diagnostics
// RUN: qopt %S/Inputs/large-splat.mlir | FileCheck %s --check-prefix=SPLAT

// A splat stays a splat: 64M elements parse and print as `dense<1>` again.
// SPLAT: stablehlo.constant dense<1> : tensor<67108864xi8>

// -----

// MLIR's rule for signless iN: the literal fits in N bits as signed or as unsigned.
func.func @fits() -> tensor<2xi8> {
  %0 = stablehlo.constant dense<[255, -128]> : tensor<2xi8>
  func.return %0 : tensor<2xi8>
}

// -----

func.func @too_big() -> tensor<2xi8> {
  // expected-error @+1 {{integer literal 300 does not fit in i8}}
  %0 = stablehlo.constant dense<300> : tensor<2xi8>
  func.return %0 : tensor<2xi8>
}

// -----

func.func @too_big_element() -> tensor<2xi8> {
  // expected-error @+1 {{integer literal -129 does not fit in i8}}
  %0 = stablehlo.constant dense<[1, -129]> : tensor<2xi8>
  func.return %0 : tensor<2xi8>
}

// -----

func.func @too_big_scalar() -> i32 {
  // expected-error @+1 {{Integer value 4294967296 is out of range for type i32}}
  %0 = arith.constant 4294967296 : i32
  func.return %0 : i32
}

// -----

func.func @wide() -> tensor<2xi128> {
  // expected-error @+1 {{dense constants of i128 are not supported (integers of at most 64 bits)}}
  %0 = stablehlo.constant dense<1> : tensor<2xi128>
  func.return %0 : tensor<2xi128>
}

// -----

func.func @wide_list() -> tensor<2xi128> {
  // expected-error @+1 {{dense constants of i128 are not supported}}
  %0 = stablehlo.constant dense<[1, 2]> : tensor<2xi128>
  func.return %0 : tensor<2xi128>
}

// -----

func.func @complex_splat() -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{expected a (real, imaginary) pair for complex<f32>}}
  %0 = stablehlo.constant dense<1.0> : tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}

// -----

// A lexer error on the very first token of the input.
// expected-error @+1 {{@ identifier expected to start with letter}}
@@@ func.func @f() {
}

// -----

// expected-error @+1 {{End of file reached before closing string literal}}
"an unterminated string
func.func @f() {
}

// -----

// A count past int64 (what shape arithmetic holds) is an error; a count that fits is
// only a declaration, as upstream's verifier tests write them (see the next chunk).
// expected-error @+1 {{tensor type declares 9999999999800000000001 elements; the limit is 2^63 - 1}}
func.func @huge(%a: tensor<99999999999x99999999999xi8>) {
  func.return
}

// -----

func.func @huge_but_declared(%a: tensor<65536x65536x65536xi8>) -> tensor<65536x65536x65536xi8> {
  func.return %a : tensor<65536x65536x65536xi8>
}

// -----

func.func @huge_constant() {
  // expected-error @+1 {{a dense constant of tensor<65536x65536xi8> takes 4294967296 bytes; the limit is 2^31 bytes}}
  %0 = stablehlo.constant dense<[1, 2]> : tensor<65536x65536xi8>
  func.return
}

// -----

// SSA dominance: use before definition in one block.
func.func @use_before_def() -> tensor<2xi8> {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %1 = stablehlo.add %c, %0 : tensor<2xi8>
  %0 = stablehlo.constant dense<1> : tensor<2xi8>
  %c = stablehlo.constant dense<2> : tensor<2xi8>
  func.return %1 : tensor<2xi8>
}

// -----

// A value defined in a nested region is not visible after it.
func.func @escapes_region() -> tensor<i32> {
  %in = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %t = stablehlo.add %s, %init : tensor<i32>
  %r = stablehlo.reduce(%in init: %init) across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>
   reducer(%a: tensor<i32>, %b: tensor<i32>) {
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  func.return %t : tensor<i32>
}

// -----

// An op's own result used inside its region.
func.func @own_result() -> tensor<i32> {
  %in = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%in init: %init) across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>
   reducer(%a: tensor<i32>, %b: tensor<i32>) {
    // expected-error @+1 {{operand #1 does not dominate this use}}
    %s = stablehlo.add %a, %r : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  func.return %r : tensor<i32>
}

// -----

// Values of enclosing blocks defined before the region's op are visible inside it;
// the module body is a graph region (functions in any order).
func.func @fine() -> tensor<i32> {
  %in = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %init = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%in init: %init) across dimensions = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<i32>
   reducer(%a: tensor<i32>, %b: tensor<i32>) {
    %s = stablehlo.add %a, %init : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }
  %c = func.call @later() : () -> tensor<i32>
  func.return %r : tensor<i32>
}
func.func @later() -> tensor<i32> {
  %0 = stablehlo.constant dense<0> : tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// An empty zero-point constant: a TOSA tensor has no dimension of size 0.
func.func @empty_zero_point() -> tensor<1x2x2xi32> {
  %a = tosa.const values(dense<1> : tensor<1x2x2xi8>) : () -> tensor<1x2x2xi8>
  // expected-error @+1 {{'tosa.const' op result #0 must be tosa-conformant tensor of number values, but got 'tensor<0xi8>'}}
  %z = tosa.const values(dense<> : tensor<0xi8>) : () -> tensor<0xi8>
  %r = tosa.matmul %a, %a, %z, %z : (tensor<1x2x2xi8>, tensor<1x2x2xi8>, tensor<0xi8>, tensor<0xi8>) -> tensor<1x2x2xi32>
  func.return %r : tensor<1x2x2xi32>
}

// -----

// A custom syntax's integer clause that does not fit its type.
func.func @clause(%c: tensor<1x3x4x5xi8>) -> tensor<1x5x4x3xi8> {
  // expected-error @+1 {{Integer value 4294967296 is out of range for type i32}}
  %d = tosa.transpose %c perms([0, 3, 4294967296, 1]) : (tensor<1x3x4x5xi8>) -> tensor<1x5x4x3xi8>
  func.return %d : tensor<1x5x4x3xi8>
}

// -----

// Location aliases in reverse dependency order resolve (depth first, linear work).
func.func @aliases() {
  func.return
} loc(#l0)
#l0 = loc(#l1)
#l1 = loc(#l2)
#l2 = loc("a.py":1:1)

// -----

// A splat within the element limit but over the byte limit once built.
func.func @too_many_bytes() {
  // expected-error @+1 {{a dense constant of tensor<1073741824xf64> takes 8589934592 bytes; the limit is 2^31 bytes}}
  %0 = stablehlo.constant dense<"0x0000000000000000"> : tensor<1073741824xf64>
  func.return
}

// -----

// xDSL asserts the token after a complex literal's second part; it is a parse error.
func.func @complex_triple() -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{unexpected ','}}
  %0 = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0, 5.0)]> : tensor<2xcomplex<f32>>
  func.return %0 : tensor<2xcomplex<f32>>
}
