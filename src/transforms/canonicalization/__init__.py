"""Canonicalization patterns, one module per dialect, attached to ops through their traits."""
