// Parse errors read as MLIR's parser words them, at the line MLIR reports, so
// upstream-style expected-error lines match as written.
// RUN: qopt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @f(%a: i8) -> i8 {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %0 = arith.addi %a, %undefined : i8
  return %0 : i8
}

// -----

func.func @f(%a: i8) -> i16 {
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'i16' vs 'i8'}}
  return %a : i16
}

// -----

func.func @f(%a: i8) {
  %0 = arith.addi %a, %a : i8
  // expected-error @+1 {{redefinition of SSA value '%0'}}
  %0 = arith.addi %a, %a : i8
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{custom op 'stablehlo.no_such_op' is unknown}}
  stablehlo.no_such_op
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{custom op 'no_such_op' is unknown (tried 'func.no_such_op' as well)}}
  no_such_op
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{unregistered operation 'stablehlo.no_such_op' found in dialect ('stablehlo') that does not allow unknown operations}}
  "stablehlo.no_such_op"() : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{operation being parsed with an unregistered dialect}}
  "nodialect.op"() : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{expected operation name in quotes}}
  %0 = (
}

// -----

// expected-error @+1 {{undefined symbol alias id 'nothere'}}
func.func private @f(!nothere)

// -----

// expected-error @+1 {{expected integer value}}
func.func private @f(!quant.uniform<i8<x:3>:f32, 1.0>)

// -----

// expected-error @+1 {{expected ':'}}
func.func private @f(!quant.uniform<i8<-4:3>f32, 0.99872:127>)

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
func.func private @f(!quant.uniform<i8:f32, 1.0)

// -----

func.func @f(%a: tensor<2xi8>) -> tensor<2xi8> {
  // expected-error @+1 {{expected '['}}
  %0 = stablehlo.transpose %a, dims = 0 : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

// A dense literal of a dynamic type: at `dense`, where MLIR reports it (the type ends
// the line, so the next token is on the line below).
func.func @f() -> tensor<1x?xf32> {
  // expected-error @+1 {{elements literal type must have static shape}}
  %c = stablehlo.constant dense<1.0> :
      tensor<1x?xf32>
  return %c : tensor<1x?xf32>
}

// -----

// A dense literal whose shape is not its type's: at `dense`, with MLIR's words.
func.func @f() {
  // expected-error @+1 {{inferred shape of elements literal ([1, 3]) does not match type ([2, 2])}}
  %0 = "tosa.const"() <{values = dense<[[1, 2, 3]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  return
}

// -----

// A ragged dense literal: at its closing bracket.
func.func @f() {
  // expected-error @+1 {{tensor literal is invalid; ranks are not consistent between elements}}
  %0 = "tosa.const"() <{values = dense<[[1, 2], [3]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  return
}

// -----

// A float element in an integer dense literal.
func.func @f() {
  // expected-error @+1 {{expected integer elements, but parsed floating-point}}
  %0 = "tosa.const"() <{values = dense<-1.2> : tensor<2xi32>}> : () -> tensor<2xi32>
  return
}

// -----

// A chunk with nothing but comments is an empty module, as in mlir-opt: no error.

// -----

// A stray token where a region wants an op: reported at the end of the line before it,
// as MLIR reports a wrong token.
func.func @stray_token_in_region() {
  // expected-error @+1 {{expected operation name in quotes}}
  func.return
  42
}

// -----

// A region the input ends inside.
func.func @unclosed_region() {
  // expected-error @+1 {{expected operation name in quotes}}
  func.return

// -----

// A decimal integer where a float is wanted, in a dense literal or a scalar attribute,
// at its digits (after the sign), with MLIR's note. Hex bits and `1.0` are floats.
func.func @decimal_for_float() -> tensor<2xf32> {
  // expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
  // expected-note @+1 {{add a trailing dot to make the literal a float}}
  %0 = stablehlo.constant dense<[1.5, -2]> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @decimal_for_float_scalar(%x: tensor<4x3xf32>, %v: tensor<3xf32>) -> tensor<4x3xf32> {
  // expected-error @+2 {{unexpected decimal integer literal for a floating point value}}
  // expected-note @+1 {{add a trailing dot to make the literal a float}}
  %0 = "stablehlo.batch_norm_inference"(%x, %v, %v, %v, %v) {epsilon = 1 : f32, feature_index = 1 : i64} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @floats_as_floats
// CHECK: dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK: epsilon = 1.000000e+00 : f32
func.func @floats_as_floats(%x: tensor<4x3xf32>, %v: tensor<3xf32>) -> (tensor<2xf32>, tensor<4x3xf32>) {
  %0 = stablehlo.constant dense<[0x3F800000, -2.0]> : tensor<2xf32>
  %1 = "stablehlo.batch_norm_inference"(%x, %v, %v, %v, %v) {epsilon = 1.0 : f32, feature_index = 1 : i64} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %0, %1 : tensor<2xf32>, tensor<4x3xf32>
}
