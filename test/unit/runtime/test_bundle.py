"""The .qbundle format: what it holds, that it runs exactly, and that a damaged or
mismatched bundle is a one-line BundleError naming the field, never a traceback."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from qdialect.context import make_context
from qdialect.interpreter import Interpreter
from qdialect.ir.parser import QParser
from qdialect.runtime import bundle as bundle_module
from qdialect.runtime.bundle import Bundle, BundleError, build_bundle
from qdialect.runtime.executor import HostNpuExecutor
from qdialect.transforms.npu_partition import NpuPartition

SOURCE = Path(__file__).parents[2] / "filecheck" / "tools" / "qrt" / "bundle.mlir"


@pytest.fixture(scope="module")
def built() -> tuple[str, bytes]:
    text = SOURCE.read_text()
    module = QParser(make_context(), text).parse_module()
    NpuPartition().apply(make_context(), module)
    return text, build_bundle(module).to_bytes()


def _rezip(data: bytes, change) -> bytes:
    """The bundle with its members passed through `change(name, bytes) -> bytes | None`."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for info in src.infolist():
            content = change(info.filename, src.read(info.filename))
            if content is not None:
                z.writestr(info.filename, content)
    return out.getvalue()


def _manifest(edit):
    def change(name: str, content: bytes) -> bytes:
        if name != "manifest.json":
            return content
        manifest = json.loads(content)
        edit(manifest)
        return json.dumps(manifest).encode()

    return change


def test_a_bundle_holds_the_host_program_and_each_regions_binary(built) -> None:
    _, data = built
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    assert names == {
        "manifest.json",
        "host.mlir",
        "regions/main_npu0.npub",
        "regions/main_npu1.npub",
    }
    bundle = Bundle.from_bytes(data)
    assert bundle.entry == "main"
    assert [r.function for r in bundle.regions] == ["main_npu0", "main_npu1"]
    assert Bundle.from_bytes(bundle.to_bytes()) == bundle


def test_the_bundle_runs_exactly_as_the_unpartitioned_tosa(built) -> None:
    text, data = built
    executor = HostNpuExecutor.from_bundle(Bundle.from_bytes(data))
    reference = Interpreter(QParser(make_context(), text).parse_module())
    for k in range(4):
        x = np.random.default_rng(k).integers(-128, 128, (4, 8)).astype(np.int8)
        assert np.array_equal(executor.call("main", [x])[0], reference.call("main", [x])[0])
    assert executor.stats["main_npu0"].calls == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda n, c: None if n == "manifest.json" else c, "the manifest names no member"),
        (lambda n, c: b"{" if n == "manifest.json" else c, "manifest.json is not JSON"),
        (_manifest(lambda m: m.update(format="zip")), "is not a qdialect-bundle manifest"),
        (_manifest(lambda m: m.update(version=2)), "bundle version 2 is not supported"),
        (_manifest(lambda m: m.update(entry=7)), "'entry' must be a function name"),
        (_manifest(lambda m: m.update(regions={})), "'regions' must be a list"),
        (_manifest(lambda m: m["regions"][0].update(digest="xyz")), "16 hex digits"),
        (_manifest(lambda m: m["regions"][0].update(digest="0" * 16)), "for another machine"),
        (_manifest(lambda m: m["regions"][1].update(function="main_npu0")), "a function twice"),
        (lambda n, c: None if n.endswith("npu1.npub") else c, "'binary' names no member"),
        (lambda n, c: b"NOPE" + c[4:] if n.endswith(".npub") else c, "binary of @main_npu0"),
        (lambda n, c: b"\xff\xfe" if n == "host.mlir" else c, "host.mlir is not UTF-8"),
    ],
)
def test_a_damaged_bundle_is_a_named_error(built, change, message: str) -> None:
    with pytest.raises(BundleError, match=message):
        Bundle.from_bytes(_rezip(built[1], change), "m.qbundle")


def test_not_a_zip_and_a_bomb_are_refused(built, monkeypatch) -> None:
    with pytest.raises(BundleError, match="not a bundle"):
        Bundle.from_bytes(b"func.func @main() { }", "m.qbundle")
    monkeypatch.setattr(bundle_module, "MAX_BYTES", 1000)
    with pytest.raises(BundleError, match="unpacks to more than"):
        Bundle.from_bytes(built[1], "m.qbundle")


@pytest.mark.parametrize(
    ("host", "message"),
    [
        ("func.func @main( {", "host.mlir:"),
        ("func.func @main() {\n  func.return\n}\n", "is not an NPU function of host.mlir"),
    ],
)
def test_a_host_program_that_does_not_fit_its_binaries_is_refused(built, host, message) -> None:
    bundle = Bundle.from_bytes(built[1])
    wrong = Bundle(bundle.entry, host, bundle.regions)
    with pytest.raises(BundleError, match=message):
        HostNpuExecutor.from_bundle(wrong)


def test_a_binary_built_for_another_machine_description_is_refused(built) -> None:
    bundle = Bundle.from_bytes(built[1])
    region = bundle.regions[0]
    other = type(region)(region.function, "small", region.digest, region.binary)
    with pytest.raises(BundleError, match="another description of machine 'small'"):
        HostNpuExecutor.from_bundle(Bundle(bundle.entry, bundle.host, (other, *bundle.regions[1:])))
    with pytest.raises(BundleError, match="no binary for the NPU function"):
        HostNpuExecutor.from_bundle(Bundle(bundle.entry, bundle.host, bundle.regions[:1]))
