// Quantized elementwise ops become tosa.rescale -> i32 op -> tosa.rescale.
// Multipliers and shifts below are computed by hand: scale = M * 2^-shift.
// RUN: qopt %s --split-input-file -p stablehlo-quant-legalize-to-tosa-rescale | FileCheck %s
// RUN: qopt %s --split-input-file -p 'stablehlo-quant-legalize-to-tosa-rescale{rounding=single}' | FileCheck %s --check-prefix=SINGLE

!a = !quant.uniform<i8:f32, 0.05:-3>
!b = !quant.uniform<i8:f32, 0.025:10>
!o = !quant.uniform<i8:f32, 0.1:2>
// add: grid 2 * max(0.05, 0.025) = 0.1 with k = 20; lhs 0.05/0.1*2^20 = 2^19 =
// 2^30 >> 11, rhs 2^18 = 2^30 >> 12, output 0.1/(0.1*2^20) = 2^30 >> 50.
// CHECK-LABEL: func.func @add
// CHECK: %[[XS:.*]] = stablehlo.bitcast_convert %x : (tensor<4x!quant.uniform<i8:f32, 5.000000e-02:-3>>) -> tensor<4xi8>
// CHECK-NEXT: %[[M1:.*]] = tosa.const  values(dense<1073741824> : tensor<1xi32>)
// CHECK-NEXT: %[[S1:.*]] = tosa.const  values(dense<11> : tensor<1xi8>)
// CHECK-NEXT: %[[Z1:.*]] = tosa.const  values(dense<-3> : tensor<1xi8>)
// CHECK-NEXT: %[[O1:.*]] = tosa.const  values(dense<0> : tensor<1xi32>)
// CHECK-NEXT: %[[A:.*]] = tosa.rescale %[[XS]], %[[M1]], %[[S1]], %[[Z1]], %[[O1]] scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4xi32>
// CHECK: tosa.const  values(dense<12> : tensor<1xi8>)
// CHECK-NEXT: tosa.const  values(dense<10> : tensor<1xi8>)
// CHECK: %[[B:.*]] = tosa.rescale
// CHECK-NEXT: %[[SUM:.*]] = stablehlo.add %[[A]], %[[B]] : tensor<4xi32>
// CHECK-NEXT: tosa.const  values(dense<1073741824> : tensor<1xi32>)
// CHECK-NEXT: tosa.const  values(dense<50> : tensor<1xi8>)
// CHECK-NEXT: tosa.const  values(dense<0> : tensor<1xi32>)
// CHECK-NEXT: tosa.const  values(dense<2> : tensor<1xi8>)
// CHECK-NEXT: %[[R:.*]] = tosa.rescale %[[SUM]], {{.*}} -> tensor<4xi8>
// CHECK-NEXT: %[[Q:.*]] = stablehlo.bitcast_convert %[[R]] : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 1.000000e-01:2>>
// CHECK-NEXT: return %[[Q]]
// SINGLE-LABEL: func.func @add
// SINGLE-NOT: DOUBLE_ROUND
// SINGLE: rounding_mode<SINGLE_ROUND>
func.func @add(%x: tensor<4x!a>, %y: tensor<4x!b>) -> tensor<4x!o> {
  %0 = stablehlo.add %x, %y : (tensor<4x!a>, tensor<4x!b>) -> tensor<4x!o>
  func.return %0 : tensor<4x!o>
}

// -----

!a = !quant.uniform<i8:f32, 0.05:-3>
!o = !quant.uniform<i8:f32, 0.001:0>
// multiply: inputs centred at scale 1 (2^30 >> 30); output 0.05 * 0.05 / 0.001
// = 2.5 = 1342177280 >> 29. A scale above 1 first clamps the i32 product to
// +-2^30 / 2.5 so apply_scale's result stays in i32 (a TOSA REQUIRE).
// CHECK-LABEL: func.func @multiply
// CHECK: tosa.const  values(dense<30> : tensor<1xi8>)
// CHECK: %[[P:.*]] = stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xi32>
// CHECK-NEXT: %[[C:.*]] = tosa.clamp %[[P]] min_val(-429496729 : i32) max_val(429496729 : i32) : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: tosa.const  values(dense<1342177280> : tensor<1xi32>)
// CHECK-NEXT: tosa.const  values(dense<29> : tensor<1xi8>)
// CHECK: tosa.rescale %[[C]]
func.func @multiply(%x: tensor<4x!a>) -> tensor<4x!o> {
  %0 = stablehlo.multiply %x, %x : (tensor<4x!a>, tensor<4x!a>) -> tensor<4x!o>
  func.return %0 : tensor<4x!o>
}

// -----

!a = !quant.uniform<i8:f32, 0.05:-3>
!b = !quant.uniform<i8:f32, 0.025:10>
// compare: both inputs on the common grid, then a signed i32 compare; no output rescale.
// CHECK-LABEL: func.func @compare
// CHECK: %[[A:.*]] = tosa.rescale
// CHECK: %[[B:.*]] = tosa.rescale
// CHECK-NEXT: %[[R:.*]] = stablehlo.compare GE, %[[A]], %[[B]], SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: return %[[R]] : tensor<4xi1>
func.func @compare(%x: tensor<4x!a>, %y: tensor<4x!b>) -> tensor<4xi1> {
  %0 = stablehlo.compare GE, %x, %y : (tensor<4x!a>, tensor<4x!b>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

!a = !quant.uniform<i8:f32, 0.05:-3>
!o = !quant.uniform<i8:f32, 0.1:2>
// negate (upstream has no pattern for it): centre, negate in i32, rescale by 0.5 = 2^30 >> 31.
// CHECK-LABEL: func.func @negate
// CHECK: %[[A:.*]] = tosa.rescale
// CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[A]] : tensor<4xi32>
// CHECK-NEXT: tosa.const  values(dense<1073741824> : tensor<1xi32>)
// CHECK-NEXT: tosa.const  values(dense<31> : tensor<1xi8>)
// CHECK: tosa.rescale %[[N]]
func.func @negate(%x: tensor<4x!a>) -> tensor<4x!o> {
  %0 = stablehlo.negate %x : (tensor<4x!a>) -> tensor<4x!o>
  func.return %0 : tensor<4x!o>
}

// -----

// divide: dividend centred with 2^22 of headroom (2^30 >> 8), divisor centred
// (2^30 >> 30), i32 quotient of a divisor made non-zero, rescale by
// 0.05 / (0.025 * 0.1 * 2^22) = 20 * 2^-22 = 1342177280 >> 48; zero divisors
// select the storage max / min / 0 (NaN, 0/0, quantizes to storage 0) after the rescale.
!a = !quant.uniform<i8:f32, 0.05:-3>
!b = !quant.uniform<i8:f32, 0.025:10>
!o = !quant.uniform<i8:f32, 0.1:2>
// CHECK-LABEL: func.func @divide
// CHECK: tosa.const  values(dense<8> : tensor<1xi8>)
// CHECK: %[[A:.*]] = tosa.rescale
// CHECK: %[[D:.*]] = tosa.rescale
// CHECK-NEXT: %[[Z:.*]] = stablehlo.constant dense<0> : tensor<4xi32>
// CHECK-NEXT: %[[ISZ:.*]] = stablehlo.compare EQ, %[[D]], %[[Z]], SIGNED
// CHECK-NEXT: %[[ONE:.*]] = stablehlo.constant dense<1> : tensor<4xi32>
// CHECK-NEXT: %[[SAFE:.*]] = stablehlo.select %[[ISZ]], %[[ONE]], %[[D]]
// CHECK-NEXT: %[[Q:.*]] = stablehlo.divide %[[A]], %[[SAFE]] : tensor<4xi32>
// CHECK-NEXT: tosa.const  values(dense<1342177280> : tensor<1xi32>)
// CHECK-NEXT: tosa.const  values(dense<48> : tensor<1xi8>)
// CHECK: %[[Y:.*]] = tosa.rescale %[[Q]]
// CHECK: stablehlo.constant dense<127> : tensor<4xi8>
// CHECK: stablehlo.constant dense<-128> : tensor<4xi8>
// CHECK: stablehlo.constant dense<0> : tensor<4xi8>
// CHECK: %[[R:.*]] = stablehlo.select %[[ISZ]], %{{.*}}, %[[Y]] : tensor<4xi1>, tensor<4xi8>
// CHECK-NEXT: stablehlo.bitcast_convert %[[R]]
func.func @divide(%x: tensor<4x!a>, %y: tensor<4x!b>) -> tensor<4x!o> {
  %0 = stablehlo.divide %x, %y : (tensor<4x!a>, tensor<4x!b>) -> tensor<4x!o>
  func.return %0 : tensor<4x!o>
}

// -----

// Must not fire: a divide whose s_lhs / (s_rhs s_out) = 1e5 exceeds 2^14 (the
// quotient's truncation could reach an output unit), float ops, per-axis types,
// unsigned storage, 16-bit storage with a zero point.
!q = !quant.uniform<i8:f32, 1.0e-05:-3>
!u = !quant.uniform<u8:f32, 0.05:3>
!w = !quant.uniform<i16:f32, 0.05:3>
!p = !quant.uniform<i8:f32:0, {0.05, 0.1}>
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: tosa.
// CHECK: stablehlo.divide %x, %x
// CHECK-NEXT: stablehlo.add %f, %f
// CHECK-NEXT: stablehlo.add %u, %u
// CHECK-NEXT: stablehlo.add %w, %w
// CHECK-NEXT: stablehlo.add %p, %p
func.func @untouched(%x: tensor<2x!q>, %f: tensor<2xf32>, %u: tensor<2x!u>, %w: tensor<2x!w>, %p: tensor<2x!p>) -> (tensor<2x!q>, tensor<2xf32>, tensor<2x!u>, tensor<2x!w>, tensor<2x!p>) {
  %0 = stablehlo.divide %x, %x : (tensor<2x!q>, tensor<2x!q>) -> tensor<2x!q>
  %1 = stablehlo.add %f, %f : tensor<2xf32>
  %2 = stablehlo.add %u, %u : (tensor<2x!u>, tensor<2x!u>) -> tensor<2x!u>
  %3 = stablehlo.add %w, %w : (tensor<2x!w>, tensor<2x!w>) -> tensor<2x!w>
  %4 = stablehlo.add %p, %p : (tensor<2x!p>, tensor<2x!p>) -> tensor<2x!p>
  func.return %0, %1, %2, %3, %4 : tensor<2x!q>, tensor<2xf32>, tensor<2x!u>, tensor<2x!w>, tensor<2x!p>
}
