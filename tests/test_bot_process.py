"""End to end: ``python -m bot`` as a separate process, talking to the fake Discord over the gateway."""

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.discord_world import eventually
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[1]


def bot_env(fake: FakeDiscord, db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(DISCORD_TOKEN=fake.token, DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY_URL=fake.gateway_url,
               DATABASE_PATH=str(db), TURN_SECONDS="60", LOG_LEVEL="INFO")
    return env


def test_without_a_token_the_bot_exits_2_with_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": ""}  # empty beats any .env (the environment wins)
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "DISCORD_TOKEN" in done.stderr


async def test_the_bot_process_plays_a_turn_over_the_gateway(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    ana, ben = fake.add_user("ana", display_name="Ana"), fake.add_user("ben", display_name="Ben")
    guild = fake.add_guild("Number Night", members=[ana, ben])
    general = fake.add_channel(guild, "general")
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path,
                                                env=bot_env(fake, tmp_path / "bot.sqlite3"),
                                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        await eventually(lambda: fake.gateway.active and fake.requests_to("PUT", r"/commands$"),
                         what="the bot to connect and sync its commands")
        assert fake.gateway.active[0].intents & (1 << 15) == 0  # no message_content: not privileged
        opened = await (await ana.slash(general, "thenumber start")).wait()
        await (await ben.click(opened.message, "Join")).wait()
        await (await ana.click(opened.message, "Start")).wait()
        await ana.send_dm("513")
        await eventually(lambda: fake.dms(ana) and "Locked in 513" in fake.dms(ana)[-1].content)
        await ben.send_dm("240")
        reveal = await eventually(lambda: [m for m in fake.messages(general) if " · reveal" in fake.visible_text(m)],
                                  what="the reveal")
        assert "`513` 🔺 Ana ✅ approved **+7**" in fake.visible_text(reveal[0])
    finally:
        proc.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), 20)
    log = err.decode()
    assert "Traceback" not in log, log
    # pending numbers never reach the logs at INFO (as whole numbers: session ids are random digits)
    assert not re.search(r"(?<![0-9a-f])(513|240)(?![0-9a-f])", log), log
