"""Reference networks for end-to-end checks and benchmarks."""
