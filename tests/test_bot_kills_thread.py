"""A table in a thread, its bot process killed with SIGKILL at 6 moments of the scripted two-round game and started
again each time: the restarted process goes on in the thread (its id is in the database, not in memory), every
turn is revealed exactly once, and the channel holds only the lobby and the final result."""

import random
from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.fakediscord.state import Channel
from tests.test_bot_kills import PLAYERS, Table

KILLS = 6


class ThreadTable(Table):
    thread: Channel | None = None

    async def open_game(self) -> None:
        ana = self.users["ana"]
        opened = await (await ana.slash(self.general, "thenumber start", thread=True)).wait()
        assert opened.message is not None
        for name in PLAYERS[1:]:
            await (await self.users[name].click(opened.message, "Join")).wait()
        await (await ana.click(opened.message, "Start")).wait()
        lobby = self.fake.world.messages[opened.message.id]
        await self.until(lambda: lobby.thread_id is not None, 30, "the table's thread")
        self.thread = self.fake.world.channels[lobby.thread_id or 0]

    def texts(self) -> list[str]:
        """The thread's messages, then the channel's after the lobby (the final result)."""
        assert self.thread is not None
        channel = [self.fake.visible_text(m) for m in self.fake.messages(self.general)]
        return [self.fake.visible_text(m) for m in self.fake.messages(self.thread)] + channel[1:]


async def test_kills_of_a_game_in_a_thread_change_nothing(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    table = ThreadTable(fake_discord, tmp_path)
    rng = random.Random(6)
    await table.start()
    await table.open_game()
    kills = 0
    try:
        while kills < KILLS:
            if await table.play_until(rng.randint(2, 6)):
                break
            kills += 1
            await table.kill()
            await table.start()
        assert await table.play_until(None)
        await table.settle()
    finally:
        if table.proc is not None and table.proc.returncode is None:
            table.proc.kill()
            await table.proc.wait()
    assert kills == KILLS, f"only {kills} kills happened before the game ended"
    titles = [t.splitlines()[0] for t in table.reveals()]
    assert titles == [f"The Number · round {i // 5 + 1} of 2 · turn {i % 5 + 1} of 5 · reveal"
                      for i in range(10)], titles
    in_channel = [fake_discord.visible_text(m) for m in fake_discord.messages(table.general)]
    assert len(in_channel) == 2 and "The Number · game over" in in_channel[1], in_channel  # the lobby and the result
    assert table.thread is not None
    assert fake_discord.visible_text(fake_discord.messages(table.thread)[-1]).startswith("The game is over")
    log = (tmp_path / "bot.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
