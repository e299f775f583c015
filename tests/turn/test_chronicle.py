"""The campaign chronicle (M18): token estimate, the fold policy as a table, the no-future
guard, a fold through the provider path, and a 500-turn campaign that stays under budget."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
import yaml

from lwcore.i18n import kernel_text
from lwcore.errors import LwError
from lwcore.kernel import Kernel
from lwcore.turn import chronicle, fold
from lwcore.turn.fold import estimate_tokens, fold_plan
from lwcore.turn.compile import compile_turn
from lwcore.turn.pipeline import run_turn
from lwcore.turn.room import Room, room_lock


@pytest.mark.parametrize("text,tokens", [
    ("", 0), ("a", 1), ("abcd", 1), ("abcde", 2), ("雾港", 2), ("雾港 fog", 3), ("。，！", 3), ("x" * 400, 100),
])
def test_token_estimate(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens


@pytest.mark.parametrize("fullness,level", [
    (0.0, "none"), (0.59, "none"), (0.60, "fold"), (0.70, "fold"), (0.8499, "fold"), (0.85, "emergency"), (1.3, "emergency"),
])
def test_fold_levels(fullness: float, level: str) -> None:
    assert fold.decision(fullness) == level


ENTRIES = [(f"c{t}", t, 100) for t in range(1, 21)]  # twenty entries of 100 tokens, turns 1..20


@pytest.mark.parametrize("prompt,turn,batch,expected", [
    (5900, 20, 8, ()),                                             # 0.59: nothing to do
    (6000, 20, 8, (tuple(f"c{t}" for t in range(1, 9)), tuple(f"c{t}" for t in range(9, 17)))),  # to <= 0.40
    (6000, 20, 4, tuple(tuple(f"c{t}" for t in range(s, s + 4)) for s in (1, 5, 9, 13, 17))[:4]),
    (9000, 10, 8, (tuple(f"c{t}" for t in range(1, 7)),)),        # only turns <= 10 - 4 are eligible
    (9000, 4, 8, ()),                                              # nothing old enough to fold
    (6000, 20, 100, (tuple(f"c{t}" for t in range(1, 17)),)),     # one big batch, entries <= 16
])
def test_fold_plan_table(prompt: int, turn: int, batch: int, expected: tuple) -> None:
    plan = fold_plan(ENTRIES, prompt_tokens=prompt, window=10_000, current_turn=turn, batch=batch)
    assert plan.batches == expected
    if expected:
        folded = sum(len(b) for b in expected) * 100
        assert plan.after == pytest.approx((prompt - folded) / 10_000)


def test_no_future_guard(kernel: Kernel, room_dir: Path) -> None:
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        old = chronicle.record(room, "第一幕。")
        room.save()
    with room_lock(room_dir):
        room = Room.load(room_dir, kernel)
        with pytest.raises(LwError, match="newer than the fold watermark"):
            fold.check_fold_input(room, [old.id], current_turn=3)
        assert [d.id for d in fold.check_fold_input(room, [old.id], current_turn=5)] == [old.id]
        with pytest.raises(LwError, match="unknown chronicle entry"):
            fold.check_fold_input(room, ["nope"], current_turn=50)


def chronicle_reply(turn: int, *, padding: int = 0) -> dict:
    text = f"第{turn}回合：调查员们沿着码头查到了第{turn}条线索。" + "雾" * padding
    return {"content": [
        {"type": "tool_use", "id": f"c{turn}", "name": "chronicle_record",
         "input": {"text": text, "keeper": f"他们没注意到第{turn}盏灯。"}},
        {"type": "text", "text": f"第{turn}夜，雾更浓了。"},
    ]}


NOTE = re.compile(r"他们没注意到第\d+盏灯。")


class FoldModel:
    """A recorded fold model: answers each fold request with a summary built from the entries
    it was given (so the summary really grows with what was folded), and copies into it the
    keeper annotations it was given, as a careless summarizer would -- so a fold input that
    carried one would put it in front of the players. ``requests`` are the requests for the
    public summary, ``margins`` those for the keeper margin."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.margins: list[dict] = []

    def __call__(self, request: dict) -> dict:
        body = json.dumps(request, ensure_ascii=False)
        margin = kernel_text("fold.margin_rules", "zh", budget=0)[:20] in body
        (self.margins if margin else self.requests).append(request)
        turns = sorted({int(t) for t in re.findall(r"\[(\d+)\] 第\d+回合", body)})
        text = f"调查员们在雾港追查，已查到第{turns[-1]}条线索。" if turns else "调查员们在雾港追查。"
        return {"content": [{"type": "text", "text": text + "".join(NOTE.findall(body)[-3:])}]}


def test_a_fold_goes_through_the_provider_path(kernel: Kernel, room_dir: Path) -> None:
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8") + "context_window: 4000\n", encoding="utf-8")
    model = FoldModel()
    for turn in range(1, 13):
        result = run_turn(kernel, room_dir, f"第{turn}次", actor="kp", reply=chronicle_reply(turn, padding=120),
                          rng=random.Random(turn), fold_reply=model)
    assert model.requests, "the chronicle never folded"
    room = Room.load(room_dir, kernel)
    summary = chronicle.summary(room)
    assert summary.data["fold_count"] == len(model.requests) and summary.data["through_turn"] <= room.turn_number - 4
    assert len(model.margins) == len(model.requests)  # every batch carried annotations: each folded twice
    assert NOTE.search(summary.data["text"]) is None and NOTE.search(summary.data["keeper"])
    assert len(room.documents.all("chronicle")) == 12  # the files keep every entry
    prompt = json.dumps(compile_turn(kernel, room_dir, "？", actor="kp").request, ensure_ascii=False)
    assert summary.data["text"] in prompt
    assert "第1回合：" not in prompt  # the folded entries left the prompt
    assert f"第{room.turn_number}回合：" in prompt  # the recent ones stay
    assert result.folds or model.requests


def test_a_due_fold_without_a_model_is_noted_not_guessed(kernel: Kernel, room_dir: Path) -> None:
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8") + "context_window: 3000\n", encoding="utf-8")
    for turn in range(1, 9):
        run_turn(kernel, room_dir, f"第{turn}次", actor="kp", reply=chronicle_reply(turn, padding=200), rng=random.Random(1))
    room = Room.load(room_dir, kernel)
    assert chronicle.summary(room) is None
    assert any(e.data and e.data.get("kind") == "fold_due" for e in room.history.all())


def test_a_500_turn_campaign_stays_under_budget(kernel: Kernel, room_dir: Path) -> None:
    data = yaml.safe_load((room_dir / "room.yaml").read_text(encoding="utf-8"))
    window = 9000
    (room_dir / "room.yaml").write_text(
        (room_dir / "room.yaml").read_text(encoding="utf-8") + f"context_window: {window}\n", encoding="utf-8")
    assert data["id"] == "fog-harbor"
    model = FoldModel()
    recaps = []
    worst = 0.0
    for turn in range(1, 501):
        result = run_turn(kernel, room_dir, f"第{turn}次", actor="kp", reply=chronicle_reply(turn, padding=60),
                          rng=random.Random(turn), fold_reply=model)
        size = estimate_tokens(json.dumps(result.compiled.request, ensure_ascii=False)) / window
        worst = max(worst, size)
        if turn % 100 == 0:
            recaps.append(run_turn(kernel, room_dir, ".recap", actor="p1").command.reply.text)
    assert worst < fold.EMERGENCY, worst
    assert len(model.requests) > 5
    reach = [int(re.search(r"第 (\d+) 回合", r).group(1)) for r in recaps]
    assert reach == sorted(reach) and reach[0] < reach[-1]  # the recap grows with the campaign
    assert all("没注意到" not in r for r in recaps)  # the model copied notes, but never into a player's recap
    assert model.margins and all(NOTE.search(json.dumps(m, ensure_ascii=False)) for m in model.margins)
    keeper_recap = run_turn(kernel, room_dir, ".recap", actor="kp").command.reply.text
    assert NOTE.search(keeper_recap)  # they are in the keeper's margin


def test_lw_turn_folds_with_a_recorded_fold_reply(tmp_path: Path, room_dir: Path) -> None:
    from click.testing import CliRunner

    from lwcore.cli import lw

    (room_dir / "room.yaml").write_text((room_dir / "room.yaml").read_text(encoding="utf-8") + "context_window: 4000\n",
                                        encoding="utf-8")
    fold = tmp_path / "fold.json"
    fold.write_text(json.dumps({"content": [{"type": "text", "text": "调查员们在雾港追查了多日。"}]}, ensure_ascii=False),
                    encoding="utf-8")
    outputs = []
    for turn in range(1, 11):
        reply = tmp_path / f"r{turn}.json"
        reply.write_text(json.dumps(chronicle_reply(turn, padding=120), ensure_ascii=False), encoding="utf-8")
        out = CliRunner().invoke(lw, ["--data-dir", str(tmp_path / "d"), "turn", str(room_dir), "--say", f"第{turn}次",
                                      "--as", "kp", "--reply", str(reply), "--fold-reply", str(fold), "--seed", "1"])
        assert out.exit_code == 0, out.output
        outputs.append(out.output)
    assert any("the chronicle folded" in o for o in outputs)
    recap = CliRunner().invoke(lw, ["--data-dir", str(tmp_path / "d"), "turn", str(room_dir), "--say", ".recap", "--as", "p2"])
    assert "调查员们在雾港追查了多日。" in recap.output


def test_a_turn_compiles_once_and_plans_its_fold_once(kernel: Kernel, room_dir: Path, monkeypatch) -> None:
    """An emergency fold runs before the model call: the turn's messages are built again with
    the new summary, but its request is compiled once, and its fold planned once."""
    from lwcore.turn import compile as compile_module
    from lwcore.turn.provider import Provider

    for turn in range(1, 11):  # a chronicle, in a window large enough that nothing folds
        run_turn(kernel, room_dir, f"第{turn}次", actor="kp", reply=chronicle_reply(turn, padding=120),
                 rng=random.Random(turn))
    room_yaml = room_dir / "room.yaml"
    room_yaml.write_text(room_yaml.read_text(encoding="utf-8") + "context_window: 2400\n", encoding="utf-8")
    compiled: list[str] = []
    plans: list[fold.TurnFolds] = []
    real_compile, real_plan = Provider.compile, compile_module.plan_turn

    def counting_compile(self, messages, offers, **kw):  # noqa: ANN001, ANN003, ANN202
        compiled.append(messages[0].get("promptId", ""))
        return real_compile(self, messages, offers, **kw)

    def counting_plan(room, tokens):  # noqa: ANN001, ANN202
        plans.append(real_plan(room, tokens))
        return plans[-1]

    monkeypatch.setattr(Provider, "compile", counting_compile)
    monkeypatch.setattr(compile_module, "plan_turn", counting_plan)
    model = FoldModel()
    result = run_turn(kernel, room_dir, "第11次", actor="kp", reply=chronicle_reply(11), rng=random.Random(11),
                      fold_reply=model)
    assert [p.level for p in plans] == ["emergency"] and plans[0].before and result.folds
    assert [c for c in compiled if not c.startswith("lw:fold")] == ["lw:system"]  # the turn's request: once
    assert len([c for c in compiled if c.startswith("lw:fold")]) == len(model.requests) + len(model.margins)
    prompt = json.dumps(result.compiled.request, ensure_ascii=False)
    summary = chronicle.summary(Room.load(room_dir, kernel))
    assert summary is not None and summary.data["text"] in prompt and "第1回合：" not in prompt
