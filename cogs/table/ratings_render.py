"""The messages of skill ratings: the changes under a game's final message, the rating lines of ``/<game> stats``,
the leaderboard by rating and the podiums of past seasons. Text and embeds only, every sentence from the
``ratings`` i18n area; the numbers from ``bot.core.rating``."""

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace

import discord

from bot.core.rating import PROVISIONAL_GAMES, provisional, season_bounds, shown
from bot.i18n import t
from cogs.seats import safe_name
from cogs.table.presenter import Card
from cogs.table.stats_render import Field, who
from storage.base import GameRecord, GameStore, SeatRecord
from storage.ratings import GLOBAL_SCOPE, RatingChange, RatingPage, RatingRow, server_scope

log = logging.getLogger(__name__)
GOLD = discord.Colour.gold()
MEDALS = ("🥇", "🥈", "🥉")
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000  # characters of every embed of one message together
FOOTER_ROOM = 200  # the game's footer, set on the first embed after this


def number(value: int, language: str) -> str:
    """1,512 in English, 1 512 in French (narrow no-break space)."""
    text = f"{value:,}"
    return text.replace(",", "\u202f") if language == "fr" else text


def rating_text(mu: float, games: int, language: str) -> str:
    value = number(shown(mu), language)
    return t("ratings.provisional_mark", language, value=value) if provisional(games) else value


def change_text(change: RatingChange) -> str:
    before = shown(change.before[0]) if change.before is not None else shown(25.0)
    delta = shown(change.after[0]) - before
    return f"+{delta}" if delta >= 0 else f"−{-delta}"


# The final message -------------------------------------------------------------------------------
async def final_with_changes(store: GameStore, card: Card, record: GameRecord, language: str) -> Card:
    """The final message ``card`` of ``record`` (seats by position) with its rating changes on this server,
    read from the store: they were committed with the game's end, so a restart posts the same."""
    try:
        changes = await store.rating_changes(record.id)
    except Exception:  # the final message goes out without them rather than not at all
        log.warning("game %s: could not read its rating changes", record.id, exc_info=True)
        return card
    return with_changes(card, changes, record.seats, server_scope(record.guild_id), language)


def with_changes(card: Card, changes: Sequence[RatingChange], seats: Sequence[SeatRecord], scope: str,
                 language: str) -> Card:
    """``card`` with one more embed: each rated player's change in ``scope`` ("+14 → 1,512"), best place first.
    Unchanged when the game was not rated, or when the embed would break the message's limits."""
    mine = sorted((c for c in changes if c.scope == scope), key=lambda c: (c.place, c.seat))
    if not mine:
        return card
    by_seat = {s.seat: s for s in seats}
    lines = []
    for change in mine:
        seat = by_seat.get(change.seat)
        name = who(seat) if seat is not None else f"<@{change.user_id}>"
        lines.append(t("ratings.final.line", language, who=name, change=change_text(change),
                       rating=rating_text(change.after[0], change.games, language)))
    embed = discord.Embed(title=t("ratings.final.title", language), description="\n".join(lines), colour=GOLD)
    embed.set_footer(text=t("ratings.final.footer", language, count=PROVISIONAL_GAMES))
    if len(card.embeds) >= MAX_EMBEDS or sum(len(e) for e in card.embeds) + len(embed) + FOOTER_ROOM > MAX_EMBED_TOTAL:
        return card
    return replace(card, embeds=(*card.embeds, embed))


# /<game> stats -----------------------------------------------------------------------------------
def stats_fields(found: Mapping[str, RatingRow], server: str, season_scope: str, season: str, language: str
                 ) -> list[Field]:
    """The rating lines of a player: this server, across servers, this season (those they have)."""
    fields: list[Field] = []
    for scope, name in ((server, t("ratings.stats.server", language)),
                        (GLOBAL_SCOPE, t("ratings.stats.global", language)),
                        (season_scope, t("ratings.stats.season", language, season=season))):
        row = found.get(scope)
        if row is None:
            continue
        rating = number(shown(row.mu), language)
        key = "ratings.stats.provisional" if provisional(row.games) else "ratings.stats.value"
        fields.append((name, t(key, language, rating=rating, games=row.games, count=PROVISIONAL_GAMES)))
    return fields


# /<game> leaderboard by: rating ------------------------------------------------------------------
def board_embed(title: str, page: RatingPage, season: str | None, period_ignored: bool, language: str
                ) -> discord.Embed:
    heading = (t("ratings.lb.title.season", language, game=title, season=season) if season
               else t("ratings.lb.title", language, game=title))
    embed = discord.Embed(title=heading, colour=GOLD)
    lines = [t("ratings.lb.row", language, rank=row.rank, name=safe_name(row.name),
               rating=number(shown(row.mu), language), games=row.games) for row in page.rows]
    embed.description = "\n".join(lines) if lines else t("ratings.lb.empty", language, count=PROVISIONAL_GAMES)
    if season:
        start, end = season_bounds(season)
        footer = [t("ratings.lb.footer.season", language, start=_day(start), end=_day(end - 1),
                    count=PROVISIONAL_GAMES)]
    else:
        footer = [t("ratings.lb.footer", language, count=PROVISIONAL_GAMES)]
    if period_ignored:
        footer.append(t("ratings.lb.period_ignored", language))
    if page.pages > 1:
        footer.append(t("stats.lb.page", language, page=page.page + 1, pages=page.pages))
    embed.set_footer(text=" · ".join(footer))
    return embed


def podium_embed(title: str, podiums: Sequence[tuple[str, RatingPage]], length: str, language: str
                 ) -> discord.Embed:
    """The best three of each past season, newest first."""
    embed = discord.Embed(title=t("ratings.podium.title", language, game=title), colour=GOLD)
    if not podiums:
        embed.description = t("ratings.podium.empty", language)
    for season, page in podiums:
        lines = [f"{MEDALS[min(row.rank, 3) - 1]} {safe_name(row.name)}: **{number(shown(row.mu), language)}**"
                 for row in page.rows]
        embed.add_field(name=t("ratings.podium.season", language, season=season), inline=False,
                        value="\n".join(lines) or t("ratings.podium.none", language, count=PROVISIONAL_GAMES))
    embed.set_footer(text=t("ratings.podium.footer", language, length=t(f"ratings.length.{length}", language)))
    return embed


def _day(at: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(at))
