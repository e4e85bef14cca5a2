// tosa.rescale becomes i64 StableHLO arithmetic exact to TOSA's apply_scale.
// RUN: qopt %s --split-input-file -p tosa-rescale-legalize-to-stablehlo | FileCheck %s
// Bit-exactness against the spec's pseudocode is tested on random rescales in
// test/unit/transforms/test_tosa_rescale_legalize_to_stablehlo.py.

// Single rounding, per tensor, i32 -> i8 with an output zero point: the
// rounding constant and every parameter fold; no compare/select is needed.
// CHECK-LABEL: func.func @single_per_tensor
// CHECK-NOT: tosa.
// CHECK: %[[X:.*]] = stablehlo.convert %x : (tensor<4xi32>) -> tensor<4xi64>
// CHECK-NEXT: %[[MC:.*]] = stablehlo.constant dense<1073741824> : tensor<i64>
// CHECK-NEXT: %[[M:.*]] = stablehlo.broadcast_in_dim %[[MC]], dims = []
// CHECK-NEXT: %[[P:.*]] = stablehlo.multiply %[[X]], %[[M]] : tensor<4xi64>
// 1 << (31 - 1) happens to equal the multiplier: one constant serves both.
// CHECK-NEXT: %[[R:.*]] = stablehlo.add %[[P]], %[[M]] : tensor<4xi64>
// CHECK-NEXT: %[[SC:.*]] = stablehlo.constant dense<31> : tensor<i64>
// CHECK-NEXT: %[[S:.*]] = stablehlo.broadcast_in_dim %[[SC]], dims = []
// CHECK-NEXT: %[[Q:.*]] = stablehlo.shift_right_arithmetic %[[R]], %[[S]] : tensor<4xi64>
// CHECK-NEXT: %[[ZC:.*]] = stablehlo.constant dense<-3> : tensor<i64>
// CHECK-NEXT: %[[Z:.*]] = stablehlo.broadcast_in_dim %[[ZC]], dims = []
// CHECK-NEXT: %[[Y:.*]] = stablehlo.add %[[Q]], %[[Z]] : tensor<4xi64>
// CHECK-NEXT: %[[LO:.*]] = stablehlo.constant dense<-128> : tensor<i64>
// CHECK-NEXT: %[[HI:.*]] = stablehlo.constant dense<127> : tensor<i64>
// CHECK-NEXT: %[[C:.*]] = stablehlo.clamp %[[LO]], %[[Y]], %[[HI]] : (tensor<i64>, tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
// CHECK-NEXT: %r = stablehlo.convert %[[C]] : (tensor<4xi64>) -> tensor<4xi8>
// CHECK-NEXT: return %r : tensor<4xi8>
func.func @single_per_tensor(%x: tensor<4xi32>) -> tensor<4xi8> {
  %m = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const  values(dense<31> : tensor<1xi8>) : () -> tensor<1xi8>
  %izp = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %ozp = tosa.const  values(dense<-3> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  func.return %r : tensor<4xi8>
}

// -----


// Double rounding with every shift > 31: the +/-2^30 term depends on the sign
// of the value only.
// CHECK-LABEL: func.func @double_per_channel
// CHECK-NOT: tosa.
// CHECK: %[[X:.*]] = stablehlo.convert %x
// CHECK: %[[NONNEG:.*]] = stablehlo.compare GT, %[[X]], %{{.*}} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi1>
// CHECK: %[[PM:.*]] = stablehlo.constant dense<1073741824> : tensor<i64>
// CHECK: %[[NM:.*]] = stablehlo.constant dense<-1073741824> : tensor<i64>
// CHECK: %[[TOWARD:.*]] = stablehlo.select %[[NONNEG]]
// 1 << 39 and 1 << 32, per channel along the last axis:
// CHECK-NEXT: %[[RC:.*]] = stablehlo.constant dense<[549755813888, 4294967296]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.*]] = stablehlo.broadcast_in_dim %[[RC]], dims = [1] : (tensor<2xi64>) -> tensor<2x2xi64>
// CHECK-NEXT: %[[ROUND:.*]] = stablehlo.add %[[R]], %[[TOWARD]]
// CHECK: stablehlo.constant dense<[1717986918, 1073741824]> : tensor<2xi64>
// CHECK: stablehlo.constant dense<[40, 33]> : tensor<2xi64>
// CHECK: stablehlo.shift_right_arithmetic
// CHECK-NOT: stablehlo.add
// CHECK: stablehlo.constant dense<-32768> : tensor<i64>
// CHECK-NEXT: stablehlo.constant dense<32767> : tensor<i64>
// CHECK-NEXT: stablehlo.clamp
// CHECK-NEXT: %r = stablehlo.convert %{{.*}} : (tensor<2x2xi64>) -> tensor<2x2xi16>
func.func @double_per_channel(%x: tensor<2x2xi32>) -> tensor<2x2xi16> {
  %m = tosa.const  values(dense<[1717986918, 1073741824]> : tensor<2xi32>) : () -> tensor<2xi32>
  %s = tosa.const  values(dense<[40, 33]> : tensor<2xi8>) : () -> tensor<2xi8>
  %izp = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %ozp = tosa.const  values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(true) input_unsigned(false) output_unsigned(false) : (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<1xi32>, tensor<1xi16>) -> tensor<2x2xi16>
  func.return %r : tensor<2x2xi16>
}

// -----


// Double rounding with shift <= 31 is single rounding: nothing extra is emitted.
// CHECK-LABEL: func.func @double_small_shift
// CHECK-NOT: stablehlo.select
// CHECK: stablehlo.constant dense<5> : tensor<i64>
// CHECK: stablehlo.subtract
// CHECK: stablehlo.constant dense<536870912> : tensor<i64>
// CHECK-NOT: stablehlo.select
// CHECK: return
func.func @double_small_shift(%x: tensor<4xi8>) -> tensor<4xi8> {
  %m = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const  values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %izp = tosa.const  values(dense<5> : tensor<1xi8>) : () -> tensor<1xi8>
  %ozp = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(false) : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  func.return %r : tensor<4xi8>
}

// -----


// Unsigned in and out: the input bits are masked to u8, the result is clamped
// to [0, 255], converted to ui8 and bitcast to the signless result type.
// CHECK-LABEL: func.func @unsigned
// CHECK: %[[X:.*]] = stablehlo.convert %x : (tensor<4xi8>) -> tensor<4xi64>
// CHECK-NEXT: %[[MASKC:.*]] = stablehlo.constant dense<255> : tensor<i64>
// CHECK-NEXT: %[[MASK:.*]] = stablehlo.broadcast_in_dim %[[MASKC]]
// CHECK-NEXT: %[[U:.*]] = stablehlo.and %[[X]], %[[MASK]] : tensor<4xi64>
// The zero point's i8 bits -128 are the unsigned zero point 128:
// CHECK-NEXT: %[[ZC:.*]] = stablehlo.constant dense<128> : tensor<i64>
// CHECK-NEXT: %[[Z:.*]] = stablehlo.broadcast_in_dim %[[ZC]]
// CHECK-NEXT: stablehlo.subtract %[[U]], %[[Z]] : tensor<4xi64>
// CHECK: stablehlo.constant dense<16384> : tensor<i64>
// CHECK: stablehlo.constant dense<8192> : tensor<i64>
// CHECK: stablehlo.constant dense<-32768> : tensor<i64>
// CHECK-NEXT: stablehlo.constant dense<32767> : tensor<i64>
func.func @unsigned(%x: tensor<4xi8>) -> tensor<4xi16> {
  %m = tosa.const  values(dense<16384> : tensor<1xi16>) : () -> tensor<1xi16>
  %s = tosa.const  values(dense<14> : tensor<1xi8>) : () -> tensor<1xi8>
  %izp = tosa.const  values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
  %ozp = tosa.const  values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(false) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(true) output_unsigned(false) : (tensor<4xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi16>) -> tensor<4xi16>
  func.return %r : tensor<4xi16>
}

// -----


// CHECK-LABEL: func.func @unsigned_out
// CHECK: stablehlo.constant dense<128> : tensor<i64>
// CHECK: stablehlo.add
// CHECK-NEXT: %[[LO:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT: %[[HI:.*]] = stablehlo.constant dense<255> : tensor<i64>
// CHECK-NEXT: %[[C:.*]] = stablehlo.clamp %[[LO]], %{{.*}}, %[[HI]]
// CHECK-NEXT: %[[U:.*]] = stablehlo.convert %[[C]] : (tensor<4xi64>) -> tensor<4xui8>
// CHECK-NEXT: %r = stablehlo.bitcast_convert %[[U]] : (tensor<4xui8>) -> tensor<4xi8>
func.func @unsigned_out(%x: tensor<4xi16>) -> tensor<4xi8> {
  %m = tosa.const  values(dense<1073741824> : tensor<1xi32>) : () -> tensor<1xi32>
  %s = tosa.const  values(dense<30> : tensor<1xi8>) : () -> tensor<1xi8>
  %izp = tosa.const  values(dense<0> : tensor<1xi16>) : () -> tensor<1xi16>
  %ozp = tosa.const  values(dense<-128> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(true) rounding_mode<SINGLE_ROUND> per_channel(false) input_unsigned(false) output_unsigned(true) : (tensor<4xi16>, tensor<1xi32>, tensor<1xi8>, tensor<1xi16>, tensor<1xi8>) -> tensor<4xi8>
  func.return %r : tensor<4xi8>
}

// -----


// Parameters computed at run time are widened and broadcast in the graph.
// CHECK-LABEL: func.func @runtime_parameters
// CHECK: %[[X:.*]] = stablehlo.convert %x : (tensor<2x3xi32>) -> tensor<2x3xi64>
// CHECK-NEXT: %[[MW:.*]] = stablehlo.convert %m : (tensor<3xi32>) -> tensor<3xi64>
// CHECK-NEXT: %[[M:.*]] = stablehlo.broadcast_in_dim %[[MW]], dims = [1] : (tensor<3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT: %[[SW:.*]] = stablehlo.convert %s : (tensor<3xi8>) -> tensor<3xi64>
// CHECK-NEXT: %[[S:.*]] = stablehlo.broadcast_in_dim %[[SW]], dims = [1] : (tensor<3xi64>) -> tensor<2x3xi64>
// CHECK-NEXT: %[[ONEC:.*]] = stablehlo.constant dense<1> : tensor<i64>
// CHECK-NEXT: %[[ONE:.*]] = stablehlo.broadcast_in_dim %[[ONEC]]
// CHECK-NEXT: %[[SM1:.*]] = stablehlo.subtract %[[S]], %[[ONE]]
// CHECK-NEXT: %[[HALF:.*]] = stablehlo.shift_left %[[ONE]], %[[SM1]]
// The double-rounding term applies where the run-time shift exceeds 31:
// CHECK: %[[BIG:.*]] = stablehlo.compare GT, %[[S]], %{{.*}}
// CHECK: %[[EXTRA:.*]] = stablehlo.select %[[BIG]]
// CHECK-NEXT: %[[ROUND:.*]] = stablehlo.add %[[HALF]], %[[EXTRA]]
// CHECK-NEXT: %[[P:.*]] = stablehlo.multiply %[[X]], %[[M]]
// CHECK-NEXT: %[[PR:.*]] = stablehlo.add %[[P]], %[[ROUND]]
// CHECK-NEXT: stablehlo.shift_right_arithmetic %[[PR]], %[[S]]
func.func @runtime_parameters(%x: tensor<2x3xi32>, %m: tensor<3xi32>, %s: tensor<3xi8>) -> tensor<2x3xi8> {
  %izp = tosa.const  values(dense<0> : tensor<1xi32>) : () -> tensor<1xi32>
  %ozp = tosa.const  values(dense<0> : tensor<1xi8>) : () -> tensor<1xi8>
  %r = tosa.rescale %x, %m, %s, %izp, %ozp scale32(true) rounding_mode<DOUBLE_ROUND> per_channel(true) input_unsigned(false) output_unsigned(false) : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  func.return %r : tensor<2x3xi8>
}

// -----


// Must not fire: no rescale; other TOSA ops (apply_scale included) stay.
// CHECK-LABEL: func.func @no_rescale
// CHECK-NEXT: %0 = tosa.apply_scale %x, %m, %s rounding_mode<DOUBLE_ROUND>
// CHECK-NEXT: %1 = tosa.add %0, %x
// CHECK-NEXT: return %1
func.func @no_rescale(%x: tensor<4xi32>, %m: tensor<4xi32>, %s: tensor<4xi8>) -> tensor<4xi32> {
  %0 = tosa.apply_scale %x, %m, %s rounding_mode<DOUBLE_ROUND> : (tensor<4xi32>, tensor<4xi32>, tensor<4xi8>) -> tensor<4xi32>
  %1 = tosa.add %0, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %1 : tensor<4xi32>
}
