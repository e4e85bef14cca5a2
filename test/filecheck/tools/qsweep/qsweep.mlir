// qsweep from the command line: a sweep's summary and front, points that cannot run
// reported with their reason, reuse on a second run, and bad sweep files as one-line
// errors with exit status 1. (The file is MLIR only for lit; qsweep reads the JSON.)
// RUN: rm -rf %t && qsweep %S/Inputs/two-buses.json -o %t --quiet | FileCheck %s
// RUN: qsweep %S/Inputs/two-buses.json -o %t --quiet | FileCheck %s
// RUN: not qsweep %S/Inputs/bad-key.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not qsweep %S/Inputs/bad-field.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not qsweep %S/Inputs/missing.json -o %t.bad 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not qsweep %S/Inputs/two-buses.json -o %t --jobs 0 2>&1 | FileCheck %s --check-prefix=JOBS

// CHECK: qsweep: 4 points (4 machines x 1 models): 2 ok, 2 invalid
// CHECK: invalid: dram.bus_bytes=8,buffers.input.bytes=1000 / tosa_mlp.mlir: machine: 'buffers.input.bytes' (1000) is not a multiple of its row_bytes (16)
// CHECK: machine {{ +}}area {{ +}}cycles {{ +}}util {{ +}}DRAM B {{ +}}front
// CHECK: dram.bus_bytes=16,buffers.input.bytes=262144 {{.*}} *
// CHECK: qsweep: wrote {{.*}}results.csv and {{.*}}results.parquet

// KEY: qsweep: error: unknown key(s) grids (known: area, grid, inputs_seed, machine, models, name, samples, seed)
// FIELD: qsweep: error: grid field 'dram.width' is not a field of the base machine
// MISSING: qsweep: error: cannot read '{{.*}}missing.json': No such file or directory
// JOBS: qsweep: error: --jobs must be at least 1
