"""Writing YAML that people edit by hand without losing their comments.

:func:`update_yaml_text` takes the file's current text and the new data and returns the new
text: the document is round-tripped through ruamel.yaml and each changed value is replaced in
place, so comments, key order, quoting styles, indentation and keys the program does not know
stay as the person wrote them, and a diff of the file shows only what changed.

Only call this on text the safe reader (:func:`lwcore.io.load_yaml`) has accepted: the
limits against alias bombs and deep nesting are enforced there, not here.
"""

from __future__ import annotations

import re
from typing import Any

from lwcore.io.safe_yaml import load_yaml


def dump_yaml(data: Any) -> str:
    """Plain block-style YAML (UTF-8 text, keys in the given order, no aliases)."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class _NoAliases(dumper):  # type: ignore[misc,valid-type]  # the dumper class is chosen at run time (C or pure Python)
        def ignore_aliases(self, data: Any) -> bool:
            return True

    return yaml.dump(data, Dumper=_NoAliases, allow_unicode=True, sort_keys=False, default_flow_style=False)


def update_yaml_text(old_text: str, new_data: Any) -> str:
    """The text of a YAML file holding ``new_data``, written as ``old_text`` was: its comments,
    key order, quoting, flow or block style and indentation kept for every value that did not
    change. With no old text (a new file), plain block-style YAML.

    The common case -- only scalar values changed (a variable's value, a sheet's stat) -- is a
    splice of the new scalars into the old text (:func:`splice_scalars`), checked by reading
    the result back; anything else goes through ruamel.yaml's round trip.
    """
    if not old_text.strip():
        return dump_yaml(new_data)
    spliced = splice_scalars(old_text, new_data)
    if spliced is not None:
        return spliced
    from io import StringIO

    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.allow_unicode = True
    yaml.width = 4096
    yaml.preserve_quotes = True
    yaml.representer.add_representer(
        type(None), lambda rep, _: rep.represent_scalar("tag:yaml.org,2002:null", "null")
    )
    mapping, sequence, offset = guess_indents(old_text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    doc = _merge(yaml.load(old_text), new_data)
    out = StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


def splice_scalars(old_text: str, new_data: Any) -> str | None:
    """``old_text`` with each changed scalar replaced in place, or ``None`` when the change is
    more than that (a key added or removed, a list resized, a multi-line scalar) or the result
    would not read back as ``new_data``."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        node = yaml.compose(old_text, Loader=loader)
    except yaml.YAMLError:
        return None
    for plain in (True, False):  # keep plain scalars plain where they read back the same
        edits: list[tuple[int, int, str]] = []
        if node is None or not _collect(node, new_data, edits, plain):
            return None
        if not edits:
            return old_text
        out = old_text
        for start, end, text in sorted(edits, reverse=True):
            out = out[:start] + text + out[end:]
        try:
            if load_yaml(out) == new_data:
                return out
        except Exception:  # noqa: BLE001 - any doubt: try quoting, then the slow, sure path
            continue
    return None


_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^:#,\[\]{}\n]*(?<!\s)")


def _collect(node: Any, new: Any, edits: list[tuple[int, int, str]], plain: bool) -> bool:
    import yaml

    if isinstance(node, yaml.MappingNode):
        if not isinstance(new, dict):
            return False
        keys = []
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                return False
            keys.append(key_node.value)
            if key_node.value not in new or not _collect(value_node, new[key_node.value], edits, plain):
                return False
        return len(keys) == len(new) and set(keys) == {str(k) for k in new}
    if isinstance(node, yaml.SequenceNode):
        if not isinstance(new, list) or len(new) != len(node.value):
            return False
        return all(_collect(child, value, edits, plain) for child, value in zip(node.value, new))
    if not isinstance(node, yaml.ScalarNode) or isinstance(new, (dict, list)):
        return False
    old = _scalar(node)
    if type(old) is type(new) and old == new:
        return True
    if node.start_mark.line != node.end_mark.line or node.style in ("|", ">"):
        return False
    text = _scalar_text(new, plain=plain and not node.style)
    if text is None:
        return False
    edits.append((node.start_mark.index, node.end_mark.index, text))
    return True


def _scalar(node: Any) -> Any:
    import yaml

    try:
        return yaml.constructor.SafeConstructor().construct_object(node)
    except Exception:  # noqa: BLE001
        return object()


def _scalar_text(value: Any, *, plain: bool) -> str | None:
    import json
    import math

    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else None
    if isinstance(value, str):
        if "\n" in value:
            return None
        if plain and _PLAIN.fullmatch(value):
            return value
        return json.dumps(value, ensure_ascii=False)
    return None


def guess_indents(text: str) -> tuple[int, int, int]:
    """``(mapping indent, sequence indent, dash offset)`` as the file's author wrote them
    (ruamel's names): found from the first block mapping and block list nested under a key;
    2/2/0 where the text shows none."""
    mapping = offset = None
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    for parent, child in zip(lines, lines[1:]):
        head = parent.strip()
        if not head.endswith(":") or head.startswith("- "):
            continue
        step = (len(child) - len(child.lstrip())) - (len(parent) - len(parent.lstrip()))
        if step <= 0:
            continue
        if child.lstrip().startswith("- "):
            offset = step if offset is None else offset
        elif mapping is None:
            mapping = step
    offset = offset or 0
    return mapping or 2, offset + 2, offset


def _merge(node: Any, new: Any) -> Any:
    """``new`` written into ``node`` (a ruamel round-trip value), reusing ``node``'s
    containers and scalars wherever the value did not change."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap) and isinstance(new, dict):
        for key in [k for k in node if k not in new]:
            del node[key]
        for key, value in new.items():
            if key not in node:
                node[key] = _commented(value)
                continue
            old = node[key]
            comments = node.ca.items.get(key)
            # the comment after a block container hangs on its last value while it has one,
            # on the key while it is empty: move it when the container empties or fills
            emptied = bool(_last_slot(old)) and isinstance(value, (dict, list)) and not value
            filled = not _last_slot(old) and isinstance(value, (dict, list)) and bool(value)
            tail = _take_tail(old) if emptied else None
            if filled and comments and comments[2] is not None and not comments[2].value.partition("\n")[0].strip():
                tail, comments[2] = comments[2], None
            node[key] = _merge(old, value)
            if tail is not None and emptied:
                node[key].fa.set_flow_style()  # an empty block container is written [] / {}
                node.ca.items.setdefault(key, [None, None, None, None])[2] = tail
            elif tail is not None:
                _put_tail(node[key], tail)
        return node
    if isinstance(node, CommentedSeq) and isinstance(new, list):
        tail = _take_tail(node)
        for index, value in enumerate(new):
            if index < len(node):
                node[index] = _merge(node[index], value)
            else:
                node.append(_commented(value))
        del node[len(new):]
        if tail is not None:
            _put_tail(node, tail)
        return node
    if _same_scalar(node, new):
        return node
    return _commented(new)


def _last_slot(node: Any) -> tuple[Any, Any, int] | None:
    """Where ruamel keeps the comment that follows a block container: on its deepest last
    value (``(container, key or index, slot in ca.items)``), or ``None`` when it is empty."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    while True:
        if isinstance(node, CommentedMap) and len(node):
            key, slot = list(node)[-1], 2
        elif isinstance(node, CommentedSeq) and len(node):
            key, slot = len(node) - 1, 0
        else:
            return None
        child = node[key]
        if isinstance(child, (CommentedMap, CommentedSeq)) and len(child) and not child.fa.flow_style():
            node = child
            continue
        return node, key, slot


def _take_tail(node: Any) -> Any:
    """Detach the comment after the block container ``node`` (ruamel hangs it on the last
    value, so a value appended after it would land below the comment)."""
    where = _last_slot(node)
    if where is None:
        return None
    container, key, slot = where
    entry = container.ca.items.get(key)
    if not entry or entry[slot] is None:
        return None
    import copy

    token = entry[slot]
    line, _, rest = token.value.partition("\n")
    if not line.strip():
        entry[slot] = None
        return token
    if not rest.strip():
        return None
    kept, moved = copy.copy(token), copy.copy(token)  # the end-of-line comment stays with its value
    kept.value, moved.value = line + "\n", "\n" + rest
    entry[slot] = kept
    return moved


def _put_tail(node: Any, token: Any) -> None:
    """Hang ``token`` (from :func:`_take_tail`) on the new last value of ``node``."""
    where = _last_slot(node)
    if where is None:
        return
    container, key, slot = where
    entry = container.ca.items.setdefault(key, [None, None, None, None])
    if entry[slot] is not None:  # an end-of-line comment kept there: the lines follow it
        entry[slot].value = entry[slot].value.rstrip("\n") + token.value
    else:
        entry[slot] = token


def _commented(value: Any) -> Any:
    """``value`` as ruamel round-trip containers (so a comment can hang on it)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, dict):
        return CommentedMap((k, _commented(v)) for k, v in value.items())
    if isinstance(value, list):
        return CommentedSeq(_commented(v) for v in value)
    return value


def _same_scalar(old: Any, new: Any) -> bool:
    if isinstance(old, (dict, list)) or isinstance(new, (dict, list)):
        return False
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool) and old == new
    if isinstance(old, str) != isinstance(new, str):
        return False
    return bool(old == new)
