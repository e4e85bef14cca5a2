// MLIR's whole location grammar: source ranges (what JAX 0.5+ prints), a line alone,
// fused locations with metadata, aliases of ranges used before they are defined; each
// prints back as mlir-opt prints it. Malformed ones are errors in MLIR's words.
// RUN: qopt %s --mlir-print-debuginfo | FileCheck %s
// RUN: qopt %S/Inputs/bad-locations.mlir --split-input-file --verify-diagnostics

// CHECK-LABEL: func.func @ranges
// CHECK: stablehlo.abs %{{.*}} loc("a.py":4:8 to :21)
// CHECK: stablehlo.abs %{{.*}} loc("a.py":4:8 to 6:2)
// CHECK: stablehlo.abs %{{.*}} loc("a.py":4:8)
// CHECK: stablehlo.abs %{{.*}} loc("a.py":9:0)
// CHECK: stablehlo.abs %{{.*}} loc(fused<"jax">["a.py":1:2 to :5, "b"])
// CHECK: stablehlo.abs %{{.*}} loc("jit(f)/abs"(callsite("f"("a.py":3:1 to :9) at "<module>"("a.py":7:0 to 8:4))))
// CHECK: return %{{.*}} loc("a.py":3:1 to :9)
func.func @ranges(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.abs %a : tensor<2xf32> loc("a.py":4:8 to :21)
  %1 = stablehlo.abs %0 : tensor<2xf32> loc("a.py":4:8 to 6:2)
  // A range whose end is its start is the point.
  %2 = stablehlo.abs %1 : tensor<2xf32> loc("a.py":4:8 to :8)
  %3 = stablehlo.abs %2 : tensor<2xf32> loc("a.py":9)
  %4 = stablehlo.abs %3 : tensor<2xf32> loc(fused<"jax">["a.py":1:2 to :5, "b"])
  %5 = stablehlo.abs %4 : tensor<2xf32> loc(#abs)
  return %5 : tensor<2xf32> loc(#f)
}
#f = loc("a.py":3:1 to :9)
#abs = loc("jit(f)/abs"(#site))
#site = loc(callsite(#fname at #module))
#fname = loc("f"(#f))
#module = loc("<module>"("a.py":7:0 to 8:4))
