// Bad pipelines are one-line errors with exit status 1, before any input is read.
// RUN: not qopt -p no-such-pass %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not qopt --pass-pipeline='builtin.module(no-such-pass)' %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown pass 'no-such-pass' (see `qopt --list-passes`)
// UNKNOWN-EMPTY:

// RUN: not qopt --pass-pipeline='builtin.module(canonicalize' %s 2>&1 | FileCheck %s --check-prefix=UNCLOSED
// UNCLOSED: error: malformed pass pipeline at column 28: expected ')', found 'end of input': 'builtin.module(canonicalize'

// RUN: not qopt --pass-pipeline='canonicalize,cse' %s 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: error: malformed pass pipeline at column 13: the pipeline must be anchored on 'builtin.module', not 'canonicalize'

// RUN: not qopt --pass-pipeline='builtin.module(cse))' %s 2>&1 | FileCheck %s --check-prefix=TRAILING
// TRAILING: error: malformed pass pipeline at column 20: unexpected ')' after the pipeline

// RUN: not qopt --pass-pipeline='builtin.module(cse,,dce)' %s 2>&1 | FileCheck %s --check-prefix=EMPTYELEM
// EMPTYELEM: error: malformed pass pipeline at column 20: expected a pass or operation name, found ','

// RUN: not qopt --pass-pipeline='builtin.module(cse{)' %s 2>&1 | FileCheck %s --check-prefix=BRACE
// BRACE: error: malformed pass pipeline at column 19: unterminated pass options '{'

// RUN: not qopt --pass-pipeline='builtin.module(tensor.pad(cse))' %s 2>&1 | FileCheck %s --check-prefix=BADANCHOR
// BADANCHOR: error: malformed pass pipeline at column 16: cannot nest passes on 'tensor.pad' (supported anchors: builtin.module, func.func)

// RUN: not qopt --pass-pipeline='builtin.module(func.func(func.func(cse)))' %s 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: error: malformed pass pipeline at column 26: cannot nest 'func.func' inside 'func.func'

// RUN: not qopt -p 'canonicalize{bogus=1}' %s 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: invalid options for pass 'canonicalize': {{.*}}bogus

// RUN: not qopt --mlir-print-ir-after=nope %s 2>&1 | FileCheck %s --check-prefix=PRINTAFTER
// PRINTAFTER: error: unknown pass 'nope' in --mlir-print-ir-before/after

func.func @f() {
  func.return
}
