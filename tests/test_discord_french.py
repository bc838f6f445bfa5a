"""The bot in French: a whole game on a French server, a French player on an English one, the server
setting that forces a language, and the slash commands' French names."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n import catalog
from tests.conftest import FakeClock
from tests.discord_world import World, eventually, make_world
from tests.fakediscord import FakeDiscord
from tests.reference_scorer import score_game
from tests.test_discord_play import SCRIPT


@pytest.fixture
async def french_server(fake_discord: FakeDiscord, db_path: Path, clock: FakeClock) -> AsyncIterator[World]:
    world = await make_world(fake_discord, db_path, clock)
    world.speak("fr")
    yield world
    await world.stop_bot()


def no_english(text: str) -> None:
    for word in ("round", "turn", "approved", "eliminated", "digits left", "Winner", "To choose",
                 "Locked in", "crossed off"):
        assert word not in text, (word, text)


async def test_a_whole_game_in_french(french_server: World) -> None:
    world = french_server
    opened = await (await world.users["ana"].slash(world.general, "thenumber start")).wait()
    assert "The Number : prenez place" in opened.text() and "Rejoindre" in opened.text()
    for name in ("ben", "cy"):
        await (await world.users[name].click(opened.message, "Rejoindre")).wait()
    await (await world.users["ana"].click(opened.message, "Lancer")).wait()
    status = await world.wait_status("manche 1 sur 2 · tour 1 sur 5")
    assert "Choisir en secret" in world.fake.visible_text(status)
    ack = await world.dm("ana", "761")
    assert ack == f"761 enregistré pour la manche 1, tour 1 de la partie de <#{world.general.id}> ; vous pouvez " \
                  "le changer jusqu'à la révélation."
    refused = await world.dm("ben", "5a3")
    assert refused.startswith("Ce n'est pas un nombre jouable : il faut trois chiffres, par exemple 407.")
    form = await world.modal("ben", "513")
    assert (await world.answer(form)).startswith("513 enregistré")
    await world.dm("cy", "444")
    first = await eventually(lambda: world.reveals_fr(), what="the French reveal")
    text = world.fake.visible_text(first[0])
    assert "The Number · manche 1 sur 2 · tour 1 sur 5 · révélation" in text
    assert "`761` 🔺 Ana ❌ éliminé : partage le 1 avec 513" in text
    assert "`513` 🔷 Ben ✅ validé **+7** (5 + 2 🏆)" in text
    no_english(text)

    played = [SCRIPT[0]]
    for index, turn in enumerate(SCRIPT[1:], start=1):
        await world.wait_status(f"manche {index // 5 + 1} sur 2 · tour {index % 5 + 1} sur 5")
        table = await world.bot.service.table(1)
        legal = {n: v for n, v in turn.items()
                 if not {int(c) for c in v} & table.state.crossed[str(("ana", "ben", "cy").index(n))]}
        played.append(legal)
        before = len(world.reveals_fr())
        for name, number in legal.items():
            await world.dm(name, number)
        if len(legal) < 3:
            await world.advance(61)
        await eventually(lambda n=before: len(world.reveals_fr()) > n, what="the next reveal")
    final = world.fake.visible_text(world.reveals_fr()[-1])
    names = {"ana": "Ana", "ben": "Ben", "cy": "Cy"}
    expected = score_game(list(names.values()), [[{names[k]: v for k, v in t.items()} for t in played[:5]],
                                                 [{names[k]: v for k, v in t.items()} for t in played[5:]]])
    assert "The Number · fin de la partie" in final and "Scores · fin de la manche 2" in final
    assert ("Victoire partagée" if len(expected["winners"]) > 1 else "Victoire :") in final
    for name, total in expected["final"].items():
        assert f"{name} : **{total}**" not in final and f"{name}: **{total}**" in final
    no_english(final)
    score = await (await world.users["ana"].slash(world.general, "score")).wait()
    assert "tableau des scores" in score.text() and "Scores finaux." in score.text()


async def test_a_french_player_on_an_english_server(fake_discord: FakeDiscord, db_path: Path,
                                                    clock: FakeClock) -> None:
    world = await make_world(fake_discord, db_path, clock)
    try:
        world.users["ben"].user.locale = "fr"
        await world.start_game(("ana", "ben"))
        assert "round 1 of 2" in world.fake.visible_text(world.status_message())  # the channel stays English
        form = await world.modal("ben", "5a3")
        assert form.content.startswith("Ce n'est pas un nombre jouable")  # private lines follow the player
        answer = await (await world.users["ben"].slash(world.general, "thenumber rules")).wait()
        assert "comment jouer" in answer.text() and "tour 5 : +8" in answer.text()
        assert (await world.dm("ben", "513")).startswith("513 enregistré")
    finally:
        await world.stop_bot()


async def test_the_server_can_force_a_language(fake_discord: FakeDiscord, db_path: Path, clock: FakeClock) -> None:
    world = await make_world(fake_discord, db_path, clock)
    try:
        refused = await (await world.users["ben"].slash(world.general, "thenumber language", language="fr")).wait()
        assert refused.ephemeral and "Manage Server" in refused.content
        admin = world.fake.add_user("admin", display_name="Admin")
        world.fake.add_member(world.guild, admin, permissions=["manage_guild"])
        done = await (await admin.slash(world.general, "thenumber language", language="fr")).wait()
        assert done.content == "Désormais, je parle français sur ce serveur."
        status = await world.start_game(("ana", "ben"))
        assert "manche 1 sur 2" in world.fake.visible_text(status)
        assert (await world.dm("ana", "513")).startswith("513 enregistré")  # English users too
        await world.restart()  # the setting is stored
        assert (await world.dm("ana", "514")).startswith("Remplacé par 514")
        back = await (await admin.slash(world.general, "thenumber language", language="auto")).wait()
        assert back.content == "From now on I follow each person's Discord language in this server."  # the admin's
        digits = await (await world.users["ana"].slash(world.general, "digits")).wait()
        assert "Board of Ana" in digits.text()  # private answers follow ana's own language again
        # and so do her DMs, now that the bot has heard from her (the game's own language is only the fallback)
        assert (await world.dm("ana", "513")).startswith("Changed to 513")
        # ben has not been heard from since the restart: the game's language (French, as it was opened)
        assert (await world.dm("ben", "240")).startswith("240 enregistré")
    finally:
        await world.stop_bot()


async def test_slash_commands_have_french_names_and_descriptions(fake_discord: FakeDiscord, db_path: Path,
                                                                 clock: FakeClock) -> None:
    world = await make_world(fake_discord, db_path, clock)
    try:
        synced = {c["name"]: c for c in world.fake.world.commands[None]}
        group = synced["thenumber"]
        assert group["description_localizations"]["fr"] == catalog("fr")["thenumber.cmd.thenumber.desc"]
        start = next(o for o in group["options"] if o["name"] == "start")
        assert start["name_localizations"]["fr"] == "lancer"
        option = next(o for o in start["options"] if o["name"] == "turn_seconds")
        assert option["name_localizations"]["fr"] == "secondes_par_tour"
        level = next(o for o in start["options"] if o["name"] == "ai_level")
        assert {c["name_localizations"]["fr"] for c in level["choices"]} == {"facile", "normal", "difficile"}
        assert synced["digits"]["name_localizations"]["fr"] == "chiffres"
    finally:
        await world.stop_bot()
