// Malformed locations (used by ../locations.mlir).
func.func @no_column(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected integer column number in FileLineColRange}}
  %0 = stablehlo.abs %a : tensor<2xf32> loc("a.py":4:x)
  return %0 : tensor<2xf32>
}

// -----

func.func @half_range(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected either integer or `:` post `to` in FileLineColRange}}
  %0 = stablehlo.abs %a : tensor<2xf32> loc("a.py":4:8 to 5)
  return %0 : tensor<2xf32>
}

// -----

func.func @negative_line(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected integer line number in FileLineColRange}}
  %0 = stablehlo.abs %a : tensor<2xf32> loc("a.py":-4:8)
  return %0 : tensor<2xf32>
}

// -----

func.func @not_a_location(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected location instance}}
  %0 = stablehlo.abs %a : tensor<2xf32> loc(somewhere)
  return %0 : tensor<2xf32>
}

// -----

#three = 3
func.func @alias_not_a_location(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{expected location attribute, but got}}
  %0 = stablehlo.abs %a : tensor<2xf32> loc(#three)
  return %0 : tensor<2xf32>
}
