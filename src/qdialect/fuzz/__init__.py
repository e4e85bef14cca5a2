"""Fuzzing the tools with mutated inputs: every case runs in a forked child with a
memory cap and a timeout, and its outcome is classified (docs/hostile-input.md)."""
