"""``lwcore.profiles``: provider profiles in the data dir, checked whole, never holding a key;
a hostile corpus of profile files each refused with a located message."""

from __future__ import annotations

from pathlib import Path

import pytest

from lwcore import profiles
from lwcore.errors import LwError
from lwcore.profiles import Profile

GOOD = "protocol: chat_completions\nendpoint: http://localhost:8080/v1/chat/completions\nmodel: local\n"


def write(home: Path, name: str, text: str | bytes) -> Path:
    path = home / "providers" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_save_load_list_remove_round_trip(tmp_path: Path) -> None:
    profile = Profile(name="local", protocol="chat_completions", endpoint="http://localhost:8080/v1/chat/completions",
                      model="local", key_env=None, read_timeout=30.0, retries=3, max_tokens=512,
                      sampling={"temperature": 0.7, "stop": ["\n\n"]})
    path = profiles.save(tmp_path, profile)
    assert path == tmp_path / "providers" / "local.yaml" and "key_env: null" in path.read_text(encoding="utf-8")
    assert profiles.load(tmp_path, "local") == profile and profiles.names(tmp_path) == ["local"]
    profiles.remove(tmp_path, "local")
    assert profiles.names(tmp_path) == []
    with pytest.raises(LwError, match="no provider profile named 'local'"):
        profiles.load(tmp_path, "local")


def test_defaults_and_the_key_read_from_the_environment(tmp_path: Path) -> None:
    write(tmp_path, "p", GOOD + "key_env: MY_MODEL_KEY\n")
    profile = profiles.load(tmp_path, "p")
    assert (profile.connect_timeout, profile.read_timeout, profile.retries) == (10.0, 120.0, 2)
    assert profile.key({"MY_MODEL_KEY": "k-1"}) == "k-1"
    with pytest.raises(LwError) as info:
        profile.key({})
    assert info.value.code == "no_key" and "MY_MODEL_KEY" in str(info.value)
    assert Profile(name="n", protocol="p", endpoint="http://h/x", model="m").key({}) is None


HOSTILE = [
    ("api_key: sk-abc123\n", 4, "a profile never holds a key"),
    ("token: abc\n", 4, "a profile never holds a key"),
    ("sampling:\n  x-api-key: abc\n", 5, "a profile never holds a key"),
    ("sampling:\n  stop: [ok, 'Bearer abcdef']\n", 5, "a profile never holds a key"),
    ("key_env: sk-proj-abcdef\n", 4, "a profile never holds a key"),
    ("key_env: 'my key'\n", 4, "key_env must name an environment variable"),
    ("retries: '2'\n", 4, "retries must be a whole number"),
    ("retries: true\n", 4, "retries must be a whole number"),
    ("retries: 11\n", 4, "retries must be a whole number from 0 to 10"),
    ("read_timeout: .nan\n", None, ""),
    ("read_timeout: -1\n", 4, "read_timeout must be a number of seconds"),
    ("connect_timeout: 99999\n", 4, "connect_timeout must be a number of seconds"),
    ("max_tokens: 0\n", 4, "max_tokens must be a whole number"),
    ("sampling: [1, 2]\n", 4, "sampling is a mapping"),
    ("sampling:\n  temperature: {a: 1}\n", 5, "must be a number, text or a list"),
    ("colour: blue\n", 4, "unknown profile field 'colour'"),
]


@pytest.mark.parametrize("extra,line,words", HOSTILE)
def test_a_hostile_field_is_refused_where_it_is(tmp_path: Path, extra: str, line: int | None, words: str) -> None:
    path = write(tmp_path, "bad", GOOD + extra)
    with pytest.raises(LwError) as info:
        profiles.load(tmp_path, "bad")
    text = str(info.value)
    assert str(path) in text and words in text
    if line is not None:
        assert f"{path}:{line}:" in text
    for secret in ("sk-abc123", "sk-proj-abcdef", "Bearer abcdef"):
        assert secret not in text


@pytest.mark.parametrize("text,words", [
    ("", "a profile needs protocol"),
    ("- a\n- b\n", "a profile is a mapping"),
    ("protocol: chat_completions\nendpoint: http://h/v1/chat/completions\n", "a profile needs model"),
    ("protocol: chat_completions\nendpoint: ftp://h/x\nmodel: m\n", "http(s) URL"),
    ("protocol: chat_completions\nendpoint: 'http://[::1'\nmodel: m\n", "http(s) URL"),
    ("protocol: chat_completions\nendpoint: http://me:pw@h/x\nmodel: m\n", "carries credentials"),
    ("protocol: chat_completions\nendpoint: http://h/x?api_key=abc\nmodel: m\n", "carries credentials"),
    ("a: &a [1,2,3,4,5,6,7,8,9]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
     "d: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n", "values"),
    ("x: " + "[" * 20 + "]" * 20 + "\n", "levels"),
    (b"protocol: \xff\n", "UTF-8"),
    ("protocol: !!python/object:os.system x\n", "tag"),
    ("model: a\nmodel: b\n", "duplicate"),
])
def test_a_broken_profile_file_is_refused(tmp_path: Path, text: str | bytes, words: str) -> None:
    write(tmp_path, "bad", text)
    with pytest.raises(LwError) as info:
        profiles.load(tmp_path, "bad")
    assert words in str(info.value) and "me:pw" not in str(info.value) and "api_key=abc" not in str(info.value)


def test_a_profile_larger_than_its_limit_is_refused_unread(tmp_path: Path) -> None:
    write(tmp_path, "big", GOOD + "# " + "x" * profiles.PROFILE_LIMITS.max_bytes + "\n")
    with pytest.raises(LwError) as info:
        profiles.load(tmp_path, "big")
    assert info.value.code == "limit"


@pytest.mark.parametrize("name", ["", "Big", "../x", "a/b", "-x", "x" * 65, "command-line"])
def test_names_are_checked(tmp_path: Path, name: str) -> None:
    with pytest.raises(LwError):
        profiles.save(tmp_path, Profile(name=name, protocol="p", endpoint="http://h/x", model="m"))
    assert not (tmp_path / "providers").exists() or profiles.names(tmp_path) == []
