// With --split-input-file, qopt's output has mlir-opt's layout: each module followed by
// a blank line, and one `-----` separator line per chunk boundary, also where a chunk
// failed and printed nothing, so the two outputs diff line for line. An indented marker
// splits too (the third chunk's).
// RUN: not qopt %s --split-input-file 2>/dev/null | FileCheck %s --match-full-lines --strict-whitespace

//      CHECK:module {
// CHECK-NEXT:  func.func @first() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:}
// CHECK-EMPTY:
// CHECK-NEXT:// {{-----}}
// CHECK-NEXT:// {{-----}}
// CHECK-NEXT:module {
// CHECK-NEXT:  func.func @third() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:}
// CHECK-EMPTY:
//  CHECK-NOT:{{.}}

func.func @first() {
  return
}

// -----

func.func @second_is_invalid() {
  %0 = "stablehlo.add"() : () -> tensor<f32>
  return
}

    // -----

func.func @third() {
  return
}
