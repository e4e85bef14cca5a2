// Invalid !quant.any and !quant.calibrated forms: upstream MLIR's messages, at the type.
// RUN: qopt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{expected ':'}}
func.func private @f(!quant.any<i8<16>:f32>)

// -----

// The expressed type follows a ':'.
// expected-error @+1 {{expected '>'}}
func.func private @f(!quant.any<i8<-4:3>f32>)

// -----

// expected-error @+1 {{illegal storage type prefix}}
func.func private @f(!quant.any<int8<-4:3>:f32>)

// -----

// expected-error @+1 {{illegal storage type size: 1024}}
func.func private @f(!quant.any<i1024<-4:3>:f32>)

// -----

// Wider than any MLIR integer type.
// expected-error @+1 {{invalid integer width}}
func.func private @f(!quant.any<i0123123123123123<-4:3>:f32>)

// -----

// expected-error @+1 {{illegal storage min and storage max: (2:1)}}
func.func private @f(!quant.any<i8<2:1>:f32>)

// -----

// expected-error @+1 {{illegal storage type maximum: 9}}
func.func private @f(!quant.any<i4<-1:9>:f32>)

// -----

// expected-error @+1 {{illegal storage type minimum: -9}}
func.func private @f(!quant.any<i4<-9:1>:f32>)

// -----

// expected-error @+1 {{expressed type must be f16, bf16, f32 or f64, got i8}}
func.func private @f(!quant.any<i8:i8>)

// -----

// A malformed range: the token's error, then (as MLIR reports it) the type's own.
// expected-error @+2 {{expected ':'}}
// expected-error @+1 {{calibrated values must be present}}
func.func private @f(!quant.calibrated<f32<-0.998>>)

// -----

// expected-error @+2 {{invalid kind of type specified}}
// expected-error @+1 {{expecting float expressed type}}
func.func private @f(!quant.calibrated<i8<-4:3>>)

// -----

// expected-error @+1 {{illegal min and max: (1.000000e+00:-1.000000e+00)}}
func.func private @f(!quant.calibrated<f32<1.0:-1.0>>)

// -----

// expected-error @+1 {{illegal min and max: (1.000000e+00:1.000000e+00)}}
func.func private @f(!quant.calibrated<f32<1.0:1.0>>)

// -----

// The mnemonic is checked by the quant dialect, as upstream does.
// expected-error @+1 {{unknown quantized type __}}
func.func private @f(!quant.__)
