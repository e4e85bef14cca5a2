"""Mutations are reproducible from their Random and never fail themselves."""

from __future__ import annotations

import io
import json
import random
import zipfile

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from qdialect.fuzz import mutate
from qdialect.tools.npz import NpzError, read_npz


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.randoms(use_true_random=False))
def test_text_mutation_takes_any_text(text, rng) -> None:
    assert isinstance(mutate.mutate_text(rng, text), str)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.randoms(use_true_random=False))
def test_byte_mutation_takes_any_bytes(data, rng) -> None:
    assert isinstance(mutate.mutate_bytes(rng, data), bytes)


def test_the_same_random_gives_the_same_mutation() -> None:
    text = "func.func @f(%x: tensor<2xi8>) -> tensor<2xi8> {\n  return %x : tensor<2xi8>\n}\n"
    first = [mutate.mutate_text(random.Random(f"0:qopt:{i}"), text) for i in range(50)]
    again = [mutate.mutate_text(random.Random(f"0:qopt:{i}"), text) for i in range(50)]
    assert first == again and len(set(first)) > 25


def test_json_mutation_edits_fields_and_keeps_json_mostly() -> None:
    doc = json.dumps({"name": "m", "buffers": {"input": {"rows": 64, "row_bytes": 16}}})
    mutated = [mutate.mutate_json(random.Random(i), doc) for i in range(100)]
    parsed = []
    for text in mutated:
        try:
            parsed.append(json.loads(text))
        except ValueError:
            pass
    assert len(parsed) > 60 and any(p != json.loads(doc) for p in parsed)


def test_npz_mutation_declaring_a_huge_shape_is_refused_on_load(tmp_path) -> None:
    arrays = {"arg0": np.zeros((2, 3), np.int8)}
    for i in range(200):
        rng = random.Random(i)
        state = rng.getstate()
        if rng.randrange(6) != 4:  # the huge-header edit
            continue
        rng.setstate(state)
        path = tmp_path / "x.npz"
        path.write_bytes(mutate.mutate_npz(rng, arrays))
        with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
            assert b"1099511627776" in archive.read("arg0.npy")
        try:
            read_npz(str(path))
        except NpzError as err:
            assert "arg0" in str(err)
        else:
            raise AssertionError("a 4 PiB declared shape was loaded")
        return
    raise AssertionError("no case drew the huge-header edit")
