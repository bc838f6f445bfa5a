"""The REST budget of the table games, through the bench's own counters (bench/rest_per_move.py)."""

from pathlib import Path

from bench.rest_per_move import NUMERI_LIMIT, PLAYERS, binomial_steps, numeri_moves


async def test_a_numeri_move_costs_at_most_two_calls_outside_its_interaction(tmp_path: Path) -> None:
    moves = await numeri_moves(tmp_path, 8)
    assert len(moves) == 8
    assert max(m["channel"] + m["dm"] for m in moves) <= NUMERI_LIMIT, moves


async def test_binomial_edits_one_message_per_roll_and_round(tmp_path: Path) -> None:
    rolls, rounds = await binomial_steps(tmp_path, 2)
    assert len(rolls) == 16 and len(rounds) == 2
    # a roll: its edit, the "who has placed" refresh, and the colloquium's first post after the last roll
    assert max(r["channel"] for r in rolls) <= 3, rolls
    assert sorted(r["channel"] for r in rolls)[-2] <= 2, rolls
    # a round: one edit per declaration but the last, the reveal's edit and the next round's post
    assert max(r["channel"] for r in rounds) <= len(PLAYERS) + 1, rounds
