"""MagVarUpdate's update of the variable tree from a model's reply, as the tavern plugin's semantics.

What MagVarUpdate (``src/function/update_variables.ts``, ``schema.ts``) does with a reply, step
for step, so a card written against it behaves the same here:

- :func:`extract_commands` reads ``_.set|insert|assign|remove|unset|delete|add(…);`` calls
  anywhere in the reply (parentheses matched outside quotes, a ``;`` required, a ``// reason``
  kept) and the ops of every ``<JSONPatch>``/``<json_patch>`` block (read by ``parseString``:
  YAML, JSON5, then repaired JSON), in the order they appear. Bounded: the reply's characters
  scanned together at most :data:`SCAN_FACTOR` times (an unclosed call scans to the end once),
  at most :data:`MAX_COMMANDS` commands.
- each argument is read by ``parseCommandValue`` (:mod:`lw_tavern.mvu.values`: JSON, JavaScript
  literals, mathjs, YAML), each path by :func:`path_fix`;
- :func:`command_change` makes one command a change of the tree with MagVarUpdate's rules: ``set``
  on an existing path (a ``[value, "description"]`` leaf keeps its description, a number takes a
  numeric text as a number, unless ``strictSet``); ``insert``/``assign`` with the schema's
  extensibility and ``template`` (:func:`apply_template`); ``delete`` with required keys and
  non-extensible lists; ``add`` on numbers (12 significant digits) and dates (milliseconds).
  A command MagVarUpdate refuses raises :class:`~lwcore.turn.tree.TreeError` with its message.
- the **schema** (:func:`generate_schema`) is what MagVarUpdate derives from the declared data's
  ``$meta`` (``extensible``, ``recursiveExtensible``, ``required``, ``template``, the
  ``strictSet``/``strictTemplate``/``concatTemplateArray`` switches); a room keeps the one of its
  ``[InitVar]`` declarations and reconciles it with the tree before each reply.

Deliberate differences: ``move`` ops of a patch do nothing (as in MagVarUpdate); macros in a
reply are not substituted before reading (SillyTavern's ``substituteParams``); events and the
display/delta data MagVarUpdate keeps for its UI are not kept.
"""

from __future__ import annotations

import copy
import datetime
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lwcore.api import TreeChange, TreeError, tree_apply as apply

from lw_tavern.mvu import lodash as _
from lw_tavern.mvu.values import UNDEFINED, ReadError, Reader

MAX_REPLY = 512 * 1024
MAX_COMMANDS = 500
SCAN_FACTOR = 8
SCAN_FLOOR = 64 * 1024
MAX_PATCH_BLOCKS = 50
EXTENSIBLE_MARKER = "$__META_EXTENSIBLE__$"

_CALL = re.compile(r"_\.(set|insert|assign|remove|unset|delete|add)\(")
_PATCH = re.compile(r"<(json_?patch)>(?:\s*```.*)?((?:(?!<json_?patch>)[\s\S])*?)(?:```\s*)?</\1>", re.IGNORECASE | re.MULTILINE)
_PATCH_OPEN = re.compile(r"<json_?patch>", re.IGNORECASE)
_COMMENT = re.compile(r"\s*//(.*)")
ALIASES = {"remove": "delete", "assign": "insert", "unset": "delete"}


@dataclass
class Raw:
    """One command as MagVarUpdate extracts it: its type, its argument texts, its ``//`` reason."""

    type: str
    args: list[str]
    reason: str = ""
    full_match: str = ""
    index: int = 0
    values: dict[int, Any] = field(default_factory=dict)
    """Each argument read by ``parseCommandValue`` (filled by :func:`read_values`)."""


# --- extracting ---------------------------------------------------------------------------------


def trim_quotes(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    return re.sub(r"^[\\\"'` ]*(.*?)[\\\"'` ]*$", r"\1", text, flags=re.DOTALL)


def _quote_after(text: str, i: int, quote: str) -> str:
    """The quote left open after reading ``text[i]``, MagVarUpdate's rule: a quote mark not after
    a backslash opens a quote when none is open and closes the one of its own kind."""
    ch = text[i]
    if ch in "\"'`" and (i == 0 or text[i - 1] != "\\"):
        if not quote:
            return ch
        if ch == quote:
            return ""
    return quote


def _close_paren(text: str, start: int, allowance: list[int]) -> int:
    count, quote = 1, ""
    end = len(text)
    limit = min(end, start + max(allowance[0], 0))
    i = start
    while i < limit:
        ch = text[i]
        quote = _quote_after(text, i, quote)
        if not quote:
            if ch == "(":
                count += 1
            elif ch == ")":
                count -= 1
                if count == 0:
                    allowance[0] -= i - start
                    return i
        i += 1
    allowance[0] -= limit - start
    return -1


def parse_parameters(text: str) -> list[str]:
    """MagVarUpdate's ``parseParameters``: split at commas outside quotes and brackets."""
    params: list[str] = []
    current: list[str] = []
    quote = ""
    brackets = braces = parens = 0
    for i, ch in enumerate(text):
        quote = _quote_after(text, i, quote)
        if not quote:
            if ch == "(":
                parens += 1
            elif ch == ")":
                parens -= 1
            elif ch == "[":
                brackets += 1
            elif ch == "]":
                brackets -= 1
            elif ch == "{":
                braces += 1
            elif ch == "}":
                braces -= 1
        if ch == "," and not quote and parens == 0 and brackets == 0 and braces == 0:
            params.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    rest = "".join(current).strip()
    if rest:
        params.append(rest)
    return params


def _valid(kind: str, n: int) -> bool:
    if kind in ("set", "assign", "insert"):
        return n >= 2
    if kind in ("remove", "unset", "delete"):
        return n >= 1
    if kind == "add":
        return n == 2
    return False


def _patch_path(path: Any) -> str:
    if not path:
        return ""
    path = str(path)
    return (path[1:] if path.startswith("/") else path).replace("/", ".")


def is_json_patch(patch: Any) -> bool:
    if not isinstance(patch, list):
        return False
    return all(isinstance(op, dict) and isinstance(op.get("op"), str)
               and (isinstance(op.get("path"), str) or (op.get("op") == "move" and isinstance(op.get("to"), str)))
               for op in patch)


def _json(value: Any) -> str:
    import json

    return "undefined" if value is UNDEFINED else json.dumps(value, ensure_ascii=False)


def patch_commands(patch: list[dict[str, Any]], index: int) -> list[Raw]:
    out: list[Raw] = []
    for op in patch:
        path = _patch_path(op.get("path", op.get("to")))
        value = op.get("value", UNDEFINED)
        kind = op.get("op")
        if kind == "replace":
            out.append(Raw("set", [path, _json(value)], "json_patch", index=index))
        elif kind == "delta":
            out.append(Raw("add", [path, _json(value)], "json_patch", index=index))
        elif kind in ("insert", "add"):
            parts = _.to_path(path)
            last = parts[-1] if parts else ""
            container = ".".join(parts[:-1])
            key = last if re.fullmatch(r"\d+", last) else f"'{last}'"
            out.append(Raw("insert", [container, key, _json(value)], "json_patch", index=index))
        elif kind == "remove":
            out.append(Raw("delete", [path], "json_patch", index=index))
        elif kind == "move":
            out.append(Raw("move", [_patch_path(op.get("from")), path], "json_patch", index=index))
    return out


def extract_commands(text: str, reader: Reader) -> tuple[list[Raw], list[str]]:
    """Every command of ``text`` in the order written, and what was left unread (problems)."""
    problems: list[str] = []
    if len(text) > MAX_REPLY:
        problems.append(f"the reply is longer than {MAX_REPLY:,} characters: only its first part was read")
        text = text[:MAX_REPLY]
    found: list[Raw] = []
    bodies: list[tuple[int, str]] = []
    if _PATCH_OPEN.search(text):
        opens = len(_PATCH_OPEN.findall(text))
        if opens > MAX_PATCH_BLOCKS:
            problems.append(f"more than {MAX_PATCH_BLOCKS} patch blocks: the rest were not read")
        for m in _PATCH.finditer(text):
            if len(bodies) >= MAX_PATCH_BLOCKS:
                break
            bodies.append((m.start(), m.group(2).strip()))
    if bodies:
        for (index, _body), patch in zip(bodies, reader.parse([b for _, b in bodies])):
            if not isinstance(patch, ReadError) and is_json_patch(patch):
                found += patch_commands(patch, index)
    allowance = [SCAN_FACTOR * len(text) + SCAN_FLOOR]
    i = 0
    while i < len(text):
        m = _CALL.search(text, i)
        if m is None:
            break
        kind, start, opening = m.group(1), m.start(), m.end()
        close = _close_paren(text, opening, allowance)
        if close < 0:
            if allowance[0] <= 0:
                problems.append("the reply's commands took too long to read: the rest were not read")
                break
            i = opening
            continue
        end = close + 1
        if end >= len(text) or text[end] != ";":
            i = close + 1
            continue
        end += 1
        reason = ""
        comment = _COMMENT.match(text, end)
        if comment and "\n" not in text[end:comment.start(1) - 2]:
            reason = comment.group(1).strip()
            end = comment.end()
        params = parse_parameters(text[opening:close])
        if _valid(kind, len(params)):
            found.append(Raw(kind, params, reason, text[start:end], start))
        i = end
        if len(found) >= MAX_COMMANDS:
            problems.append(f"more than {MAX_COMMANDS} commands: the rest were not read")
            break
    found.sort(key=lambda c: c.index)
    for command in found:
        command.type = ALIASES.get(command.type, command.type)
        if command.args:
            command.args[0] = path_fix(trim_quotes(command.args[0]))
    return found[:MAX_COMMANDS], problems


def read_values(commands: Sequence[Raw], reader: Reader) -> None:
    """Read every argument after the path of every command, in one batch."""
    texts: list[str] = []
    where: list[tuple[Raw, int]] = []
    for command in commands:
        for n in range(1, len(command.args)):
            texts.append(command.args[n])
            where.append((command, n))
    for (command, n), value in zip(where, reader.values(texts)):
        command.values[n] = value


# --- paths ------------------------------------------------------------------------------------


def path_fix(path: str) -> str:
    """MagVarUpdate's ``pathFix``: bracketed numbers stay indexes, quoted ones become keys, keys
    with spaces or dots are quoted."""
    if not path:
        return path

    def bracket(m: re.Match[str]) -> str:
        inner = m.group(1).strip()
        if not inner:
            return "[]"
        quoted = False
        if len(inner) >= 2 and inner[0] in "\"'" and inner[0] == inner[-1]:
            quoted = True
            inner = inner[1:-1]
        if re.fullmatch(r"\d+", inner):
            return f"[{inner}]" if not quoted else '["' + inner.replace('"', '\\"') + '"]'
        if re.search(r"\s", inner):
            return '["' + inner.replace('"', '\\"') + '"]'
        return f"[{inner}]"

    fixed = re.sub(r"\[([^\]]*)\]", bracket, path)

    def dotted(m: re.Match[str]) -> str:
        prefix, name = m.group(1), m.group(3)
        if not re.search(r"\s", name) and not re.search(r"[.\[\]]", name):
            return prefix + name
        escaped = name.replace('"', '\\"')
        return f'["{escaped}"]' if prefix == "." else f'{prefix}["{escaped}"]'

    return re.sub(r"""(^|\.)(["'])([^"']*)\2(?=\.|\[|$)""", dotted, fixed)


# --- the schema -------------------------------------------------------------------------------


def _meta(data: dict[str, Any]) -> dict[str, Any]:
    meta = data.get("$meta")
    return meta if isinstance(meta, dict) else {}


def generate_schema(data: Any, old: dict[str, Any] | None = None, parent_recursive: bool = False) -> dict[str, Any]:
    """MagVarUpdate's ``generateSchema`` (it removes ``$meta`` and markers from ``data`` as it reads them)."""
    if isinstance(data, list):
        extensible, recursive, old_element, template = False, parent_recursive, None, None
        if old and old.get("type") == "array":
            extensible = old.get("extensible") is True
            recursive = old.get("recursiveExtensible") is True or parent_recursive
            old_element = old.get("elementType")
            template = old.get("template")
        meta_at = next((i for i, item in enumerate(data) if isinstance(item, dict) and "$arrayMeta" in item
                        and "$meta" in item and item["$arrayMeta"] is True), -1)
        if meta_at >= 0:
            meta = data[meta_at]["$meta"] if isinstance(data[meta_at]["$meta"], dict) else {}
            if "extensible" in meta:
                extensible = meta["extensible"]
            if "template" in meta:
                template = meta["template"]
            del data[meta_at]
        if EXTENSIBLE_MARKER in data:
            extensible = True
            data.remove(EXTENSIBLE_MARKER)
        node: dict[str, Any] = {"type": "array", "extensible": bool(extensible or parent_recursive),
                                "recursiveExtensible": recursive,
                                "elementType": generate_schema(data[0], old_element, recursive) if data else {"type": "any"}}
        if template is not None:
            node["template"] = template
        return node
    if isinstance(data, dict):
        old_ext, old_rec, old_props = False, parent_recursive, None
        if old and old.get("type") == "object":
            old_ext = old.get("extensible") is True
            old_rec = old.get("recursiveExtensible") is True or parent_recursive
            old_props = old.get("properties")
        meta = _meta(data)
        node = {"type": "object", "properties": {},
                "extensible": bool(old_ext or meta.get("extensible") is True or meta.get("recursiveExtensible") is True
                                   or parent_recursive),
                "recursiveExtensible": bool(old_rec or meta.get("recursiveExtensible") is True)}
        if meta.get("template") is not None:
            node["template"] = meta["template"]
        elif old and old.get("type") == "object" and old.get("template"):
            node["template"] = old["template"]
        data.pop("$meta", None)
        required_list = required_list_raw if isinstance(required_list_raw := meta.get("required"), list) else None
        for key in list(data):
            old_child = (old_props or {}).get(key) if isinstance(old_props, dict) else None
            child_recursive = node["extensible"] is not False and node["recursiveExtensible"]
            child = generate_schema(data[key], old_child, child_recursive)
            required = not node["extensible"]
            if required_list is not None and key in required_list:
                required = True
            if isinstance(old_child, dict) and old_child.get("required") is False:
                required = False
            elif isinstance(old_child, dict) and old_child.get("required") is True:
                required = True
            node["properties"][key] = {**child, "required": required}
        return node
    if isinstance(data, bool):
        return {"type": "boolean"}
    if isinstance(data, str):
        return {"type": "string"}
    if isinstance(data, (int, float)):
        return {"type": "number"}
    return {"type": "any"}


def schema_for_path(schema: dict[str, Any] | None, path: str) -> dict[str, Any] | None:
    if not path or not schema:
        return schema or None
    node: Any = schema
    for segment in _.to_path(path):
        if not node:
            return None
        if re.fullmatch(r"\d+", segment):
            if node.get("type") == "array":
                node = node.get("elementType")
            else:
                return None
        elif node.get("type") == "object" and isinstance(node.get("properties"), dict) and node["properties"].get(segment):
            node = node["properties"][segment]
        else:
            return None
    return node


def clean_up_metadata(data: Any) -> None:
    if isinstance(data, list):
        i = len(data)
        while i:
            i -= 1
            item = data[i]
            if item == EXTENSIBLE_MARKER:
                del data[i]
            elif isinstance(item, dict) and "$arrayMeta" in item and "$meta" in item and item["$arrayMeta"] is True:
                del data[i]
            else:
                clean_up_metadata(item)
    elif isinstance(data, dict):
        data.pop("$meta", None)
        for value in data.values():
            clean_up_metadata(value)


ROOT_SWITCHES = ("strictTemplate", "strictSet", "concatTemplateArray")


def reconcile(tree: dict[str, Any], schema: dict[str, Any] | None) -> dict[str, Any] | None:
    """MagVarUpdate's ``reconcileAndApplySchema``: the schema of ``tree`` now, inheriting the old one's metadata."""
    new = generate_schema(copy.deepcopy(tree), schema)
    if new.get("type") != "object":
        return schema
    for switch in ROOT_SWITCHES:
        if schema and switch in schema:
            new[switch] = schema[switch]
        meta = tree.get("$meta")
        if isinstance(meta, dict) and switch in meta:
            new[switch] = meta[switch]
    return new


def declared_schema(declared: dict[str, Any], old: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The schema MagVarUpdate derives when it loads ``[InitVar]`` data, and the data cleaned of ``$meta``."""
    data = copy.deepcopy(declared)
    schema = generate_schema(copy.deepcopy(data), old or {"type": "object", "properties": {}, "extensible": False})
    for switch in ROOT_SWITCHES:
        meta = data.get("$meta")
        if isinstance(meta, dict) and switch in meta:
            schema[switch] = meta[switch]
    clean_up_metadata(data)
    return schema, data


# --- templates --------------------------------------------------------------------------------


def apply_template(value: Any, template: Any, strict_array_cast: bool = False, concat: bool = True) -> Any:
    if template is None:
        return value
    value_obj = isinstance(value, dict)
    value_arr = isinstance(value, list)
    tmpl_arr = isinstance(template, list)
    if value_obj and not tmpl_arr:
        out: dict[str, Any] = {}
        _.merge(out, copy.deepcopy(template))
        _.merge(out, copy.deepcopy(value))
        return out
    if value_arr and tmpl_arr:
        if concat:
            return [*value, *copy.deepcopy(template)]
        merged: list[Any] = []
        _.merge(merged, copy.deepcopy(template))
        _.merge(merged, copy.deepcopy(value))
        return merged
    if ((value_obj or value_arr) and tmpl_arr != value_arr) or (not value_obj and not value_arr and isinstance(template, dict)):
        return value
    if not value_obj and not value_arr and tmpl_arr:
        if strict_array_cast:
            return value
        if concat:
            return [value, *copy.deepcopy(template)]
        merged = []
        _.merge(merged, copy.deepcopy(template))
        _.merge(merged, [value])
        return merged
    return value


# --- one command ------------------------------------------------------------------------------


@dataclass
class Context:
    """What the commands of one reply share: the schema (templates may extend it)."""

    schema: dict[str, Any] | None = None

    def switch(self, name: str, default: bool) -> bool:
        value = (self.schema or {}).get(name, default)
        return value if isinstance(value, bool) else default


def _is_vwd(value: Any) -> bool:
    return isinstance(value, list) and len(value) == 2 and isinstance(value[1], str)


def _js_number(value: Any) -> Any:
    """JavaScript's ``Number(value)`` (``NaN`` as ``None``: what JSON keeps of it)."""
    if isinstance(value, bool):
        return 1 if value else 0
    if isinstance(value, (int, float)):
        return value
    if value is None:
        return 0
    if isinstance(value, str):
        text = value.strip()
        if text == "":
            return 0
        try:
            if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text):
                number = float(text)
                return int(number) if number.is_integer() and abs(number) < 2**53 else number
            if re.fullmatch(r"0[xX][0-9a-fA-F]+", text):
                return int(text, 16)
            if text in ("Infinity", "+Infinity", "-Infinity"):
                return None
        except ValueError:
            return None
        return None
    return None


def _precision(number: float) -> float | int | None:
    if not math.isfinite(number):
        return None
    result = float(f"{number:.12g}")
    return int(result) if result.is_integer() and abs(result) < 2**53 else result


def _date(text: str) -> datetime.datetime | None:
    """``new Date(text)`` for ISO-like texts that are not numbers (what MagVarUpdate adds to)."""
    if _js_number(text) is not None:
        return None
    t = text.strip().replace(" ", "T", 1)
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", t):
        t += "T00:00:00Z"
    if t.endswith("Z"):
        t = t[:-1] + "+00:00"
    try:
        moment = datetime.datetime.fromisoformat(t)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None  # a local time: the sandbox's zone is UTC, but MagVarUpdate ran in the user's
    return moment


def _iso(moment: datetime.datetime) -> str:
    moment = moment.astimezone(datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _parent_path(path: str) -> str:
    return ".".join(_.to_path(path)[:-1])


def run(tree: dict[str, Any], command: Raw, ctx: Context) -> dict[str, Any]:
    """``tree`` after ``command`` (a new tree: ``tree`` is not changed); :class:`TreeError` when
    MagVarUpdate refuses it, with its message."""
    new = copy.deepcopy(tree)
    _run(new, command, ctx)
    return new


def _value(command: Raw, n: int) -> Any:
    value = command.values.get(n, UNDEFINED)
    return UNDEFINED if isinstance(value, ReadError) else value


def _run(data: dict[str, Any], command: Raw, ctx: Context) -> None:  # noqa: C901 - MagVarUpdate's switch
    path = command.args[0] if command.args else ""
    reason = f"({command.reason})" if command.reason else ""
    schema = ctx.schema
    kind = command.type
    if kind == "set":
        if path != "" and not _.has(data, path):
            raise TreeError(f"Path '{path}' does not exist in stat_data, skipping set command {reason}")
        old = data if path == "" else _.get(data, path)
        new = _value(command, len(command.args) - 1)
        if not ctx.switch("strictSet", False) and isinstance(old, list) and len(old) == 2 \
                and isinstance(old[1], str) and not isinstance(old[0], list):
            old[0] = _js_number(new) if isinstance(old[0], (int, float)) and not isinstance(old[0], bool) \
                and new is not None else _store(new)
        elif isinstance(old, (int, float)) and not isinstance(old, bool) and new is not None and isinstance(new, str):
            _.set_(data, path, _js_number(new))
        elif path:
            if new is UNDEFINED:
                _.unset(data, path)
            else:
                _.set_(data, path, new)
        else:
            if not isinstance(new, dict):
                raise TreeError("the root can only be set to an object")
            data.clear()
            data.update(new)
        return
    if kind == "insert":
        _insert(data, command, ctx, path, reason)
        return
    if kind == "delete":
        _delete(data, command, schema, path, reason)
        return
    if kind == "add":
        if not _.has(data, path):
            raise TreeError(f"Path '{path}' does not exist in stat_data, skipping add command {reason}")
        old = _.get(data, path)
        vwd = _is_vwd(old) and not isinstance(old[0], (dict, list))
        current = old[0] if vwd else old
        moment = _date(current) if isinstance(current, str) else None
        delta = _value(command, 1)
        if moment is not None:
            if isinstance(delta, bool) or not isinstance(delta, (int, float)):
                raise TreeError(f"Delta '{command.args[1]}' for Date operation is not a number, skipping add command {reason}")
            try:
                result: Any = _iso(moment + datetime.timedelta(milliseconds=delta))
            except OverflowError:
                raise TreeError(f"{path}: the date is out of the calendar") from None
        elif isinstance(current, (int, float)) and not isinstance(current, bool):
            if isinstance(delta, bool) or not isinstance(delta, (int, float)):
                raise TreeError(f"Delta '{command.args[1]}' is not a number, skipping add command {reason}")
            result = _precision(current + delta)
        else:
            raise TreeError(f"Path '{path}' value is not a date or number; skipping add command {reason}")
        if vwd:
            old[0] = result
        else:
            _.set_(data, path, result)
        return
    if kind == "move":
        return  # a patch's move: MagVarUpdate has no case for it
    raise TreeError(f"unknown command {kind!r}")


def _store(value: Any) -> Any:
    return None if value is UNDEFINED else value


def _insert(data: dict[str, Any], command: Raw, ctx: Context, path: str, reason: str) -> None:  # noqa: C901
    existing = data if path == "" else _.get(data, path)
    target = schema_for_path(ctx.schema, path)
    if existing is not None and not isinstance(existing, (dict, list)):
        raise TreeError(f"Cannot assign into path '{path}' because it holds a primitive value "
                        f"({_js_type(existing)}). Operation skipped. {reason}")
    if target:
        if target.get("type") == "object" and target.get("extensible") is False:
            if len(command.args) == 2:
                raise TreeError(f"SCHEMA VIOLATION: Cannot merge data into non-extensible object at path '{path}'. {reason}")
            key = _.js_string(_store(_value(command, 1)))
            if key not in (target.get("properties") or {}):
                raise TreeError(f"SCHEMA VIOLATION: Cannot assign new key '{key}' into non-extensible object at path "
                                f"'{path}'. {reason}")
        elif target.get("type") == "array" and target.get("extensible") in (False, None):
            raise TreeError(f"SCHEMA VIOLATION: Cannot assign elements into non-extensible array at path '{path}'. {reason}")
    elif path != "" and not _truthy(_.get(data, _parent_path(path))):
        raise TreeError(f"Cannot assign into non-existent path '{path}' without an extensible parent. {reason}")
    strict = ctx.switch("strictTemplate", False)
    concat = ctx.switch("concatTemplateArray", True)
    if len(command.args) == 2:
        value = _store(_value(command, 1))
        collection = data if path == "" else _.get(data, path)
        if not isinstance(collection, (dict, list)):
            collection = [] if isinstance(value, list) else {}
            _.set_(data, path, collection)
        if isinstance(collection, list):
            template = target.get("template") if target and target.get("type") == "array" else None
            collection.append(apply_template(value, template, strict, concat))
        elif isinstance(value, dict):
            _.merge(collection, value)
        else:
            raise TreeError(f"Cannot merge {'array' if isinstance(value, list) else 'non-object'} into object at '{path}'")
    else:
        value = _store(_value(command, 2))
        key = _value(command, 1)
        collection = data if path == "" else _.get(data, path)
        template = target.get("template") if target and target.get("type") in ("array", "object") else None
        if isinstance(collection, list) and ((isinstance(key, (int, float)) and not isinstance(key, bool)) or key == "-"):
            index = len(collection) if key == "-" else key
            value = apply_template(value, template, strict, concat)
            _splice_insert(collection, index, value)
        elif isinstance(collection, (dict, list)):
            value = apply_template(value, template, strict, concat)
            if isinstance(collection, dict):
                collection[_.js_string(_store(key))] = value
        else:
            collection = {}
            _.set_(data, path, collection)
            collection[_.js_string(_store(key))] = apply_template(value, template, strict, concat)
    new_value = data if not path.strip() else _.get(data, path)
    try:
        fresh = generate_schema(copy.deepcopy(new_value), target)
        if target is not None:
            _.merge(target, fresh)
        clean_up_metadata(new_value)
    except (TypeError, ValueError) as exc:
        raise TreeError(f"Failed to resolve template meta at '{path}', '{exc}'") from None


def _splice_insert(items: list[Any], index: float, value: Any) -> None:
    """``Array.prototype.splice(index, 0, value)``."""
    n = len(items)
    i = int(index) if math.isfinite(index) else (n if index > 0 else 0)
    i = max(n + i, 0) if i < 0 else min(i, n)
    items.insert(i, value)


def _truthy(value: Any) -> bool:
    return not (value is None or value is False or value == "" or (isinstance(value, (int, float)) and value == 0))


def _js_type(value: Any) -> str:
    return "boolean" if isinstance(value, bool) else "number" if isinstance(value, (int, float)) else "string"


def _delete(data: dict[str, Any], command: Raw, schema: dict[str, Any] | None, path: str, reason: str) -> None:  # noqa: C901
    parts = _.to_path(path)
    last = parts[-1] if parts else ""
    if len(command.args) == 1 and re.fullmatch(r"\d+", last or "x"):
        container = _.get(data, ".".join(parts[:-1]))
        index = int(last)
        if isinstance(container, list) and index < len(container):
            del container[index]
            return
    if not _.has(data, path):
        raise TreeError(f"undefined Path: {path} in _.remove command")
    container_path = path
    key: Any = None
    if len(command.args) > 1:
        key = _store(_value(command, 1))
        if isinstance(key, str):
            key = trim_quotes(key)
    else:
        popped = list(parts)
        tail = popped.pop() if popped else None
        if tail:
            key = int(tail) if re.fullmatch(r"\d+", tail) else tail
            container_path = ".".join(popped)
    if key is None:
        raise TreeError(f"Could not determine target for deletion for command on path '{path}' {reason}")
    if container_path != "" and not _.has(data, container_path):
        raise TreeError(f"Cannot remove from non-existent path '{container_path}'. {reason}")
    container_schema = schema_for_path(schema, container_path)
    if container_schema:
        if container_schema.get("type") == "array":
            if container_schema.get("extensible") is not True:
                raise TreeError(f"SCHEMA VIOLATION: Cannot remove element from non-extensible array at path "
                                f"'{container_path}'. {reason}")
        elif container_schema.get("type") == "object":
            key_text = _.js_string(key)
            props = container_schema.get("properties") or {}
            if key_text in props and isinstance(props[key_text], dict) and props[key_text].get("required") is True:
                raise TreeError(f"SCHEMA VIOLATION: Cannot remove required key '{key_text}' from path "
                                f"'{container_path}'. {reason}")
    target = _store(_value(command, 1)) if len(command.args) > 1 else UNDEFINED
    if target is UNDEFINED:
        _.unset(data, path)
        return
    collection = _.get(data, path)
    if not isinstance(collection, (dict, list)):
        raise TreeError(f"Cannot remove from path '{path}' because it is not an array or object. Skipping command. {reason}")
    removed = False
    if isinstance(collection, list):
        if isinstance(target, (int, float)) and not isinstance(target, bool):
            index = target
        else:
            index = next((i for i, item in enumerate(collection) if _.is_equal(item, target)), -1)
        if isinstance(index, float) and not index.is_integer():
            index = -1
        if 0 <= index < len(collection):
            del collection[int(index)]
            removed = True
    elif isinstance(target, (int, float)) and not isinstance(target, bool):
        keys = list(collection)
        if 0 <= target < len(keys) and float(target).is_integer():
            del collection[keys[int(target)]]
            removed = True
    else:
        key_text = _.js_string(target)
        if key_text in collection:
            del collection[key_text]
            removed = True
    if not removed:
        raise TreeError(f"Failed to execute remove on '{path}'")


# --- a reply as changes -------------------------------------------------------------------------


def command_change(command: Raw, ctx: Context) -> TreeChange:
    """``command`` as a change of the tree the kernel checks and records."""
    path = command.args[0] if command.args else ""
    reason = command.reason or "UpdateVariable"
    return TreeChange(command.type, path, lambda tree: run(tree, command, ctx), reason)


@dataclass
class Update:
    """A reply read: its changes (in order), its problems, what was missing to read it."""

    changes: list[TreeChange] = field(default_factory=list)
    commands: list[Raw] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def read_reply(text: str, reader: Reader, schema: dict[str, Any] | None) -> Update:
    """The changes MagVarUpdate would make for ``text`` (the schema is the room's, reconciled)."""
    commands, problems = extract_commands(text, reader)
    read_values(commands, reader)
    ctx = Context(copy.deepcopy(schema) if schema else None)
    return Update([command_change(c, ctx) for c in commands], commands, problems, list(reader.missing))


def update_variables(stat_data: dict[str, Any], text: str, reader: Reader,
                     schema: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[str], Update]:
    """MagVarUpdate's ``updateVariables`` as a pure function: the tree after ``text``, the errors it
    reports (refused commands, problems) and what was read. What a room does, less its own checks."""
    update = read_reply(text, reader, schema)
    tree, outcomes = apply(stat_data, update.changes)
    errors = update.problems + [o.reason for o in outcomes if not o.applied]
    return tree, errors, update


Factory = Callable[[], Reader]
