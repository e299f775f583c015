"""Hook implementations of the director plugin. Light: the director itself loads on its first beat."""

from __future__ import annotations

from lwcore.api import Register, StageDirector, hookimpl


@hookimpl
def lw_stage_directors(register: Register[StageDirector]) -> None:
    register(StageDirector("director", "lw_director.choose:direct",
                           description={"en": "stages scene, act, artefact and extreme-roll beats from the room's kit",
                                        "zh": "按房间的演出资料包上演场景、幕次、手作物与极端出目节拍"}))
