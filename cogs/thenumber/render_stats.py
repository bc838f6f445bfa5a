"""The Number's own messages of its stats commands: /thenumber game turn by turn. Text and embeds only; every
sentence comes from the ``stats`` i18n area in the asker's language."""

import discord

from bot.games.thenumber import rules
from bot.games.thenumber.check import SeatResult, Status
from bot.games.thenumber.engine import GameState
from bot.i18n import t
from cogs.table.stats_render import ACCENT, who
from storage.base import GameRecord

from .records import seat_key

EMBED_BUDGET = 5800  # Discord allows 6000 characters across a message's embeds


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
