// A name a registered dialect does not define is an error even under
// --allow-unregistered-dialect (which admits only dialects nobody registered), worded and
// located as each of MLIR's dialects reports it: at the mnemonic, by the dialect's parser.
// RUN: qopt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// RUN: qopt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect | filecheck %s

// expected-error @+1 {{unknown stablehlo type: foobar}}
func.func private @t() -> !stablehlo.foobar

// -----

// expected-error @+1 {{unknown quantized type foo}}
func.func private @t() -> !quant.foo

// -----

// expected-error @+1 {{unknown  type `foo` in dialect `tosa`}}
func.func private @t() -> !tosa.foo

// -----

// expected-error @+1 {{dialect 'chlo' provides no type parsing hook}}
func.func private @t() -> !chlo.foo

// -----

// expected-error @+1 {{unknown StableHLO attribute}}
"test.op"() {a = #stablehlo.foo<1>} : () -> ()

// -----

// expected-error @+1 {{unknown chlo attribute}}
"test.op"() {a = #chlo.foo} : () -> ()

// -----

// expected-error @+1 {{unknown attribute `foo` in dialect `tosa`}}
"test.op"() {a = #tosa.foo<1>} : () -> ()

// -----

// expected-error @+1 {{dialect 'quant' provides no attribute parsing hook}}
"test.op"() {a = #quant.foo} : () -> ()

// -----

// expected-error @+1 {{unregistered operation 'stablehlo.foo' found in dialect ('stablehlo') that does not allow unknown operations}}
"stablehlo.foo"() : () -> ()

// -----

// expected-error @+1 {{custom op 'stablehlo.foo' is unknown}}
stablehlo.foo

// -----

// Names of unregistered dialects pass through, in either form.
// CHECK: "foo.bar"() {a = #foo.baz<1>} : () -> !foo.qux
%0 = "foo.bar"() {a = #foo.baz<1>} : () -> !foo.qux
