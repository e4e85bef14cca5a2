"""The NPU target: machine description, instruction set, encoders (and, next, the simulator)."""
