"""Numeri's bench ``reader``: predicts the next seat's move by running hard's own code with its own generator.

Each of its choices is followed by the next seat's throw on every face, answered as hard would answer it, then
played out on the same dice; the choice that wins most often is taken. Asking hard costs far more than the
rest (near the end hard searches thousands of throws per answer), so the reader asks it only where the answer
can change its decision: where hard would search, every answer the next seat could give is played out first
(cheap), which bounds the face's worth; hard is asked only for the faces of the choices still in the running.
The decision is the one of the plain loop (ask hard on every face, every choice), which
``tests/test_numeri_ai_pool.py`` keeps as the reference: the same generator draws in the same order, the same
playouts, the same sums in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

from bot.games.numeri import ai, ai_rollout, engine
from bot.games.numeri.engine import Choice, Positions, State
from bot.games.numeri.rules import barrier_for
from bot.games.numeri.view import NumeriView

READER_FACES = (1, 2, 3, 4, 5, "*")
READER_PLAYOUTS = 8
_EPS = 1e-9  # far above the rounding of sums in another order, far below a playout's weight
Terms = tuple[float, ...]  # what a face adds to a choice's worth, term by term in the plain loop's order


def choices_of(state: State) -> list[Choice]:
    assert state.roll is not None
    return engine.legal_choices(state.positions, state.seats, state.current, state.roll)


def _final_share(positions: Positions, seat: int) -> float:
    totals = engine.scores(positions)
    return 1 / totals.count(max(totals)) if totals[seat] == max(totals) else 0.0


def win_share(board: ai_rollout.Board, seat: int) -> float:
    totals = board.points
    best = max(totals)
    return 1 / totals.count(best) if totals[seat] == best else 0.0


@dataclass
class _Playouts:
    """The reader's playouts in one decision (every seat greedy, the same dice for every position), each
    position played out once however many answers lead to it."""
    seat: int
    seeds: list[int]
    done: dict[tuple[Positions, int], Terms] = field(default_factory=dict)

    def simulated(self, state: State, choice: Choice) -> float:
        """``choice``'s share of wins over the playouts (the simulator's worth, for a choice hard cannot answer)."""
        after, moved = engine.move(state, choice)
        if moved.ended:
            return _final_share(after.positions, self.seat)
        value = 0.0
        for seed in self.seeds:
            board = ai_rollout.Board(after.positions, after.seats, barrier_for(after.seats))
            ai_rollout.play_out(board, after.current, Random(seed), ai.ROLLOUT_LIMIT)
            value += win_share(board, self.seat)
        return value / len(self.seeds)

    def played(self, state: State) -> Terms:
        key = (state.positions, state.current)
        if key not in self.done:
            terms = []
            for seed in self.seeds:
                board = ai_rollout.Board(state.positions, state.seats, barrier_for(state.seats))
                ai_rollout.play_out(board, state.current, Random(seed), ai.ROLLOUT_LIMIT)
                terms.append(win_share(board, self.seat) / len(self.seeds) / 6)
            self.done[key] = tuple(terms)
        return self.done[key]

    def answered(self, rolled: State, answer: Choice) -> Terms:
        nxt, done = engine.move(rolled, answer)
        if done.ended:
            return (_final_share(nxt.positions, self.seat) / 6,)
        return self.played(nxt)


@dataclass
class _Face:
    """One face of the next seat's throw: its worth once hard's answer is known, else every answer's worth."""
    options: list[Terms]
    rolled: State | None = None  # where hard is still to be asked
    seed: int = 0
    terms: Terms | None = None

    @property
    def low(self) -> float:
        return sum(self.terms) if self.terms is not None else min(sum(t) for t in self.options)

    @property
    def high(self) -> float:
        return sum(self.terms) if self.terms is not None else max(sum(t) for t in self.options)

    def resolve(self) -> None:
        assert self.rolled is not None
        answer = ai.hard(self.rolled, Random(self.seed))
        self.terms = self.options[choices_of(self.rolled).index(answer)]


def _face(rolled: State, seed: int, plays: _Playouts) -> _Face:
    answers = choices_of(rolled)
    if len(answers) == 1:
        return _Face([], terms=plays.answered(rolled, answers[0]))
    if not _searches(rolled, seed):  # hard judges at once: cheaper to ask it than to play every answer out
        return _Face([], terms=plays.answered(rolled, ai.hard(rolled, Random(seed))))
    options = [plays.answered(rolled, a) for a in answers]
    if len(set(options)) == 1:  # every answer is worth the same: hard's pick does not matter
        return _Face([], terms=options[0])
    return _Face(options, rolled, seed)


def _searches(rolled: State, seed: int) -> bool:
    """Whether hard will search here (its own probe on its own generator); only a guide to the cost."""
    return ai._remaining(rolled, Random(seed)) <= ai.HORIZON


@dataclass
class _Option:
    """One of the reader's choices: its worth, known or bounded by its faces."""
    faces: list[_Face]
    known: float | None = None  # a choice the next seat cannot answer (the game ends, the reader throws again)

    @property
    def low(self) -> float:
        return self.known if self.known is not None else sum(f.low for f in self.faces)

    @property
    def high(self) -> float:
        return self.known if self.known is not None else sum(f.high for f in self.faces)

    def open(self) -> list[_Face]:
        return [f for f in self.faces if f.terms is None]

    def value(self) -> float:
        """The worth as the plain loop sums it (same terms, same order, so the same float)."""
        if self.known is not None:
            return self.known
        value = 0.0
        for face in self.faces:
            assert face.terms is not None
            for term in face.terms:
                value += term
        return value


def _option(state: State, seat: int, choice: Choice, rng: Random, plays: _Playouts) -> _Option:
    after, moved = engine.move(state, choice)
    if moved.ended or moved.extra_turn or after.current == seat:
        return _Option([], plays.simulated(state, choice))
    faces = []
    for face in READER_FACES:
        rolled, event = engine.roll(after, face)
        if isinstance(event, engine.Passed):
            faces.append(_Face([], terms=plays.played(rolled)))
        else:
            faces.append(_face(rolled, rng.getrandbits(32), plays))  # hard's generator: drawn in the plain order
    return _Option(faces)


def _best(options: list[_Option]) -> int:
    """The index the plain loop takes (the first of the highest worths), asking hard only while a choice
    still in the running has a face it has not answered."""
    while True:
        floor = max(o.low for o in options) - _EPS
        running = [i for i, o in enumerate(options) if o.high >= floor]
        unsure = [i for i in running if options[i].open()]
        if len(running) == 1 or not unsure:
            break
        leader = options[max(unsure, key=lambda i: options[i].high)]
        max(leader.open(), key=lambda f: f.high - f.low).resolve()
    if len(running) == 1:
        return running[0]
    values = {i: options[i].value() for i in running}
    top = max(values.values())
    return min(i for i, v in values.items() if v == top)


def reader(view: NumeriView, seat: int, rng: Random) -> Choice:
    """Runs hard's own code with its own generator to predict every other seat's next move (it takes them
    all for hard): each of its choices is followed by the next seat's throw on every face, answered as hard
    would answer it, then played out; the choice that wins most often is taken. Where its choice earns an
    extra throw, or the game is long, it plays as the simulator does."""
    state = view.state()
    legal = choices_of(state)
    if len(legal) == 1:
        return legal[0]
    plays = _Playouts(seat, [rng.getrandbits(32) for _ in range(READER_PLAYOUTS)])
    options = [_option(state, seat, choice, rng, plays) for choice in legal]
    return legal[_best(options)]
