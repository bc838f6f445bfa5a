"""Mutated scripts: the replay accepts exactly what an independent restatement accepts, and names the turn."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.numeri.replay import ScriptError, replay

from . import numeri_reference as ref
from .test_numeri_replay import game_script


def reference_replay(players: int, first: int, turns: list[dict[str, Any]]) -> tuple[int | None, ref.Board]:
    """(1-based number of the first bad turn or None, the board reached)."""
    board: ref.Board = {}
    seat, over = first, False
    for number, turn in enumerate(turns, start=1):
        roll, listed = turn["roll"], tuple(turn["moves"])
        if over or not (roll == "*" or (type(roll) is int and 1 <= roll <= 5)):
            return number, board
        legal = ref.options(board, players, seat, roll)
        if not legal:
            if listed:
                return number, board
            seat = (seat + 1) % players
            continue
        if listed in legal:
            if len(listed) == 2 and ref.over({**board, (seat, listed[0]): ref.target(board, seat, listed[0])}):
                return number, board
            choice = listed
        else:
            ending = [c for c in legal if len(c) == 2 and c[0] == listed[0]
                      and ref.over({**board, (seat, c[0]): ref.target(board, seat, c[0])})] if len(listed) == 1 else []
            if not ending:
                return number, board
            choice = ending[0]
        board, extra, over = ref.play(board, seat, choice)
        if not extra and not over:
            seat = (seat + 1) % players
    return None, board


moves = st.lists(st.integers(1, 5), max_size=2)
rolls = st.sampled_from([1, 2, 3, 4, 5, "*"])


@settings(max_examples=150, deadline=None)
@given(seats=st.integers(2, 4), seed=st.integers(0, 10**6), where=st.floats(0, 1.05), roll=rolls, listed=moves,
       cut=st.booleans())
def test_mutated_scripts_agree_with_the_reference(seats: int, seed: int, where: float, roll: Any,
                                                  listed: list[int], cut: bool) -> None:
    data, _ = game_script(seats, seed)
    turns = list(data["turns"])
    index = min(int(where * len(turns)), len(turns))
    turns[index:index + 1] = [{"roll": roll, "moves": listed}]
    if cut:
        turns = turns[:index + 1]
    first = data["players"].index(data["first"])
    bad_turn, board = reference_replay(seats, first, turns)
    try:
        out = replay({**data, "turns": turns})
    except ScriptError as error:
        assert bad_turn is not None and str(error).startswith(f"turn {bad_turn}: "), (str(error), bad_turn)
        assert "\n" not in str(error)
        return
    assert bad_turn is None
    for s, name in enumerate(data["players"]):
        squares = out["squares"][name]
        assert {t: squares[str(t)] for t in range(1, 6)} == {t: board.get((s, t)) for t in range(1, 6)}
    assert list(out["scores"].values()) == ref.totals(board, seats)
