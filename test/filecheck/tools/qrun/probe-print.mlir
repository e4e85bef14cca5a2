// interpreter.probe records a value each time it runs (and, with --probe-output-dir,
// writes it as a NumPy file listed in index.csv); check.expect_serialized_eq compares a
// recording; interpreter.print and --print-results print values in the layout of
// StableHLO's interpreter. The expected values are worked out by hand.
// RUN: rm -rf %t && not qrun %s --split-input-file --print-results --probe-output-dir %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=INDEX < %t/index.csv
// RUN: qopt %s --split-input-file | FileCheck %s --check-prefix=PRINTED
// RUN: not qrun %s --probe-output-dir %s/not-a-directory 2>&1 | FileCheck %s --check-prefix=BADDIR

// INDEX:      loop,tensor<i64>,{{.*}}probe1.npy
// INDEX-NEXT: loop,tensor<i64>,{{.*}}probe2.npy
// INDEX-NEXT: loop,tensor<i64>,{{.*}}probe3.npy
// INDEX-NEXT: weird/id with spaces,tensor<2x2xbf16>,{{.*}}probe4.npy
// BADDIR: error: cannot write probes to '{{.*}}not-a-directory'

// The probe in the loop body runs three times: the sums 1, 2, 3.
// CHECK: PASS: @probe_in_loop
// CHECK-NEXT: tensor<i64> {3}
// PRINTED: %{{.*}} = interpreter.probe %{{.*}}, probe_id = "loop" : tensor<i64>
// PRINTED: check.expect_serialized_eq %{{.*}}, probe_id = "loop", iter = 2 : tensor<i64>
// PRINTED: check.expect_serialized_eq %{{.*}}, probe_id = "loop" : tensor<i64>
func.func @probe_in_loop() -> tensor<i64> {
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %three = stablehlo.constant dense<3> : tensor<i64>
  %i, %sum = stablehlo.while(%a = %zero, %s = %zero) : tensor<i64>, tensor<i64>
  cond {
    %go = stablehlo.compare LT, %a, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %go : tensor<i1>
  } do {
    %next = stablehlo.add %s, %one : tensor<i64>
    %seen = interpreter.probe %next, probe_id = "loop" : tensor<i64>
    %b = stablehlo.add %a, %one : tensor<i64>
    stablehlo.return %b, %seen : tensor<i64>, tensor<i64>
  }
  check.expect_serialized_eq %three, probe_id = "loop", iter = 2 : tensor<i64>
  check.expect_serialized_eq %one, probe_id = "loop" : tensor<i64>
  func.return %sum : tensor<i64>
}

// -----

// A probe id need not be a file name; the recording keeps its type (bf16 here).
// CHECK: PASS: @odd_probe_id
// CHECK-NEXT: tensor<2x2xbf16> {
// CHECK-NEXT:   [
// CHECK-NEXT:     [1.000000e+00, -2.500000e+00],
// CHECK-NEXT:     [0x7F80, 0.000000e+00]
// CHECK-NEXT:   ]
// CHECK-NEXT: }
func.func @odd_probe_id() -> tensor<2x2xbf16> {
  %x = stablehlo.constant dense<[[1.0, -2.5], [0x7F80, 0.0]]> : tensor<2x2xbf16>
  %p = interpreter.probe %x, probe_id = "weird/id with spaces" : tensor<2x2xbf16>
  check.expect_serialized_eq %x, probe_id = "weird/id with spaces" : tensor<2x2xbf16>
  func.return %p : tensor<2x2xbf16>
}

// -----

// interpreter.print: the value named as MLIR prints it alone (%0), then its elements.
// CHECK:      %0 = tensor<2x3xi1> {
// CHECK-NEXT:   [
// CHECK-NEXT:     [true, false, true],
// CHECK-NEXT:     [false, false, false]
// CHECK-NEXT:   ]
// CHECK-NEXT: }
// CHECK-NEXT: %0 = tensor<complex<f32>> {[1.500000e+00, -2.000000e+00]}
// CHECK-NEXT: PASS: @printing
func.func @printing() {
  %b = stablehlo.constant dense<[[true, false, true], [false, false, false]]> : tensor<2x3xi1>
  interpreter.print %b : tensor<2x3xi1>
  %c = stablehlo.constant dense<(1.5, -2.0)> : tensor<complex<f32>>
  interpreter.print %c : tensor<complex<f32>>
  func.return
}

// -----

// A recording that does not exist is a failed check, not a crash.
// CHECK: FAIL: @missing
// CHECK: 3 passed, 1 failed
func.func @missing() {
  %x = stablehlo.constant dense<1> : tensor<i32>
  %p = interpreter.probe %x, probe_id = "once" : tensor<i32>
  check.expect_serialized_eq %x, probe_id = "once", iter = 1 : tensor<i32>
  func.return
}
