"""Calibration: float programs run over sample data, each tensor's statistics recorded."""
