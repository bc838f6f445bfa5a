"""bench.capture plays every registered game to its end and tells it as players saw it, with counts that add up.

Each game of ``bot.games.GAMES`` is captured at 2 seats (one simulated human, one AI; 40 s turns on the fake
clock, the reminder 30 s before the deadline, half the moves made after it), without the OpenAPI check to keep
it quick (the Discord tests check bodies).
The transcript must show the final result (every seat's name and final score, on the last channel message) and
every private thing each human got (their forms and private answers, under their name only); each count must
equal what the fake Discord stored or logged.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from bench.capture import Capture, capture
from bench.capture_render import message_body, readable_text, walk
from bot.core.table import fold
from bot.games import GAMES
from cogs.seats import plain_name
from tests.fakediscord.state import BOT_USER_ID
from tests.fakediscord.visible import visible_text

INTERACTION_PATH = re.compile(r"^/(interactions|webhooks)/")


@pytest.fixture(scope="module", params=[g.key for g in GAMES])
def captured(request: pytest.FixtureRequest) -> Capture:
    """One capture per game, shared by the module's tests (each is a whole game)."""
    return asyncio.run(capture(request.param, 2, 1, seed=3, turn_seconds=40, late=0.5, validate=False))


def channel_messages(result: Capture) -> list[Any]:
    fake = result.played.fake
    return [m for m in fake.messages(result.played.world.general) if m.author_id == BOT_USER_ID]


def test_the_game_is_played_to_its_end_and_its_result_is_shown(captured: Capture) -> None:
    played = captured.played
    assert played.record.status == "finished"
    game = next(g for g in GAMES if g.key == played.key)
    state, _ = fold(game, played.record)
    result = game.result(state)
    assert result is not None
    final = visible_text(channel_messages(captured)[-1])
    for seat in played.record.seats:
        assert plain_name(seat.name, seat.is_ai) in final, (seat.name, final)  # an AI's shown "Ada 🤖"
        assert str(result.scores[seat.seat]) in final, (seat.name, result.scores, final)
    # the transcript ends with that message, as posted (or last edited)
    last_block = captured.text.rsplit("── bot ", 1)[1]
    assert str(result.scores[0]) in last_block and "#general" in last_block.splitlines()[0]


def test_each_human_sees_their_private_prompts_under_their_name_only(captured: Capture) -> None:
    played, text = captured.played, captured.text
    fake = played.fake
    for name in played.humans:
        user = played.world.users[name]
        shown = user.user.display_name
        private = fake.ephemeral_for(user)
        assert len(re.findall(rf"bot posts M\d+ \[private answer, only {shown} sees it\]", text)) == sum(
            1 for m in private if m.author_id == BOT_USER_ID)
        assert len(re.findall(rf"bot posts M\d+ \[DM to {shown}\]", text)) == len(fake.dms(user))
        opened = [r for r in fake.world.interactions.values() if r.user_id == user.id and r.modal is not None]
        assert text.count(f"bot opens a form for {shown}:") == len(opened)
        for result in opened:  # the form's title is in the transcript
            assert result.modal["title"] in text
        # every step that waited for this human shows them something to act on, and they acted
        assert f"» {shown} presses" in text or f"» {shown} picks" in text
    counts = captured.counts
    if played.key == "thenumber":  # a form each turn
        assert counts["modals_total"] == 10
    if played.key == "binomial":  # one private sheet, opened once and edited at each of the 16 rolls (issue 36)
        assert 1 <= counts["private"]["per_player_by_kind"]["place"]["ephemeral"]["max"] <= 2


def test_the_counts_add_up_to_what_the_fake_stored(captured: Capture) -> None:
    played, counts = captured.played, captured.counts
    fake = played.fake
    messages = channel_messages(captured)
    assert counts["channel"]["posts"] == len(messages)
    assert counts["channel"]["edits"] == sum(len(m.history) - 1 for m in messages)
    requests = fake.requests[played.first_request:]
    uploaded = [size for r in requests for _, size in r.files]
    assert counts["channel"]["uploads"] + counts["private"]["uploads"] == len(uploaded)
    assert counts["channel"]["upload_bytes"] <= sum(uploaded)
    assert sum(counts["rest"].values()) == len(requests)
    assert counts["rest_per_human_action"]["total"] <= counts["rest"]["rate_limited"]
    assert counts["rest"]["interaction_answers"] == sum(bool(INTERACTION_PATH.match(r.path)) for r in requests)
    for name in played.humans:
        user = played.world.users[name]
        shown = user.user.display_name
        assert counts["private"]["dms"].get(shown, 0) == len(fake.dms(user))
        assert counts["private"]["ephemeral"].get(shown, 0) == len(fake.ephemeral_for(user))
        made = [r for r in fake.world.interactions.values() if r.user_id == user.id and r.type in (3, 5)]
        assert counts["clicks"][shown] == len(made)
    assert counts["channel"]["turn_messages"]["n"] >= 1
    assert counts["channel"]["longest_chars"] >= counts["channel"]["turn_messages"]["max"]
    assert not fake.violations
    assert counts["secrets_seen"] == []
    # the reminder's moments are in the transcript and counted, whatever the bot then said
    assert counts["reminders"]["times"] == captured.text.count("the reminder timer runs") >= 1


def test_components_v2_are_drawn_and_their_text_counted() -> None:
    """The redesign's messages (Components V2) are drawn as players see them: a container with its accent, text
    displays, a section with its button beside the text, a gallery's picture with its alt text and size."""
    version = {"flags": 1 << 15, "attachments": [{"filename": "board.png", "size": 45_000}], "components": [
        {"type": 17, "accent_color": 0x1ABC9C, "components": [
            {"type": 10, "content": "## Numeri · round 3 of 20"},
            {"type": 9, "components": [{"type": 10, "content": "Ana rolled **4**"}],
             "accessory": {"type": 2, "style": 1, "label": "Token 4", "custom_id": "play:numeri:1:7:0"}},
            {"type": 12, "items": [{"media": {"url": "attachment://board.png"}, "description": "Ana leads"}]},
            {"type": 14},
            {"type": 1, "components": [
                {"type": 2, "style": 2, "label": "Pass", "custom_id": "play:numeri:1:7:1", "disabled": True},
                {"type": 3, "custom_id": "play:numeri:1:7:pick", "placeholder": "Split",
                 "options": [{"label": "2 + 2", "value": "0"}]}]}]}]}
    lines = message_body(version)
    assert lines[0] == "╔══ accent #1abc9c" and lines[-1] == "╚══"
    assert "║ ## Numeri · round 3 of 20" in lines
    assert "║ Ana rolled **4**   [Token 4]" in lines
    assert "║ <picture board.png, 43.9 KB — alt: Ana leads>" in lines
    assert "║ [~Pass~] <▾ Split: 2 + 2>" in lines
    assert not any(line.startswith("<file") for line in lines)  # the gallery shows the file already
    assert readable_text(version) == "## Numeri · round 3 of 20\nAna rolled **4**"


TURN_MESSAGE_LIMIT = 600  # readable characters (issue 36): a turn message is read on a phone


def test_the_number_turn_messages_are_short_at_four_seats() -> None:
    """Every version of every turn message of a whole 4-seat game of The Number (3 humans and an AI, as in
    bench/CAPTURE.md), reveal of the turn before and reminder line included, reads in at most 600 characters:
    what Discord shows (content, embed titles, descriptions, fields, footers). Before issue 36: about 980."""
    result = asyncio.run(capture("thenumber", 4, 3, seed=1, turn_seconds=60, validate=False))
    turn_ids = re.compile(r"^play:thenumber:\d+:\d+:")
    measured = []
    for message in channel_messages(result):
        for version in message.history:
            if any(turn_ids.match(str(c.get("custom_id", ""))) for c in walk(version.get("components") or [])):
                measured.append(readable_text(version))
    assert len(measured) >= 10  # ten turns, each posted then edited as the humans choose
    longest = max(measured, key=len)
    assert len(longest) <= TURN_MESSAGE_LIMIT, (len(longest), longest)
    assert "The Number · round 1 of 2 · turn 1 of 5" in measured[0]
