"""Writing YAML that people edit by hand without losing their comments.

:func:`update_yaml_text` takes the file's current text and the new data and returns the new
text. When the old text holds comments, the document is round-tripped through ruamel.yaml:
each changed value is replaced in place, so comments, key order, quoting styles and keys the
program does not know stay as the person wrote them. A file with no comments is written by
the fast plain dumper (its text is the same either way, bar formatting).

Only call this on text the safe reader (:func:`lwcore.io.load_yaml`) has accepted: the
limits against alias bombs and deep nesting are enforced there, not here.
"""

from __future__ import annotations

from typing import Any


def dump_yaml(data: Any) -> str:
    """Plain block-style YAML (UTF-8 text, keys in the given order, no aliases)."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class _NoAliases(dumper):  # type: ignore[misc,valid-type]
        def ignore_aliases(self, data: Any) -> bool:
            return True

    return yaml.dump(data, Dumper=_NoAliases, allow_unicode=True, sort_keys=False, default_flow_style=False)


def has_comments(text: str) -> bool:
    """Whether ``text`` might hold a YAML comment (a ``#``; a false positive only costs speed)."""
    return "#" in text


def update_yaml_text(old_text: str, new_data: Any) -> str:
    """The text of a YAML file holding ``new_data``, keeping ``old_text``'s comments."""
    if not has_comments(old_text):
        return dump_yaml(new_data)
    from io import StringIO

    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.allow_unicode = True
    yaml.width = 4096
    yaml.preserve_quotes = True
    doc = yaml.load(old_text)
    doc = _merge(doc, new_data)
    out = StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


def _merge(node: Any, new: Any) -> Any:
    """``new`` written into ``node`` (a ruamel round-trip value), reusing ``node``'s
    containers and scalars wherever the value did not change."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap) and isinstance(new, dict):
        for key in [k for k in node if k not in new]:
            del node[key]
        for key, value in new.items():
            node[key] = _merge(node[key], value) if key in node else value
        return node
    if isinstance(node, CommentedSeq) and isinstance(new, list):
        for index, value in enumerate(new):
            if index < len(node):
                node[index] = _merge(node[index], value)
            else:
                node.append(value)
        del node[len(new):]
        return node
    if _same_scalar(node, new):
        return node
    return new


def _same_scalar(old: Any, new: Any) -> bool:
    if isinstance(old, (dict, list)) or isinstance(new, (dict, list)):
        return False
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool) and old == new
    if isinstance(old, str) != isinstance(new, str):
        return False
    return bool(old == new)
