"""Unit tests, laid out like src/: test/unit/<area>/test_<module>.py tests qdialect.<area>.<module>.

Every folder is a package, so pytest (default `prepend` import mode) puts test/ on sys.path
and names modules `unit.<area>.test_<module>`; two test modules may share a file name in
different folders (interpreter/test_tosa_ops.py, transforms/canonicalization/test_tosa.py),
and one test module can reuse another's cases with `from unit.<area> import test_<module>`.
"""
