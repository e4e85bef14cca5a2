// !quant.any and !quant.calibrated: parsed and printed byte for byte as upstream
// MLIR prints them (the CHECK lines are iree-opt 3.13's output for this input).
// RUN: qopt %s | FileCheck %s
// RUN: qopt %s > %t.1 && qopt %t.1 > %t.2 && diff %t.1 %t.2

// The expressed type is optional; the storage range is printed only when narrow.
// CHECK: func.func private @any(!quant.any<i8:f32>, !quant.any<i8<-8:7>:f32>, !quant.any<i8>, !quant.any<u8<1:200>>, !quant.any<i16:bf16>, !quant.any<u4>)
func.func private @any(!quant.any<i8:f32>, !quant.any<i8<-8:7>:f32>, !quant.any<i8>, !quant.any<u8<1:200>>, !quant.any<i16:bf16>, !quant.any<u4<0:15>>)

// Calibrated bounds print with MLIR's float printer: 6-digit exponent form when
// that reads back exactly, else the shortest exact decimal.
// CHECK: func.func private @calibrated(!quant.calibrated<f32<-0.998:1.232100e+00>>, !quant.calibrated<f16<-1.000000e+00:1.000000e+00>>, !quant.calibrated<f32<-1.500000e+00:0.69999999999999996>>, !quant.calibrated<f64<-1.000000e+10:1.000000e+20>>)
func.func private @calibrated(!quant.calibrated<f32<-0.998:1.2321>>, !quant.calibrated<f16<-1.0:1.0>>, !quant.calibrated<f32<-1.5:0.7>>, !quant.calibrated<f64<-1.0e10:1.0e20>>)

// In tensors and as attribute values.
// CHECK: func.func private @nested(tensor<2x!quant.any<i8:f32>>, tensor<?x!quant.calibrated<f32<-5.000000e-01:5.000000e-01>>>)
func.func private @nested(tensor<2x!quant.any<i8:f32>>, tensor<?x!quant.calibrated<f32<-0.5:0.5>>>)
