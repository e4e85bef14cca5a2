// stablehlo-substitute-activations: SiLU, GELU and hard-swish recognised by what they
// compute (whatever their spelling), replaced as asked, each change reported on stderr;
// a look-alike that computes something else stays.
// RUN: qopt %s --split-input-file -p 'stablehlo-substitute-activations{silu=relu6 gelu=relu hard-swish=relu6}' 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.err
// RUN: qopt %s --split-input-file -p stablehlo-substitute-activations 2>&1 | FileCheck %s --check-prefix=KEEP
// RUN: not qopt %s --split-input-file -p 'stablehlo-substitute-activations{silu=tanh}' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: silu=tanh is not one of keep, relu6, relu, hard-swish
// KEEP-NOT: stablehlo-substitute-activations:
// KEEP: stablehlo.logistic

// REPORT-DAG: stablehlo-substitute-activations: swish: silu -> relu6 (2 ops; max |difference| on [-8, 8] 1.99732)
// REPORT-DAG: stablehlo-substitute-activations: gelu: gelu-tanh -> relu (9 ops; max |difference| on [-8, 8] 0.169
// REPORT-DAG: stablehlo-substitute-activations: hswish: hard-swish -> relu6 (4 ops; max |difference| on [-8, 8] 2)

// CHECK-LABEL: func.func @swish
// CHECK-NOT:   stablehlo.logistic
// CHECK:       %[[Y:.*]] = stablehlo.clamp %{{.*}}, %x, %{{.*}} : tensor<4xf32>
// CHECK:       return %[[Y]]
func.func @swish(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = stablehlo.logistic %x : tensor<4xf32>
  %y = stablehlo.multiply %s, %x : tensor<4xf32> loc("swish")
  func.return %y : tensor<4xf32>
}

// -----

// GELU's tanh form.
// CHECK-LABEL: func.func @gelu
// CHECK-NOT:   stablehlo.tanh
// CHECK:       %[[Y:.*]] = stablehlo.maximum %x, %{{.*}} : tensor<4xf32>
// CHECK:       return %[[Y]]
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %half = stablehlo.constant dense<0.5> : tensor<4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<4xf32>
  %k = stablehlo.constant dense<0.044715> : tensor<4xf32>
  %r = stablehlo.constant dense<0.797884583> : tensor<4xf32>
  %x2 = stablehlo.multiply %x, %x : tensor<4xf32>
  %x3 = stablehlo.multiply %x2, %x : tensor<4xf32>
  %kx3 = stablehlo.multiply %k, %x3 : tensor<4xf32>
  %in = stablehlo.add %x, %kx3 : tensor<4xf32>
  %u = stablehlo.multiply %r, %in : tensor<4xf32>
  %v = stablehlo.tanh %u : tensor<4xf32>
  %w = stablehlo.add %one, %v : tensor<4xf32>
  %hx = stablehlo.multiply %half, %x : tensor<4xf32>
  %y = stablehlo.multiply %hx, %w : tensor<4xf32> loc("gelu")
  func.return %y : tensor<4xf32>
}

// -----

// hard-swish as TFLite's importer writes it, divided by 6.
// CHECK-LABEL: func.func @hswish
// CHECK-NOT:   stablehlo.divide
// CHECK:       stablehlo.clamp %{{.*}}, %x, %{{.*}}
func.func @hswish(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c3 = stablehlo.constant dense<3.0> : tensor<4xf32>
  %c0 = stablehlo.constant dense<0.0> : tensor<4xf32>
  %c6 = stablehlo.constant dense<6.0> : tensor<4xf32>
  %a = stablehlo.add %x, %c3 : tensor<4xf32>
  %r = stablehlo.clamp %c0, %a, %c6 : tensor<4xf32>
  %m = stablehlo.multiply %x, %r : tensor<4xf32>
  %y = stablehlo.divide %m, %c6 : tensor<4xf32> loc("hswish")
  func.return %y : tensor<4xf32>
}

// -----

// x * sigmoid(2x) is not SiLU: it stays.
// CHECK-LABEL: func.func @not_silu
// CHECK: stablehlo.logistic
// CHECK: stablehlo.multiply
func.func @not_silu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = stablehlo.constant dense<2.0> : tensor<4xf32>
  %d = stablehlo.multiply %x, %two : tensor<4xf32>
  %s = stablehlo.logistic %d : tensor<4xf32>
  %y = stablehlo.multiply %s, %x : tensor<4xf32>
  func.return %y : tensor<4xf32>
}
