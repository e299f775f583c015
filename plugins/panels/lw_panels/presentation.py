"""Presentation kits (M19): a pack's brief for a stage director (``lw schema ui-presentation``).

.. code-block:: yaml

    version: 2
    generation: allow            # or pack_only: only the pack's own pictures, whatever the operator says
    templates: [title_card, letter]   # what the director may stage (left out: all of
                                      # image, title_card, letter, clipping, text, map_pin)
    style:
      keywords: {en: "ink wash, muted indigo", zh: "水墨, 靛青"}
      banned: [text overlays, modern clothing]
      palette: ["#16232e", wet slate blue]
    subjects:                    # what may be pictured; one without ref is never generated
      - {id: gu-wantang, kind: npc, name: {en: Gu Wantang, zh: 顾晚棠}, ref: assets/gu.png,
         prompt: "a woman in her thirties, plain dark coat"}
    audio:
      - {id: tide, layer: bgm, asset: assets/tide.mp3, title: {zh: 潮涌}}

A room's kit is what its enabled packs' kits allow together (:func:`room_kit`): any
``pack_only`` stops generation for the whole room, ``templates`` are the intersection, and
subjects and cues are named ``<pack>/<id>``. It rides every :class:`~lwcore.contributions.StageBeat`
as data; :func:`stage` wakes the registered directors (``lw_stage_directors``) only in a room
that has a kit, and keeps only what the kit allows (:func:`check_performance`): the
performance blocks (``title_card``, ``letter``, ``clipping``, ``image``, ``text``, ``map_pin``,
an ``audio`` cue) and a director's warm-up wish (``prepare``: a subject it expects to need soon).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, StringConstraints, TypeAdapter, ValidationError, field_validator, model_validator

from lw_panels.located import read_yaml_file, validate
from lw_panels.packs import AUDIO_MIMES, IMAGE_MIMES, Asset, AssetReader, sniff_mime
from lwcore.api import Label, LongText, LwError, LwErrors, Src, StageBeat, Strict, localized, resolve

if TYPE_CHECKING:
    from lwcore.api import Kernel, Room

TEMPLATES = ("image", "title_card", "letter", "clipping", "text", "map_pin")
SLUG = r"^[a-z0-9][a-z0-9-]{0,63}$"
_COLOR = re.compile(r"^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[A-Za-z][A-Za-z \-]{0,39})$")

Short = Annotated[str, StringConstraints(min_length=1, max_length=80)]


class Style(Strict):
    keywords: Label | None = None
    banned: Annotated[list[Short], Field(max_length=24)] = []
    palette: Annotated[list[Short], Field(max_length=8)] = []

    @field_validator("palette")
    @classmethod
    def _colors(cls, value: list[str]) -> list[str]:
        bad = [c for c in value if not _COLOR.match(c)]
        if bad:
            raise ValueError(f"palette entries are #rgb, #rrggbb or colour words: {', '.join(bad)}")
        return value


class Subject(Strict):
    """Something that may be pictured: without ``ref`` it may be named, never generated."""

    id: Annotated[str, StringConstraints(pattern=SLUG)]
    kind: Literal["npc", "location", "item"]
    name: Label
    ref: Src | None = None
    prompt: Annotated[str, StringConstraints(max_length=1000)] | None = None


class Cue(Strict):
    id: Annotated[str, StringConstraints(pattern=SLUG)]
    layer: Literal["bgm", "ambience", "sfx"]
    asset: Src
    title: Label | None = None


class KitFile(Strict):
    """``ui/presentation.yaml`` (version 2)."""

    version: Literal[2]
    generation: Literal["allow", "pack_only"] = "allow"
    templates: Annotated[list[Literal["image", "title_card", "letter", "clipping", "text", "map_pin"]],
                         Field(min_length=1, max_length=len(TEMPLATES))] | None = None
    style: Style = Style()
    subjects: Annotated[list[Subject], Field(max_length=64)] = []
    audio: Annotated[list[Cue], Field(max_length=32)] = []

    @model_validator(mode="after")
    def _unique(self) -> KitFile:
        for name, items in (("templates", self.templates or []), ("subjects", [s.id for s in self.subjects]),
                            ("audio", [c.id for c in self.audio])):
            if len(set(items)) != len(items):
                raise ValueError(f"{name} lists an entry twice")
        return self


@dataclass(frozen=True)
class Kit:
    """A loaded kit: the file, and the content address of every picture and cue it names."""

    pack: str
    file: KitFile
    assets: dict[str, Asset]

    def to_data(self) -> dict[str, Any]:
        def address(rel: str | None) -> dict[str, Any] | None:
            asset = self.assets.get(rel) if rel else None
            return {"hash": asset.sha256, "mime": asset.mime} if asset else None

        data = self.file.model_dump(mode="json", exclude_none=True)
        for subject in data["subjects"]:
            subject["ref"] = address(subject.get("ref"))
        for cue in data["audio"]:
            cue["asset"] = address(cue["asset"])
        return data


def load_kit(pack_id: str, rel: str, reader: AssetReader) -> Kit:
    """The kit at ``rel`` in pack ``pack_id``; every problem located (:class:`LwErrors` when several)."""
    data, positions, file = read_yaml_file(reader, rel, "presentation file")
    parsed, problems = validate(KitFile, data, file, positions)
    if parsed is None:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)
    assets: dict[str, Asset] = {}
    wanted = [(("subjects", i, "ref"), s.ref, IMAGE_MIMES) for i, s in enumerate(parsed.subjects) if s.ref]
    wanted += [(("audio", i, "asset"), c.asset, AUDIO_MIMES) for i, c in enumerate(parsed.audio)]
    for path, src, kinds in wanted:
        pos = positions.find(path)
        line = pos.line if pos else None
        try:
            asset, data_bytes = reader.read(src, file=file, line=line)
        except LwError as exc:
            problems.append(exc)
            continue
        mime = sniff_mime(data_bytes, src) if kinds is IMAGE_MIMES else asset.mime
        if mime not in kinds:
            what = "a PNG, JPEG, WebP, GIF or SVG picture" if kinds is IMAGE_MIMES else "an audio file"
            problems.append(LwError(f"{src} is not {what}", file=file, line=line, column=pos.column if pos else None))
            continue
        assets[src] = asset
    if problems:
        raise problems[0] if len(problems) == 1 else LwErrors(problems)
    return Kit(pack_id, parsed, assets)


def room_kit(kits: list[Kit], locale: str = "en") -> dict[str, Any] | None:
    """What the kits of a room's enabled packs allow together, as data (``None``: no kit, so
    no director ever wakes in this room)."""
    if not kits:
        return None
    allowed = set(TEMPLATES)
    for kit in kits:
        if kit.file.templates:
            allowed &= set(kit.file.templates)
    generation = "pack_only" if any(k.file.generation == "pack_only" for k in kits) else "allow"
    subjects, audio, style = [], [], {}
    for kit in kits:
        data = kit.to_data()
        style[kit.pack] = {**data.get("style", {}),
                           "keywords": localized(kit.file.style.keywords, locale)
                           if isinstance(kit.file.style.keywords, dict) else kit.file.style.keywords}
        for subject in data["subjects"]:
            name = subject["name"]
            subjects.append({**subject, "id": f"{kit.pack}/{subject['id']}",
                             "name": localized(name, locale) if isinstance(name, dict) else name,
                             "generate": generation == "allow" and subject.get("ref") is not None})
        audio += [{**cue, "id": f"{kit.pack}/{cue['id']}"} for cue in data["audio"]]
    return {"packs": [k.pack for k in kits], "generation": generation,
            "templates": [t for t in TEMPLATES if t in allowed], "style": style,
            "subjects": subjects, "audio": audio}


# --- what a director may answer ---------------------------------------------------------


class TitleCard(Strict):
    kind: Literal["title_card"]
    title: Label
    subtitle: Label | None = None
    act: Label | None = None


class Letter(Strict):
    kind: Literal["letter"]
    body: LongText
    sender: Label | None = Field(default=None, alias="from")
    to: Label | None = None
    date: Label | None = None


class Clipping(Strict):
    kind: Literal["clipping"]
    headline: Label
    body: LongText
    source: Label | None = None
    date: Label | None = None


class Picture(Strict):
    """A picture of a kit subject (``subject: pack/id``, generated by the host from its
    reference) or one of the packs' own (``hash``)."""

    kind: Literal["image"]
    subject: str | None = None
    hash: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")] | None = None
    caption: Label | None = None


class Words(Strict):
    kind: Literal["text"]
    text: LongText


class MapPin(Strict):
    """A pin on the table's map: ``label`` (the place), on ``map`` (one of the kit's own
    pictures, by hash) at ``x``/``y`` (percent from the picture's left and top) when given."""

    kind: Literal["map_pin"]
    label: Label
    map: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")] | None = None
    x: Annotated[float, Field(ge=0, le=100)] | None = None
    y: Annotated[float, Field(ge=0, le=100)] | None = None
    note: Label | None = None

    @model_validator(mode="after")
    def _both(self) -> MapPin:
        if (self.x is None) != (self.y is None):
            raise ValueError("a pin gives both x and y, or neither")
        if self.x is not None and self.map is None:
            raise ValueError("a pin placed at x/y needs the map it is on")
        return self


class Sound(Strict):
    kind: Literal["audio"]
    cue: str


class Prepare(Strict):
    """Not shown: a subject the director expects to need soon (warm-up)."""

    kind: Literal["prepare"]
    subject: str


Performance = Annotated[TitleCard | Letter | Clipping | Picture | Words | MapPin | Sound | Prepare,
                        Field(discriminator="kind")]
_PERFORMANCE: TypeAdapter[Any] = TypeAdapter(Performance)


def check_performance(raw: Any, kit: dict[str, Any]) -> tuple[Any | None, str | None]:
    """``(block, None)`` when the kit allows ``raw``, else ``(None, why)``."""
    try:
        block = _PERFORMANCE.validate_python(raw)
    except ValidationError as exc:
        return None, f"not a performance block: {exc.errors(include_url=False)[0]['msg']}"
    own = {s["ref"]["hash"] for s in kit["subjects"] if s.get("ref")}
    if block.kind == "prepare":
        subject = next((s for s in kit["subjects"] if s["id"] == block.subject), None)
        if subject is None or not subject["generate"]:
            return None, f"{block.subject} cannot be prepared: it may not be generated here"
        return block, None
    if block.kind != "audio" and block.kind not in kit["templates"]:
        return None, f"the room's kit does not allow {block.kind}"
    if block.kind == "map_pin" and block.map is not None and block.map not in own:
        return None, "a pin's map must be one of the kit's own pictures"
    if block.kind == "audio" and block.cue not in {c["id"] for c in kit["audio"]}:
        return None, f"no cue {block.cue!r} in the room's kit"
    if block.kind == "image":
        if (block.subject is None) == (block.hash is None):
            return None, "an image names exactly one of subject and hash"
        if block.subject is not None:
            subject = next((s for s in kit["subjects"] if s["id"] == block.subject), None)
            if subject is None:
                return None, f"no subject {block.subject!r} in the room's kit"
            if not subject["generate"]:
                why = "the kit says pack_only" if kit["generation"] == "pack_only" else "it has no reference image"
                return None, f"{block.subject} may not be generated: {why}"
        elif block.hash not in own:
                return None, "a picture by hash must be one of the kit's own"
    return block, None


def stage(kernel: Kernel, room: Room, kind: str, *, kit: dict[str, Any] | None,
          facts: dict[str, Any] | None = None, locale: str = "en") -> tuple[list[dict[str, Any]], list[str]]:
    """Wake the registered directors on a beat of ``kind`` in ``room``: ``(the performance
    blocks the kit allows, as data, in order; what was refused and why)``. No kit, no
    director: ``([], [])`` -- and no director is called."""
    if kit is None:
        return [], []
    beat = StageBeat(kind, room.file.id, room.turn_number, kit, facts or {}, locale)
    shown: list[dict[str, Any]] = []
    refused: list[str] = []
    for director_id, director in kernel.stage_directors.items():
        plugin = kernel.stage_directors.origin(director_id)
        try:
            answer = resolve(director.direct)(beat)
            items = list(answer or [])
        except Exception as exc:  # noqa: BLE001 - a director's failure loses its beat only
            kernel.plugin_failed(plugin, f"stage director {director_id!r} failed: {type(exc).__name__}: {exc}")
            refused.append(f"{director_id}: failed")
            continue
        for raw in items:
            block, why = check_performance(raw, kit)
            if block is None:
                refused.append(f"{director_id}: {why}")
            else:
                shown.append(block.model_dump(mode="json", by_alias=True, exclude_none=True))
    return shown, refused
