"""Recompute every rating from the stored games and compare with the stored ratings
(``python -m bot ratings --recompute``).

The ledger (``rated_games``) says which games were rated and in what order; everything else is recomputed:
each game's log is folded through its game for the final scores, the players are placed (who left, in which
order, from the log too), and the ratings are replayed from nothing in the ledger's order. Equality is exact:
the same floats, in every scope, for every change and every current rating.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from storage.base import GameRecord
from storage.ratings import LedgerEntry, RatedPlayer, RatingChange

from .game import Game
from .rating import leave_order, places, recompute
from .table import by_position, fold

BATCH = 2_000  # games loaded and folded per read


class RatingSource(Protocol):
    async def rating_ledger(self) -> list[LedgerEntry]: ...
    async def all_rating_changes(self) -> list[RatingChange]: ...
    async def all_ratings(self) -> dict[tuple[str, str, int], tuple[float, float, int]]: ...
    async def records(self, ids: list[int]) -> list[GameRecord]: ...


def placed(game: Game[Any, Any, Any], record: GameRecord) -> list[RatedPlayer]:
    """The rated players of a finished game, as its end placed them: its log folded for the final scores."""
    positional = by_position(record)
    state, _ = fold(game, positional)
    result = game.result(state)
    if result is None:
        raise ValueError(f"game {record.id} is rated but its rules say it is not over")
    return places(positional.seats, result.scores, leave_order(positional))


@dataclass(slots=True)
class RecomputeReport:
    games: int = 0
    changes: int = 0
    ratings: int = 0
    differences: list[str] = field(default_factory=list)  # the first few, in words
    different: int = 0
    fold_seconds: float = 0.0  # reading and folding the games (the plain fold)
    rate_seconds: float = 0.0  # replaying the ratings

    @property
    def equal(self) -> bool:
        return self.different == 0

    def lines(self) -> list[str]:
        head = (f"ratings: recomputed {self.games:,} rated games from their logs: {self.changes:,} changes,"
                f" {self.ratings:,} current ratings")
        timing = f"timing: read and fold {self.fold_seconds:.2f} s, rating {self.rate_seconds:.2f} s"
        if self.equal:
            return [head, timing, "equal: every change and every current rating is the stored value, bit for bit"]
        return [head, timing, f"DIFFERENT: {self.different:,} values differ from the stored ones", *self.differences]


async def recompute_from(source: RatingSource, games: Sequence[Game[Any, Any, Any]]) -> RecomputeReport:
    """Recompute every rating of ``source`` from its games and compare (nothing is written)."""
    by_kind = {game.key: game for game in games}
    ledger = await source.rating_ledger()
    report = RecomputeReport(games=len(ledger))
    started = time.perf_counter()
    entries: list[tuple[int, str, int | None, str, Sequence[RatedPlayer]]] = []
    for start in range(0, len(ledger), BATCH):
        batch = ledger[start:start + BATCH]
        records = {r.id: r for r in await source.records([e.game_id for e in batch])}
        folded = await asyncio.to_thread(_place_all, by_kind, batch, records)
        entries += folded
    report.fold_seconds = time.perf_counter() - started
    started = time.perf_counter()
    again = recompute(entries)
    report.rate_seconds = time.perf_counter() - started
    stored_changes = {(c.game_id, c.scope, c.user_id): c for c in await source.all_rating_changes()}
    stored_ratings = await source.all_ratings()
    report.changes, report.ratings = len(again.changes), len(again.ratings)
    _compare(report, "change", again.changes, stored_changes)
    _compare(report, "rating", again.ratings, stored_ratings)
    return report


def _place_all(by_kind: dict[str, Game[Any, Any, Any]], batch: Sequence[LedgerEntry],
               records: dict[int, GameRecord]) -> list[tuple[int, str, int | None, str, Sequence[RatedPlayer]]]:
    out: list[tuple[int, str, int | None, str, Sequence[RatedPlayer]]] = []
    for entry in batch:
        record = records.get(entry.game_id)
        game = by_kind.get(entry.kind)
        players: Sequence[RatedPlayer] = ()
        if record is not None and game is not None:
            players = placed(game, record)
        out.append((entry.game_id, entry.kind, entry.guild_id, entry.season, players))
    return out


def _compare(report: RecomputeReport, what: str, mine: dict[Any, Any], stored: dict[Any, Any]) -> None:
    for key in sorted(set(mine) | set(stored), key=repr):
        if mine.get(key) != stored.get(key):
            report.different += 1
            if len(report.differences) < 10:
                report.differences.append(f"  {what} {key}: recomputed {mine.get(key)}, stored {stored.get(key)}")
