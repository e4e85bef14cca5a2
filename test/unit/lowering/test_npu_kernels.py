"""Row-streamed layers of `tosa-to-npu` (npu_kernels): fully connected layers, bit-exact
with the TOSA interpreter on both shipped machines, with shapes that need K, N and M
tiling and padding. Elementwise, table and data-movement layers run in every legalized
layer kind and network of test_tosa_to_npu.py."""

from __future__ import annotations

import numpy as np
import pytest

from unit.lowering.test_tosa_to_npu import (
    compile_and_run,
    mlp,
)


@pytest.mark.parametrize("machine", ["default", "small"])
@pytest.mark.parametrize(
    "m, sizes",
    [
        (4, [16, 16]),  # one tile
        (5, [40, 20]),  # K and N not multiples of the array width
        (3, [24, 40, 10]),  # an MLP: layer outputs feed the next layer through DRAM
        (150, [40, 8]),  # on the small machine, M is tiled too
    ],
)
def test_fully_connected_is_bit_exact(machine: str, m: int, sizes: list[int]) -> None:
    x = np.random.default_rng(m).integers(-128, 128, (m, sizes[0])).astype(np.int8)
    got, want = compile_and_run(mlp(m, sizes, seed=m + len(sizes)), machine, x)
    assert np.array_equal(got, want)


def test_fully_connected_with_k_split_into_groups() -> None:
    """K = 1100 is 275 tiles on the small machine: over the matmul's 255 and its weight
    buffer, so K runs in groups with partial sums kept per column block."""
    x = np.random.default_rng(9).integers(-128, 128, (3, 1100)).astype(np.int8)
    got, want = compile_and_run(mlp(3, [1100, 9], seed=2), "small", x)
    assert np.array_equal(got, want)
