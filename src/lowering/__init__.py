"""Lowerings from the TOSA-like dialect to the NPU ISA (tiling, memory planning, scheduling).

Each lowering pass lives in its own module here and is registered in
`qdialect.transforms.get_all_passes`.
"""
