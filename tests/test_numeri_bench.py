"""The Numeri strength bench still runs (figures are reported by bench/, never asserted here)."""

from __future__ import annotations

from bench.ai_strength_numeri import matchup, wilson


def test_wilson_interval_brackets_the_share() -> None:
    low, high = wilson(0.4, 400)
    assert 0.35 < low < 0.4 < high < 0.45
    assert wilson(0.0, 0) == (0.0, 1.0)


def test_a_tiny_matchup_reports_every_figure() -> None:
    figures = matchup("normal", "easy", 4, 1)
    assert set(figures) == {"share", "low", "high", "p50", "p99", "max", "cpu_p99"}
    assert 0.0 <= figures["share"] <= 1.0
