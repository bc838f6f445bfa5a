"""The Number's game service: one readable sequence per request.

load (cache or store) -> check who may act -> ask the engine -> commit to the store -> update the
cache -> return what happened, for the cog to tell people. One lock per game serialises requests;
the store's compare-and-set on the phase makes a turn resolve exactly once even across processes.
A game is loaded from the store once at a time (every caller waits on the same load), and the cache
never takes a table older than the one it holds.
"""

import asyncio
import gc
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.core.clock import Clock
from bot.core.errors import GameError, NotEnoughPlayers, NotHost, NotInGame, NotRunning, TurnRevealed
from bot.core.lobby import GameSpec, LobbyService, successor
from bot.games.thenumber import rules
from bot.games.thenumber.ai import LEVELS as AI_LEVELS
from bot.games.thenumber.engine import (
    GameState,
    PublicView,
    TurnOutcome,
    choose,
    new_game,
    play_turn,
    public_view,
    validate_choice,
)
from bot.games.thenumber.game import FIELD
from bot.games.thenumber.replay import script_json
from storage.base import GameRecord, GameStore, SeatRecord, pending_choices

SPEC = GameSpec(kind=rules.GAME_KEY, title="The Number", min_seats=rules.MIN_SEATS, max_seats=rules.MAX_SEATS)
AWAY_AFTER_MISSES = 2
ABANDONED = "abandoned: fewer than two players left"  # end_reason of such a game (it counts in no statistic)

# (public view, my seat key, level, seed) -> a number; the AI never sees pending numbers
AIChooser = Callable[[PublicView, str, str, int], str]


def seat_key(seat: SeatRecord | int) -> str:
    """The engine names players by seat number."""
    return str(seat if isinstance(seat, int) else seat.seat)


def phase_of(state: GameState) -> int:
    return (state.round - 1) * rules.TURNS_PER_ROUND + (state.turn - 1)


def rebuild(record: GameRecord) -> GameState:
    """Fold a game's stored actions through the engine: the state it had when last committed."""
    state = new_game([seat_key(s) for s in record.seats])
    for action in record.actions:
        if action.kind == "resolve":
            state, _ = play_turn(state, turn_numbers(action.payload))
    if record.status == "running":
        seated = {s.seat for s in record.seated}
        for seat, payload in pending_choices(record).items():
            if seat in seated:
                state = choose(state, seat_key(seat), payload["number"])
    return state


def turn_payload(numbers: Mapping[str, str], reason: str, timed_out: Iterable[int]) -> dict[str, Any]:
    """A revealed turn as every game stores a step: ``{"step": {"0": {"number": "513"}}, "reason", "timed_out"}``
    (seats in order; a missing seat is absent from the step)."""
    step = {k: {FIELD: numbers[k]} for k in sorted(numbers, key=int)}
    return {"step": step, "reason": reason, "timed_out": sorted(timed_out)}


def turn_numbers(payload: Mapping[str, Any]) -> dict[str, str]:
    """The numbers a stored turn revealed, by seat key (the inverse of :func:`turn_payload`)."""
    return {k: action[FIELD] for k, action in payload["step"].items()}


@dataclass(slots=True)
class Table:
    """A running game in memory: its stored record (seats, ids, phase) and the engine state."""

    record: GameRecord
    state: GameState

    @property
    def excluded(self) -> frozenset[str]:
        return frozenset(seat_key(s) for s in self.record.seats if s.state != "seated")

    def awaiting(self) -> tuple[SeatRecord, ...]:
        keys = set(self.state.awaiting(self.excluded))
        return tuple(s for s in self.record.seats if seat_key(s) in keys)

    def away(self) -> frozenset[int]:
        """Seats that missed the last two turns in a row (shown as away)."""
        recent = self.state.history[-AWAY_AFTER_MISSES:]
        if len(recent) < AWAY_AFTER_MISSES:
            return frozenset()
        return frozenset(s.seat for s in self.record.seated
                         if all(o.results[seat_key(s)].status == "missing" for o in recent))


@dataclass(frozen=True, slots=True)
class ChoiceAck:
    table: Table
    seat: SeatRecord
    number: str
    changed: bool  # replaced an earlier choice this turn
    complete: bool  # nobody else is awaited: the turn can be revealed
    round: int  # the turn the choice counts for
    turn: int


@dataclass(frozen=True, slots=True)
class TurnReport:
    """A turn that was just resolved and committed, to be announced."""

    table: Table
    phase: int
    outcome: TurnOutcome
    before: GameState
    reason: str  # "all-chosen", "deadline", "kick"

    @property
    def round_ended(self) -> bool:
        return self.outcome.turn == rules.TURNS_PER_ROUND

    @property
    def finished(self) -> bool:
        return self.table.state.finished


class TheNumberService(LobbyService):
    def __init__(self, store: GameStore, clock: Clock | None = None, *, default_turn_seconds: int = 120,
                 ai_chooser: AIChooser | None = None) -> None:
        super().__init__(store, SPEC, clock)
        self.default_turn_seconds = default_turn_seconds
        self.ai_chooser = ai_chooser
        self._tables: dict[int, Table] = {}
        self._loading: dict[int, asyncio.Future[Table]] = {}

    # Reading ------------------------------------------------------------------------------------
    async def table(self, game_id: int) -> Table:
        """The game's table: from the cache, else loaded from the store, one load per game at a time.

        Every caller (players, timers, the restart sweep) waits on the same load, and the cache never takes
        a table older than the one it holds, so a slow load can never bring back a turn that is over.
        """
        await self.locks.refresh(game_id)  # processes sharing the store: is the cache still the stored game?
        table = self._tables.get(game_id)
        if table is not None:
            return table
        loading = self._loading.get(game_id)
        if loading is None:
            loading = self._loading[game_id] = asyncio.ensure_future(self._load(game_id))
            loading.add_done_callback(_retrieve)  # a failed load nobody waits for any more is not an error
        return await asyncio.shield(loading)

    async def _load(self, game_id: int) -> Table:
        me = asyncio.current_task()
        try:
            table = _cached(await self.store.load_game(game_id))
        finally:
            current = self._loading.get(game_id)
            still_wanted = current is not None and current is me  # not dropped while loading
            if still_wanted:
                del self._loading[game_id]
        return self._keep(table) if still_wanted else table

    def _keep(self, table: Table) -> Table:
        """Put a table in the cache unless it holds one as new or newer (then that one is the truth)."""
        game_id = table.record.id
        held = self._tables.get(game_id)
        if held is not None and held.record.phase >= table.record.phase:
            return held
        if table.record.status == "running":
            self._tables[game_id] = table
        else:
            self._tables.pop(game_id, None)
        return table

    def _drop(self, game_id: int) -> None:
        """Forget a game's table (it ended, or another process moved it on); a load in flight is not kept."""
        self._tables.pop(game_id, None)
        self._loading.pop(game_id, None)

    def turn_seconds(self, record: GameRecord) -> int:
        return int(record.options.get("turn_seconds", self.default_turn_seconds))

    async def add_ai(self, game_id: int, by_user: int, level: str, name: str) -> GameRecord:
        check_ai_level(level)  # a forged level would only break the game at Start
        return await super().add_ai(game_id, by_user, level, name)

    # Start --------------------------------------------------------------------------------------
    async def start(self, game_id: int, by_user: int) -> Table:
        async with self.locks(game_id):
            record = await self.store.load_game(game_id)
            self._require_lobby(record)
            if by_user != record.host_id:
                raise NotHost("start")
            if len(record.seated) < self.spec.min_seats:
                raise NotEnoughPlayers(self.spec.min_seats)
            now = self.clock.now()
            record = await self.store.start_game(game_id, now + self.turn_seconds(record), now)
            self._drop(game_id)
            table = self._keep(_cached(record))
            await self._let_ai_choose(table)
            return table

    # Choose -------------------------------------------------------------------------------------
    async def choose(self, game_id: int, user_id: int, text: str, phase: int | None = None) -> ChoiceAck:
        """Validate and commit a secret number; raises a typed rule error and records nothing if bad.

        ``phase`` is the turn the choice was made for (a modal carries it): when that turn is over the
        choice is refused with :class:`TurnRevealed`, never moved to the next turn. None (a DM) means the
        current turn, checked under the same lock as the commit.
        """
        async with self.locks(game_id):
            table = await self._running(game_id)
            if phase is not None and table.record.phase != phase:
                raise TurnRevealed(table.state.round, table.state.turn)
            seat = table.record.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            key = seat_key(seat)
            number = validate_choice(table.state, key, text)
            changed = key in table.state.pending
            await self.store.record_choice(game_id, table.record.phase, seat.seat, {"number": number},
                                           self.clock.now())
            table.state = choose(table.state, key, number)
            return ChoiceAck(table, seat, number, changed, complete=not table.awaiting(),
                             round=table.state.round, turn=table.state.turn)

    def available_for(self, table: Table, user_id: int) -> frozenset[int] | None:
        seat = table.record.seat_of(user_id)
        return None if seat is None else table.state.available(seat_key(seat))

    # Resolve ------------------------------------------------------------------------------------
    async def resolve(self, game_id: int, phase: int, *, force: bool = False, reason: str = "all-chosen"
                      ) -> TurnReport | None:
        """Reveal ``phase`` if it is still current and complete (or ``force``, at the deadline).

        Returns None when there is nothing to do: already resolved (by a racing coroutine or another
        process), or still waiting for someone.
        """
        async with self.locks(game_id):
            table = await self.table(game_id)
            record = table.record
            if record.status != "running" or record.phase != phase:
                return None
            if table.awaiting() and not force:
                return None
            before = table.state
            numbers = {k: n for k, n in before.pending.items() if k not in table.excluded}
            after, outcome = play_turn(before, numbers)
            now = self.clock.now()
            deadline = None if after.finished else now + self.turn_seconds(record)
            timed_out = {s.seat for s in table.awaiting()}  # forced: whoever was awaited is missing
            done = await self.store.resolve_phase(game_id, phase, turn_payload(numbers, reason, timed_out),
                                                  deadline, after.finished, now)
            if not done:
                self._drop(game_id)  # another process moved on: trust the database
                return None
            status = "finished" if after.finished else "running"
            table.record = replace(record, phase=phase + 1, deadline=deadline, status=status, status_message_id=None)
            table.state = after
            report = TurnReport(table, phase, outcome, before, reason)
            if after.finished:
                self._drop(game_id)
                self.forget(game_id)
            else:
                await self._let_ai_choose(table)
            return report

    async def expire(self, game_id: int, phase: int) -> TurnReport | None:
        """The deadline of ``phase`` has passed: whoever has not chosen is missing."""
        return await self.resolve(game_id, phase, force=True, reason="deadline")

    # Removing players ---------------------------------------------------------------------------
    async def remove(self, game_id: int, by_user: int, target_user: int, *, kicked: bool) -> Table:
        """Take a player out of a running game (``/thenumber kick`` by the host, or leaving)."""
        async with self.locks(game_id):
            table = await self._running(game_id)
            if kicked and by_user != table.record.host_id:
                raise NotHost("kick")
            seat = table.record.seat_of(target_user)
            if seat is None:
                raise NotInGame()
            await self.store.unseat_player(game_id, seat.seat, "kicked" if kicked else "left", self.clock.now(),
                                           new_host_id=successor(table.record, target_user))
            table.record = replace(await self.store.load_game(game_id), actions=())
            seated = table.record.seated
            if len(seated) < self.spec.min_seats or not any(s.user_id is not None for s in seated):
                # Nobody to play against (or only AI players left): not a game anyone won.
                await self.store.end_game(game_id, "cancelled", ABANDONED, self.clock.now())
                table.record = replace(await self.store.load_game(game_id), actions=())
                self._drop(game_id)
                self.forget(game_id)
            return table

    async def cancel(self, game_id: int, by_user: int, can_manage: bool) -> GameRecord:
        record = await super().cancel(game_id, by_user, can_manage)
        self._drop(game_id)
        return record

    async def abandon(self, game_id: int, reason: str) -> bool:
        """Stop a game that cannot go on (its channel is gone); what was played stays stored.

        True if this call ended it (False: it had already ended)."""
        async with self.locks(game_id):
            ended = await self.store.end_game(game_id, "cancelled", reason, self.clock.now())
            self._drop(game_id)
            return ended

    # Restart ------------------------------------------------------------------------------------
    async def load_open_games(self, *, warm: bool = False) -> list[GameRecord]:
        """Every lobby and running game, as the games' own rows (no seats, no actions).

        A restart needs only these to arm every deadline; each game is rebuilt the first time someone acts
        in it (about a millisecond), so 10,000 games are ready in well under a second. ``warm`` rebuilds
        every running game into the cache now instead (used to measure memory per loaded game).
        """
        if not warm:
            return [await self._capped(r) for r in await self.store.open_games(self.spec.kind, details=False)]
        # Thousands of games allocate millions of small objects and no garbage cycles: the cyclic
        # collector would only walk the growing heap again and again. Reference counting still frees.
        collecting = gc.isenabled()
        gc.disable()
        try:
            records = await self.store.open_games(self.spec.kind)
            for record in records:
                if record.status == "running":
                    self._keep(_cached(record))
        finally:
            if collecting:
                gc.enable()
        return records

    async def _capped(self, record: GameRecord) -> GameRecord:
        """A stored deadline is a point in time, but never further ahead than a whole turn: one that is
        (the clock was set back while the bot was down) is brought back to now + the turn's length."""
        if record.status != "running" or record.deadline is None:
            return record
        latest = self.clock.now() + self.turn_seconds(record)
        if record.deadline <= latest:
            return record
        await self.store.set_deadline(record.id, record.phase, latest, self.clock.now())
        self._tables.pop(record.id, None)  # rebuilt from the store with the new deadline on first use
        return replace(record, deadline=latest)

    async def open_games_of_guild(self, guild_id: int) -> list[GameRecord]:
        """The lobbies and running games of one server, with their seats (to tell the players)."""
        heads = await self.store.open_games(self.spec.kind, details=False)
        return [await self.store.load_game(r.id) for r in heads if r.guild_id == guild_id]

    # Export -------------------------------------------------------------------------------------
    @staticmethod
    def replay_script(record: GameRecord) -> dict[str, Any]:
        """The game as a ``python -m bot replay`` script (players named by unique display names)."""
        names = unique_names(record.seats)
        turns: list[Mapping[str, str]] = [
            {names[int(k)]: n for k, n in turn_numbers(a.payload).items()}
            for a in record.actions if a.kind == "resolve"
        ]
        return script_json([names[s.seat] for s in record.seats], turns)

    # Internals ----------------------------------------------------------------------------------
    async def _running(self, game_id: int) -> Table:
        table = await self.table(game_id)
        if table.record.status != "running":
            raise NotRunning(table.record.status)
        return table

    async def _let_ai_choose(self, table: Table) -> None:
        """AI seats choose as soon as a turn opens, committed like anyone's choice."""
        if self.ai_chooser is None or table.state.finished:
            return
        view = public_view(table.state)
        waiting = {s.seat for s in table.awaiting()}
        for seat in table.record.seated:
            if seat.ai_level is None or seat.seat not in waiting:
                continue
            key = seat_key(seat)
            seed = table.record.id * 1000 + table.record.phase * 10 + seat.seat
            number = validate_choice(table.state, key, self.ai_chooser(view, key, seat.ai_level, seed))
            await self.store.record_choice(table.record.id, table.record.phase, seat.seat, {"number": number},
                                           self.clock.now())
            table.state = choose(table.state, key, number)


def _retrieve(future: "asyncio.Future[Any]") -> None:
    if not future.cancelled():
        future.exception()


def check_ai_level(level: str) -> None:
    if level not in AI_LEVELS:
        raise GameError("error.ai_level", levels=", ".join(AI_LEVELS))


def _cached(record: GameRecord) -> Table:
    """A table for the cache: the engine state holds the history, so the record drops its action log."""
    return Table(replace(record, actions=()), rebuild(record))


def unique_names(seats: tuple[SeatRecord, ...]) -> dict[int, str]:
    """Seat -> a name no other seat has (two "Alex" become "Alex" and "Alex (2)")."""
    used: set[str] = set()
    names: dict[int, str] = {}
    for seat in seats:
        name, n = seat.name, 1
        while name in used:
            n += 1
            name = f"{seat.name} ({n})"
        used.add(name)
        names[seat.seat] = name
    return names


def report_for(table: Table, phase: int, reason: str = "restart") -> TurnReport:
    """Rebuild the report of an already resolved ``phase`` (to announce it after a restart)."""
    state = new_game(table.state.players)
    for outcome in table.state.history[:phase]:
        numbers = {k: r.number for k, r in outcome.results.items() if r.number is not None}
        state, _ = play_turn(state, numbers)
    return TurnReport(table, phase, table.state.history[phase], state, reason)
