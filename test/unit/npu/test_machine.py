"""Hostile machine descriptions: each is one MachineError naming the file and what is
wrong, never a RecursionError, a digit-limit ValueError or an attempt to allocate what
the description declares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qdialect.npu.machine import LIMIT, MachineError, load_machine, parse_machine, read_machine

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "src" / "qdialect" / "npu" / "machines"


def _with_dram(field: str, value: object) -> str:
    """The default description with one `dram` field set to `value`."""
    data = json.loads((SHIPPED / "default.json").read_text())
    data["dram"][field] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, message",
    [("[" * 100_000, "nested too deeply"),
     ('{"name": "x", "dram": {"bytes": ' + "9" * 5000 + "}}", "not a machine description"),
     (_with_dram("bytes", 1 << 60), rf"'dram.bytes' must be an integer in 1..{LIMIT}, got a larger value"),
     (_with_dram("bytes", -5), r"'dram.bytes' must be an integer in 1..\d+, got -5"),
     (_with_dram("bytes", True), "got True"),
     ("\x00\xff binary", "not JSON")],
    ids=["deep", "digits", "huge-dram", "negative", "bool", "binary-as-text"],
)  # fmt: skip
def test_hostile_descriptions_are_one_error(tmp_path, text, message) -> None:
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(MachineError, match=message) as err:
        read_machine(str(path))
    assert str(path) in str(err.value)


def test_a_file_that_is_not_utf8_is_named(tmp_path) -> None:
    path = tmp_path / "m.json"
    path.write_bytes(b"\xd6\xff\x00" * 10)
    with pytest.raises(MachineError, match="not UTF-8 text"):
        read_machine(str(path))


def test_qasm_given_a_binary_says_so(tmp_path, capsys) -> None:
    from qdialect.tools import qasm

    source = tmp_path / "prog.s"
    source.write_bytes(bytes(range(256)) * 4)
    assert qasm.main([str(source), "-o", str(tmp_path / "o.npub")]) == 1
    assert (
        "not assembly text (not UTF-8; to disassemble a binary, use -d)" in capsys.readouterr().err
    )


def test_shipped_machines_and_description_errors() -> None:
    default, small = load_machine("default"), load_machine("small")
    assert (default.mac_rows, default.mac_cols) == (16, 16)
    assert (small.mac_rows, small.mac_cols) == (4, 4)
    assert default.digest() != small.digest()
    assert small.buffer("accumulator").row_bytes == 16 and small.buffer("input").rows == 1024
    text = (ROOT / "src" / "qdialect" / "npu" / "machines" / "small.json").read_text()
    with pytest.raises(MachineError, match=r"'buffers\.input\.row_bytes' must be 4"):
        parse_machine(text.replace('"row_bytes": 4}', '"row_bytes": 8}', 1))
    # The cycle model multiplies a cols x cols weight tile a cycle: only square arrays.
    with pytest.raises(
        MachineError, match=r"'mac_array\.rows' \(8\) must equal 'mac_array\.cols' \(4\)"
    ):
        parse_machine(text.replace('"rows": 4', '"rows": 8', 1))
    with pytest.raises(MachineError, match=r"missing field 'dram\.bus_bytes'"):
        parse_machine(text.replace('"bus_bytes": 4,', ""))
    with pytest.raises(MachineError, match="not JSON"):
        parse_machine("{")
    with pytest.raises(
        MachineError, match=r"cannot read machine description 'nope'.*shipped: default, small"
    ):
        load_machine("nope")


@pytest.mark.parametrize(
    "value, message",
    [(0, r"'dram\.outstanding' must be an integer in 1\.\.\d+, got 0"),
     ("4", r"'dram\.outstanding' must be an integer in 1\.\.\d+, got '4'"),
     (1000, r"'dram\.outstanding' must be an integer in 1\.\.256, got 1000")],
)  # fmt: skip
def test_dma_requests_in_flight_are_checked(value, message) -> None:
    with pytest.raises(MachineError, match=message):
        parse_machine(_with_dram("outstanding", value))


def test_dma_requests_in_flight_default_to_one() -> None:
    """Descriptions written before the field keep the serial DMA timing; the default
    machine keeps four requests in flight."""
    data = json.loads((SHIPPED / "default.json").read_text())
    assert load_machine("default").dram_outstanding == data["dram"]["outstanding"] == 4
    del data["dram"]["outstanding"]
    assert parse_machine(json.dumps(data)).dram_outstanding == 1
    assert parse_machine(_with_dram("outstanding", 256)).dram_outstanding == 256


def test_machine_descriptions_are_read_once_per_file_version(tmp_path: Path) -> None:
    """The verifier asks for its program's description once per instruction: an unchanged
    description is remembered, an edited file is read again."""
    assert load_machine("small") is load_machine("small")
    path = tmp_path / "m.json"
    text = (ROOT / "src" / "qdialect" / "npu" / "machines" / "small.json").read_text()
    path.write_text(text)
    first = load_machine(str(path))
    assert load_machine(str(path)) is first
    path.write_text(text.replace('"clock_mhz": ', '"clock_mhz": 1'))  # 200 -> 1200
    assert load_machine(str(path)).clock_mhz == 1200
