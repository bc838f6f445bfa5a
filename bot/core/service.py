"""The one game service: every game in the tuple runs through the same update sequence.

load (cache, else one load per game at a time) -> who may act -> the game parses or checks -> a sealed
step stores the draft, an open step commits -> chance and AI seats act at once -> each step is committed
to the store before the cache moves and before anything is reported. One lock per game serialises the
requests of this process; the store's compare-and-set on the phase (and on the count of drafts of a
sealed step) makes each step resolve exactly once, with every acknowledged draft in it, across processes.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from random import Random
from typing import Any, cast

from storage.base import GameRecord, GameStore, StalePhase, WrongStatus
from storage.ratings import RatingJob

from .clock import Clock
from .deadlines import AWAY_STEP, TABLE_OPTION_NAMES, TABLE_OPTIONS, is_daily, step_seconds
from .errors import NotEnoughPlayers, NotFinished, NotHost, NotInGame, NotRunning, NotYourTurn, SentBefore, TurnOver
from .fold import envelope, step_from_json, step_rng, step_to_json
from .game import AUTO_PLAY, Action, Game, LearningGame, PastGame, Prompt, RuleError, Seat, Step
from .lobby import GameSpec, LobbyService, successor
from .options import check_seats, checked_options
from .rating import SEASON_META, rating_job, season_length, season_of
from .table import AWAY_AFTER_MISSES, PRIORS_KEY, Table, by_position, fold, misses_in_a_row, seed_of, stored_steps

log = logging.getLogger(__name__)

MIN_SEATS_TO_GO_ON = 2
OPEN_GAMES_PAGE = 500  # open games read per query at a restart (see load_open_games)
# The end_reason of a game stopped because fewer than two players (or only AI players) are left: it counts in
# no statistic, and the front end says so.
ABANDONED = "abandoned: fewer than two players left"
# How many of each player's finished games against this bot a learning AI starts from (the newest): enough to
# see a habit, few enough that one read at the start stays small, and people change how they play.
PAST_GAMES_PER_PLAYER = 20


def forfeit(game: Game[Any, Any, Any], state: Any, seats: frozenset[Seat]) -> Step:
    """The actions of ``seats``, who left or were kicked, in a step that asks them: the game's ``forfeit``
    (they take no part: Numeri's tokens stay where they are) when it has one, else its deadline default."""
    if not seats:
        return {}
    hook = getattr(game, "forfeit", None)
    return dict(hook(state, seats)) if hook is not None else dict(game.timeout(state, seats))


def typed(text: str) -> str:
    """What a player typed, read the same way for every game: Unicode NFKC (full-width "３ｂ" is "3b", as
    Japanese keyboards type it), then trimmed. Games parse only this form."""
    return unicodedata.normalize("NFKC", text).strip()


@dataclass(frozen=True, slots=True)
class Ack:
    """What a player's request was taken as: ``action`` (canonical) counts for step ``step``."""

    seat: Seat
    action: Action = field(repr=False)  # a sealed draft is secret
    changed: bool  # replaced this seat's earlier draft of the same step
    step: int


@dataclass(frozen=True, slots=True)
class StepReport:
    """A step that was just applied and committed, for the front end to announce (from views and the event)."""

    game_id: int
    kind: str
    step: int
    reason: str  # "moved", "all-chosen", "chance", "ai", "deadline", "absent", "only" (one legal move), "away"
    timed_out: frozenset[Seat]
    event: Any
    before: Any = field(repr=False)
    after: Any = field(repr=False)
    finished: bool = False
    # The turn message stored for this step when it ended (None: not known here). Another process may have
    # posted it (the game's own shard, when this one took the DM that ended the step): it is closed all the same.
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    table: Table
    ack: Ack | None
    reports: list[StepReport]


class GameService(LobbyService):
    def __init__(self, store: GameStore, games: Sequence[Game[Any, Any, Any]], clock: Clock | None = None, *,
                 default_turn_seconds: int = 120, max_retries: int = 5) -> None:
        if not games:
            raise ValueError("a game service needs at least one game")
        super().__init__(store, GameSpec.of(games[0]), clock)
        self.by_key: dict[str, Game[Any, Any, Any]] = {game.key: game for game in games}  # the games it runs
        self.default_turn_seconds = default_turn_seconds
        self.max_retries = max_retries
        self._tables: dict[int, Table] = {}
        self._loading: dict[int, asyncio.Task[Table]] = {}
        # The newest step committed or loaded per game, ended games included: a late load is never taken.
        self._floor: dict[int, int] = {}

    def game_of(self, kind: str) -> Game[Any, Any, Any]:
        try:
            return self.by_key[kind]
        except KeyError:
            raise ValueError(f"this service does not run {kind!r} games") from None

    def spec_for(self, record: GameRecord) -> GameSpec:
        return GameSpec.of(self.game_of(record.kind))

    def turn_seconds(self, record: GameRecord) -> int:
        """A step's length: the table's ``turn_seconds`` when live, its ``step_hours`` when daily."""
        return step_seconds(record.options, int(record.options.get("turn_seconds", self.default_turn_seconds)))

    # Reading ------------------------------------------------------------------------------------
    async def table(self, game_id: int) -> Table:
        """The game as committed: from the cache, else from one load that every concurrent caller shares."""
        await self.locks.refresh(game_id)  # processes sharing the store: is the cache still the stored game?
        cached = self._tables.get(game_id)
        if cached is not None:
            return cached
        task = self._loading.get(game_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._load(game_id))
            self._loading[game_id] = task
            task.add_done_callback(partial(self._loaded, game_id))
        # shielded: a caller that is cancelled does not cancel the load the others wait for
        return await asyncio.shield(task)

    def _loaded(self, game_id: int, task: asyncio.Task[Table]) -> None:
        if self._loading.get(game_id) is task:
            del self._loading[game_id]

    async def _load(self, game_id: int) -> Table:
        for _ in range(self.max_retries):
            record = await self.store.load_game(game_id)
            table = self._accept(Table.load(self.game_of(record.kind), record))
            if table is not None:
                return table
        raise RuntimeError(f"game {game_id}: the store keeps returning a step older than one already seen")

    def _accept(self, loaded: Table) -> Table | None:
        """The table to use after a load: a load never takes the cache back to an older step."""
        cached = self._tables.get(loaded.id)
        if cached is not None:
            if loaded.step < cached.step:
                return cached
            if loaded.step == cached.step and loaded.running and loaded.choices <= cached.choices:
                return cached  # same step and no draft the cache lacks: keep the cached drafts
        elif loaded.step < self._floor.get(loaded.id, -1):
            return None  # older than a step already committed: load again
        self._install(loaded)
        return loaded

    def _install(self, table: Table) -> None:
        self._floor[table.id] = max(self._floor.get(table.id, -1), table.step)
        if table.running:
            self._tables[table.id] = table
        else:
            self._tables.pop(table.id, None)

    def held(self) -> list[Table]:
        """The running tables this process has in memory (its own games, not every game of the store)."""
        return list(self._tables.values())

    def _drop(self, game_id: int) -> None:
        """Forget the cached table (the store moved on without us): the next read loads afresh."""
        self._tables.pop(game_id, None)
        self._loading.pop(game_id, None)

    def forget(self, game_id: int) -> None:
        self._drop(game_id)
        super().forget(game_id)

    async def stored_games(self, game_ids: Sequence[int]) -> list[GameRecord]:
        """The stored games of ``game_ids`` that the cache lacks, in one read (a batch of the restart sweep,
        each then folded by :meth:`peek`, one at a time between other work)."""
        wanted = [i for i in game_ids if i not in self._tables and i not in self._loading]
        return await self.store.load_games(wanted) if wanted else []

    def peek(self, record: GameRecord) -> Table:
        """The table of a game read by :meth:`stored_games` (or the cached one): folded but not cached, so a
        sweep over thousands of games leaves neither their tables on the heap nor long-lived garbage for the
        cyclic collector to walk; :meth:`table` caches a game when it is used. Read outside the game's lock:
        to decide whether to act on it, never to act on."""
        cached = self._tables.get(record.id)
        return cached if cached is not None else Table.load(self.game_of(record.kind), record)

    async def load_open_games(self, *, warm: bool = False) -> list[GameRecord]:
        """Every lobby and running game of this service's games, as their own rows (for timers at a restart).

        A deadline further ahead than a whole step (the clock was set back while the bot was down) is brought
        back to now + the step's length. ``warm`` folds every running game into the cache now instead (to
        measure memory per loaded game); otherwise each is folded the first time someone acts in it.
        """
        if warm:
            return await self._warm()
        records: list[GameRecord] = []
        after = 0
        # In pages: one read of 10,000 games would hold the store's connection (and the players' queries
        # queued behind it) for a long while. One pass for every kind (a pass per kind walks the open games'
        # index once per kind); a kind another service runs is left to it.
        while page := await self.store.open_games(None, details=False, after=after, limit=OPEN_GAMES_PAGE):
            records += [await self._capped(record) for record in page if record.kind in self.by_key]
            after = page[-1].id
        return records

    async def _warm(self) -> list[GameRecord]:
        # Thousands of games allocate millions of small objects and no garbage cycles: the cyclic collector
        # would only walk the growing heap again and again. Reference counting still frees.
        collecting = gc.isenabled()
        gc.disable()
        try:
            records = [r for r in await self.store.open_games() if r.kind in self.by_key]
            for record in records:
                if record.status == "running":
                    self._accept(Table.load(self.game_of(record.kind), record))
        finally:
            if collecting:
                gc.enable()
        return records

    async def _capped(self, record: GameRecord) -> GameRecord:
        if record.status != "running" or record.deadline is None:
            return record
        latest = self.clock.now() + self.turn_seconds(record)
        if record.deadline <= latest:
            return record
        await self.store.set_deadline(record.id, record.phase, latest, self.clock.now())
        self._tables.pop(record.id, None)  # folded again from the store, with the new deadline, on first use
        return replace(record, deadline=latest)

    async def open_games_of_guild(self, guild_id: int) -> list[GameRecord]:
        """The lobbies and running games of one server, with their seats (to tell the players)."""
        heads = [r for r in await self.store.open_games(details=False) if r.kind in self.by_key]
        return [await self.store.load_game(r.id) for r in heads if r.guild_id == guild_id]

    async def unannounced_finished_games(self) -> list[GameRecord]:
        """Finished games of this service's kinds whose end the channel was never told (a crash in between).
        One query for every kind: each is a pass over the finished games' index, at every start."""
        return [r for r in await self.store.unannounced_finished_games() if r.kind in self.by_key]

    # Lobby and start ----------------------------------------------------------------------------
    async def open_lobby(self, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                         options: Mapping[str, Any], *, kind: str | None = None) -> GameRecord:
        """A new table of ``kind`` (the first game by default), its options checked against the game's."""
        game = self.game_of(kind or self.spec.kind)
        checked = checked_options(game.options, options)
        # the table's own options (pace), every game's: checked, and stored only when given (a live table's
        # options stay as they were before daily tables)
        table = checked_options(TABLE_OPTIONS, {k: v for k, v in options.items() if k in TABLE_OPTION_NAMES})
        checked.update({k: table[k] for k in options if k in TABLE_OPTION_NAMES})
        return await super().open_lobby(guild_id, channel_id, host_id, host_name, checked, kind=game.key)

    async def start(self, game_id: int, by_user: int) -> Outcome:
        """Seat order is final; the seed is drawn once and stored; chance and AI seats act at once."""
        async with self.locks(game_id):
            record = await self.store.load_game(game_id)
            self._require_lobby(record)
            if by_user != record.host_id:
                raise NotHost("start")
            game = self.game_of(record.kind)
            if len(record.seated) < game.seats.start:
                raise NotEnoughPlayers(game.seats.start)
            check_seats(game.options, record.options, len(record.seated))
            start: dict[str, Any] = {"seed": secrets.randbits(63)}
            priors = await self._ai_priors(game, record)
            if priors is not None:  # stored with the seed: what fixes the AI's moves is kept together
                start[PRIORS_KEY] = dict(priors)
            now = self.clock.now()
            record = await self.store.start_game(game_id, now + self.turn_seconds(record), now, start)
            self._install(Table.load(game, record))
            table, reports = await self._settle(game_id)
            return Outcome(table, None, reports)

    async def _ai_priors(self, game: Game[Any, Any, Any], record: GameRecord) -> Mapping[str, Any] | None:
        """What a learning game's AI starts from: its ``ai_priors`` of each human's past games (one read)."""
        if not isinstance(game, LearningGame):
            return None
        seated = [s for s in by_position(record).seats if s.state == "seated"]
        if not any(s.ai_level in game.ai_learning_levels for s in seated):
            return None  # no seat would use it: spare the read
        humans = {s.seat: s.user_id for s in seated if s.user_id is not None and not s.is_ai}
        if not humans:
            return None
        pasts = await self.store.past_games(record.kind, sorted(set(humans.values())), PAST_GAMES_PER_PLAYER)
        if not pasts:
            return None
        try:
            # Folding up to 20 games per player and weighing them is CPU work: off the event loop, as AI moves are.
            return await asyncio.to_thread(_priors_from, game, humans, pasts)
        except Exception:  # a fault in weighing the past must not keep the game from starting: no priors then
            log.warning("game %s: the AI priors could not be computed; its AI starts without them", record.id,
                        exc_info=True)
            return None

    # Acting -------------------------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, *, text: str | None = None, action: Action | None = None,
                  phase: int | None = None, sent_at: float | None = None) -> Outcome:
        """A player's move (open step) or sealed draft; ``phase``: the step the player saw, refused if over;
        ``sent_at``: when the player sent it (a DM's time), refused (SentBefore) if a later step is open now: a
        DM delivered after its step ended was meant for that step, never for the next one.

        Raises a typed error (or the game's RuleError) and stores nothing when the request is refused.
        """
        if (text is None) == (action is None):
            raise ValueError("act takes text or an action")
        async with self.locks(game_id):
            table = await self.table(game_id)
            if phase is not None and phase > table.step:  # the player saw a newer step: this cache is behind
                self._drop(game_id)
                table = await self.table(game_id)
            if not table.running:
                raise NotRunning(table.record.status)
            seated = table.record.seat_of(user_id)
            if seated is None:
                raise NotInGame()
            seat, n, game = seated.seat, table.step, table.game
            if phase is not None and phase != n:
                raise TurnOver(n, table)
            prompt = table.prompt
            if prompt is None or seat not in prompt.seats:
                raise NotYourTurn()
            if sent_at is not None and (meant := table.step_at(sent_at)) < n:
                raise SentBefore(n, table, meant)
            move = dict(game.parse(table.state, seat, typed(text)) if text is not None
                        else game.check(table.state, seat, action or {}))
            if not prompt.sealed:
                report = await self._commit(table, {seat: move}, "moved")
                if report is None:
                    raise await self._turn_over(game_id)
                table, reports = await self._settle(game_id, table)
                return Outcome(table, Ack(seat, move, False, n), [report, *reports])
            try:
                await self.store.record_choice(game_id, n, table.stored(seat), move, self.clock.now())
            except (StalePhase, WrongStatus):
                self._drop(game_id)
                raise await self._turn_over(game_id) from None
            changed = seat in table.drafts
            table.drafts[seat] = move
            table.choices += 1
            table, reports = await self._settle(game_id, table)
            return Outcome(table, Ack(seat, move, changed, n), reports)

    async def _turn_over(self, game_id: int) -> Exception:
        fresh = await self.table(game_id)
        return TurnOver(fresh.step, fresh) if fresh.running else NotRunning(fresh.record.status)

    async def expire(self, game_id: int, step: int) -> list[StepReport]:
        """The deadline of ``step``: the drafts in, and the rules' default for every seat still awaited."""
        async with self.locks(game_id):
            table, reports = await self._settle(game_id)  # an AI or chance step a crash left undone
            for _ in range(self.max_retries):
                prompt = table.prompt
                if prompt is None or table.step != step:
                    return reports
                full = table.game.prompt(table.state)
                absent = (full.seats if full else frozenset()) - prompt.seats
                missing = table.awaited()
                drafts = {s: table.drafts[s] for s in prompt.seats if s in table.drafts} if prompt.sealed else {}
                played = await self._played_for(table, missing)
                defaults = table.game.timeout(table.state, missing - played.keys()) if missing - played.keys() else {}
                applied = {**defaults, **played, **forfeit(table.game, table.state, absent), **drafts}
                report = await self._commit(table, applied, "deadline", missing)
                if report is not None:
                    table, more = await self._settle(game_id, table)
                    return [*reports, report, *more]
                table = await self.table(game_id)  # a draft came in elsewhere, or the step is over
            log.warning("game %s: gave up expiring step %s after %s attempts", game_id, step, self.max_retries)
            return reports

    async def _played_for(self, table: Table, missing: frozenset[Seat]) -> dict[Seat, Any]:
        """On a daily table, the AI's move for each missing human who also missed the deadline before (the
        second in a row: away): the table goes on with a considered move, not the rules' default. They still
        count as timed out, so they stay away until they act again."""
        if not is_daily(table.record.options):
            return {}
        levels = tuple(getattr(table.game, "ai_levels", ()) or ("",))
        played: dict[Seat, Any] = {}
        for seat in sorted(missing):
            if table.seat(seat).is_ai or table.misses_in_a_row(seat) < AWAY_AFTER_MISSES - 1:
                continue
            move = await self._ai_move(table, seat, levels[len(levels) // 2])
            if move is not None:
                played[seat] = move
        return played

    def _step_seconds(self, table: Table, after: Any, payload: Mapping[str, Any]) -> int:
        """The next step's length: a daily step that awaits only players away (two deadlines missed in a row)
        lasts :data:`AWAY_STEP` at most, then the AI plays for them: the others do not wait days for them."""
        seconds = self.turn_seconds(table.record)
        if not is_daily(table.record.options):
            return seconds
        prompt = table.game.prompt(after)
        seated = {s.seat for s in table.record.seated if not s.is_ai}
        humans = (prompt.seats & seated) if prompt is not None and not prompt.chance else set()
        steps = [*table.steps, payload]
        if humans and all(misses_in_a_row(steps, s) >= AWAY_AFTER_MISSES for s in humans):
            return int(min(seconds, AWAY_STEP))
        return seconds

    async def catch_up(self, game_id: int) -> list[StepReport]:
        """Take the chance and AI steps a crash left undone (restore after a restart)."""
        async with self.locks(game_id):
            _, reports = await self._settle(game_id)
            return reports

    # Removing players ---------------------------------------------------------------------------
    async def remove(self, game_id: int, by_user: int, target_user: int, *, kicked: bool) -> Outcome:
        """A player leaves a running game (or the host kicks them): no step waits for them any more."""
        async with self.locks(game_id):
            table = await self.table(game_id)
            if not table.running:
                raise NotRunning(table.record.status)
            if kicked and by_user != table.record.host_id:
                raise NotHost("kick")
            seated = table.record.seat_of(target_user)
            if seated is None:
                raise NotInGame()
            now = self.clock.now()
            # the host's role passes to the next person seated after them (AI players never host)
            await self.store.unseat_player(game_id, table.stored(seated.seat), "kicked" if kicked else "left", now,
                                           new_host_id=successor(table.record, target_user))
            self._drop(game_id)
            table = await self.table(game_id)
            left = table.record.seated
            if len(left) < MIN_SEATS_TO_GO_ON or all(s.is_ai for s in left):
                await self.store.end_game(game_id, "cancelled", ABANDONED, now)
                self._drop(game_id)
                return Outcome(await self.table(game_id), None, [])
            table, reports = await self._settle(game_id, table)
            return Outcome(table, None, reports)

    async def abandon(self, game_id: int, reason: str) -> bool:
        """Stop a game that cannot go on (its channel is gone). True if this call ended it."""
        async with self.locks(game_id):
            ended = await self.store.end_game(game_id, "cancelled", reason, self.clock.now())
            self._drop(game_id)
            return ended

    # Announcing and export ----------------------------------------------------------------------
    async def announced(self, game_id: int, step: int) -> bool:
        """Record that ``step`` was posted (True the first time), so a restart posts it once."""
        return await self.store.mark_announced(game_id, step)

    def report_for(self, record: GameRecord, step: int) -> StepReport:
        """The report of a step already committed (to announce it after a restart), from the one fold."""
        game = self.game_of(record.kind)
        payload = stored_steps(by_position(record))[step]
        before, _ = fold(game, record, upto=step)
        after, event = game.apply(before, step_from_json(payload["step"]))
        return StepReport(record.id, record.kind, step, payload["reason"], frozenset(payload.get("timed_out", ())),
                          event, before, after, game.prompt(after) is None)

    def export(self, record: GameRecord) -> dict[str, Any]:
        """A finished game as the replay envelope every game shares (the seed may be shown once it is over)."""
        if record.status != "finished":
            raise NotFinished()
        self.game_of(record.kind)  # refuse a kind this service does not run
        return envelope(record.kind, [s.name for s in record.seats], record.options, seed_of(record),
                        [p["step"] for p in stored_steps(by_position(record))])

    # The update sequence ------------------------------------------------------------------------
    async def _commit(self, table: Table, step: Step, reason: str,
                      timed_out: frozenset[Seat] = frozenset()) -> StepReport | None:
        """Apply ``step``, commit it (compare-and-set), then move the cache. None: the store refused it."""
        n, before, message_id = table.step, table.state, table.record.status_message_id
        after, event = table.game.apply(before, step)
        finished = table.game.prompt(after) is None
        now = self.clock.now()
        payload = {"step": step_to_json(step), "reason": reason, "timed_out": sorted(timed_out)}
        deadline = None if finished else now + self._step_seconds(table, after, payload)
        rating = await self._rating(table, after, now) if finished else None
        if not await self.store.resolve_phase(table.id, n, table.stored_payload(payload), deadline, finished, now,
                                              choices=table.choices, rating=rating):
            log.info("game %s: step %s was resolved elsewhere or has drafts not seen here; reloading", table.id, n)
            self._drop(table.id)
            return None
        table.advance(after, payload, deadline, finished, now)
        self._install(table)
        return StepReport(table.id, table.record.kind, n, reason, frozenset(timed_out), event, before, after, finished,
                          message_id)

    async def _rating(self, table: Table, after: Any, now: float) -> RatingJob | None:
        """The rating the game's last step writes with it (same transaction): None when fewer than two humans
        are rated. A fault here must not keep the game from ending: it ends unrated, and says so."""
        try:
            result = table.game.result(after)
            if result is None:
                return None
            record = table.record
            if any(s.state == "left" for s in record.seats):  # the order they left in is in the actions
                record = by_position(await self.store.load_game(table.id))
            length = season_length(await self.store.get_meta(SEASON_META.format(guild=record.guild_id)))
            return rating_job(record, result.scores, season_of(now, length))
        except Exception:
            log.exception("game %s: its rating could not be prepared; the game ends unrated", table.id)
            return None

    async def _settle(self, game_id: int, table: Table | None = None) -> tuple[Table, list[StepReport]]:
        """Commit every step nobody human has to take: chance draws, AI moves, sealed steps all in."""
        if table is None:
            table = await self.table(game_id)
        reports: list[StepReport] = []
        failures = 0
        while failures <= self.max_retries:
            prompt = table.prompt
            if prompt is None:
                break
            try:
                planned = await self._automatic(table, prompt)
            except (StalePhase, WrongStatus):
                planned = None
                self._drop(game_id)
            else:
                if planned is None:
                    break
                report = await self._commit(table, *planned)
                if report is not None:
                    reports.append(report)
                    continue
            failures += 1
            table = await self.table(game_id)
        return table, reports

    @staticmethod
    def _only_move(table: Table, humans: frozenset[Seat]) -> Action | None:
        """The move of the one human an open step awaits when it is their only legal one and the table plays
        such moves at once (``auto_play``, declared by the game and on unless the host turned it off)."""
        if len(humans) != 1 or AUTO_PLAY not in table.game.options:
            return None  # a game that does not declare it may have forced moves the table must not learn of
        if not table.record.options.get(AUTO_PLAY.name, AUTO_PLAY.default):
            return None
        legal = table.game.legal(table.state, min(humans))
        return legal[0] if legal is not None and len(legal) == 1 else None

    async def _automatic(self, table: Table, prompt: Prompt
                         ) -> tuple[Step, str] | tuple[Step, str, frozenset[Seat]] | None:
        """The step to commit now without a human, or None while a human is awaited."""
        game, state, n = table.game, table.state, table.step
        if prompt.chance:
            return {None: dict(game.chance(state, self._rng(table, n)))}, "chance"
        full = game.prompt(state)
        absent = (full.seats if full else frozenset()) - prompt.seats
        if not prompt.seats:  # everyone this step asks has left
            return dict(forfeit(game, state, absent)), "absent"
        robots = {s for s in prompt.seats if table.seat(s).is_ai}
        if not prompt.sealed:
            humans = prompt.seats - robots
            if humans:
                only = self._only_move(table, humans)
                return ({min(humans): only}, "only") if only is not None else None
            seat = min(prompt.seats)
            move = await self._ai_move(table, seat)
            return ({seat: move} if move is not None else dict(game.timeout(state, frozenset({seat})))), "ai"
        for seat in sorted(robots - table.drafts.keys()):
            move = await self._ai_move(table, seat)
            if move is None:
                continue  # left to the deadline's default
            await self.store.record_choice(table.id, n, table.stored(seat), move, self.clock.now())
            table.drafts[seat] = move
            table.choices += 1
        if prompt.seats - table.drafts.keys():
            return await self._for_the_away(table, prompt, absent)
        drafts = {seat: table.drafts[seat] for seat in sorted(prompt.seats)}
        return {**forfeit(game, state, absent), **drafts}, "all-chosen"

    async def _for_the_away(self, table: Table, prompt: Prompt, absent: frozenset[Seat]
                            ) -> tuple[Step, str, frozenset[Seat]] | None:
        """A daily sealed step whose players still awaited are all away, once every other human has chosen: the
        AI plays for them now (the table goes on), and they count as timed out (still away). None otherwise: a
        step awaiting only away players waits for its short deadline (:meth:`_step_seconds`), so they can come
        back by acting."""
        if not is_daily(table.record.options):
            return None
        humans = {s for s in prompt.seats if not table.seat(s).is_ai}
        waiting = frozenset(humans - table.drafts.keys())
        if (not waiting or waiting == humans or any(not table.away(s) for s in waiting)
                or prompt.seats - table.drafts.keys() - waiting):
            return None
        played = await self._played_for(table, waiting)
        if played.keys() != waiting:
            return None  # an AI that cannot move: the deadline's default will
        drafts = {seat: table.drafts[seat] for seat in sorted(prompt.seats) if seat in table.drafts}
        return {**forfeit(table.game, table.state, absent), **drafts, **played}, "away", waiting

    async def _ai_move(self, table: Table, seat: Seat, level: str | None = None) -> dict[str, Any] | None:
        """The AI's move for ``seat``: at its own level, or ``level`` for a human it plays for (daily tables)."""
        game, state = table.game, table.state
        level = level or table.seat(seat).ai_level or ""
        view, rng = game.view(state, seat), self._rng(table, table.step, seat)
        think = (partial(game.ai, view, seat, level, rng, priors=table.ai_priors)
                 if table.ai_priors is not None and isinstance(game, LearningGame)
                 else partial(game.ai, view, seat, level, rng))
        try:
            # In a worker thread: a strong AI thinks for a while, and the event loop (every other table, every
            # interaction's 3 s) must not wait for it. The view and the generator are this call's own.
            proposed = await asyncio.to_thread(think)
            return dict(game.check(state, seat, proposed))
        except RuleError as error:  # the key only: the refused value may be the seat's secret
            log.warning("game %s: AI seat %s proposed an action the rules refuse (%s)", table.id, seat, error.key)
            return None

    @staticmethod
    def _rng(table: Table, step: int, seat: Seat | None = None) -> Random:
        """Draws fixed by (game seed, step, seat): a replay, or a retry after a crash, draws the same."""
        return step_rng(table.seed, step, seat)



def _priors_from(game: Game[Any, Any, Any], humans: Mapping[Seat, int], pasts: Sequence[GameRecord]
                 ) -> Mapping[str, Any] | None:
    """``game.ai_priors`` of what the table saw at the end of each past game, by the seat each human takes now.

    Only the table's view of a finished game is handed on: what everyone at that table saw, never a draft.
    """
    history: dict[Seat, list[PastGame]] = {seat: [] for seat in humans}
    for past in pasts:  # newest first, as the store returns them
        try:
            state, _ = fold(game, past)
        except Exception:  # a game today's rules cannot fold again must not keep a new game from starting
            log.warning("game %s cannot be folded again; its players' history leaves it out", past.id)
            continue
        view = game.view(state, None)
        for s in by_position(past).seats:
            for seat, user in humans.items():
                if s.user_id == user:
                    history[seat].append(PastGame(view, s.seat))
    known = {seat: games for seat, games in history.items() if games}
    return cast(LearningGame, game).ai_priors(known) if known else None
