"""Every Discord message of The Number, in one place. Functions return text and embeds only.

Each takes the language to speak (``lang``, see bot.i18n). Channel messages are drawn from the table's view
(:class:`PublicView`, which holds no pending number) and the seats as the presenter may name them; only
:func:`ack_text` shows a number, privately, to its author.
"""

from collections.abc import Mapping, Sequence

import discord

from bot.games.thenumber import rules
from bot.games.thenumber.check import SeatResult, Status
from bot.games.thenumber.engine import PublicView, TurnOutcome
from bot.i18n import t
from cogs.seats import AI_MARK, marked_name, safe_name, seat_style
from cogs.table.presenter import SeatInfo
from storage.base import GameRecord, SeatRecord

ACCENT = discord.Colour.from_rgb(88, 101, 242)
DIGITS = range(rules.DIGIT_COUNT)


def who(seat: SeatRecord | SeatInfo) -> str:
    """A seat's symbol, name (escaped) and, once, a robot for an AI player ("🔷 Ada 🤖")."""
    style = seat_style(seat.seat)
    if isinstance(seat, SeatInfo):  # its name is escaped already, without the stored " (AI)"
        return f"{style.symbol} {seat.name}{AI_MARK if seat.is_ai else ''}"
    return f"{style.symbol} {marked_name(seat.name, seat.is_ai)}"


def digits_text(digits: frozenset[int] | set[int], lang: str) -> str:
    return " ".join(str(d) for d in sorted(digits)) or t("thenumber.digits.none", lang)


def duration(seconds: int, lang: str) -> str:
    m, s = divmod(seconds, 60)
    if m and s:
        return t("thenumber.time.min_s", lang, m=m, s=s)
    return t("thenumber.time.min", lang, m=m) if m else t("thenumber.time.s", lang, s=s)


# Lobby ------------------------------------------------------------------------------------------
def lobby_embed(record: GameRecord, turn_seconds: int, lang: str,
                host_passed: tuple[str, str] | None = None) -> discord.Embed:
    """The lobby; ``host_passed`` (old, new host) says who took over from a host who left."""
    seated = record.seated
    lines = [f"{who(s)}{t('thenumber.lobby.host', lang) if s.user_id == record.host_id else ''}" for s in seated]
    embed = discord.Embed(title=t("thenumber.lobby.title", lang), colour=ACCENT)
    embed.description = t("thenumber.lobby.description", lang, min=rules.MIN_SEATS, max=rules.MAX_SEATS,
                          rounds=rules.ROUNDS,
                          turns=rules.TURNS_PER_ROUND, per_turn=duration(turn_seconds, lang))
    if host_passed is not None:
        old, new = host_passed
        embed.description += "\n" + t("core.lobby.host_passed", lang, old=safe_name(old), new=safe_name(new))
    embed.add_field(name=t("thenumber.lobby.seats", lang, taken=len(seated), max=rules.MAX_SEATS),
                    value="\n".join(lines) or t("thenumber.lobby.nobody", lang), inline=False)
    if len(seated) == rules.MIN_SEATS:
        low, high = rules.BEST_SEATS
        embed.set_footer(text=t("thenumber.lobby.two_players", lang, low=low, high=high))
    return embed


def lobby_closed_embed(record: GameRecord, headline: str, lang: str) -> discord.Embed:
    embed = discord.Embed(title="The Number", description=headline, colour=discord.Colour.dark_grey())
    if record.seated:
        embed.add_field(name=t("thenumber.lobby.players", lang), value="\n".join(who(s) for s in record.seated),
                        inline=False)
    return embed


# Turn status ------------------------------------------------------------------------------------
# The turn message is read on a phone, with the reveal of the turn before above it: one short line per seat in the
# reveal, the scores and boards together, who still chooses on one line (issue 36: at most 600 characters at 4
# seats, reveal and next turn together).
def turn_title(view: PublicView, lang: str) -> str:
    """"The Number · round 1 of 2 · turn 2 of 5": the one pattern of every game's titles."""
    return step_title(view.round, view.turn, lang)


def step_title(round_no: int, turn: int, lang: str) -> str:
    return t("thenumber.turn.title", lang, round=round_no, rounds=rules.ROUNDS, turn=turn,
             turns=rules.TURNS_PER_ROUND)


def _out_of_turn(view: PublicView, seat: SeatInfo, lang: str) -> str | None:
    """The mark of a seat that takes no part in this turn (it left, was kicked, or sits out), else None."""
    if seat.state != "seated":
        return t("thenumber.status.left" if seat.state == "left" else "thenumber.status.kicked", lang)
    if str(seat.seat) in view.exhausted:
        return t("thenumber.status.sits_out", lang)
    return None


def players_lines(view: PublicView, seats: Sequence[SeatInfo], lang: str, *, closed: bool = False) -> list[str]:
    """Who still chooses ("⏳ To choose: 🔺 Ana, 🟢 Ben": the others have chosen), then each seat out of the turn
    with its reason. ``closed``: the turn is over, the awaited seats missed it."""
    waiting, out = [], []
    for seat in seats:
        mark = _out_of_turn(view, seat, lang)
        if mark is not None:
            out.append(f"{who(seat)} ({mark})")
        elif seat.awaited:
            waiting.append(who(seat) + (t("thenumber.status.away", lang) if seat.away and not closed else ""))
    lines = []
    if waiting:
        lines.append(t("thenumber.closed.missed" if closed else "thenumber.status.choosing", lang,
                       names=", ".join(waiting)))
    if out:
        lines.append(", ".join(out))
    return lines


def status_embed(view: PublicView, seats: Sequence[SeatInfo], deadline: float | None, lang: str) -> discord.Embed:
    double = t("thenumber.status.double", lang) if view.turn == rules.TURNS_PER_ROUND else ""
    when = t("thenumber.status.reveal_at", lang, deadline=f"<t:{int(deadline)}:R>") if deadline else ""
    embed = discord.Embed(title=t("thenumber.status.title", lang, turn_title=turn_title(view, lang)), colour=ACCENT)
    embed.description = "\n".join([t("thenumber.status.bonus", lang, bonus=rules.bonus_for(view.turn)) + double + when,
                                   t("thenumber.status.how", lang), *players_lines(view, seats, lang)])
    return embed


def reminder_line(awaited: Sequence[SeatInfo], seconds: int, lang: str) -> str:
    """The turn message's reminder: the time left (who is awaited is the turn's own "To choose" line; each of
    them is reminded by DM too)."""
    return t("thenumber.status.reminder", lang, seconds=seconds)


def closed_embed(view: PublicView, seats: Sequence[SeatInfo], by_deadline: bool, lang: str) -> discord.Embed:
    """A turn message once its turn is over (the reveal follows in the next message): who chose, who did not."""
    embed = discord.Embed(title=t("thenumber.closed.title", lang, turn_title=turn_title(view, lang)),
                          colour=discord.Colour.dark_grey())
    embed.description = "\n".join([t("thenumber.closed.below_deadline" if by_deadline else "thenumber.closed.below",
                                     lang), *players_lines(view, seats, lang, closed=True)])
    return embed


# Reveal -----------------------------------------------------------------------------------------
def result_line(seat: SeatInfo, r: SeatResult, lang: str) -> str:
    name = who(seat)
    if r.status is Status.APPROVED:
        first = int(r.number[0]) if r.number else 0
        parts = f"{first}×{rules.LAST_TURN_MULTIPLIER}" if r.points - r.bonus != first else f"{first}"
        bonus = t("thenumber.reveal.bonus", lang, bonus=r.bonus) if r.bonus else ""
        if parts == str(r.points) and not bonus:  # "**8** (8)" said the same thing twice
            return t("thenumber.reveal.approved_plain", lang, number=r.number, name=name, points=r.points)
        return t("thenumber.reveal.approved", lang, number=r.number, name=name, points=r.points, parts=parts,
                 bonus=bonus)
    if r.status is Status.ELIMINATED:
        shared = t("thenumber.reveal.and", lang).join(str(d) for d in r.shared)
        return t("thenumber.reveal.eliminated", lang, number=r.number, name=name, shared=shared, blocker=r.blocker)
    if r.status is Status.INVALID:
        return t("thenumber.reveal.invalid", lang, number=r.number, name=name)
    if r.status is Status.MISSING:
        return t("thenumber.reveal.missing", lang, name=name)
    return t("thenumber.reveal.exhausted", lang, name=name)


def board_line(crossed: frozenset[int]) -> str:
    """A board in full, crossed digits struck through (``/digits``)."""
    return " ".join(f"~~{d}~~" if d in crossed else f"**{d}**" for d in DIGITS)


def left_text(crossed: frozenset[int], lang: str) -> str:
    """The digits a board still has, spaced so they never read as a number ("0 2 5 9")."""
    return digits_text(frozenset(DIGITS) - crossed, lang)


def standings_lines(seats: Sequence[SeatInfo], view: PublicView, crossed: Mapping[str, frozenset[int]],
                    round_end: int | None, lang: str) -> str:
    """Each seat's total, best first, with its board's digits left; at a round's end, what its crossed digits
    added instead (the boards are wiped)."""
    lines = []
    for s in sorted(seats, key=lambda s: -view.totals[str(s.seat)]):
        key = str(s.seat)
        if round_end is None:
            lines.append(t("thenumber.reveal.standing", lang, name=who(s), total=view.totals[key],
                           left=left_text(crossed[key], lang)))
        else:
            turns = sum(view.points[key][round_end - 1])
            lines.append(t("thenumber.reveal.standing_end", lang, name=who(s), total=view.totals[key],
                           crossed=view.round_totals[key][round_end - 1] - turns))
    return "\n".join(lines)


def reveal_embeds(outcome: TurnOutcome, before: PublicView, after: PublicView, seats: Sequence[SeatInfo],
                  game_id: int, by_deadline: bool, lang: str) -> list[discord.Embed]:
    """A turn's reveal: the tower of numbers, then the scores with the boards after it (at a round's end, what the
    crossed digits added), and the end of the game after the last turn. ``by_deadline``: said by the missing
    seats' own lines."""
    by_key = {str(s.seat): s for s in seats}
    tower = [result_line(by_key[k], r, lang) for k, r in outcome.tower()]
    tower += [result_line(by_key[k], r, lang) for k, r in outcome.results.items() if r.number is None]
    embed = discord.Embed(title=reveal_title(outcome.round, outcome.turn, lang), colour=ACCENT,
                          description="\n".join(tower))
    round_end = outcome.round if outcome.turn == rules.TURNS_PER_ROUND else None
    # Boards as they stand after this turn, before a new round wipes them.
    crossed = {k: before.crossed[k] | r.crossed for k, r in outcome.results.items()}
    heading = ("thenumber.reveal.scores" if round_end is None else "thenumber.reveal.scores_end")
    value = standings_lines(seats, after, crossed, round_end, lang)
    if round_end is not None and round_end < rules.ROUNDS:
        value += "\n" + t("thenumber.round_end.wiped", lang)
    embed.add_field(name=t(heading, lang, round=outcome.round), value=value, inline=False)
    embed.set_footer(text=reveal_footer(game_id, lang))
    embeds = [embed]
    if after.finished:
        embeds.append(final_embed(seats, after, lang))
    return embeds


def reveal_title(round_no: int, turn: int, lang: str) -> str:
    return t("thenumber.reveal.heading", lang, turn_title=step_title(round_no, turn, lang))


def reveal_footer(game_id: int, lang: str) -> str:
    """Names the game; with the title it identifies a reveal, so a restart can see it was posted."""
    return t("thenumber.reveal.footer", lang, game=game_id)


def final_embed(seats: Sequence[SeatInfo], view: PublicView, lang: str) -> discord.Embed:
    scores = view.totals
    ranked = sorted(seats, key=lambda s: -scores[str(s.seat)])
    winners = [s for s in seats if str(s.seat) in view.winners]
    lines = []
    for s in ranked:
        totals = " + ".join(str(total) for total in view.round_totals[str(s.seat)])
        crown = " 👑" if s in winners else ""
        lines.append(f"{who(s)}: **{scores[str(s.seat)]}** ({totals}){crown}")
    names = ", ".join(who(s) for s in winners)
    headline = t("thenumber.final.shared_win" if len(winners) > 1 else "thenumber.final.winner", lang, names=names)
    return discord.Embed(title=t("thenumber.final.title", lang), description="\n".join([headline, "", *lines]),
                         colour=discord.Colour.gold())


# /score and /digits ---------------------------------------------------------------------------
def score_embed(view: PublicView, seats: Sequence[SeatInfo], status: str, lang: str) -> discord.Embed:
    embed = discord.Embed(title=t("thenumber.score.title", lang), colour=ACCENT)
    for s in seats:
        key = str(s.seat)
        rounds = []
        closed = view.round_totals[key]
        for r, turns in enumerate(view.points[key]):
            if not turns and r > 0:
                continue
            cells = " · ".join(str(p) for p in turns) or "-"
            if r < len(closed):
                rounds.append(t("thenumber.score.round_done", lang, round=r + 1, cells=cells,
                                crossed=closed[r] - sum(turns),
                                total=closed[r]))
            else:
                rounds.append(t("thenumber.score.round_open", lang, round=r + 1, cells=cells))
        rounds.append(t("thenumber.score.total", lang, total=view.totals[key]))
        embed.add_field(name=who(s)[:256], value="\n".join(rounds), inline=False)
    if status == "running":
        waiting = ", ".join(who(s) for s in seats if s.awaited) or t("thenumber.score.nobody", lang)
        embed.description = t("thenumber.score.waiting", lang, turn_title=turn_title(view, lang), names=waiting)
    elif status == "finished":
        embed.description = t("thenumber.score.final", lang)
    return embed


def digits_embed(seat: SeatInfo, view: PublicView, lang: str) -> discord.Embed:
    crossed = view.crossed[str(seat.seat)]
    available = frozenset(DIGITS) - crossed
    embed = discord.Embed(title=t("thenumber.digits.title", lang, name=seat.name), colour=seat_style(seat.seat).colour)
    embed.description = t("thenumber.digits.description", lang, board=board_line(crossed),
                          available=digits_text(available, lang), crossed=len(crossed))
    return embed


# Private lines ----------------------------------------------------------------------------------
def ack_text(number: str, channel_id: int, changed: bool, complete: bool, lang: str, *, round_no: int,
             turn: int) -> str:
    """Sent ONLY to the author of ``number``; names the turn it counts for (a DM may cross a reveal)."""
    text = t("thenumber.ack.changed" if changed else "thenumber.ack.locked", lang, number=number,
             channel=f"<#{channel_id}>",
             round=round_no, turn=turn)
    return text + (t("thenumber.ack.complete", lang) if complete else "")


def join_dm_text(channel_id: int, lang: str) -> str:
    return t("thenumber.dm.join", lang, channel=f"<#{channel_id}>")


def rules_embeds(lang: str) -> tuple[discord.Embed, discord.Embed]:
    """The rules in two sections, each short enough to read: how to play, the bonus of each turn."""
    body = t("thenumber.rules.body", lang, min=rules.MIN_SEATS, max=rules.MAX_SEATS, rounds=rules.ROUNDS,
             turns=rules.TURNS_PER_ROUND)
    bonus = " · ".join(t("thenumber.rules.bonus_item", lang, turn=i, bonus=b) for i, b in enumerate(rules.TURN_BONUS,
                                                                                                    start=1))
    return (discord.Embed(title=t("thenumber.rules.title", lang), colour=ACCENT, description=body),
            discord.Embed(title=t("thenumber.rules.bonus_title", lang), colour=ACCENT, description=bonus))

