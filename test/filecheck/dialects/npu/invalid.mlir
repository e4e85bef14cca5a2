// NPU verifier rules, each with its exact diagnostic at the op.
// RUN: qopt %s --split-input-file --verify-diagnostics

npu.program machine = "small" {
  // expected-error @+1 {{'npu.fill' op field 'value' = 2147483648 does not fit signed 32 bits [-2147483648, 2147483647]}}
  npu.fill [buf = accumulator, row = 0, rows = 1, value = 2147483648]
  npu.halt
}

// -----

npu.program machine = "small" {
  // expected-error @+1 {{'npu.store' op the store engine may not read buffer 'weight'}}
  npu.store [buf = weight, row = 0, dram = 0, rows = 1, row_bytes = 4, stride = 4]
  npu.halt
}

// -----

npu.program machine = "small" {
  // expected-error @+1 {{'npu.load' op the load engine may not write buffer 'output'}}
  npu.load [buf = output, row = 0, dram = 0, rows = 1, row_bytes = 4, stride = 4, pad = 0, pad_top = 0, pad_bottom = 0, pad_left = 0]
  npu.halt
}

// -----

npu.program machine = "small" {
  // expected-error @+1 {{'npu.fill' op the compute engine may not write buffer 'weight'}}
  npu.fill [buf = weight, row = 0, rows = 1, value = 0]
  npu.halt
}

// -----

// The small machine's input buffer has 1024 rows of 4 bytes.
npu.program machine = "small" {
  // expected-error @+1 {{'npu.load' op on machine 'qnpu-4x4-small': rows [1020, 1030) of buffer 'input' exceed its 1024 rows}}
  npu.load [buf = input, row = 1020, dram = 0, rows = 8, row_bytes = 4, stride = 4, pad = 0, pad_top = 1, pad_bottom = 1, pad_left = 0]
  npu.halt
}

// -----

npu.program machine = "small" {
  // expected-error @+1 {{'npu.matmul' op on machine 'qnpu-4x4-small': rows [1020, 1028) of buffer 'weight' exceed its 1024 rows}}
  npu.matmul [in = 0, w = 1020, acc = 0, m = 1, k_tiles = 2, accumulate = 0, in_step = 1, k_step = 1, buf = input]
  npu.halt
}

// -----

npu.program machine = "small" {
  // expected-error @+1 {{'npu.store' op on machine 'qnpu-4x4-small': DRAM bytes [16777200, 16777220) exceed the 16777216-byte DRAM}}
  npu.store [buf = output, row = 0, dram = 16777200, rows = 5, row_bytes = 4, stride = 4]
  npu.halt
}

// -----

npu.program machine = "small" {
  // expected-error @+1 {{'npu.store' op on machine 'qnpu-4x4-small': 8 bytes per row exceed the 4-byte rows of 'output'}}
  npu.store [buf = output, row = 0, dram = 0, rows = 1, row_bytes = 8, stride = 8]
  npu.halt
}

// -----

// expected-error @+1 {{'npu.program' op must end with 'npu.halt'}}
npu.program machine = "small" {
  npu.signal [queue = ld2cp]
}

// -----

// expected-error @+1 {{'npu.program' op cannot read machine description 'nowhere': No such file or directory (shipped: default, small)}}
npu.program machine = "nowhere" {
  npu.halt
}
