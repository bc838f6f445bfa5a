"""The opponent pool Numeri's hard level is measured against (bench only; never used by the product).

Each strategy is ``(view, seat, rng) -> choice``: it sees the public view only, like any seat, and draws
from its own ``rng``. They are written for the bench, not tuned against the hard level: simple habits
(lowest or highest token, the token furthest along or behind, immediate points, chains, blocking, ending
the game as soon as it can), chance, the product's own easy and normal levels, a Monte Carlo player
whose playouts differ from hard's (it maximises its mean score, not its chance to win), a strong simulation
player (every decision by many playouts, for the win) and a reader that predicts hard's next move by running
hard's own code with its own generator.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random

from bench.ai_pool_numeri_reader import choices_of, reader, win_share
from bot.games.numeri import ai, ai_rollout, engine
from bot.games.numeri.engine import Choice, State
from bot.games.numeri.rules import VALUE, barrier_for
from bot.games.numeri.view import NumeriView

Strategy = Callable[[NumeriView, int, Random], Choice]


def _start(state: State, choice: Choice) -> int:
    """Where the first token of ``choice`` stands now (0: off the board)."""
    return state.positions[state.current][choice[0] - 1] or 0


def lowest(view: NumeriView, seat: int, rng: Random) -> Choice:
    """Always the lowest-numbered token it may move (a split holding token 1 beats a single move)."""
    return min(choices_of(view.state()), key=lambda c: (min(c), -len(c)))


def highest(view: NumeriView, seat: int, rng: Random) -> Choice:
    """Always the highest-numbered token it may move, alone rather than split."""
    return max(choices_of(view.state()), key=lambda c: (max(c), -len(c)))


def front(view: NumeriView, seat: int, rng: Random) -> Choice:
    """Always the token furthest along (a single move before a split)."""
    state = view.state()
    return max(choices_of(state), key=lambda c: (_start(state, c), -len(c)))


def behind(view: NumeriView, seat: int, rng: Random) -> Choice:
    """New tokens onto the board first, else the token furthest behind."""
    state = view.state()
    return min(choices_of(state), key=lambda c: (_start(state, c), len(c)))


def greedy(view: NumeriView, seat: int, rng: Random) -> Choice:
    """The most points at once, nothing else (no thought for extra throws or the end)."""
    state = view.state()
    return max(choices_of(state), key=lambda c: engine.score(engine.move(state, c)[0].positions, seat))


def _spread(positions: engine.Positions, seat: int) -> int:
    squares = [q for q in positions[seat] if q is not None]
    return max(squares) - min(squares) if squares else 0


def chain_seeker(view: NumeriView, seat: int, rng: Random) -> Choice:
    """An extra throw whenever it can, else the move that keeps its tokens closest together."""
    state = view.state()

    def key(choice: Choice) -> tuple[bool, int]:
        after, moved = engine.move(state, choice)
        return moved.extra_turn, -_spread(after.positions, seat)

    return max(choices_of(state), key=key)


def blocker(view: NumeriView, seat: int, rng: Random) -> Choice:
    """Takes the best square an opponent's token would reach next; else the most points at once."""
    state = view.state()
    wanted: dict[int, int] = {}
    for other in range(state.seats):
        if other != seat:
            for token in range(1, 6):
                square = engine.destination(state.positions, other, token)
                if square is not None:
                    wanted[square] = max(wanted.get(square, 0), token * VALUE[square])

    def key(choice: Choice) -> tuple[int, int]:
        after, _ = engine.move(state, choice)
        mine = set(after.positions[seat]) - set(state.positions[seat])
        return max((wanted.get(q, 0) for q in mine if q is not None), default=0), engine.score(after.positions, seat)

    return max(choices_of(state), key=key)


def ender(view: NumeriView, seat: int, rng: Random) -> Choice:
    """Ends the game whenever it can, even when behind; else races the token furthest along."""
    state = view.state()
    return max(choices_of(state), key=lambda c: (engine.move(state, c)[1].ended, _start(state, c), -len(c)))


def random_choice(view: NumeriView, seat: int, rng: Random) -> Choice:
    return rng.choice(choices_of(view.state()))


def product_level(level: str) -> Strategy:
    def play(view: NumeriView, seat: int, rng: Random) -> Choice:
        return ai.choose(view, seat, level, rng)
    play.__doc__ = f"The product's {level} level."
    return play


MONTE_CARLO_PLAYOUTS = 6  # per choice, with the same dice for every choice


def monte_carlo(view: NumeriView, seat: int, rng: Random) -> Choice:
    """Plays each choice out to the end with every seat greedy and takes the best mean final score."""
    state = view.state()
    legal = choices_of(state)
    if len(legal) == 1:
        return legal[0]
    seeds = [rng.getrandbits(32) for _ in range(MONTE_CARLO_PLAYOUTS)]
    best, best_value = legal[0], float("-inf")
    for choice in legal:
        after, moved = engine.move(state, choice)
        if moved.ended:
            value = float(engine.score(after.positions, seat))
        else:
            value = 0.0
            for seed in seeds:
                board = ai_rollout.Board(after.positions, after.seats, barrier_for(after.seats))
                ai_rollout.play_out(board, after.current, Random(seed), ai.ROLLOUT_LIMIT)
                value += board.score(seat) / len(seeds)
        if value > best_value:
            best, best_value = choice, value
    return best


SIM_PLAYOUTS = 24  # per choice: the strong player's search (about 0.2 s a decision early in a game)


def _simulated(state: State, seat: int, choice: Choice, seeds: list[int]) -> float:
    """``choice``'s share of wins over playouts on the given dice (every seat greedy in them)."""
    after, moved = engine.move(state, choice)
    if moved.ended:
        totals = engine.scores(after.positions)
        return 1 / totals.count(max(totals)) if totals[seat] == max(totals) else 0.0
    value = 0.0
    for seed in seeds:
        board = ai_rollout.Board(after.positions, after.seats, barrier_for(after.seats))
        ai_rollout.play_out(board, after.current, Random(seed), ai.ROLLOUT_LIMIT)
        value += win_share(board, seat)
    return value / len(seeds)


def simulator(view: NumeriView, seat: int, rng: Random) -> Choice:
    """A strong simulation-based player: every decision, each choice played out to the end many times on
    the same dice, and the choice that wins most often (not the best mean score) is taken; the mean score
    only breaks ties."""
    state = view.state()
    legal = choices_of(state)
    if len(legal) == 1:
        return legal[0]
    seeds = [rng.getrandbits(32) for _ in range(SIM_PLAYOUTS)]
    return max(legal, key=lambda c: (_simulated(state, seat, c, seeds),
                                      engine.score(engine.move(state, c)[0].positions, seat)))


POOL: dict[str, Strategy] = {
    "lowest": lowest,
    "highest": highest,
    "front": front,
    "behind": behind,
    "greedy": greedy,
    "chain_seeker": chain_seeker,
    "blocker": blocker,
    "ender": ender,
    "random": random_choice,
    "easy": product_level("easy"),
    "normal": product_level("normal"),
    "monte_carlo": monte_carlo,
    "simulator": simulator,
    "reader": reader,
}
