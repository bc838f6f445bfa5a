"""Binomial's lines in its stats commands: cards won, fights won and points per card won (from each game's
``extra``)."""

from bot.core.stats import PlayerStats
from bot.i18n import t
from cogs.table.stats import StatsPresenter
from cogs.table.stats_render import Field, decimal, percent


class BinomialStats(StatsPresenter):
    def player_fields(self, stats: PlayerStats, language: str) -> list[Field]:
        extras = stats.extras
        games = len(extras)
        cards = sum(int(e.get("cards_won", 0)) for e in extras)
        fights = sum(int(e.get("fights", 0)) for e in extras)
        won = sum(int(e.get("fights_won", 0)) for e in extras)
        points = sum(int(p) for e in extras for p in dict(e.get("points_by_card", {})).values())
        fields = [
            (t("stats.binomial.cards", language), t(
                "stats.binomial.cards_value", language, cards=cards,
                average=decimal(cards / games if games else 0.0, language))),
            (t("stats.binomial.fights", language), t(
                "stats.binomial.fights_value", language, won=won, fights=fights,
                rate=percent(won / fights if fights else 0.0, language))),
        ]
        if cards:
            fields.append((t("stats.binomial.per_card", language), t(
                "stats.binomial.per_card_value", language, average=decimal(points / cards, language), points=points,
                cards=cards)))
        return fields
