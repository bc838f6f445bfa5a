"""Issue 36, Play again: a finished game's final message opens a new lobby here with the same options and AI seats,
its players invited (mentioned once, nobody else pinged; each confirms with Join); the button keeps answering."""

from __future__ import annotations

from tests.discord_world import World, buttons, eventually
from tests.fakediscord.state import Message


async def finish_by_timers(world: World) -> Message:
    """A whole game of The Number where nobody chooses: ten deadlines; returns the final message."""
    for turn in range(10):
        await eventually(lambda n=turn: len(world.reveals()) >= n, what=f"reveal {turn}")
        await world.advance(61)
    await eventually(lambda: len(world.reveals()) == 10, what="the last reveal")
    return world.reveals()[-1]


def labels(message: Message) -> list[str]:
    return [c.get("label", "") for c in buttons(message)]


async def test_play_again_opens_a_lobby_with_the_same_options_and_invites_the_players(world: World) -> None:
    lobby = await world.open_table(("ana", "ben"), ai_players=1, ai_level="easy", turn_seconds=60)
    started = await (await world.users["ana"].click(lobby, "Start")).wait()
    assert started.response_type in (6, 7), started.rejections  # 6: a busy machine deferred it
    await world.wait_status("turn 1 of 5")
    final = await finish_by_timers(world)
    assert (await world.bot.store.load_game(1)).status == "finished"
    assert "Play again" in labels(final)
    outsider = await (await world.users["cy"].click(final, "Play again")).wait()
    assert outsider.ephemeral and "not playing" in outsider.content  # only its players reopen it
    pressed = await (await world.users["ben"].click(final, "Play again")).wait()
    lobby = pressed.message
    assert lobby is not None and not pressed.ephemeral
    text = world.fake.visible_text(lobby)
    invite = next(c["content"] for c in lobby.components if c.get("type") == 10)  # the line above the lobby
    assert f"<@{world.users['ana'].id}>" in invite and "Press **Join**" in invite
    assert lobby.mention_ids == [world.users["ana"].id]  # ana alone is pinged (ben pressed; the AI is no user)
    assert "Ben (host)" in text and "🤖" in text and "Ana" not in text.replace(invite, "")
    new = await world.bot.store.load_game(2)
    old = await world.bot.store.load_game(1)
    assert new.status == "lobby" and new.options == old.options
    assert [s.ai_level for s in new.seats if s.is_ai] == [s.ai_level for s in old.seats if s.is_ai]
    joined = await (await world.users["ana"].click(lobby, "Join")).wait()
    assert joined.response_type == 7
    assert len((await world.bot.store.load_game(2)).seated) == 3
    # the old message's button keeps answering, and never opens a second table here
    again = await (await world.users["ana"].click(final, "Play again")).wait()
    assert again.ephemeral and "already open" in again.content
