"""Benchmarks (run by hand, not by pytest)."""
