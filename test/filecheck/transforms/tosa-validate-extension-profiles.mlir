// An extension makes its ops legal only together with a profile it works with (the
// spec's `profile_supported`): int16, int4, doubleround and inexactround need pro_int;
// bf16, fp8e4m3, fp8e5m2 and fft need pro_fp.
// RUN: qopt %s --split-input-file --verify-diagnostics -p 'tosa-attach-target{profiles=pro_fp extensions=int16,bf16},tosa-validate'

func.func @int16_without_pro_int(%a: tensor<2x3xi16>, %b: tensor<2x3xi16>) -> tensor<4x3xi16> {
  // expected-error @+1 {{'tosa.concat' op illegal: requires [pro_int] to work with but not enabled in target}}
  %0 = tosa.concat %a, %b {axis = 0 : i32} : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<4x3xi16>
  return %0 : tensor<4x3xi16>
}

// -----

// bf16 with pro_fp enabled: legal.
func.func @bf16_with_pro_fp(%a: tensor<2x3xbf16>, %b: tensor<2x3xbf16>) -> tensor<4x3xbf16> {
  %0 = tosa.concat %a, %b {axis = 0 : i32} : (tensor<2x3xbf16>, tensor<2x3xbf16>) -> tensor<4x3xbf16>
  return %0 : tensor<4x3xbf16>
}
