"""Every Discord message of The Number, in one place. Functions return text and embeds only.

Secrets: nothing here ever reads ``GameState.pending`` except :func:`ack_text`, which goes privately
to the author of the number.
"""

import discord

from bot.games.thenumber import rules
from bot.games.thenumber.check import SeatResult, Status
from bot.games.thenumber.engine import GameState, TurnOutcome
from bot.games.thenumber.errors import format_digits
from bot.services.thenumber import Table, TurnReport, seat_key
from cogs.seats import safe_name, seat_style
from storage.base import GameRecord, SeatRecord

ACCENT = discord.Colour.from_rgb(88, 101, 242)
DIGITS = range(rules.DIGIT_COUNT)


def who(seat: SeatRecord) -> str:
    style = seat_style(seat.seat)
    robot = " 🤖" if seat.is_ai else ""
    return f"{style.symbol} {safe_name(seat.name)}{robot}"


def minutes(seconds: int) -> str:
    return f"{seconds // 60} min {seconds % 60} s" if seconds % 60 and seconds > 60 else (
        f"{seconds // 60} min" if seconds >= 60 else f"{seconds} s")


# Lobby ------------------------------------------------------------------------------------------
def lobby_embed(record: GameRecord, turn_seconds: int) -> discord.Embed:
    seated = record.seated
    lines = [f"{who(s)}{' (host)' if s.user_id == record.host_id else ''}" for s in seated]
    embed = discord.Embed(title="The Number: join the table", colour=ACCENT)
    embed.description = (
        f"Everyone secretly picks a three-digit number each turn; a number sharing a digit with any smaller "
        f"one is eliminated. {rules.MIN_SEATS}-{rules.MAX_SEATS} players, 2 rounds of 5 turns, "
        f"{minutes(turn_seconds)} per turn.\nPress **Join** to take a seat; the host presses **Start**."
    )
    embed.add_field(name=f"Seats ({len(seated)}/{rules.MAX_SEATS})", value="\n".join(lines) or "nobody yet",
                    inline=False)
    if len(seated) == rules.MIN_SEATS:
        low, high = rules.BEST_SEATS
        embed.set_footer(text=f"Two players can play, but {low}-{high} play best.")
    return embed


def lobby_closed_embed(record: GameRecord, headline: str) -> discord.Embed:
    embed = discord.Embed(title="The Number", description=headline, colour=discord.Colour.dark_grey())
    if record.seated:
        embed.add_field(name="Players", value="\n".join(who(s) for s in record.seated), inline=False)
    return embed


# Turn status ------------------------------------------------------------------------------------
def turn_title(state: GameState) -> str:
    return f"Round {state.round} of {rules.ROUNDS} · Turn {state.turn} of {rules.TURNS_PER_ROUND}"


def status_embed(table: Table, channel_hint: str = "") -> discord.Embed:
    state, record = table.state, table.record
    awaiting = {s.seat for s in table.awaiting()}
    away = table.away()
    bonus = rules.bonus_for(state.turn)
    lines = []
    for seat in record.seats:
        key = seat_key(seat)
        if seat.state != "seated":
            mark = "left the game" if seat.state == "left" else "removed by the host"
        elif state.is_exhausted(key):
            mark = "sits out (no digit left)"
        elif seat.seat in awaiting:
            mark = "⏳ choosing" + (" · away" if seat.seat in away else "")
        else:
            mark = "✅ has chosen"
        lines.append(f"{who(seat)}: {mark}")
    double = " First digits count **double** this turn." if state.turn == rules.TURNS_PER_ROUND else ""
    deadline = f"<t:{int(record.deadline)}:R>" if record.deadline else "when everyone has chosen"
    embed = discord.Embed(title=f"{turn_title(state)}: choose your number", colour=ACCENT)
    embed.description = (
        f"Biggest approved number gets **+{bonus}**.{double}\n"
        f"Reveal {deadline}, or as soon as everyone has chosen.\n"
        f"Press **Choose secretly** or send me your number in a DM{channel_hint}."
    )
    embed.add_field(name="Players", value="\n".join(lines), inline=False)
    return embed


# Reveal -----------------------------------------------------------------------------------------
def result_line(seat: SeatRecord, r: SeatResult) -> str:
    name = who(seat)
    if r.status is Status.APPROVED:
        first = int(r.number[0]) if r.number else 0
        parts = f"{first}×{rules.LAST_TURN_MULTIPLIER}" if r.points - r.bonus != first else f"{first}"
        bonus = f" + {r.bonus} bonus 🏆" if r.bonus else ""
        return f"`{r.number}` {name}: ✅ approved, **{r.points}** ({parts}{bonus})"
    if r.status is Status.ELIMINATED:
        shared = " and ".join(str(d) for d in r.shared)
        return f"`{r.number}` {name}: ❌ eliminated, shares {shared} with {r.blocker}"
    if r.status is Status.INVALID:
        return f"`{r.number}` {name}: 🚫 invalid, uses a crossed-off digit"
    if r.status is Status.MISSING:
        return f"`---` {name}: ⌛ missing, no number in time (0, keeps every digit)"
    return f"`---` {name}: 💤 sits out, every digit crossed off"


def board_line(crossed: frozenset[int]) -> str:
    return " ".join(f"~~{d}~~" if d in crossed else f"**{d}**" for d in DIGITS)


def boards_text(record: GameRecord, state_crossed: dict[str, frozenset[int]]) -> str:
    return "\n".join(f"{who(s)}: {board_line(state_crossed[seat_key(s)])}" for s in record.seats)


def reveal_embeds(report: TurnReport) -> list[discord.Embed]:
    record, outcome, after = report.table.record, report.outcome, report.table.state
    seats = {seat_key(s): s for s in record.seats}
    tower = [result_line(seats[k], r) for k, r in outcome.tower()]
    tower += [result_line(seats[k], r) for k, r in outcome.results.items() if r.number is None]
    title = f"Round {outcome.round} · Turn {outcome.turn}: reveal"
    embed = discord.Embed(title=title, colour=ACCENT)
    why = "the timer ran out" if report.reason == "deadline" else "everyone has chosen"
    embed.description = "Biggest on top:\n" + "\n".join(tower) + f"\n\n*Revealed because {why}.*"
    # Boards as they stand after this turn, before a new round wipes them.
    crossed = {k: report.before.crossed[k] | r.crossed for k, r in outcome.results.items()}
    embed.add_field(name="Boards (crossed digits struck through)", value=boards_text(record, crossed), inline=False)
    embed.add_field(name="Scores", value=scores_text(record, after), inline=False)
    embeds = [embed]
    if report.round_ended:
        embeds.append(round_end_embed(record, after, outcome.round))
    if report.finished:
        embeds.append(final_embed(record, after))
    return embeds


def scores_text(record: GameRecord, state: GameState) -> str:
    ranked = sorted(record.seats, key=lambda s: -state.running_total(seat_key(s)))
    return "\n".join(f"{who(s)}: **{state.running_total(seat_key(s))}**" for s in ranked)


def round_end_embed(record: GameRecord, state: GameState, round_no: int) -> discord.Embed:
    lines = []
    for s in record.seats:
        key = seat_key(s)
        turns = sum(state.points[key][round_no - 1])
        crossed = state.round_bonus[key][round_no - 1]
        total = state.round_totals(key)[round_no - 1]
        lines.append(f"{who(s)}: {turns} from turns + {crossed} crossed digits = **{total}**")
    after = "Boards are wiped for round 2." if round_no < rules.ROUNDS else ""
    return discord.Embed(title=f"End of round {round_no}", description="\n".join(lines) + f"\n{after}".rstrip(),
                         colour=discord.Colour.gold())


def final_embed(record: GameRecord, state: GameState) -> discord.Embed:
    scores = state.final_scores()
    ranked = sorted(record.seats, key=lambda s: -scores[seat_key(s)])
    winners = [s for s in record.seats if seat_key(s) in state.winners()]
    lines = []
    for s in ranked:
        totals = " + ".join(str(t) for t in state.round_totals(seat_key(s)))
        crown = " 👑" if s in winners else ""
        lines.append(f"{who(s)}: **{scores[seat_key(s)]}** ({totals}){crown}")
    names = ", ".join(who(s) for s in winners)
    headline = f"Shared win: {names}!" if len(winners) > 1 else f"Winner: {names}!"
    return discord.Embed(title="Game over", description=f"{headline}\n\n" + "\n".join(lines),
                         colour=discord.Colour.gold())


# /score and /digits ---------------------------------------------------------------------------
def score_embed(table: Table) -> discord.Embed:
    record, state = table.record, table.state
    embed = discord.Embed(title="The Number: scoreboard", colour=ACCENT)
    for s in record.seats:
        key = seat_key(s)
        rounds = []
        for r, turns in enumerate(state.points[key]):
            if not turns and r > 0:
                continue
            cells = " · ".join(str(p) for p in turns) or "-"
            if r < len(state.round_bonus[key]):
                rounds.append(f"R{r + 1}: {cells} + {state.round_bonus[key][r]} crossed = "
                              f"{state.round_totals(key)[r]}")
            else:
                rounds.append(f"R{r + 1}: {cells}")
        embed.add_field(name=who(s)[:256], value="\n".join(rounds) + f"\nTotal **{state.running_total(key)}**",
                        inline=False)
    if record.status == "running":
        waiting = [who(s) for s in table.awaiting()]
        embed.description = (f"{turn_title(state)}. Still to choose: {', '.join(waiting) or 'nobody'}.")
    elif record.status == "finished":
        embed.description = "Final scores."
    return embed


def digits_embed(seat: SeatRecord, state: GameState) -> discord.Embed:
    key = seat_key(seat)
    crossed = state.crossed[key]
    embed = discord.Embed(title=f"Board of {safe_name(seat.name)}", colour=seat_style(seat.seat).colour)
    embed.description = (f"{board_line(crossed)}\nAvailable: {format_digits(state.available(key))} · "
                         f"crossed off: {len(crossed)}")
    return embed


# Private lines ----------------------------------------------------------------------------------
def ack_text(number: str, channel_id: int, changed: bool, complete: bool) -> str:
    """Sent ONLY to the author of ``number``."""
    verb = "Changed to" if changed else "Locked in"
    tail = " Everyone has chosen: revealing now." if complete else ""
    return f"{verb} {number} for the game in <#{channel_id}>; you can change it until the reveal.{tail}"


def join_dm_text(channel_id: int) -> str:
    return (f"You joined The Number in <#{channel_id}>. When a turn starts, send me your three-digit number "
            f"here (like 407), or press **Choose secretly** on the turn's message. You can change it until "
            f"the reveal. `/thenumber rules` explains the game.")


def reminder_text(channel_id: int, state: GameState, seconds_left: int) -> str:
    return (f"⏰ {seconds_left} s left to choose your number for turn {state.turn} of round {state.round} "
            f"in <#{channel_id}>. Reply here with three digits.")


NO_GAME_DM = ("You are not in a game of The Number right now. Start one in a server channel with "
              "`/thenumber start`, or join one with its **Join** button; then send me your numbers here.")


def rules_embed() -> discord.Embed:
    bonus = " · ".join(f"turn {i}: +{b}" for i, b in enumerate(rules.TURN_BONUS, start=1))
    embed = discord.Embed(title="The Number: how to play", colour=ACCENT)
    embed.description = (
        f"**{rules.MIN_SEATS}-{rules.MAX_SEATS} players, {rules.ROUNDS} rounds of {rules.TURNS_PER_ROUND} turns.**\n"
        "1. **Choose.** Everyone privately picks a number from 000 to 999 using only digits still on their "
        "board (repeats like 111 are fine).\n"
        "2. **Check.** All numbers are shown, biggest on top. A number that has a digit in common with any "
        "smaller number is eliminated, even if that smaller one is eliminated too. Equal numbers never knock "
        "each other out.\n"
        "3. **Score.** An approved number scores its first digit; the biggest approved number also takes the "
        "turn's bonus (shared if several wrote it). On the last turn of a round the first digit counts double "
        "before the bonus. Approved numbers cross their digits off the board; eliminated ones cost nothing.\n"
        "4. **Round end.** Each crossed-off digit is worth 1 point. Boards are wiped for round 2.\n"
        "No digit left? You sit out until the round ends. No number in time? 0 for that turn.\n"
        "The highest total after two rounds wins; ties share the win."
    )
    embed.add_field(name="Bonus for the biggest approved number", value=bonus, inline=False)
    return embed


def outcome_summary(outcome: TurnOutcome) -> str:
    """A one-line plain-text summary (for logs at DEBUG and notifications)."""
    approved = sum(r.status is Status.APPROVED for r in outcome.results.values())
    return f"round {outcome.round} turn {outcome.turn}: {approved} approved"
