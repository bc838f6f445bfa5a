"""Numeri's lines in its stats commands: tokens never entered and points per token (from each game's ``extra``)."""

from bot.core.stats import PlayerStats
from bot.i18n import t
from cogs.table.stats import StatsPresenter
from cogs.table.stats_render import Field, decimal


class NumeriStats(StatsPresenter):
    def player_fields(self, stats: PlayerStats, language: str) -> list[Field]:
        never = sum(int(extra.get("never_entered", 0)) for extra in stats.extras)
        points = [int(p) for extra in stats.extras for p in extra.get("points", ())]
        games = len(stats.extras)
        fields = [(t("stats.numeri.never_entered", language), t(
            "stats.numeri.never_entered_value", language, count=never, games=games,
            average=decimal(never / games if games else 0.0, language)))]
        if points:
            fields.append((t("stats.numeri.points", language), t(
                "stats.numeri.points_value", language, average=decimal(sum(points) / len(points), language),
                tokens=len(points))))
        return fields
