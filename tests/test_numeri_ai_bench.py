"""The bench's simple opponents of hard play whole games (their figures are reported by bench/, never here)."""

from __future__ import annotations

from bench.ai_strength_numeri import SIMPLE, matchup


def test_the_simple_strategies_play_whole_games_in_every_seat_count() -> None:
    for name in SIMPLE:
        for seats in (2, 3, 4):
            assert 0.0 <= matchup("normal", name, seats, 1, seats)["share"] <= 1.0
