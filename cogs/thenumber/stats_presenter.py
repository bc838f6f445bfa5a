"""The Number's lines in its stats commands: approved numbers and the favourite first digit (from each game's
``extra``), each game turn by turn with its score-race chart, and the table script as the export."""

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.game import Game
from bot.core.stats import PlayerStats
from bot.i18n import t
from cogs.table.stats import StatsPresenter
from cogs.table.stats_render import Field, percent
from storage.base import GameRecord

from . import render_stats
from .chart import final_chart_file
from .records import rebuild, replay_script


@dataclass(frozen=True, slots=True)
class NumberFigures:
    played: int
    approved: int
    favourite_digit: int | None
    favourite_count: int

    @property
    def approval_rate(self) -> float:
        return self.approved / self.played if self.played else 0.0


def number_figures(extras: Sequence[Mapping[str, Any]]) -> NumberFigures:
    """Numbers written and approved over a player's games; the favourite first digit is the most written one
    (the higher digit on a tie)."""
    digits = Counter(int(n[0]) for extra in extras for n in extra.get("numbers", ()))
    favourite = max(digits.items(), key=lambda item: (item[1], item[0])) if digits else None
    return NumberFigures(played=sum(int(e.get("played", 0)) for e in extras),
                         approved=sum(int(e.get("approved", 0)) for e in extras),
                         favourite_digit=favourite[0] if favourite else None,
                         favourite_count=favourite[1] if favourite else 0)


class TheNumberStats(StatsPresenter):
    button_prefix = "tn"  # the custom_id of leaderboard buttons posted before there were other games
    shows_stopped_games = True  # a stopped game's turns are worth seeing

    def player_fields(self, stats: PlayerStats, language: str) -> list[Field]:
        figures = number_figures(stats.extras)
        fields = [(t("stats.player.approval", language), t(
            "stats.player.approval_value", language, approved=figures.approved, played=figures.played,
            rate=percent(figures.approval_rate, language)))]
        if figures.favourite_digit is not None:
            fields.append((t("stats.player.digit", language), t(
                "stats.player.digit_value", language, digit=figures.favourite_digit, count=figures.favourite_count)))
        return fields

    async def game_message(self, record: GameRecord, game: Game[Any, Any, Any], language: str) -> dict[str, Any]:
        state = rebuild(record)
        chart = await final_chart_file(record, state, language)  # None if it cannot be drawn now
        embeds = render_stats.game_embeds(record, state, language, chart.filename if chart else None)
        return {"embeds": embeds, **({"file": chart} if chart else {})}

    def export_file(self, record: GameRecord) -> tuple[str, bytes]:
        return f"thenumber-game-{record.id}.json", export_bytes(record)


def export_bytes(record: GameRecord) -> bytes:
    """The game as a ``python -m bot replay`` table script, as the attachment's bytes."""
    return (json.dumps(replay_script(record), ensure_ascii=False, indent=1) + "\n").encode()
