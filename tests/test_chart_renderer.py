"""The score-race chart's rendering process does not outlive a bot killed with SIGKILL (it used to wait for
charts forever, with its resource tracker, after every kill -9 of the bot)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.discord_world import PATIENCE

ROOT = Path(__file__).resolve().parents[1]
# A stand-in for the bot: starts the renderer the way a final reveal does, says its pid, then waits to be killed.
CHILD = """
import os, sys
from cogs.thenumber import chart
print(chart._renderer().submit(os.getpid).result(), flush=True)
sys.stdin.read()
"""


def gone(pid: int) -> bool:
    """No such process, or only its zombie (this machine's init may be slow to reap orphans)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_the_renderer_exits_when_the_bot_is_killed() -> None:
    bot = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert bot.stdout is not None
        renderer = int(bot.stdout.readline())
        assert renderer != bot.pid and not gone(renderer)
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait(PATIENCE)
        deadline = time.monotonic() + PATIENCE
        while not gone(renderer):  # waits for the event (the renderer's exit), PATIENCE is only a safety net
            assert time.monotonic() < deadline, f"the renderer {renderer} outlived the killed bot"
            time.sleep(0.01)
    finally:
        bot.kill()
        bot.wait(PATIENCE)
