"""qdialect.tools.npz and the tools that read .npz files, on hostile files: every one is
a one-line error naming the file (and the member), never a traceback or an allocation
of what a header declares."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from qdialect.tools.npz import NpzError, read_npz, write_npz


def _npy(array: np.ndarray) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, array, allow_pickle=True)
    return out.getvalue()


def _zip(path, members: dict[str, bytes]) -> str:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return str(path)


def _file(path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def _huge_header(shape: tuple[int, ...]) -> bytes:
    """A .npy header declaring `shape` of int8, followed by 4 bytes of data."""
    header = {"descr": "|i1", "fortran_order": False, "shape": shape}
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(out, header)
    return out.getvalue() + b"\0" * 4


def test_round_trip_keeps_names_numpy_would_take_as_arguments(tmp_path) -> None:
    arrays = {"file": np.arange(6, dtype=np.int8).reshape(2, 3),
              "allow_pickle": np.array([1.5], np.float32), "x.y": np.zeros((0, 4), np.int32),
              "f": np.asfortranarray(np.arange(12, dtype=np.uint8).reshape(3, 4))}  # fmt: skip
    path = str(tmp_path / "a.npz")
    write_npz(path, arrays)
    back = read_npz(path)
    assert list(back) == list(arrays)
    for name, array in arrays.items():
        assert back[name].dtype == array.dtype and np.array_equal(back[name], array)
    with np.load(path) as data:  # numpy reads what we write
        assert np.array_equal(data["file"], arrays["file"])


@pytest.mark.parametrize(
    "make, message",
    [(lambda p: str(p / "missing.npz"), "No such file or directory"),
     (lambda p: _file(p / "empty.npz", b""), "is not a .npz file"),
     (lambda p: _file(p / "junk.npz", b"\x89PNG" * 50), "is not a .npz file"),
     (lambda p: _zip(p / "obj.npz", {"o.npy": _npy(np.array([{}, 1], dtype=object))}),
      "object arrays are not supported"),
     (lambda p: _zip(p / "cplx.npz", {"c.npy": _npy(np.ones(2, np.complex64))}),
      "complex64 arrays are not supported"),
     (lambda p: _zip(p / "huge.npz", {"h.npy": _huge_header((1 << 20, 1 << 20, 1 << 10))}),
      "declares 1125899906842624 bytes"),
     (lambda p: _zip(p / "short.npz", {"s.npy": _huge_header((100,))}),
      "holds 4 bytes of data, its header declares 100"),
     (lambda p: _zip(p / "hdr.npz", {"b.npy": b"\x93NUMPY\x01\x00" + struct.pack("<H", 8) + b"{'descr'"}),
      "array 'b' is corrupt")],
    ids=["missing", "empty", "not-zip", "object", "complex", "huge-shape", "short-data", "bad-header"],
)  # fmt: skip
def test_hostile_files_are_one_error(tmp_path, make, message) -> None:
    path = make(tmp_path)
    with pytest.raises(NpzError, match=message) as err:
        read_npz(path)
    assert str(path) in str(err.value)


def test_bad_crc_is_an_error_naming_the_member(tmp_path) -> None:
    path = tmp_path / "crc.npz"
    write_npz(str(path), {"w": np.arange(64, dtype=np.int8)})
    raw = bytearray(path.read_bytes())
    at = raw.find(bytes(range(10, 20)))  # inside the stored data
    raw[at] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(NpzError, match=r"array 'w' is corrupt \(Bad CRC-32"):
        read_npz(str(path))


@pytest.mark.parametrize("tool", ["qrun", "qsim"])
def test_tools_report_a_corrupt_inputs_file_without_a_traceback(tmp_path, tool) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    target = tmp_path / "m.mlir" if tool == "qrun" else tmp_path / "m.npub"
    if tool == "qrun":
        target.write_text("func.func @main(%a: tensor<2xi8>) -> tensor<2xi8> {\n"
                          "  func.return %a : tensor<2xi8>\n}\n")  # fmt: skip
        argv = [str(target), "--entry", "main", "--inputs", str(bad)]
    else:
        from pathlib import Path

        from qdialect.tools import qasm

        program = Path(__file__).resolve().parents[3] / "examples" / "npu_matmul.s"
        assert qasm.main([str(program), "-o", str(target)]) == 0
        argv = [str(target), "--inputs", str(bad)]
    run = subprocess.run([sys.executable, "-m", f"qdialect.tools.{tool}", *argv],
                         capture_output=True, text=True)  # fmt: skip
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert f"'{bad}' is not a .npz file" in run.stderr


@pytest.mark.parametrize("tool", ["qrun", "qsim"])
def test_a_negative_seed_is_a_usage_error(tool) -> None:
    run = subprocess.run([sys.executable, "-m", f"qdialect.tools.{tool}", "x", "--random-inputs",
                          "-1"], capture_output=True, text=True)  # fmt: skip
    assert run.returncode != 0 and "expected a non-negative integer, got -1" in run.stderr
    assert "Traceback" not in run.stderr
