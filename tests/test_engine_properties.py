"""Property tests over random legal games, and a comparison with an independent scorer."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.thenumber.check import Status
from bot.games.thenumber.engine import GameState, new_game, play_turn
from bot.games.thenumber.numbers import digits_of
from bot.games.thenumber.replay import replay, result_json
from tests.reference_scorer import score_game

NAMES = ["ana", "ben", "cy", "dee", "eve"]
numbers = st.integers(0, 999).map(lambda n: f"{n:03d}")


@st.composite
def legal_games(draw: st.DrawFn) -> tuple[list[str], list[list[dict[str, str]]]]:
    """A game where every number uses only available digits (some players skip turns)."""
    players = NAMES[: draw(st.integers(2, 5))]
    state = new_game(players)
    rounds: list[list[dict[str, str]]] = [[], []]
    while not state.finished:
        turn: dict[str, str] = {}
        for p in players:
            free = sorted(state.available(p))
            if not free or draw(st.integers(0, 9)) == 0:
                continue  # missing (or exhausted)
            turn[p] = "".join(str(draw(st.sampled_from(free))) for _ in range(3))
        rounds[state.round - 1].append(turn)
        state, _ = play_turn(state, turn)
    return players, rounds


@st.composite
def any_games(draw: st.DrawFn) -> tuple[list[str], list[list[dict[str, str]]]]:
    """Scripts as written at a table: any numbers, including crossed-off digits."""
    players = NAMES[: draw(st.integers(2, 5))]
    turn = st.fixed_dictionaries({}, optional={p: numbers for p in players})
    rounds = [draw(st.lists(turn, min_size=5, max_size=5)) for _ in range(2)]
    return players, rounds


def states_of(players: list[str], rounds: list[list[dict[str, str]]]) -> list[tuple[GameState, GameState]]:
    state = new_game(players)
    pairs = []
    for turns in rounds:
        for turn in turns:
            after, _ = play_turn(state, turn)
            pairs.append((state, after))
            state = after
    return pairs


@settings(max_examples=300, deadline=None)
@given(legal_games())
def test_check_invariants(game: tuple[list[str], list[list[dict[str, str]]]]) -> None:
    for before, after in states_of(*game):
        outcome = after.history[-1]
        valid = {p: r.number for p, r in outcome.results.items()
                 if r.status in (Status.APPROVED, Status.ELIMINATED)}
        if valid:
            smallest = min(int(n or 0) for n in valid.values())
            for p, n in valid.items():
                if int(n or 0) == smallest:
                    assert outcome.results[p].status is Status.APPROVED
        for p, r in outcome.results.items():
            assert r.points >= 0
            if r.status is Status.APPROVED:
                for q, m in valid.items():
                    if int(m or 0) < int(r.number or 0):
                        assert not digits_of(m or "") & digits_of(r.number or ""), (p, q)
            else:
                assert r.points == 0 and not r.crossed
        # boards only lose digits within a round, and are full again when a round starts
        for p in before.players:
            if after.round == before.round:
                assert before.crossed[p] <= after.crossed[p]
            else:
                assert after.crossed[p] == frozenset()


@settings(max_examples=300, deadline=None)
@given(legal_games())
def test_final_score_is_the_sum_of_its_parts(game: tuple[list[str], list[list[dict[str, str]]]]) -> None:
    state = replay(*game)
    assert state.finished
    for p in state.players:
        turn_points = sum(o.results[p].points for o in state.history)
        totals = state.round_totals(p)
        assert len(totals) == 2
        assert sum(totals) == state.final_scores()[p]
        assert state.final_scores()[p] == turn_points + sum(state.round_bonus[p])
        assert all(0 <= b <= 10 for b in state.round_bonus[p])


@settings(max_examples=400, deadline=None)
@given(st.one_of(legal_games(), any_games()))
def test_engine_agrees_with_an_independent_scorer(game: tuple[list[str], list[list[dict[str, str]]]]) -> None:
    assert result_json(replay(*game)) == score_game(*game)
