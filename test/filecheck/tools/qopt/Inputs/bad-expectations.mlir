// An expected error that is never produced.
func.func @fine() {
  // expected-error @+1 {{this never happens}}
  func.return
}

// -----

// An error that nobody expected.
func.func private @f(!quant.uniform<i8:f32, 0.1:3.5>)

// -----

// Right line, wrong text.
// expected-error @+1 {{expected float value}}
func.func private @g(!quant.uniform<i8:f32, 0.1:3.5>)

// -----

// Right text, wrong line.
// expected-error @+2 {{expected integer value}}
func.func private @h(!quant.uniform<i8:f32, 0.1:3.5>)

// -----

// Wrong severity.
// expected-warning @+1 {{expected integer value}}
func.func private @k(!quant.uniform<i8:f32, 0.1:3.5>)

// -----

// A designator pointing outside the input.
// expected-error @+10 {{anything}}
func.func private @m()
