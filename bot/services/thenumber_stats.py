"""Statistics of The Number: what a finished game means per seat, and a player's figures.

:func:`summarise` is the summariser of :class:`storage.stats.SQLiteStats`: it folds a finished game's
revealed numbers through the rules engine exactly as :func:`bot.services.thenumber.rebuild` does, so the
cached results are the engine's own final scores and winners. No Discord, no SQL here.
"""

import calendar
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.games.thenumber.check import Status
from bot.games.thenumber.engine import GameState, new_game, play_turn
from bot.services.thenumber import seat_key, turn_numbers
from storage.base import GameRecord
from storage.stats import FinishedGame, PlayerGame, SeatResult

Period = Literal["all", "month", "week"]
MIN_GAMES_FOR_RATES = 3  # win-rate and average-score leaderboards count players with at least this many games


def fold(game: FinishedGame) -> GameState:
    state = new_game([seat_key(s) for s in game.seats])
    for step in game.turns:
        state, _ = play_turn(state, turn_numbers({"step": step}))
    return state


def summarise(game: FinishedGame) -> list[SeatResult]:
    state = fold(game)
    scores, winners = state.final_scores(), set(state.winners())
    rows = []
    for seat in game.seats:
        key = seat_key(seat)
        results = [outcome.results[key] for outcome in state.history]
        numbers = tuple(r.number for r in results if r.number is not None)
        approved = sum(r.status is Status.APPROVED for r in results)
        rows.append(SeatResult(game.id, seat.seat, game.guild_id, seat.user_id, game.finished_at, scores[key],
                               key in winners, len(numbers), approved, numbers))
    return rows


def finished_game(record: GameRecord) -> FinishedGame:
    """A stored record as the summariser sees it (tests and the chart use it)."""
    resolves = [a for a in record.actions if a.kind == "resolve"]
    return FinishedGame(record.id, record.guild_id, record.channel_id, resolves[-1].at if resolves else 0.0,
                        record.seats, tuple(a.payload["step"] for a in resolves))


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
    games: int
    wins: int
    average: float
    best: PlayerGame | None
    played: int
    approved: int
    favourite_digit: int | None
    favourite_count: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def approval_rate(self) -> float:
        return self.approved / self.played if self.played else 0.0


def player_stats(games: Sequence[PlayerGame]) -> PlayerStats:
    """Shared wins count as wins; the best game is the highest score (the latest one on a tie); the
    favourite first digit is the most written one (the higher digit on a tie)."""
    if not games:
        return PlayerStats(0, 0, 0.0, None, 0, 0, None, 0)
    best = max(games, key=lambda g: (g.final_score, g.finished_at, g.game_id))
    digits = Counter(int(n[0]) for g in games for n in g.numbers)
    favourite = max(digits.items(), key=lambda item: (item[1], item[0])) if digits else None
    return PlayerStats(
        games=len(games), wins=sum(g.won for g in games), average=sum(g.final_score for g in games) / len(games),
        best=best, played=sum(g.played for g in games), approved=sum(g.approved for g in games),
        favourite_digit=favourite[0] if favourite else None, favourite_count=favourite[1] if favourite else 0)
