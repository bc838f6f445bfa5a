"""The messages of every game's stats, leaderboard, history, game and export commands. Text and embeds only;
every sentence comes from the ``stats`` i18n area in the asker's language, the game's own lines from its
stats presenter."""

from collections.abc import Sequence

import discord

from bot.core.game import Result
from bot.core.stats import PlayerStats
from bot.i18n import t
from cogs.seats import plain_name, safe_name, seat_style
from storage.base import GameRecord, SeatRecord
from storage.stats import GameLine, LeaderPage, RankBy

ACCENT = discord.Colour.from_rgb(88, 101, 242)
Field = tuple[str, str]  # (name, value) of an embed field


def who(seat: SeatRecord, short: bool = False) -> str:
    name = plain_name(seat.name, seat.is_ai)
    name = name if not short or len(name) <= 16 else name[:15] + "…"
    return f"{seat_style(seat.seat).symbol} {safe_name(name)}{' 🤖' if seat.is_ai else ''}"


def decimal(value: float, language: str, places: int = 1) -> str:
    return f"{value:.{places}f}".replace(".", t("stats.fmt.decimal_point", language))


def percent(ratio: float, language: str) -> str:
    return t("stats.fmt.percent", language, value=decimal(100 * ratio, language, 0))


# /<game> stats ----------------------------------------------------------------------------------
def stats_embed(title: str, name: str, stats: PlayerStats, game_fields: Sequence[Field], language: str
                ) -> discord.Embed:
    """The figures every game has, then the game's own (``game_fields``, from its presenter)."""
    embed = discord.Embed(title=t("stats.player.title", language, game=title, name=safe_name(name)), colour=ACCENT)
    if not stats.games:
        embed.description = t("stats.player.none", language)
        return embed
    embed.add_field(name=t("stats.player.games", language), value=str(stats.games))
    embed.add_field(name=t("stats.player.wins", language), value=str(stats.wins))
    embed.add_field(name=t("stats.player.win_rate", language), value=percent(stats.win_rate, language))
    embed.add_field(name=t("stats.player.average", language), value=decimal(stats.average, language))
    if stats.best is not None:
        best = stats.best
        embed.add_field(name=t("stats.player.best", language), value=t(
            "stats.player.best_value", language, score=best.final_score, game=best.game_id,
            channel=f"<#{best.channel_id}>", date=f"<t:{int(best.finished_at)}:d>"))
    for field_name, value in game_fields:
        embed.add_field(name=field_name, value=value)
    embed.set_footer(text=t("stats.player.footer", language))
    return embed


# /<game> leaderboard ----------------------------------------------------------------------------
def leaderboard_embed(title: str, board: LeaderPage, by: RankBy, period: str, min_games: int, language: str
                      ) -> discord.Embed:
    embed = discord.Embed(title=t(f"stats.lb.title.{by}", language, game=title), colour=discord.Colour.gold())
    lines = []
    for row in board.rows:
        values = {"rank": row.rank, "name": safe_name(row.name), "wins": row.wins, "games": row.games,
                  "rate": percent(row.win_rate, language), "average": decimal(row.average, language)}
        lines.append(t(f"stats.lb.row.{by}", language, **values))
    embed.description = "\n".join(lines) if lines else t("stats.lb.empty", language)
    footer = [t(f"stats.period.{period}", language)]
    if by != "wins":
        footer.append(t("stats.lb.min_games", language, count=min_games))
    if board.pages > 1:
        footer.append(t("stats.lb.page", language, page=board.page + 1, pages=board.pages))
    embed.set_footer(text=" · ".join(footer))
    return embed


# /<game> history --------------------------------------------------------------------------------
def history_embed(title: str, command: str, games: list[GameLine], language: str) -> discord.Embed:
    embed = discord.Embed(title=t("stats.history.title", language, game=title), colour=ACCENT)
    if not games:
        embed.description = t("stats.history.empty", language)
        return embed
    blocks = []
    for game in games:
        ranked = sorted(game.seats, key=lambda item: (-item[1], item[0].seat))
        players = " · ".join(f"{who(seat, short=True)} **{score}**{' 👑' if won else ''}"
                             for seat, score, won in ranked)
        blocks.append(t("stats.history.line", language, game=game.game_id, when=f"<t:{int(game.finished_at)}:R>",
                        channel=f"<#{game.channel_id}>") + "\n" + players)
    embed.description = "\n\n".join(blocks)
    embed.set_footer(text=t("stats.history.footer", language, command=command))
    return embed


# /<game> game, for a game whose presenter draws no game of its own --------------------------------
def standings_embed(record: GameRecord, result: Result, steps: int, language: str) -> discord.Embed:
    """A finished game's final standings (position in seat order = the protocol's seat number)."""
    ranked = sorted(enumerate(record.seats), key=lambda item: (-result.scores[item[0]], item[0]))
    lines = [t("stats.game.score", language, who=who(seat), score=result.scores[index])
             + (" 👑" if index in result.winners else "") for index, seat in ranked]
    embed = discord.Embed(title=t("stats.game.final", language, game=record.id), description="\n".join(lines),
                          colour=discord.Colour.gold())
    embed.add_field(name=t("stats.game.where", language), inline=False, value=t(
        "stats.game.where_value", language, channel=f"<#{record.channel_id}>", when=f"<t:{int(record.updated_at)}:f>"))
    embed.set_footer(text=t("stats.game.steps", language, steps=steps))
    return embed


def export_text(game_id: int, filename: str, language: str) -> str:
    return t("stats.export.done", language, game=game_id, file=filename)
