"""The `.qbundle` file: one deployable file per model.

A zip archive (stored, not compressed: binaries are mostly int8 weights) with:

- `manifest.json` — `{"format": "qdialect-bundle", "version": 1, "entry": "main",
  "host": "host.mlir", "regions": [{"function": "main_npu0", "machine": "default",
  "digest": "<16 hex digits>", "binary": "regions/main_npu0.npub"}, ...]}`;
- `host.mlir` — the partitioned module as `qopt` prints it: the entry function
  (host ops and calls) and every region's TOSA, so the bundle explains itself and can
  also run entirely on the interpreter;
- `regions/<function>.npub` — each region's NPU binary (code, constant sections, io
  manifest; docs/npu.md), compiled for the machine whose digest is recorded.

Reading checks everything before use: a zip archive, a manifest of the right format
and version with fields of the right types, member names that exist, total size within
`MAX_BYTES`, binaries that decode, one per region function of the host module.
Any failure is a `BundleError` naming the file and the field.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from qdialect.dialects.npu import program_binary
from qdialect.npu.encoding import Binary, EncodingError
from qdialect.npu.machine import MachineError, load_machine

FORMAT = "qdialect-bundle"
VERSION = 1
MAX_BYTES = 4 << 30  # the most a bundle may unpack to

__all__ = ["FORMAT", "VERSION", "Bundle", "BundleError", "RegionBinary", "build_bundle"]


class BundleError(ValueError):
    """A bundle that cannot be read or written; the message names the file and field."""


@dataclass(frozen=True)
class RegionBinary:
    function: str  # the host module's function this binary runs
    machine: str  # the machine description it was compiled for
    digest: int  # that description's digest (checked against the machine at run time)
    binary: Binary


@dataclass(frozen=True)
class Bundle:
    entry: str
    host: str  # the partitioned module, MLIR text
    regions: tuple[RegionBinary, ...]

    def to_bytes(self) -> bytes:
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "entry": self.entry,
            "host": "host.mlir",
            "regions": [
                {
                    "function": r.function,
                    "machine": r.machine,
                    "digest": f"{r.digest:016x}",
                    "binary": f"regions/{r.function}.npub",
                }
                for r in self.regions
            ],
        }
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
            z.writestr("manifest.json", json.dumps(manifest, indent=1) + "\n")
            z.writestr("host.mlir", self.host)
            for r in self.regions:
                z.writestr(f"regions/{r.function}.npub", r.binary.to_bytes())
        return out.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "<bundle>") -> Bundle:
        def fail(what: str) -> BundleError:
            return BundleError(f"'{name}': {what}")

        try:
            z = zipfile.ZipFile(io.BytesIO(data))
            infos = {i.filename: i for i in z.infolist()}
        except (zipfile.BadZipFile, ValueError, OSError) as err:
            raise fail(f"not a bundle (not a zip archive: {err})") from None
        if sum(i.file_size for i in infos.values()) > MAX_BYTES:
            raise fail(f"unpacks to more than {MAX_BYTES >> 30} GiB")

        def member(path: object, field: str) -> bytes:
            if not isinstance(path, str) or path not in infos:
                raise fail(f"{field} names no member of the archive ({path!r})")
            try:
                return z.read(path)
            except (zipfile.BadZipFile, ValueError, OSError, NotImplementedError) as err:
                raise fail(f"member '{path}' cannot be read: {err}") from None

        try:
            manifest = json.loads(member("manifest.json", "the manifest"))
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
            raise fail(f"manifest.json is not JSON: {err}") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise fail(f"manifest.json is not a {FORMAT} manifest")
        if manifest.get("version") != VERSION:
            raise fail(
                f"bundle version {manifest.get('version')!r} is not supported (this is {VERSION})"
            )
        entry = manifest.get("entry")
        if not isinstance(entry, str) or not entry:
            raise fail("manifest 'entry' must be a function name")
        try:
            host = member(manifest.get("host"), "manifest 'host'").decode("utf-8")
        except UnicodeDecodeError:
            raise fail("host.mlir is not UTF-8 text") from None
        entries = manifest.get("regions")
        if not isinstance(entries, list):
            raise fail("manifest 'regions' must be a list")
        regions = []
        for i, e in enumerate(entries):
            where = f"manifest regions[{i}]"
            if not isinstance(e, dict):
                raise fail(f"{where} must be an object")
            function, machine, digest = e.get("function"), e.get("machine"), e.get("digest")
            if not isinstance(function, str) or not isinstance(machine, str):
                raise fail(f"{where} needs 'function' and 'machine' names")
            if not (isinstance(digest, str) and len(digest) == 16):
                raise fail(f"{where} 'digest' must be 16 hex digits")
            try:
                value = int(digest, 16)
            except ValueError:
                raise fail(f"{where} 'digest' must be 16 hex digits") from None
            try:
                binary = Binary.from_bytes(member(e.get("binary"), f"{where} 'binary'"))
            except EncodingError as err:
                raise fail(f"{where}: binary of @{function}: {err}") from None
            if binary.machine_digest != value:
                raise fail(f"{where}: the binary of @{function} was built for another machine")
            regions.append(RegionBinary(function, machine, value, binary))
        if len({r.function for r in regions}) != len(regions):
            raise fail("manifest 'regions' names a function twice")
        return cls(entry, host, tuple(regions))


def build_bundle(
    module: ModuleOp,
    entry: str = "main",
    timings: dict[str, float] | None = None,
    layer_seconds: list[tuple[str, dict, float]] | None = None,
) -> Bundle:
    """Compile every NPU-marked function of a partitioned module (`npu-partition`) with
    `tosa-to-npu`'s four stages, and package them with the module's text. With `timings`,
    the seconds of each `tosa-to-npu` stage (summed over regions) and of packaging
    (`package`: binaries and the host text) are added to it; with `layer_seconds`, one
    (region, layer record as in `npu.layers`, seconds) per layer (`compile_function`)."""
    from qdialect.ir.printer import module_text
    from qdialect.lowering.tosa_to_npu import compile_function
    from qdialect.runtime.executor import npu_target

    funcs = {f.sym_name.data: f for f in module.body.block.ops if isinstance(f, FuncOp)}
    if entry not in funcs:
        raise BundleError(f"no function '@{entry}' to bundle")
    regions = []
    for name, func in funcs.items():
        machine_name = npu_target(func)
        if machine_name is None:
            continue
        try:
            machine = load_machine(machine_name)
        except MachineError as err:
            raise BundleError(f"@{name}: {err}") from None
        seconds: list[float] = []
        program = compile_function(func, machine, machine_name, timings=timings,
                                   layer_seconds=seconds)  # OpError: located  # fmt: skip
        if layer_seconds is not None:
            records = json.loads(program.attributes["npu.layers"].data)  # type: ignore[attr-defined]
            layer_seconds.extend(zip([name] * len(records), records, seconds, strict=True))
        start = time.perf_counter()
        binary = program_binary(program, machine.digest())
        regions.append(RegionBinary(name, machine_name, machine.digest(), binary))
        _add(timings, "package", start)
    start = time.perf_counter()
    bundle = Bundle(entry, module_text(module), tuple(regions))
    _add(timings, "package", start)
    return bundle


def _add(timings: dict[str, float] | None, stage: str, start: float) -> None:
    if timings is not None:
        timings[stage] = timings.get(stage, 0.0) + time.perf_counter() - start
