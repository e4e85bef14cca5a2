// qopt prints op names as mlir-opt does: the default dialect's prefix is dropped
// (`builtin` at the top and in module bodies, `func` in function bodies), and the
// output parses back to the same text. --print-op-generic keeps the full names.
// A declaration without results has no `-> ()`.
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s | qopt | FileCheck %s
// RUN: qopt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: module {
// CHECK-NEXT:    func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:      %0 = call @g(%a) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:      %1 = builtin.unrealized_conversion_cast %0 : tensor<2xf32> to tensor<2xf32>
// CHECK:             reducer(%x: tensor<f32>, %y: tensor<f32>)
// CHECK-NEXT:        %3 = stablehlo.add %x, %y : tensor<f32>
// CHECK-NEXT:        %4 = stablehlo.multiply %3, %3 : tensor<f32>
// CHECK-NEXT:        stablehlo.return %4 : tensor<f32>
// CHECK-NEXT:      }
// CHECK-NEXT:      return %1 : tensor<2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func private @g(tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    func.func private @no_results(i8){{$}}
// CHECK-NEXT:    module @inner {
// CHECK-NEXT:      %{{.*}} = unrealized_conversion_cast to i8
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC: "builtin.module"() ({
// GENERIC:   "func.call"(%{{.*}}) <{callee = @g}>
// GENERIC:   "func.return"(%{{.*}})

func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @g(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = builtin.unrealized_conversion_cast %0 : tensor<2xf32> to tensor<2xf32>
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %c) across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    reducer(%x: tensor<f32>, %y: tensor<f32>) {
      %3 = stablehlo.add %x, %y : tensor<f32>
      %4 = stablehlo.multiply %3, %3 : tensor<f32>
      stablehlo.return %4 : tensor<f32>
    }
  func.return %1 : tensor<2xf32>
}
func.func private @g(%a: tensor<2xf32>) -> tensor<2xf32>
func.func private @no_results(i8)
builtin.module @inner {
  %0 = builtin.unrealized_conversion_cast to i8
}
