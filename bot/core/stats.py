"""Statistics of every game: what a finished game means per seat, leaderboard periods, a player's figures.

:func:`summariser` is the summariser of :class:`storage.stats.SQLiteStats`: it folds a finished game's log
through its own game (:func:`bot.core.table.fold`, the one fold) and asks ``game.result`` for the scores,
winners and per-seat figures, so the cache holds the rules' own results. The figures a game adds (``extra``)
are read by that game's stats presenter, never here. No Discord, no SQL.
"""

from __future__ import annotations

import calendar
import json
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from storage.base import GameRecord
from storage.stats import PlayerGame, SeatResult, Summariser

from .fold import EnvelopeError
from .game import Game, RuleError, forfeited
from .table import by_position, fold

log = logging.getLogger(__name__)

Period = Literal["all", "month", "week"]
MIN_GAMES_FOR_RATES = 3  # win-rate and average-score leaderboards count players with at least this many games


# What a finished game means --------------------------------------------------------------------------
def summariser(games: Sequence[Game[Any, Any, Any]]) -> Summariser:
    """The summariser of ``games`` (a game of another kind, or one its game cannot fold, gives no rows)."""
    by_kind = {game.key: game for game in games}

    def summarise_record(record: GameRecord) -> list[SeatResult]:
        game = by_kind.get(record.kind)
        if game is None or record.status != "finished":
            return []
        try:
            return summarise(game, record)
        except (RuleError, EnvelopeError, KeyError, TypeError, ValueError) as error:
            # A log its game refuses counts in no statistic (and never stops the others being counted).
            log.warning("statistics: game %s (%s) cannot be folded: %s", record.id, record.kind, error)
            return []

    return summarise_record


def summarise(game: Game[Any, Any, Any], record: GameRecord) -> list[SeatResult]:
    """One row per seat of a finished game: its final score, whether it won, and the game's figures."""
    state, _ = fold(game, by_position(record))
    result = game.result(state)
    if result is None:
        raise ValueError("the game is stored as finished but its rules say it is not over")
    # leaving a running game forfeits it: a seat that left or was kicked is never credited a win
    result = forfeited(result, frozenset(i for i, s in enumerate(record.seats) if s.state != "seated"))
    resolves = [a.at for a in record.actions if a.kind == "resolve"]
    finished_at = resolves[-1] if resolves else record.updated_at
    rows = []
    for index, seat in enumerate(record.seats):
        extra = json.loads(json.dumps(result.extra.get(index, {})))  # as the cache gives it back
        rows.append(SeatResult(record.id, seat.seat, record.kind, record.guild_id, seat.user_id, finished_at,
                               int(result.scores[index]), index in result.winners, extra))
    return rows


# Periods ----------------------------------------------------------------------------------------
def period_start(period: Period, now: float) -> float:
    """Where a leaderboard period starts (UTC): the 1st of this month, Monday of this week, or never."""
    if period == "all":
        return 0.0
    day = time.gmtime(now)
    midnight = calendar.timegm((day.tm_year, day.tm_mon, day.tm_mday, 0, 0, 0))
    if period == "week":
        return float(midnight - day.tm_wday * 86_400)
    return float(midnight - (day.tm_mday - 1) * 86_400)


# A player's figures -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PlayerStats:
    """The figures every game has; a game's own figures come from its presenter, reading ``extras``."""

    games: int
    wins: int
    average: float
    best: PlayerGame | None
    extras: tuple[Mapping[str, Any], ...] = ()  # each game's ``extra`` of this player, oldest first

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def player_stats(games: Sequence[PlayerGame]) -> PlayerStats:
    """Shared wins count as wins; the best game is the highest score (the latest one on a tie)."""
    if not games:
        return PlayerStats(0, 0, 0.0, None)
    best = max(games, key=lambda g: (g.final_score, g.finished_at, g.game_id))
    return PlayerStats(games=len(games), wins=sum(g.won for g in games),
                       average=sum(g.final_score for g in games) / len(games), best=best,
                       extras=tuple(g.extra for g in games))
