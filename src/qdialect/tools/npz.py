""".npz files the tools read and write (inputs, outputs, tensor dumps), read defensively.

`numpy.load` trusts the file: a corrupt archive raises whatever zipfile or numpy raises
(BadZipFile, a CRC error, EOFError, ValueError), a header may declare a shape of
petabytes that numpy then tries to allocate, and an object array needs pickle. Here every
member's header is read and checked before its data: only plain numeric or boolean
arrays, each and all together within a byte budget, and any failure is one `NpzError`
naming the file and the member. Writing goes member by member too, so a tensor may be
called `file` or `allow_pickle` (names `numpy.savez` takes as its own arguments).
"""

from __future__ import annotations

import zipfile
from collections.abc import Mapping

import numpy as np

MAX_BYTES = 1 << 32
"""The most array data one file may declare (4 GiB): beyond it a file is refused rather
than allocated."""


class NpzError(Exception):
    """A .npz file that cannot be read or written (the message names it)."""


def read_npz(path: str, max_bytes: int = MAX_BYTES) -> dict[str, np.ndarray]:
    """The arrays of `path` by member name (without `.npy`), in the archive's order."""
    try:
        archive = zipfile.ZipFile(path)
    except FileNotFoundError:
        raise NpzError(f"cannot read '{path}': No such file or directory") from None
    except IsADirectoryError:
        raise NpzError(f"cannot read '{path}': it is a directory") from None
    except (zipfile.BadZipFile, OSError, ValueError) as err:
        raise NpzError(f"'{path}' is not a .npz file ({_first_line(err)})") from None
    arrays: dict[str, np.ndarray] = {}
    total = 0
    with archive:
        for info in archive.infolist():
            name = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
            where = f"'{path}', array '{name}'"
            try:
                with archive.open(info) as member:
                    version = np.lib.format.read_magic(member)
                    shape, fortran, dtype = _header(member, version)
                    if dtype.hasobject or dtype.kind not in "biuf":
                        raise NpzError(f"{where}: {dtype} arrays are not supported")
                    if any(d < 0 for d in shape):
                        raise NpzError(f"{where}: negative dimension in shape {list(shape)}")
                    nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
                    total += nbytes
                    if nbytes > max_bytes or total > max_bytes:
                        raise NpzError(
                            f"{where}: declares {nbytes} bytes (shape {list(shape)}), more "
                            f"than the {max_bytes}-byte limit"
                        )
                    data = member.read(nbytes + 1)
                    if len(data) != nbytes:
                        raise NpzError(
                            f"{where}: holds {len(data)} bytes of data, its header declares "
                            f"{nbytes}"
                        )
            except NpzError:
                raise
            except Exception as err:  # zipfile's and numpy's header parsing raise many kinds
                raise NpzError(f"{where} is corrupt ({_first_line(err)})") from None
            array = np.frombuffer(data, dtype).reshape(shape, order="F" if fortran else "C")
            arrays[name] = array.copy()
    return arrays


def write_npz(path: str, arrays: Mapping[str, np.ndarray]) -> None:
    """`arrays` as an uncompressed .npz (numpy reads it back), any member names."""
    try:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
            for name, array in arrays.items():
                with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)
    except OSError as err:
        raise NpzError(f"cannot write '{path}': {err.strerror or _first_line(err)}") from None


def _header(member, version: tuple[int, int]) -> tuple[tuple[int, ...], bool, np.dtype]:
    if version == (1, 0):
        return np.lib.format.read_array_header_1_0(member)
    if version == (2, 0):
        return np.lib.format.read_array_header_2_0(member)
    raise ValueError(f"unknown .npy format version {version}")


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__
