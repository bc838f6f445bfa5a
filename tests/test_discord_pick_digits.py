"""Issue 36, pick don't type: The Number's private form offers three digit selects listing only the player's
available digits (a Label holding a string select, validated against the OpenAPI description by the fake);
typing stays possible (the form's optional field, and DMs)."""

from __future__ import annotations

from tests.discord_world import World


def form_selects(opened) -> list[tuple[str, list[str]]]:  # type: ignore[no-untyped-def]
    """(label, offered values) of each select of the modal the bot opened."""
    return [(c["label"], [o["value"] for o in c["component"]["options"]])
            for c in opened.modal["components"] if c.get("type") == 18 and c["component"]["type"] == 3]


async def open_form(world: World, name: str):  # type: ignore[no-untyped-def]
    status = world.status_message()
    opened = await (await world.users[name].click(status, "Choose secretly")).wait()
    assert opened.response_type == 9, opened.text()
    return opened


async def test_the_form_offers_only_the_available_digits_and_a_pick_is_locked_in(world: World) -> None:
    await world.start_game(("ana", "ben"))
    opened = await open_form(world, "ana")
    selects = form_selects(opened)
    assert [label for label, _ in selects] == ["First digit (hundreds)", "Second digit (tens)", "Third digit (units)"]
    assert all(values == [str(d) for d in range(10)] for _, values in selects)
    picked = await (await world.users["ana"].submit_modal(opened, {"pick0": "4", "pick1": "0", "pick2": "8"})).wait()
    assert (await world.answer(picked)).startswith("Locked in 408")
    assert not world.fake.violations  # every body valid against the OpenAPI description
    await world.play_turn({"ben": "222"})  # ana's 408 stands; ben's 222 crosses his 2
    await world.wait_status("turn 2 of 5")
    table = await world.bot.service.table(1)
    crossed = table.state.crossed["0"]
    assert crossed  # ana's digits crossed off by the reveal are no longer offered
    opened = await open_form(world, "ana")
    for _, values in form_selects(opened):
        assert values == [str(d) for d in range(10) if d not in crossed]


async def test_typing_in_the_form_still_works(world: World) -> None:
    await world.start_game(("ana", "ben"))
    opened = await open_form(world, "ben")
    typed = await (await world.users["ben"].submit_modal(opened, {"number": "513"})).wait()
    assert (await world.answer(typed)).startswith("Locked in 513")
