"""What a person is told about a pack, in their language: the trust card and the refusals.

The trust card is disclosure, not a gate: what is inside (counts per kind), whether it ships
code that runs in the sandbox (hooks JS, EJS templates, rules scripts, prep scripts), whether a
presentation kit may spend the operator's image budget, and how heavy its media is. The same
lines go to a terminal before the operator confirms and into a room's receipt.

Messages exist in English and Chinese (:data:`MESSAGES`); any other locale reads English.
"""

from __future__ import annotations

from collections.abc import Mapping

from lwcore.contributions import localized
from lwcore.pack.contents import KNOWN_KINDS
from lwcore.pack.manifest import BuiltManifest

MESSAGES: dict[str, dict[str, str]] = {
    "engine": {
        "en": "this pack needs lwcore {required} or newer; this is lwcore {current}. Update Loreweaver, then install it again.",
        "zh": "这个内容包需要 lwcore {required} 或更新版本，当前是 lwcore {current}。请先升级 Loreweaver，再重新安装。",
    },
    "header": {"en": "Pack {name} ({key})", "zh": "内容包 {name}（{key}）"},
    "by": {"en": "by {authors} · license {license}", "zh": "作者 {authors} · 许可 {license}"},
    "contains": {"en": "contains: {items}", "zh": "内容：{items}"},
    "nothing": {"en": "nothing", "zh": "无"},
    "code": {"en": "code run in the sandbox: hooks JS {hooks}, EJS templates {ejs}, rules scripts {rules}, prep scripts {prep}",
             "zh": "在沙箱里运行的代码：hooks JS {hooks}，EJS 模板 {ejs}，规则脚本 {rules}，备团脚本 {prep}"},
    "yes": {"en": "yes", "zh": "有"},
    "no": {"en": "no", "zh": "无"},
    "rules_script": {"en": "a rules script decides the checks of a rule system in this pack.",
                     "zh": "这个包里有规则脚本：它决定某个规则系统的检定结果。"},
    "world_cards": {"en": "{count} world card(s): module machinery a keeper imports into a room.",
                    "zh": "{count} 张世界卡：守秘人导入房间的模组机关。"},
    "presets": {"en": "{count} prompt preset(s): text folded into a room's style when a keeper enables one.",
                "zh": "{count} 个提示预设：守秘人启用后并入房间的风格层。"},
    "imagegen": {"en": "presentation kit: {count} subject(s); it MAY spend your image-generation budget.",
                 "zh": "演出资料包：{count} 个对象；它可能花费你的出图预算。"},
    "pack_only": {"en": "presentation kit: {count} subject(s), staged with the pack's own art only.",
                  "zh": "演出资料包：{count} 个对象，只用包里自带的美术。"},
    "media": {"en": "media: {count} file(s), {size}", "zh": "媒体素材：{count} 个文件，{size}"},
    "confirm": {"en": "Install this pack?", "zh": "安装这个内容包？"},
    "not_interactive": {
        "en": "not installed: no terminal to confirm on. Read the trust card above, then run again with --yes.",
        "zh": "未安装：没有可以确认的终端。请阅读上面的信任卡，然后加 --yes 重新运行。",
    },
    "declined": {"en": "not installed.", "zh": "未安装。"},
    "risk": {
        "en": "Installed at your word: its hooks and scripts run in the sandbox of this server and its text reaches your model.",
        "zh": "按你的指令已安装：它的 hooks 与脚本在本服务器的沙箱中运行，它的文本会进入你的模型。",
    },
    "installed": {"en": "installed {key} into {home}", "zh": "已安装 {key} 到 {home}"},
    "landed": {"en": "discoverable now: {targets}", "zh": "现在可发现：{targets}"},
    "room_local": {
        "en": "this install takes https:// or gh:owner/repo[@tag] only; a local path names a file on the server",
        "zh": "这次安装只接受 https:// 或 gh:owner/repo[@tag]；本地路径指的是服务器上的文件",
    },
}

KIND_WORDS: dict[str, dict[str, str]] = {
    "rulepacks": {"en": "rulepacks", "zh": "规则包"},
    "skills": {"en": "skills", "zh": "技能"},
    "cards": {"en": "cards", "zh": "卡"},
    "worldbooks": {"en": "world books", "zh": "世界书"},
    "presets": {"en": "presets", "zh": "预设"},
    "panels": {"en": "panel files", "zh": "面板文件"},
    "presentation": {"en": "presentation kits", "zh": "演出资料包"},
    "prep": {"en": "prep scripts", "zh": "备团脚本"},
}


def message(name: str, locale: str, /, **values: object) -> str:
    """The message ``name`` in ``locale`` (its language, then English), filled in."""
    return localized(MESSAGES[name], locale).format(**values)


def pick_locale(explicit: str | None, env: Mapping[str, str]) -> str:
    """The locale to speak: ``explicit``, else ``LW_LOCALE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
    (``zh_CN.UTF-8`` -> ``zh-CN``), else English."""
    for value in (explicit, env.get("LW_LOCALE"), env.get("LC_ALL"), env.get("LC_MESSAGES"), env.get("LANG")):
        if value and value not in ("C", "POSIX"):
            return value.split(".")[0].replace("_", "-")
    return "en"


def trust_card(manifest: BuiltManifest, locale: str) -> list[str]:
    """The trust card of a built pack, one line each."""
    t = manifest.trust
    yes, no = message("yes", locale), message("no", locale)
    flag = {True: yes, False: no}
    name = manifest.title(locale)
    lines = [message("header", locale, name=name, key=manifest.key)]
    description = manifest.description if isinstance(manifest.description, str) else localized(manifest.description, locale)
    lines.append(description)
    lines.append(message("by", locale, authors=", ".join(manifest.authors) or "-", license=manifest.license or "-"))
    separator = "、" if locale.startswith("zh") else ", "
    items = separator.join(f"{count} {localized(KIND_WORDS.get(kind, {'en': kind}), locale)}"
                      for kind, count in t.counts.items()) or message("nothing", locale)
    lines.append(message("contains", locale, items=items))
    lines.append(message("code", locale, hooks=flag[t.has_hooks], ejs=flag[t.has_ejs], rules=flag[t.has_rules_script],
                         prep=t.prep_scripts or no))
    if t.has_rules_script:
        lines.append(message("rules_script", locale))
    if t.world_cards:
        lines.append(message("world_cards", locale, count=t.world_cards))
    if t.presets:
        lines.append(message("presets", locale, count=t.presets))
    if t.presentation_subjects:
        lines.append(message("imagegen" if t.imagegen else "pack_only", locale, count=t.presentation_subjects))
    size = f"{t.asset_bytes / 1_000_000:.1f} MB" if t.asset_bytes >= 100_000 else f"{t.asset_bytes / 1000:.1f} KB"
    lines.append(message("media", locale, count=t.assets, size=size))
    for kind, items_ in sorted(manifest.contents.items()):
        for item in items_:
            if item.notes is not None:
                notes = item.notes if isinstance(item.notes, str) else localized(item.notes, locale)
                lines.append(f"{item.path}: {notes}")
    return lines


__all__ = ["KIND_WORDS", "KNOWN_KINDS", "MESSAGES", "message", "pick_locale", "trust_card"]
