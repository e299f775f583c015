"""The derived cache: deleting .cache/ never changes an answer; stale caches are rebuilt."""

from __future__ import annotations

import shutil

import pytest

from lw_storyrepo import cache, edits
from lw_storyrepo.fixtures import make_book

QUERIES = [("due", None), ("debt", None), ("knows", "S-001"), ("knows", "S-005"), ("present", "7"),
           ("chapters", None), ("promises", None)]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return make_book(tmp_path_factory.mktemp("缓存") / "生成之书", chapters=120, promises=80, characters=25,
                     secrets=15, words=200)


def answers(repo):
    people = sorted(repo.characters())
    return {(k, a): cache.query(repo, k, a) for k, a in QUERIES + [("knows", people[0]), ("present", people[1])]}


def test_deleting_the_cache_never_changes_an_answer(generated):
    first = answers(generated)
    assert generated.p(".cache/index.db").is_file()
    shutil.rmtree(generated.p(".cache"))
    second = answers(generated)
    assert first == second
    assert any(first[("due", None)]) and any(first[("debt", None)]) and any(first[("present", "7")])


def test_cache_answers_match_the_source_files(generated):
    from lw_storyrepo.board import compute_board

    board = compute_board(generated)
    debt = cache.query(generated, "debt")
    assert [(d["id"], d["idle"]) for d in debt] == [(pid, idle) for pid, _t, idle in board.debts]
    due_ids = {d["id"] for d in cache.query(generated, "due")}
    assert {pid for pid, _t, _d in board.due} | {pid for pid, _t, _d in board.overdue} == due_ids
    sec = generated.secret("S-001")
    assert [r["name"] for r in cache.query(generated, "knows", "S-001") if r["name"] != "（读者）"] == sorted(
        str(k) for k in sec.meta["知情人"])
    row = next(r for r in generated.timeline() if r["章"] == 7)
    assert [r["name"] for r in cache.query(generated, "present", "7")] == row["在场"]


def test_stale_cache_is_rebuilt_after_a_change(book):
    assert cache.query(book, "knows", "林晚") == [
        {"name": "林晚", "secret": "S-001", "title": "灭门真凶", "knows": False},
        {"name": "林晚", "secret": "S-002", "title": "青霜剑来历", "knows": True},
    ]
    edits.add_knower(book, "S-001", "晚晚")  # alias resolves to 林晚
    assert cache.query(book, "knows", "晚晚")[0]["knows"] is True


def test_a_corrupt_cache_is_rebuilt(book):
    cache.query(book, "promises")
    book.p(".cache/index.db").write_bytes(b"not a database")
    assert [p["id"] for p in cache.query(book, "promises")] == ["P-001", "P-002"]


def test_cache_is_gitignored(book):
    cache.query(book, "promises")
    assert book.git.out("status", "--porcelain", "-uall") == ""


def test_rebuild_keeps_unknown_front_matter_fields(book):
    cache.rebuild(book)
    import json
    import sqlite3

    con = sqlite3.connect(book.p(".cache/index.db"))
    extra = con.execute("SELECT extra FROM characters WHERE name='林晚'").fetchone()[0]
    assert json.loads(extra) == {"星座": "天蝎"}
