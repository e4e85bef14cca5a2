"""Pass pipelines in MLIR's and xDSL's syntax name the same passes, with their anchors."""

from __future__ import annotations

import pytest

from qdialect.tools.pipeline import PipelineError, parse_pass_list, parse_pass_pipeline
from qdialect.transforms import get_all_passes


def test_pipeline_parsers_agree() -> None:
    registry = get_all_passes()
    mlir = parse_pass_pipeline("builtin.module(canonicalize, cse,dce)", registry)
    xdsl = parse_pass_list("canonicalize,cse,dce", registry)
    assert [s.pass_ for s in mlir] == [s.pass_ for s in xdsl]
    nested = parse_pass_pipeline("builtin.module(func.func(cse),dce)", registry)
    assert [(s.name, s.anchor) for s in nested] == [("cse", "func.func"), ("dce", "builtin.module")]
    with pytest.raises(PipelineError, match="unknown pass 'nope'"):
        parse_pass_list("cse,nope", registry)
