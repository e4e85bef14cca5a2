"""The instruction stream of `tosa-to-npu` on records: DMA splitting and coalescing."""

from __future__ import annotations

from qdialect.lowering.npu_stream import (
    MAX_BLOCKS,
    MAX_DMA_ROWS,
    Stream,
    coalesce,
    dma_load,
    dma_store,
    fold_blocks,
    in_row_order,
    pad_rows,
)
from qdialect.npu.encoding import Instruction
from qdialect.npu.machine import load_machine


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


def image_rows(first_row: int, dram: int, count: int, row_step: int = 2) -> list[Instruction]:
    """A stride-phase's image rows as a window layer loads them: 5 pixels 8 bytes apart,
    a padding pixel either side, the next row `row_step` image rows (of 40 bytes) on."""
    return [
        load
        for r in range(count)
        for load in dma_load(
            "input", first_row + 7 * r, dram + 40 * row_step * r, 5, 4, 8, pad=-3, top=1, bottom=1
        )
    ]


def test_repeated_blocks_fold_into_one_load2d() -> None:
    (folded,) = fold_blocks(image_rows(10, 4, 6))
    assert folded.opcode.mnemonic == "load2d"
    assert {f: folded[f] for f in ("row", "dram", "rows", "blocks", "block_stride")} == {
        "row": 10, "dram": 4, "rows": 5, "blocks": 6, "block_stride": 80,
    }  # fmt: skip
    assert (folded["pad"], folded["pad_top"], folded["pad_bottom"]) == (-3, 1, 1)
    # Padding alone folds too: 40 rows as 15 + 15 + 10.
    (pads, rest) = fold_blocks(pad_rows(0, 40, -3))
    assert (pads.opcode.mnemonic, pads["blocks"], pads["pad_top"], pads["rows"]) == (
        "load2d",
        2,
        15,
        0,
    )
    assert (rest.opcode.mnemonic, rest["row"], rest["pad_top"]) == ("load", 30, 10)


def test_only_evenly_spaced_blocks_of_one_shape_fold() -> None:
    uneven = [*image_rows(0, 0, 2), *image_rows(14, 200, 2)]  # DRAM steps 80, 120, 80
    assert [d.opcode.mnemonic for d in fold_blocks(uneven)] == ["load2d", "load2d"]
    gap = [*image_rows(0, 0, 2), *image_rows(15, 160, 2)]  # a buffer row between
    assert [d["blocks"] if "blocks" in d.values else 1 for d in fold_blocks(gap)] == [2, 2]
    many = image_rows(0, 0, MAX_BLOCKS + 1)
    assert [d.opcode.mnemonic for d in fold_blocks(many)] == ["load2d", "load"]
    far = image_rows(0, 1 << 28, 2)  # beyond load2d's 28-bit address: left as loads
    assert [d.opcode.mnemonic for d in fold_blocks(far)] == ["load", "load"]


def test_one_deliverys_loads_go_in_row_order_unless_they_overlap() -> None:
    """Interleaved stride phases sorted by the rows they write become foldable runs."""
    even, odd = image_rows(0, 0, 3), image_rows(100, 8, 3)
    interleaved = [x for pair in zip(even, odd, strict=True) for x in pair]
    assert in_row_order(interleaved) == [*even, *odd]
    assert len(fold_blocks(coalesce(in_row_order(interleaved)))) == 2
    overlapping = [*dma_load("input", 0, 0, 4, 4, 4), *dma_load("input", 2, 64, 1, 4, 4)]
    assert in_row_order(overlapping[::-1]) == overlapping[::-1]


def test_output_rows_a_pitch_apart_fold_into_one_store2d() -> None:
    """A window layer's output rows: 5 pixels each, 7 buffer rows apart (the pitch),
    contiguous in DRAM: one `store2d`; rows at uneven buffer steps stay stores."""
    rows = [dma_store("output", 7 * r, 100 + 40 * r, 5, 4, 8) for r in range(4)]
    (folded,) = fold_blocks(coalesce(rows))
    assert folded.opcode.mnemonic == "store2d"
    assert {f: folded[f] for f in ("row", "dram", "rows", "blocks", "block_stride", "row_step")} == {
        "row": 0, "dram": 100, "rows": 5, "blocks": 4, "block_stride": 40, "row_step": 7,
    }  # fmt: skip
    uneven = [*rows[:2], dma_store("output", 15, 180, 5, 4, 8)]
    assert [d.opcode.mnemonic for d in fold_blocks(uneven)] == ["store2d", "store"]


def loads_of(stream: Stream) -> list[tuple[int, int, int, int]]:
    return [(i["row"], i["rows"], i["pad_top"], i["pad"]) for i in stream.code
            if i.opcode.mnemonic.startswith("load")]  # fmt: skip


def test_padding_a_row_already_holds_is_not_loaded_again() -> None:
    """Only loads write the loadable buffers, so a padding-only load whose rows hold that
    padding (a reused slot's border) is left out; one that a data load has overwritten
    since, or another padding value, or another buffer, is not."""
    st = Stream(load_machine("default"))
    st.deliver(pad_rows(0, 3, -1))
    st.deliver(pad_rows(0, 3, -1))  # the same rows, the same byte: dropped
    st.deliver(pad_rows(1, 2, -1))  # a part of them: dropped
    assert loads_of(st) == [(0, 0, 3, -1)]
    st.deliver(pad_rows(0, 3, 5))  # another byte: kept
    st.deliver(dma_load("input", 2, 64, 1, 16, 16))  # data over row 2
    st.deliver(pad_rows(0, 3, 5))  # row 2 is data now: kept
    st.deliver(dma_load("weight", 0, 0, 0, 0, 0, pad=5, top=3))  # another buffer: kept
    assert loads_of(st) == [(0, 0, 3, -1), (0, 0, 3, 5), (2, 1, 0, 0), (0, 0, 3, 5), (0, 0, 3, 5)]
    # a data load's own padding rows count: its top row is padding, its data row is not
    st.deliver(dma_load("input", 10, 0, 1, 16, 16, pad=7, top=1))
    st.deliver(pad_rows(10, 1, 7))
    st.deliver(pad_rows(11, 1, 7))
    assert loads_of(st)[-2:] == [(10, 1, 1, 7), (11, 0, 1, 7)]
    # every delivery still hands its token to compute
    assert sum(i.opcode.mnemonic == "signal" for i in st.code) == 10
