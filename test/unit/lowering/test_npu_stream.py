"""The instruction stream of `tosa-to-npu` on records: DMA splitting and coalescing."""

from __future__ import annotations

from qdialect.lowering.npu_stream import MAX_DMA_ROWS, coalesce, dma_load, dma_store, pad_rows
from qdialect.npu.encoding import Instruction


def rows(dmas: list[Instruction]) -> list[tuple[int, int, int]]:
    return [(d["row"], d["dram"], d["rows"]) for d in dmas]


def test_loads_that_continue_each_other_merge_into_one() -> None:
    loads = [*dma_load("input", 0, 100, 2, 4, 8), *dma_load("input", 2, 116, 3, 4, 8)]
    (merged,) = coalesce(loads)
    assert (merged["row"], merged["dram"], merged["rows"]) == (0, 100, 5)


def test_padding_between_a_gap_or_another_shape_keeps_dmas_apart() -> None:
    padded = dma_load("input", 0, 100, 2, 4, 8, pad=-3, top=1, bottom=1)
    after = dma_load("input", 4, 116, 2, 4, 8, pad=-3)
    assert len(coalesce([*padded, *after])) == 2  # the first one's bottom padding is between
    gap = [*dma_load("input", 0, 0, 2, 4, 8), *dma_load("input", 2, 24, 2, 4, 8)]
    assert len(coalesce(gap)) == 2  # DRAM row 2 is skipped
    other = [*dma_load("input", 0, 0, 2, 4, 8), *dma_load("weight", 2, 16, 2, 4, 8)]
    assert len(coalesce(other)) == 2
    assert len(coalesce([*dma_load("input", 0, 0, 1, 4, 4), *pad_rows(1, 2, 0)])) == 2


def test_a_merge_keeps_the_last_ones_bottom_padding_and_the_rows_field() -> None:
    first = dma_load("input", 0, 0, 2, 4, 4, top=2)
    last = dma_load("input", 4, 8, 1, 4, 4, bottom=3)
    (merged,) = coalesce([*first, *last])
    assert (merged["pad_top"], merged["rows"], merged["pad_bottom"]) == (2, 3, 3)
    long = [*dma_load("input", 0, 0, MAX_DMA_ROWS, 4, 4), *dma_load("input", 1023, 4092, 1, 4, 4)]
    assert rows(coalesce(long)) == [(0, 0, MAX_DMA_ROWS), (1023, 4092, 1)]


def test_stores_merge_like_loads() -> None:
    stores = [dma_store("output", 0, 64, 2, 4, 16), dma_store("output", 2, 96, 2, 4, 16)]
    assert rows(coalesce(stores)) == [(0, 64, 4)]
    assert len(coalesce([stores[0], dma_store("output", 2, 96, 2, 4, 8)])) == 2


def test_a_long_load_is_split_at_the_rows_field() -> None:
    split = dma_load("input", 5, 0, MAX_DMA_ROWS + 10, 4, 4, top=1, bottom=2)
    assert rows(split) == [(5, 0, MAX_DMA_ROWS), (5 + 1 + MAX_DMA_ROWS, 4 * MAX_DMA_ROWS, 10)]
    assert [(d["pad_top"], d["pad_bottom"]) for d in split] == [(1, 0), (0, 2)]
