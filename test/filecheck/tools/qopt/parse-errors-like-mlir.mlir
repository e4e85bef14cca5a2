// Parse errors read as MLIR's parser words them, at the line MLIR reports, so
// upstream-style expected-error lines match as written.
// RUN: qopt %s --split-input-file --verify-diagnostics

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
