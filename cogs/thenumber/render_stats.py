"""Every message of /thenumber stats, leaderboard, history, game and export. Text and embeds only; every
sentence comes from the ``stats`` i18n area in the asker's language."""

import discord

from bot.games.thenumber import rules
from bot.games.thenumber.check import SeatResult, Status
from bot.games.thenumber.engine import GameState
from bot.i18n import t
from bot.services.thenumber import seat_key
from bot.services.thenumber_stats import PlayerStats
from cogs.seats import safe_name, seat_style
from storage.base import GameRecord, SeatRecord
from storage.stats import GameLine, LeaderPage, RankBy

ACCENT = discord.Colour.from_rgb(88, 101, 242)
EMBED_BUDGET = 5800  # Discord allows 6000 characters across a message's embeds


def who(seat: SeatRecord, short: bool = False) -> str:
    name = seat.name if not short or len(seat.name) <= 16 else seat.name[:15] + "…"
    return f"{seat_style(seat.seat).symbol} {safe_name(name)}{' 🤖' if seat.is_ai else ''}"


def decimal(value: float, language: str, places: int = 1) -> str:
    return f"{value:.{places}f}".replace(".", t("stats.fmt.decimal_point", language))


def percent(ratio: float, language: str) -> str:
    return t("stats.fmt.percent", language, value=decimal(100 * ratio, language, 0))


# /thenumber stats -------------------------------------------------------------------------------
def stats_embed(name: str, stats: PlayerStats, language: str) -> discord.Embed:
    embed = discord.Embed(title=t("stats.player.title", language, name=safe_name(name)), colour=ACCENT)
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
    embed.add_field(name=t("stats.player.approval", language), value=t(
        "stats.player.approval_value", language, approved=stats.approved, played=stats.played,
        rate=percent(stats.approval_rate, language)))
    if stats.favourite_digit is not None:
        embed.add_field(name=t("stats.player.digit", language), value=t(
            "stats.player.digit_value", language, digit=stats.favourite_digit, count=stats.favourite_count))
    embed.set_footer(text=t("stats.player.footer", language))
    return embed


# /thenumber leaderboard -------------------------------------------------------------------------
def leaderboard_embed(board: LeaderPage, by: RankBy, period: str, min_games: int, language: str) -> discord.Embed:
    embed = discord.Embed(title=t(f"stats.lb.title.{by}", language), colour=discord.Colour.gold())
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


# /thenumber history -----------------------------------------------------------------------------
def history_embed(games: list[GameLine], language: str) -> discord.Embed:
    embed = discord.Embed(title=t("stats.history.title", language), colour=ACCENT)
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
    embed.set_footer(text=t("stats.history.footer", language))
    return embed


# /thenumber game --------------------------------------------------------------------------------
def result_text(r: SeatResult, language: str) -> str:
    if r.status is Status.APPROVED:
        bonus = t("stats.game.bonus", language, bonus=r.bonus) if r.bonus else ""
        return t("stats.game.approved", language, points=r.points, bonus=bonus)
    if r.status is Status.ELIMINATED:
        digits = f" {t('stats.game.and', language)} ".join(str(d) for d in r.shared)
        return t("stats.game.eliminated", language, digits=digits, blocker=r.blocker)
    if r.status is Status.INVALID:
        return t("stats.game.invalid", language)
    if r.status is Status.MISSING:
        return t("stats.game.missing", language)
    return t("stats.game.exhausted", language)


def game_embeds(record: GameRecord, state: GameState, language: str, image: str | None = None,
                short: bool = False) -> list[discord.Embed]:
    """The game turn by turn (one embed per round, every reveal as a field), then the final standings."""
    seats = {seat_key(s): s for s in record.seats}
    embeds = []
    for round_no in range(1, rules.ROUNDS + 1):
        outcomes = [o for o in state.history if o.round == round_no]
        if not outcomes:
            continue
        embed = discord.Embed(title=t("stats.game.round", language, game=record.id, round=round_no), colour=ACCENT)
        for outcome in outcomes:
            lines = [t("stats.game.line", language, number=r.number or "---", who=who(seats[k], short),
                       result=result_text(r, language))
                     for k, r in [*outcome.tower(), *((k, r) for k, r in outcome.results.items() if r.number is None)]]
            embed.add_field(name=t("stats.game.turn", language, turn=outcome.turn,
                                   bonus=rules.bonus_for(outcome.turn)),
                            value="\n".join(lines)[:1024], inline=False)
        if round_no - 1 < min(len(b) for b in state.round_bonus.values()):
            totals = " · ".join(f"{who(s, short)} {state.round_totals(seat_key(s))[round_no - 1]}"
                                for s in record.seats)
            embed.set_footer(text=t("stats.game.round_totals", language, totals=totals)[:2048])
        embeds.append(embed)
    embeds.append(standings_embed(record, state, language, image))
    if not short and sum(len(e) for e in embeds) > EMBED_BUDGET:
        return game_embeds(record, state, language, image, short=True)
    return embeds


def standings_embed(record: GameRecord, state: GameState, language: str, image: str | None) -> discord.Embed:
    scores = state.final_scores()
    winners = set(state.winners())
    ranked = sorted(record.seats, key=lambda s: (-scores[seat_key(s)], s.seat))
    lines = []
    for s in ranked:
        key = seat_key(s)
        rounds = " + ".join(str(v) for v in state.round_totals(key))
        lines.append(t("stats.game.standing", language, who=who(s), score=scores[key], rounds=rounds)
                     + (" 👑" if key in winners else ""))
    title_key = "stats.game.final" if state.finished else "stats.game.unfinished"
    embed = discord.Embed(title=t(title_key, language, game=record.id), description="\n".join(lines),
                          colour=discord.Colour.gold())
    embed.add_field(name=t("stats.game.where", language), inline=False, value=t(
        "stats.game.where_value", language, channel=f"<#{record.channel_id}>", when=f"<t:{int(record.updated_at)}:f>"))
    if image:
        embed.set_image(url=f"attachment://{image}")
    return embed


def export_text(game_id: int, filename: str, language: str) -> str:
    return t("stats.export.done", language, game=game_id, file=filename)
