"""The documentation says what the code does: the reveal picture, the command table, permissions, no machine paths."""

import re
import subprocess
import warnings
from pathlib import Path

import discord
from discord import app_commands

from bench.report import METHOD, results_markdown
from bot.client import NumberBot
from bot.settings import Settings
from tests.reveal_picture import fenced, picture, readme_block

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_reveal_picture_is_what_the_embed_code_renders() -> None:
    # Regenerate with: python -m tests.reveal_picture --write
    assert readme_block(README) == fenced(picture())
    shown = picture()
    assert "✅ approved" in shown and "❌ eliminated" in shown and "⌛ missing" in shown
    assert "🔺 Ana 7 · 0 2 4 6 7 8 9" in shown  # each score with its board's digits left (issue 36)


async def _code_commands(tmp_path: Path) -> dict[str, list[str]]:
    """Every slash command the bot registers (each game of the tuple's group, the shared ones), by its full
    name, with its option names."""
    bot = NumberBot(Settings(_env_file=None, database_path=tmp_path / "readme.db"))  # type: ignore[call-arg]
    await bot.store.open()
    try:
        for extension in bot.extensions_to_load:
            await bot.load_extension(extension)
        found: dict[str, list[str]] = {}
        for command in bot.tree.get_commands():
            subcommands = command.commands if isinstance(command, app_commands.Group) else [command]
            for sub in subcommands:
                assert isinstance(sub, app_commands.Command)
                found[f"/{sub.qualified_name}"] = [p.display_name for p in sub.parameters]
        return found
    finally:
        await bot.close()


def _readme_commands() -> dict[str, list[str]]:
    section = README.split("### Slash commands", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in section.splitlines() if line.startswith("| `/")]
    table: dict[str, list[str]] = {}
    for row in rows:
        command, options = (cell.strip() for cell in row.strip("|").split("|")[:2])
        # Option names are the code spans outside parentheses (inside them: ranges and choices).
        names = re.findall(r"`([a-z_]+)`", re.sub(r"\([^)]*\)", "", options))
        table[command.strip("`")] = names
    return table


async def test_readme_command_table_lists_every_slash_command_with_its_options(tmp_path: Path) -> None:
    """Every command of every game the table documents, and the shared ones, exactly. A game of the tuple whose
    group has no row yet (just added: its two packages and the tuple entry are all the code it needs) is reported
    as a warning, not a failure; docs/adding-a-game.md asks for its rows."""
    code, readme = await _code_commands(tmp_path), _readme_commands()
    documented = {name.split()[0] for name in readme}
    missing = sorted({name.split()[0] for name in code if " " in name} - documented)
    for group in missing:
        warnings.warn(f"README.md documents no {group} command yet (docs/adding-a-game.md)", stacklevel=1)
    assert readme == {name: options for name, options in code.items() if name.split()[0] not in missing}


def test_readme_invite_permissions_cover_what_the_bot_needs() -> None:
    needed = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, attach_files=True)
    assert f"permissions={needed.value}" in README and f"`{needed.value}`" in README


def test_readme_quick_start_is_a_newcomers_full_path() -> None:
    start = README.split("## Quick start", 1)[1].split("## ", 1)[0]
    for step in ("git clone", "cd number-games-bot", "python3 -m venv .venv && . .venv/bin/activate",
                 "pip install -e '.[dev]'", "`pip install -e .` is enough",
                 "PostgreSQL", "127.0.0.1:5432"):
        assert step in start, step
    assert re.search(r"about \d+ minutes on two cores", start)  # how long the tests take (the figure changes)
    blocks = start.split("```sh\n")[1:]
    install, play = (block.split("```")[0].strip() for block in blocks[:2])
    assert install.startswith("git clone URL ") and install.endswith("pip install -e '.[dev]'")
    assert play == "python -m bot play"  # one command per block: pasting the first does not start a game
    assert "pytest" not in install + play and "URL" in start.split("```sh")[0]  # the clone URL is explained
    assert "### Troubleshooting" in README
    trouble = README.split("### Troubleshooting", 1)[1].split("\n## ", 1)[0]
    for topic in ("DM", "permission", "slash commands do not show up", ".env"):
        assert topic in trouble, topic


def test_no_machine_paths_in_the_repository() -> None:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    skip = {".git", ".venv", "venv", "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis", "data"}
    files = listed.stdout.split() if listed.returncode == 0 else [  # not a git checkout: every source file
        str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if not skip & set(p.relative_to(ROOT).parts)]
    machine_path = re.compile(r"(?<![\w.~])/(?:work|tmp|root|home)/")
    offenders = []
    for name in files:
        path = ROOT / name
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        offenders += [f"{name}:{n}" for n, line in enumerate(text.splitlines(), 1) if machine_path.search(line)]
    assert not offenders, offenders


def test_bench_results_page_is_one_generated_table() -> None:
    page = (ROOT / "bench" / "RESULTS.md").read_text(encoding="utf-8")
    assert page.count("| figure | median |") == 1 and METHOD in page
    payload = {"machine": {"cpu_model": "test"}, "quick": True,
               "figures": {"a": {"label": "A | b", "unit": "x", "median": 2.0, "min": 1.0, "max": 3.0, "repeats": 3,
                                 "target": "<= 5", "met": True, "note": "n"}}}
    made = results_markdown(payload)
    assert "| A \\| b | 2.00 | 1.00-3.00 (3) | x | <= 5 | met |" in made and "smoke run" in made
