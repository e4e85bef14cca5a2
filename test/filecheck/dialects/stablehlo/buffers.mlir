// Buffers (memrefs) in StableHLO: custom_call's `CreateBuffer`, `Pin` (tensor to buffer)
// and `Unpin` targets, buffers through tuple, get_tuple_element and while, and each
// buffer result of any other custom_call aliasing one buffer operand part. Other ops
// take ranked tensors only. Printed as mlir-opt prints them; errors in upstream's words.
// RUN: qopt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK-LABEL: func.func @pin_alias_unpin
// CHECK: %0 = stablehlo.custom_call @Pin(%arg0) {api_version = 4 : i32} : (tensor<2xf32>) -> memref<2xf32>
// CHECK: %1 = stablehlo.custom_call @foo(%0) {api_version = 4 : i32, output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (memref<2xf32>) -> memref<2xf32>
// CHECK: %2 = stablehlo.custom_call @Unpin(%1) {api_version = 4 : i32} : (memref<2xf32>) -> tensor<?xf32>
func.func @pin_alias_unpin(%arg0: tensor<2xf32>) -> tensor<?xf32> {
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "Pin", api_version = 4 : i32} : (tensor<2xf32>) -> memref<2xf32>
  %1 = "stablehlo.custom_call"(%0) {
    call_target_name = "foo", api_version = 4 : i32,
    output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]
  } : (memref<2xf32>) -> memref<2xf32>
  %2 = "stablehlo.custom_call"(%1) {call_target_name = "Unpin", api_version = 4 : i32} : (memref<2xf32>) -> tensor<?xf32>
  func.return %2 : tensor<?xf32>
}

// CHECK-LABEL: func.func @create_tuple_while
// CHECK: stablehlo.custom_call @CreateBuffer() {api_version = 4 : i32} : () -> memref<2xf32>
// CHECK: stablehlo.tuple %arg1, %0 : tuple<tensor<2xf32>, memref<2xf32>>
// CHECK: stablehlo.get_tuple_element %1[1] : (tuple<tensor<2xf32>, memref<2xf32>>) -> memref<2xf32>
// CHECK: stablehlo.while(%p = %arg0, %b = %2) : tensor<i1>, memref<2xf32>
func.func @create_tuple_while(%arg0: tensor<i1>, %arg1: tensor<2xf32>) -> memref<2xf32> {
  %0 = "stablehlo.custom_call"() {call_target_name = "CreateBuffer", api_version = 4 : i32} : () -> memref<2xf32>
  %1 = "stablehlo.tuple"(%arg1, %0) : (tensor<2xf32>, memref<2xf32>) -> tuple<tensor<2xf32>, memref<2xf32>>
  %2 = "stablehlo.get_tuple_element"(%1) {index = 1 : i32} : (tuple<tensor<2xf32>, memref<2xf32>>) -> memref<2xf32>
  %3:2 = stablehlo.while(%p = %arg0, %b = %2) : tensor<i1>, memref<2xf32>
    cond {
      stablehlo.return %p : tensor<i1>
    } do {
      stablehlo.return %p, %b : tensor<i1>, memref<2xf32>
    }
  func.return %3#1 : memref<2xf32>
}

// -----

func.func @create_with_input(%arg0: tensor<2xf32>) -> memref<2xf32> {
  // expected-error @+1 {{'stablehlo.custom_call' op CreateBuffer custom_call shouldn't have any inputs}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "CreateBuffer", api_version = 4 : i32} : (tensor<2xf32>) -> memref<2xf32>
  func.return %0 : memref<2xf32>
}

func.func @create_tensor() -> tensor<2xf32> {
  // expected-error @+1 {{CreateBuffer custom_call should have a memref result}}
  %0 = "stablehlo.custom_call"() {call_target_name = "CreateBuffer", api_version = 4 : i32} : () -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

func.func @pin_to_tensor(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{Pin custom_call should have a memref output}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "Pin", api_version = 4 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

func.func @pin_from_buffer(%arg0: memref<2xf32>) -> memref<2xf32> {
  // expected-error @+1 {{Pin custom_call should have a tensor input}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "Pin", api_version = 4 : i32} : (memref<2xf32>) -> memref<2xf32>
  func.return %0 : memref<2xf32>
}

func.func @pin_two(%arg0: tensor<2xf32>) -> memref<2xf32> {
  // expected-error @+1 {{Pin custom_call should have one input}}
  %0 = "stablehlo.custom_call"(%arg0, %arg0) {call_target_name = "Pin", api_version = 4 : i32} : (tensor<2xf32>, tensor<2xf32>) -> memref<2xf32>
  func.return %0 : memref<2xf32>
}

func.func @unpin_other_shape(%arg0: memref<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{Unpin custom_call should have compatible input and output types}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "Unpin", api_version = 4 : i32} : (memref<2xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

func.func @unpin_other_element(%arg0: memref<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{Unpin custom_call should have compatible input and output types}}
  %0 = "stablehlo.custom_call"(%arg0) {call_target_name = "Unpin", api_version = 4 : i32} : (memref<2xf32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

func.func @operand_aliased_twice(%arg0: memref<2xf32>) -> (memref<2xf32>, memref<2xf32>) {
  // expected-error @+1 {{buffer operand 0[] is used in output_operand_alias more than once}}
  %0:2 = "stablehlo.custom_call"(%arg0) {
    call_target_name = "foo", api_version = 4 : i32,
    output_operand_aliases = [
      #stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>,
      #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 0, operand_tuple_indices = []>]
  } : (memref<2xf32>) -> (memref<2xf32>, memref<2xf32>)
  func.return %0#0, %0#1 : memref<2xf32>, memref<2xf32>
}

func.func @output_aliased_twice(%arg0: tuple<memref<2xf32>, memref<2xf32>>) -> tuple<memref<2xf32>> {
  // expected-error @+1 {{buffer output [0] is used in output_operand_alias more than once}}
  %0 = "stablehlo.custom_call"(%arg0) {
    call_target_name = "foo", api_version = 4 : i32,
    output_operand_aliases = [
      #stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = [0]>,
      #stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = [1]>]
  } : (tuple<memref<2xf32>, memref<2xf32>>) -> tuple<memref<2xf32>>
  func.return %0 : tuple<memref<2xf32>>
}

func.func @output_not_aliased(%arg0: memref<2xf32>) -> (memref<2xf32>, memref<2xf32>) {
  // expected-error @+1 {{buffer output [1] is not used in output_operand_alias}}
  %0:2 = "stablehlo.custom_call"(%arg0) {
    call_target_name = "foo", api_version = 4 : i32,
    output_operand_aliases = [
      #stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>]
  } : (memref<2xf32>) -> (memref<2xf32>, memref<2xf32>)
  func.return %0#0, %0#1 : memref<2xf32>, memref<2xf32>
}

func.func @if_buffer(%pred: tensor<i1>, %b: memref<2xf32>) -> memref<2xf32> {
  // expected-error-re @+1 {{'stablehlo.if' op result #0 must be variadic of ranked tensor of {{.*}}, but got 'memref<2xf32>'}}
  %0 = "stablehlo.if"(%pred) ({
      "stablehlo.return"(%b) : (memref<2xf32>) -> ()
    }, {
      "stablehlo.return"(%b) : (memref<2xf32>) -> ()
    }) : (tensor<i1>) -> memref<2xf32>
  func.return %0 : memref<2xf32>
}

func.func @negate_buffer(%b: memref<2xf32>) -> memref<2xf32> {
  // expected-error-re @+1 {{'stablehlo.negate' op operand #0 must be ranked tensor of {{.*}}, but got 'memref<2xf32>'}}
  %0 = "stablehlo.negate"(%b) : (memref<2xf32>) -> memref<2xf32>
  func.return %0 : memref<2xf32>
}
