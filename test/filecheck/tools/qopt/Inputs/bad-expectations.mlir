// An expected error that is never produced.
func.func @fine() {
  // expected-error @+1 {{this never happens}}
  func.return
}

// -----

// An error that nobody expected.
func.func private @f(!quant.uniform<i8:f32, 0.1:300>)

// -----

// Right line, wrong text.
// expected-error @+1 {{zero point 301 out of storage range}}
func.func private @g(!quant.uniform<i8:f32, 0.1:300>)

// -----

// Right text, wrong line.
// expected-error @+2 {{zero point 300 out of storage range}}
func.func private @h(!quant.uniform<i8:f32, 0.1:300>)

// -----

// Wrong severity.
// expected-warning @+1 {{zero point 300 out of storage range}}
func.func private @k(!quant.uniform<i8:f32, 0.1:300>)

// -----

// A designator pointing outside the input.
// expected-error @+10 {{anything}}
func.func private @m()
