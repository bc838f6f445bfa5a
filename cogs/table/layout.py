"""A table's messages as Discord's Components V2 (the ``IS_COMPONENTS_V2`` message flag), from the presenters' cards.

Presenters keep drawing :class:`~cogs.table.presenter.Card` s (content, embeds, pictures) and the front end keeps
building its ``discord.ui.View`` of inputs; :func:`send_fields` / :func:`edit_fields` turn the pair into the
keywords of a ``send``/``edit`` whose body is one :class:`discord.ui.LayoutView`:

* each embed becomes a container whose accent colour is the embed's colour (:func:`accented` sets it to whose
  move it is, or what happened): its title and text in one text display, each field in one, the footer as
  small text, its image in a media gallery whose alt text is the picture's own description (the board's
  facts: no text copy of the board in the message);
* the card's content (a reminder line) is a text display above them; a card of content only is a container;
* the inputs keep their DynamicItems, hence their custom_ids: a lone button sits beside the first text (a
  section), several go in action rows under a separator in the last container (they belong to the table state
  shown).

Discord's limits hold by construction (:func:`render`): at most 40 components counted nested (a long card folds
its fields, then its footers, into its text display, then its embeds into one container; the inputs are at most
25 buttons in 5 rows), and at most 4000 characters across the text displays (the longest text is cut).

Every text display an embed became carries an ``id`` naming its embed and role, so a V2 message reads back as
the embeds it showed (:func:`embeds_of`): a restart recognises a final or a report by its title and footer as
it did with embeds, and a message posted before the upgrade (embeds, V1 rows) reads the same way.

Discord refuses ``content``/``embeds`` in a V2 body, and a message that has the flag keeps it: an edit of an
older embed message into V2 clears both (``content=None, embeds=[]``), and an edit that only removes the
inputs of a V2 message redraws it without them (:func:`without_inputs`, never ``view=None``, which would leave
an empty message).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.core.game import Prompt
from cogs.seats import seat_style

from .presenter import Card, Picture

MAX_COMPONENTS = 40  # per message, counted nested (Discord)
MAX_TEXT = 4000  # characters across a message's text displays (Discord)
MAX_GALLERY = 10  # items in a media gallery
CONTENT_ID = 900  # the card's content
EMBED_BASE, EMBED_STEP = 1000, 100  # embed i: its container is 1000 + 100 i; its parts add a role below
# roles: "### title\ntext", a text without title, the footer, the embed's image, pictures no embed shows, fields
HEAD, BODY, FOOTER, GALLERY, EXTRA, FIELD = 1, 2, 3, 4, 9, 10
TITLE_MARK, FOOTER_MARK = "### ", "-# "
FINAL_COLOUR = discord.Colour.gold()  # the end of a game, whoever won
TEXT_DISPLAY, SECTION, CONTAINER = (discord.ComponentType.text_display.value, discord.ComponentType.section.value,
                                    discord.ComponentType.container.value)  # the types _drawn writes


def turn_colour(prompt: Prompt) -> discord.Colour | None:
    """The accent of a turn message: the colour of the one seat to move; None (the game's) when several are
    awaited or their choices are sealed."""
    seats = sorted(prompt.seats)
    return seat_style(seats[0]).colour if len(seats) == 1 and not prompt.sealed else None


def accented(card: Card, colour: discord.Colour | int | None) -> Card:
    """``card`` with every embed in ``colour`` (its containers' accent): whose move, or what happened."""
    if colour is None or not card.embeds:
        return card
    embeds = []
    for embed in card.embeds:
        embed = embed.copy()
        embed.colour = colour
        embeds.append(embed)
    return replace(card, embeds=tuple(embeds))


# Building ---------------------------------------------------------------------------------------------------
@dataclass
class _Part:
    """One text display (or gallery) before it becomes an item: folded or cut while the limits say so."""

    ident: int
    text: str = ""
    pictures: tuple[tuple[str, str], ...] = ()  # a gallery's (url, alt text)


@dataclass
class _Box:
    colour: discord.Colour | None
    parts: list[_Part]


def _alt_of(url: str, pictures: Sequence[Picture]) -> str:
    name = url.removeprefix("attachment://")
    return next((p.description for p in pictures if p.filename == name), "")


def _boxes(card: Card) -> list[_Box]:
    """The card's embeds as containers' parts (an embed's author and thumbnail: no table message uses them)."""
    boxes: list[_Box] = []
    shown: set[str] = set()
    files = {f"attachment://{p.filename}" for p in card.pictures}
    for i, embed in enumerate(card.embeds[:MAX_GALLERY]):
        base = EMBED_BASE + EMBED_STEP * i
        parts: list[_Part] = []
        title, text = (embed.title or "").strip(), embed.description or ""
        if title:
            parts.append(_Part(base + HEAD, TITLE_MARK + title + ("\n" + text if text else "")))
        elif text:
            parts.append(_Part(base + BODY, text))
        for j, f in enumerate(embed.fields[:25]):
            parts.append(_Part(base + FIELD + j, f"**{f.name}**\n{f.value}"))
        image, footer = embed.image, embed.footer  # (each a proxy built anew on every read)
        url = image.url if image else None
        if url and (url in files or not url.startswith("attachment://")):  # a file not attached is not shown
            shown.add(url)
            parts.append(_Part(base + GALLERY, pictures=((url, _alt_of(url, card.pictures)),)))
        if footer and footer.text:
            parts.append(_Part(base + FOOTER, FOOTER_MARK + footer.text))
        boxes.append(_Box(embed.colour, parts))
    # pictures no embed shows: a V2 message shows only the files its components name
    rest = tuple((f"attachment://{p.filename}", p.description) for p in card.pictures
                 if f"attachment://{p.filename}" not in shown)[:MAX_GALLERY]
    if rest:
        if not boxes:
            boxes.append(_Box(None, []))
        boxes[-1].parts.append(_Part(EMBED_BASE + EMBED_STEP * (len(boxes) - 1) + EXTRA, pictures=rest))
    return boxes


def _fold(box: _Box, roles: Iterable[int]) -> None:
    """Fold the parts of ``roles`` (FIELD: every field) into the box's text display (one component left)."""
    wanted = set(roles)
    folded = [p for p in box.parts if not p.pictures and _role(p.ident) in wanted]
    if not folded:
        return
    head = next((p for p in box.parts if not p.pictures and _role(p.ident) in (HEAD, BODY)), None)
    if head is None:
        head = _Part(folded[0].ident - (folded[0].ident - EMBED_BASE) % EMBED_STEP + BODY, "")
        box.parts.insert(0, head)
    for part in folded:
        if part is not head:
            gap = "\n" if _role(part.ident) == FOOTER else "\n\n"  # small text right under, a field apart
            head.text = gap.join(x for x in (head.text, part.text) if x)
            box.parts.remove(part)


def _role(ident: int) -> int:
    role = (ident - EMBED_BASE) % EMBED_STEP
    return FIELD if role >= FIELD else role


def _count(boxes: Sequence[_Box], content: bool, inputs: int) -> int:
    return int(content) + inputs + sum(1 + len(b.parts) for b in boxes)


def _merge(boxes: list[_Box]) -> list[_Box]:
    """Every embed in one container: one text display and one gallery (the last resort of the count)."""
    text = "\n\n".join(p.text for b in boxes for p in b.parts if not p.pictures and p.text)
    pictures = tuple(x for b in boxes for p in b.parts for x in p.pictures)[:MAX_GALLERY]
    parts = [_Part(EMBED_BASE + BODY, text)] if text else []
    if pictures:
        parts.append(_Part(EMBED_BASE + GALLERY, pictures=pictures))
    return [_Box(boxes[0].colour if boxes else None, parts)]


def _cut(texts: list[_Part], limit: int) -> None:
    """Cut the longest texts until they fit in ``limit`` characters together."""
    while (excess := sum(len(p.text) for p in texts) - limit) > 0:
        longest = max(texts, key=lambda p: len(p.text))
        if len(longest.text) <= 1:
            break
        longest.text = longest.text[:max(0, len(longest.text) - excess - 1)] + "…"


def _input_items(view: discord.ui.View | None) -> list[discord.ui.Item[Any]]:
    return list(view.children) if view is not None else []


def _rows(items: Sequence[discord.ui.Item[Any]]) -> list[discord.ui.ActionRow[Any]]:
    """The inputs in rows as a View lays them out: up to 5 buttons a row, a select alone."""
    rows: list[list[discord.ui.Item[Any]]] = []
    for item in items:
        wide = item.width >= 5
        if wide or not rows or sum(i.width for i in rows[-1]) + item.width > 5 or rows[-1][0].width >= 5:
            rows.append([item])
        else:
            rows[-1].append(item)
    return [discord.ui.ActionRow(*row) for row in rows[:5]]


def _input_count(items: Sequence[discord.ui.Item[Any]]) -> int:
    if len(items) == 1 and isinstance(_button(items[0]), discord.ui.Button):
        return 3  # a section and its accessory (the section holds a text display), or a separator, row, button
    return 1 + len(_rows(items)) + len(items)  # a separator above the rows


def _button(item: discord.ui.Item[Any]) -> discord.ui.Item[Any]:
    return item.item if isinstance(item, discord.ui.DynamicItem) else item


def _planned(card: Card, items: Sequence[discord.ui.Item[Any]]) -> tuple[str, list[_Box]]:
    """The message's content line (or "") and its containers' parts, folded and cut to Discord's limits."""
    content = (card.content or "").strip()
    boxes = _boxes(card)
    if content and not boxes:  # a line alone is a table state too: in its container
        boxes, content = [_Box(None, [_Part(EMBED_BASE + BODY, content)])], ""
    if not boxes and not content:
        boxes = [_Box(None, [_Part(EMBED_BASE + BODY, "…")])]
    spent = _input_count(items)
    for roles in ((FIELD,), (FIELD, FOOTER)):
        if _count(boxes, bool(content), spent) <= MAX_COMPONENTS:
            break
        for box in boxes:
            _fold(box, roles)
    if _count(boxes, bool(content), spent) > MAX_COMPONENTS:
        boxes = _merge(boxes)
    head = [_Part(CONTENT_ID, content)] if content else []
    _cut([*head, *(p for b in boxes for p in b.parts if not p.pictures)], MAX_TEXT)
    return (head[0].text if head else ""), boxes


def _gallery(part: _Part) -> discord.ui.MediaGallery[Any]:
    return discord.ui.MediaGallery(*(discord.MediaGalleryItem(url, description=(alt or None) and alt[:1024])
                                     for url, alt in part.pictures), id=part.ident)


def render(card: Card, inputs: discord.ui.View | None = None) -> discord.ui.LayoutView:
    """The card and its inputs as one V2 message, within Discord's limits whatever the card holds."""
    items = _input_items(inputs)
    head, boxes = _planned(card, items)
    layout = discord.ui.LayoutView(timeout=None)
    if head:
        layout.add_item(discord.ui.TextDisplay(head, id=CONTENT_ID))
    for index, box in enumerate(boxes):
        children: list[discord.ui.Item[Any]] = []
        for part in box.parts:
            if part.pictures:
                children.append(_gallery(part))
            elif part.text:
                children.append(discord.ui.TextDisplay(part.text, id=part.ident))
        last = index == len(boxes) - 1
        if last and items:
            children = _with_inputs(children, items)
        if children:
            ident = EMBED_BASE + EMBED_STEP * index
            layout.add_item(discord.ui.Container(*children, accent_colour=box.colour, id=ident))
    return layout


def _with_inputs(children: list[discord.ui.Item[Any]], items: Sequence[discord.ui.Item[Any]]
                 ) -> list[discord.ui.Item[Any]]:
    """The inputs at the end of the last container: a lone button beside its first text (a section: the
    state's headline, "choose secretly" or "play again" beside it)."""
    if len(items) == 1 and isinstance(_button(items[0]), discord.ui.Button):
        at = next((i for i, c in enumerate(children) if isinstance(c, discord.ui.TextDisplay)), None)
        if at is not None:
            text = children[at]
            return [*children[:at], discord.ui.Section(text, accessory=items[0]), *children[at + 1:]]
    return [*children, discord.ui.Separator(visible=True), *_rows(items)]


# Message keywords -------------------------------------------------------------------------------------------
def send_fields(card: Card, inputs: discord.ui.View | None = None) -> dict[str, Any]:
    """``send`` keywords: the layout and fresh files (a retried post needs new ones)."""
    return {"view": render(card, inputs), "files": [p.file() for p in card.pictures]}


def edit_fields(card: Card, inputs: discord.ui.View | None = None) -> dict[str, Any]:
    """``edit`` keywords: the layout; content and embeds cleared (a message posted before the upgrade becomes
    V2: Discord takes no content or embeds beside the flag); the pictures replace the attachments."""
    return {**_cleared(card), "view": render(card, inputs)}


def _cleared(card: Card) -> dict[str, Any]:
    return {"content": None, "embeds": [], "attachments": [p.file() for p in card.pictures]}


class Drawn:
    """A card and its inputs as the components :func:`render` would send, drawn straight as JSON: an
    interaction's update of its turn message (each choice made through it) sends them through discord.py's own
    parameters (``to_components``, ``has_components_v2``: all it reads of a view there) without building the
    layout's items (cogs/table/lean.py); ``layout()`` is the real :class:`discord.ui.LayoutView` for
    any other way of answering. ``inputs``: the view whose items it shows (discord.py's view store)."""

    __slots__ = ("_components", "card", "inputs")

    def __init__(self, card: Card, inputs: discord.ui.View | None) -> None:
        self.card, self.inputs = card, inputs
        self._components: list[dict[str, Any]] | None = None

    def layout(self) -> discord.ui.LayoutView:
        return render(self.card, self.inputs)

    def has_components_v2(self) -> bool:
        return True

    def to_components(self) -> list[dict[str, Any]]:
        if self._components is None:
            self._components = _drawn(self.card, _input_items(self.inputs))
        return self._components


def _drawn(card: Card, items: Sequence[discord.ui.Item[Any]]) -> list[dict[str, Any]]:
    """``render(card, inputs).to_components()``, the same dicts in the same order, from the same plan."""
    head, boxes = _planned(card, items)
    out: list[dict[str, Any]] = [{"type": TEXT_DISPLAY, "content": head, "id": CONTENT_ID}] if head else []
    for index, box in enumerate(boxes):
        children: list[dict[str, Any]] = []
        for part in box.parts:
            if part.pictures:
                children.append(_gallery(part).to_component_dict())
            elif part.text:
                children.append({"type": TEXT_DISPLAY, "content": part.text, "id": part.ident})
        if index == len(boxes) - 1 and items:
            lone = len(items) == 1 and isinstance(_button(items[0]), discord.ui.Button)
            at = next((i for i, c in enumerate(children) if c["type"] == TEXT_DISPLAY), None) if lone else None
            if at is not None:  # as _with_inputs: a section, the button beside the first text
                section = {"type": SECTION, "components": [children[at]], "accessory": items[0].to_component_dict()}
                children = [*children[:at], section, *children[at + 1:]]
            else:
                children += [discord.ui.Separator(visible=True).to_component_dict(),
                             *(row.to_component_dict() for row in _rows(items))]
        if children:
            accent = box.colour  # as discord.ui.Container.to_component_dict reads its accent
            colour = (accent if isinstance(accent, int) else accent.value) if accent else None
            out.append({"type": CONTAINER, "accent_color": colour, "spoiler": False, "components": children,
                        "id": EMBED_BASE + EMBED_STEP * index})
    return out


def answer_fields(card: Card, inputs: discord.ui.View | None = None) -> dict[str, Any]:
    """:func:`edit_fields` for an interaction's answer (cogs/table/answers.py ``edit``): the layout as
    :class:`Drawn` components."""
    return {**_cleared(card), "view": Drawn(card, inputs)}


def without_inputs(message: discord.Message | None) -> dict[str, Any]:
    """``edit`` keywords that remove a message's inputs and keep the rest as it reads (``view=None`` for a
    message of embeds; a V2 message is drawn again from its own components, minus rows and sections'
    buttons, its attachments kept as they are)."""
    if message is None or not message.flags.components_v2:
        return {"view": None}
    layout = discord.ui.LayoutView(timeout=None)
    for item in _copies(message.components):
        layout.add_item(item)
    return {"view": layout} if layout.children else {}


def _copies(components: Iterable[Any]) -> list[discord.ui.Item[Any]]:
    """Fresh layout items showing ``components`` (a received message's) without their inputs."""
    items: list[discord.ui.Item[Any]] = []
    for comp in components:
        if isinstance(comp, discord.components.TextDisplay):
            items.append(discord.ui.TextDisplay(comp.content, id=comp.id))
        elif isinstance(comp, discord.components.MediaGalleryComponent):
            items.append(discord.ui.MediaGallery(*(discord.MediaGalleryItem(
                i.media.url, description=i.description, spoiler=i.spoiler) for i in comp.items), id=comp.id))
        elif isinstance(comp, discord.components.SeparatorComponent):
            items.append(discord.ui.Separator(visible=comp.visible, spacing=comp.spacing, id=comp.id))
        elif isinstance(comp, discord.components.SectionComponent):
            items += _copies(comp.children)  # its text, without the button beside it
        elif isinstance(comp, discord.components.Container):
            children = _copies(comp.children)
            while children and isinstance(children[-1], discord.ui.Separator):
                children.pop()  # it stood above the rows that are gone
            if children:
                items.append(discord.ui.Container(*children, accent_colour=comp.accent_colour, id=comp.id))
    return items


# Reading a message back -----------------------------------------------------------------------------------
def _walk(components: Iterable[Any]) -> Iterator[Any]:
    for comp in components:
        yield comp
        yield from _walk(getattr(comp, "children", ()) or ())
        accessory = getattr(comp, "accessory", None)
        if accessory is not None:
            yield accessory


def custom_ids(message: discord.Message) -> list[str]:
    """The custom_ids of a message's inputs, V1 rows or V2 containers and sections alike."""
    return [str(c.custom_id) for c in _walk(message.components) if getattr(c, "custom_id", None)]


def has_inputs(message: discord.Message) -> bool:
    return bool(custom_ids(message))


def _content_of(message: discord.Message) -> str | None:
    if not message.flags.components_v2:
        return message.content or None
    return next((c.content for c in _walk(message.components)
                 if isinstance(c, discord.components.TextDisplay) and c.id == CONTENT_ID), None)


def embeds_of(message: discord.Message) -> list[discord.Embed]:
    """The embeds a message shows: its own, or the ones its V2 containers were drawn from (by their ids)."""
    if not message.flags.components_v2:
        return list(message.embeds)
    embeds: list[discord.Embed] = []
    for container in message.components:
        ident = getattr(container, "id", None)
        if not isinstance(container, discord.components.Container) or ident is None or ident < EMBED_BASE:
            continue
        embed = discord.Embed(colour=container.accent_colour)
        fields: list[tuple[int, str]] = []
        for comp in _walk(container.children):
            cid = getattr(comp, "id", None)
            if cid is None or cid < EMBED_BASE:
                continue
            role = (cid - EMBED_BASE) % EMBED_STEP
            if isinstance(comp, discord.components.TextDisplay):
                text = comp.content
                if role == HEAD:
                    first, _, rest = text.partition("\n")
                    embed.title, embed.description = first.removeprefix(TITLE_MARK), rest or None
                elif role == BODY:
                    embed.description = text
                elif role == FOOTER:
                    embed.set_footer(text=text.removeprefix(FOOTER_MARK))
                elif role >= FIELD:
                    fields.append((role, text))
            elif isinstance(comp, discord.components.MediaGalleryComponent) and comp.items and role == GALLERY:
                embed.set_image(url=comp.items[0].media.url)
        for _, text in sorted(fields):
            name, _, value = text.partition("\n")
            embed.add_field(name=name.removeprefix("**").removesuffix("**"), value=value, inline=False)
        embeds.append(embed)
    return embeds


def text_length(card: Card) -> int:
    """The characters of the card's text displays, before any cut (whether two cards fit in one message)."""
    return len((card.content or "").strip()) + sum(len(p.text) for b in _boxes(card) for p in b.parts)


def count(layout: discord.ui.LayoutView) -> int:
    """Components in the message, counted nested as Discord counts them."""
    return len(list(layout.walk_children()))
