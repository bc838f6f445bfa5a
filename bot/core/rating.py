"""Skill ratings: OpenSkill (Weng-Lin), a pure function of finished games. No Discord, no SQL.

Choices (README, "Ratings"):

- **The model**: OpenSkill's Bradley-Terry "full pairing" model, not its Plackett-Luce model. Plackett-Luce in
  openskill 6.2 mishandles ties among more than two players (scores 3, 3, 2, 1 from equal ratings give the
  third player the very change of the two tied winners: openskill.py issue #155, fix PR #176 still open),
  and ties must be ties. Full pairing rates each player against every other one, which is Board Game Arena's
  rule besides: placing 2nd of 4 counts as beating the 3rd and 4th and losing to the 1st.
- **Who is rated**: the human seats of a finished game. AI seats are excluded: they are neither rated nor
  counted as opponents, so beating AI players can never move a rating (fixed anchors were tried: a player who
  always beats an anchor climbs without bound, about 2,100 after 5 wins over three easy AIs). A game needs at
  least two rated humans to count; one human against AIs changes nothing.
- **Places**: the humans who finished are placed among themselves by final score (equal scores tie). Those
  who left the running game come after all of them, the first to leave last. A kicked player is not rated in
  that game (the host's decision must not be a weapon).
- **Scopes**: each rated game moves three ratings per player: this server (all time), across servers, and
  this server's season (a month, or a quarter if the server chose so).
- **The number shown**: ``1500 + 48 * (mu - 25)``, so a new player shows 1,500 and one beta of skill (the
  model's "a class apart") is 200 points, as in Elo. Provisional (marked ``?``) for the first
  :data:`PROVISIONAL_GAMES` games; the leaderboard by rating lists players past that.
- **Determinism**: the players are given to the model in a canonical order (place, then user id), so the
  seats' order changes nothing, and equal inputs give bit-equal outputs; a recompute replays the ledger's
  order and finds the very same floats.
"""

from __future__ import annotations

import calendar
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from openskill.models import BradleyTerryFull

from storage.base import GameRecord, SeatRecord
from storage.ratings import (
    GLOBAL_SCOPE,
    RatedPlayer,
    RatingChange,
    RatingJob,
    Skill,
    season_scope,
    server_scope,
)

MODEL = BradleyTerryFull()  # mu 25, sigma 25/3, beta 25/6, tau 25/300: the library's defaults
NEW: Skill = (MODEL.mu, MODEL.sigma)
SHOWN_BASE = 1500
SHOWN_SCALE = 200 / MODEL.beta  # 48 points per unit of mu
PROVISIONAL_GAMES = 5
MIN_RATED = 2  # humans a game needs to be rated
SeasonLength = Literal["month", "quarter"]
SEASON_LENGTHS: tuple[SeasonLength, ...] = ("month", "quarter")
SEASON_META = "season_length:{guild}"  # the meta key of a server's season length (default: month)


# The number players see ---------------------------------------------------------------------------
def shown(mu: float) -> int:
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - MODEL.mu))


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


# Seasons ----------------------------------------------------------------------------------------
def season_of(at: float, length: SeasonLength = "month") -> str:
    """The season a game finished at ``at`` (UTC) counts in: ``2026-12`` or ``2026-Q4``."""
    day = time.gmtime(at)
    if length == "quarter":
        return f"{day.tm_year:04d}-Q{(day.tm_mon - 1) // 3 + 1}"
    return f"{day.tm_year:04d}-{day.tm_mon:02d}"


def season_bounds(season: str) -> tuple[float, float]:
    """[start, end) of a season (UTC), for the titles."""
    year, part = season.split("-")
    if part.startswith("Q"):
        first, months = (int(part[1:]) - 1) * 3 + 1, 3
    else:
        first, months = int(part), 1
    end_month = first + months
    start = calendar.timegm((int(year), first, 1, 0, 0, 0))
    end = calendar.timegm((int(year) + (end_month - 1) // 12, (end_month - 1) % 12 + 1, 1, 0, 0, 0))
    return float(start), float(end)


def season_key(start: float, end: float) -> str:
    """The season that runs over [start, end) (what a leaderboard button carries)."""
    return season_of(start, "quarter" if end - start > 40 * 86_400 else "month")


def season_length(value: str | None) -> SeasonLength:
    return "quarter" if value == "quarter" else "month"


def scopes(guild_id: int | None, season: str) -> tuple[str, ...]:
    return server_scope(guild_id), GLOBAL_SCOPE, season_scope(guild_id, season)


# Places -----------------------------------------------------------------------------------------
def leave_order(record: GameRecord) -> list[int]:
    """The seats of the players who left the running game, in the order they left."""
    left = {s.seat for s in record.seats if s.state == "left"}
    order = [a.seat for a in record.actions
             if a.kind == "unseat" and a.seat in left and a.payload.get("state") == "left"]
    seen: list[int] = []
    for seat in order:
        if seat is not None and seat not in seen:
            seen.append(seat)
    return seen + sorted(left - set(seen))  # a leaver without its action (never expected): after the others


def places(seats: Sequence[SeatRecord], scores: Mapping[int, int], left: Sequence[int]) -> list[RatedPlayer]:
    """The rated players of a finished game, placed. ``seats`` numbered by position (``by_position``),
    ``scores`` by position, ``left`` the seats that left, first to leave first."""
    finishers = [(i, s) for i, s in enumerate(seats)
                 if s.state == "seated" and s.user_id is not None and not s.is_ai]
    distinct = sorted({int(scores[i]) for i, _ in finishers}, reverse=True)
    placed = [RatedPlayer(int(s.user_id), s.seat, 1 + distinct.index(int(scores[i])))  # type: ignore[arg-type]
              for i, s in finishers]
    by_seat = {s.seat: s for s in seats}
    humans_left = [by_seat[n] for n in left if n in by_seat and by_seat[n].user_id is not None
                   and not by_seat[n].is_ai]
    last = len(distinct)
    for k, seat in enumerate(reversed(humans_left), start=1):  # the latest to leave first, the first last
        placed.append(RatedPlayer(int(seat.user_id), seat.seat, last + k))  # type: ignore[arg-type]
    return sorted(placed, key=lambda p: (p.place, p.user_id))


# The maths --------------------------------------------------------------------------------------
def rate(players: Sequence[RatedPlayer], before: Sequence[Skill | None]) -> list[Skill]:
    """The ratings after one game of ``players`` (canonical order: :func:`places`' order)."""
    teams = [[MODEL.rating(mu=b[0], sigma=b[1]) if b is not None else MODEL.rating()] for b in before]
    rated = MODEL.rate(teams, ranks=[float(p.place) for p in players])
    return [(float(team[0].mu), float(team[0].sigma)) for team in rated]


@dataclass(frozen=True, slots=True)
class Rater:
    """The job's ``rate``: a picklable, pure function of the players' ratings before."""

    players: tuple[RatedPlayer, ...]

    def __call__(self, before: Sequence[Skill | None]) -> list[Skill]:
        return rate(self.players, before)


def rating_job(record: GameRecord, scores: Mapping[int, int], season: str) -> RatingJob | None:
    """What the end of ``record`` writes (None: fewer than two humans to rate). ``record`` numbered by position
    (``by_position``), with its actions when someone left (the order they left in)."""
    players = tuple(places(record.seats, scores, leave_order(record)))
    if len(players) < MIN_RATED:
        return None
    return RatingJob(record.kind, record.guild_id, season, scopes(record.guild_id, season), players, Rater(players))


# Recompute --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Recomputed:
    """Ratings recomputed from the ledger and the games: the current values and every change."""

    ratings: dict[tuple[str, str, int], tuple[float, float, int]]  # (kind, scope, user) -> (mu, sigma, games)
    changes: dict[tuple[int, str, int], RatingChange]  # (game, scope, user) -> change


def recompute(entries: Iterable[tuple[int, str, int | None, str, Sequence[RatedPlayer]]]) -> Recomputed:
    """Replay rated games, in the ledger's order: (game id, kind, guild, season, placed players) each."""
    ratings: dict[tuple[str, str, int], tuple[float, float, int]] = {}
    changes: dict[tuple[int, str, int], RatingChange] = {}
    for game_id, kind, guild_id, season, players in entries:
        for scope in scopes(guild_id, season):
            found = [ratings.get((kind, scope, p.user_id)) for p in players]
            before: list[Skill | None] = [f[:2] if f is not None else None for f in found]
            after = rate(players, before)
            for p, b, a, f in zip(players, before, after, found, strict=True):
                games = (f[2] if f is not None else 0) + 1
                ratings[(kind, scope, p.user_id)] = (a[0], a[1], games)
                changes[(game_id, scope, p.user_id)] = RatingChange(game_id, scope, p.user_id, p.seat, p.place, b,
                                                                    a, games)
    return Recomputed(ratings, changes)

