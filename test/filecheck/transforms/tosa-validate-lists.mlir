// Level 8K on control flow: the tensors a cond_if or while_loop carries (its tensor
// lists) count towards MAX_LOG2_SIZE but not MAX_RANK, and a yield only forwards what
// the enclosing op was checked for; a variable's declared type is checked too; every op
// over a limit is reported.
// RUN: qopt %s --split-input-file --verify-diagnostics -p 'tosa-validate{profile=pro_int,pro_fp extension=controlflow,dynamic}'

func.func @rank7_lists(%a: tensor<1x1x1x1x1x1x2xf32>, %c: tensor<i1>) -> tensor<1x1x1x1x1x1x2xf32> {
  %0 = tosa.cond_if %c (%x = %a) : tensor<i1> (tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32> {
    tosa.yield %x : tensor<1x1x1x1x1x1x2xf32>
  } else {
  ^bb0(%y: tensor<1x1x1x1x1x1x2xf32>):
    tosa.yield %y : tensor<1x1x1x1x1x1x2xf32>
  }
  return %0 : tensor<1x1x1x1x1x1x2xf32>
}

// -----

func.func @huge_loop_value(%big: tensor<536870912xi32>) {
  %i = tosa.const values(dense<0> : tensor<i32>) : () -> tensor<i32>
  // expected-error @+1 {{'tosa.while_loop' op failed level check: operand tensor size (in bytes) <= (1 << MAX_LOG2_SIZE - 1)}}
  %0:2 = "tosa.while_loop"(%i, %big) ({
  ^bb0(%n: tensor<i32>, %v: tensor<536870912xi32>):
    %stop = tosa.greater_equal %n, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tosa.yield"(%stop) : (tensor<i1>) -> ()
  }, {
  ^bb0(%n: tensor<i32>, %v: tensor<536870912xi32>):
    %one = tosa.const values(dense<1> : tensor<1xi32>) : () -> tensor<1xi32>
    // expected-error @+1 {{'tosa.add' op failed level check: operand tensor size (in bytes) <= (1 << MAX_LOG2_SIZE - 1)}}
    %w = tosa.add %v, %one : (tensor<536870912xi32>, tensor<1xi32>) -> tensor<536870912xi32>
    "tosa.yield"(%n, %w) : (tensor<i32>, tensor<536870912xi32>) -> ()
  }) : (tensor<i32>, tensor<536870912xi32>) -> (tensor<i32>, tensor<536870912xi32>)
  return
}

// -----

// A variable's declared type is held to the same limits as the tensors that read it.
module {
  // expected-error @+1 {{'tosa.variable' op failed level check: variable type rank(shape) <= MAX_RANK}}
  tosa.variable @state : tensor<1x1x1x1x1x1x1x2xf32>

  func.func @read() -> tensor<1x1x1x1x1x1x1x2xf32> {
    // expected-error @+1 {{'tosa.variable_read' op failed level check: result rank(shape) <= MAX_RANK}}
    %0 = tosa.variable_read @state : tensor<1x1x1x1x1x1x1x2xf32>
    return %0 : tensor<1x1x1x1x1x1x1x2xf32>
  }
}
