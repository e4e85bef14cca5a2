"""Running partitioned models: host functions on the reference interpreter, functions
marked for the NPU (`npu-partition`) compiled by `tosa-to-npu` and run on the simulator."""
