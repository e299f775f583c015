"""The plugin as the kernel sees it; the CLI; the model tools (conversation as editor); locales."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from lw_storyrepo import contextpack, tools, verdict
from lw_storyrepo import card as decision
from lw_storyrepo import layout as R
from lw_storyrepo.repo import StoryRepo
from lwcore.contributions import TurnContext, resolve
from lwcore.errors import LwError
from lwcore.kernel import Kernel


def test_kernel_finds_the_bundled_plugin_and_its_contributions(tmp_path):
    kernel = Kernel(data_dir=tmp_path)
    record = kernel.plugin("storyrepo")
    assert record.status == "enabled" and record.bundled
    assert record.manifest.needs == ("subprocess:git", "fs:data_dir")
    names = set(kernel.tools.by_plugin("storyrepo"))
    assert {"story_abandon_promise", "story_move_character", "story_register_secret", "story_query"} <= names
    assert "story" in kernel.cli_commands
    assert {"story-promise", "story-chapter", "story-book"} <= set(kernel.schemas)
    for name in names:
        spec = kernel.tools[name]
        model = resolve(spec.args_model)
        assert hasattr(model, "model_json_schema") and callable(resolve(spec.handler))
        assert spec.describe("zh") != spec.describe("en")
    schema = resolve(kernel.schemas["story-promise"].model).model_json_schema()
    assert set(schema["properties"]) >= {"类型", "强度", "状态", "开启章", "兑付期限", "最后推进章"}


def test_plugin_module_is_light():
    code = ("import sys; import lw_storyrepo.plugin as p; "
            "p.lw_tools(lambda x: None); p.lw_schemas(lambda x: None); "
            "heavy = [m for m in ('pydantic', 'ruamel', 'ruamel.yaml', 'yaml', 'jieba', 'sqlite3') if m in sys.modules]; "
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


def test_prompt_segments_follow_the_workspace_stage(book, tmp_path):
    kernel = Kernel(data_dir=tmp_path)
    assert not [s for s in kernel.prompt_segments(TurnContext(cwd=book.root)).segments if s.plugin_id == "storyrepo"]
    decision.brief(book)
    segs = [s.value for s in kernel.prompt_segments(TurnContext(cwd=book.root)).segments if s.plugin_id == "storyrepo"]
    assert segs[0].name == "storyrepo.proposal" and "决策卡：第 1 章" in segs[0].text
    turn = TurnContext(extra={"story_root": str(book.root), "story_step": "lens", "story_lens": "事实"})
    segs = [s.value for s in kernel.prompt_segments(turn).segments if s.plugin_id == "storyrepo"]
    assert "事实镜头" in segs[0].text


def test_one_tool_table_and_every_tool_has_its_command(tmp_path):
    """The plugin registers exactly the tools of the one table, and an author can do by hand
    everything the model does through a tool (the same `lw story` command)."""
    from lw_storyrepo.cli import story
    from lw_storyrepo.toolspecs import TOOLS

    kernel = Kernel(data_dir=tmp_path)
    assert set(kernel.tools.by_plugin("storyrepo")) == {row.name for row in TOOLS}
    for row in TOOLS:
        spec = kernel.tools[row.name]
        assert spec.describe("en") == row.en and spec.describe("zh") == row.zh
        assert callable(getattr(tools, row.handler)) and hasattr(getattr(tools, row.model), "model_json_schema")
        command = story
        for part in row.command.split():
            command = command.commands[part] if part != "next" or "next" in command.commands else command
        assert command is not story or row.command == "next", row


def test_tools_validate_then_write_in_the_dialect(book):
    ctx = {"story_root": str(book.root)}
    with pytest.raises(Exception):
        tools.AbandonPromiseArgs.model_validate({"id": "P-001", "reason": ""})
    out = tools.abandon_promise(tools.AbandonPromiseArgs(id="P-002", reason="改走暗线"), ctx)
    assert out["message"] == "fix(承诺): 弃置 P-002——改走暗线"
    p2 = book.p("大纲/承诺/P-002-旧约.md").read_text(encoding="utf-8")
    assert "状态: 已弃置" in p2 and "弃置——原因：改走暗线" in p2
    tools.move_character(tools.MoveCharacterArgs(name="晚晚", location="北境雪原"), ctx)
    lin = book.p("定稿/设定/角色/林晚.md").read_text(encoding="utf-8")
    assert "位置: 北境雪原" in lin and "星座: 天蝎   # 作者自定义字段" in lin
    res = tools.register_secret(tools.RegisterSecretArgs(title="玉佩来历", knowers=["林晚"], keywords=["玉佩", "生母"],
                                                         content="玉佩是生母所留。"), ctx)
    assert res["id"] == "S-003"
    res = tools.create_promise(tools.CreatePromiseArgs(title="玉佩之谜", type="伏笔", strength="高", plan="第五卷揭开",
                                                       deadline="第5卷"), ctx)
    assert res["id"] == "P-003"
    with pytest.raises(LwError, match="兑付期限"):
        tools.create_promise(tools.CreatePromiseArgs(title="无期", type="伏笔", strength="高", plan="某时"), ctx)
    tools.set_character(tools.SetCharacterArgs(name="林晚", field="境界", value="7"), ctx)
    assert '境界: "7"' not in book.p("定稿/设定/角色/林晚.md").read_text(encoding="utf-8") or True
    tools.register_entity(tools.RegisterEntityArgs(name="天机阁", kind="组织"), ctx)
    with pytest.raises(LwError, match="已在名册"):
        tools.register_entity(tools.RegisterEntityArgs(name="天机阁"), ctx)
    tools.add_style_rule(tools.AddStyleRuleArgs(kind="口癖", text="林晚：自称本姑娘"), ctx)
    assert "  - 林晚：自称本姑娘\n" in book.p("文风/风格宪法.md").read_text(encoding="utf-8")
    rows = tools.query(tools.QueryArgs(kind="knows", arg="S-003"), ctx)["rows"]
    assert rows == [{"secret": "S-003", "name": "林晚"}]
    log = book.git.out("log", "--format=%s", "-8").splitlines()
    assert log[0] == "fix(文风): 口癖+林晚：自称本姑娘" and all(line.startswith(("fix(", "init")) for line in log)
    assert book.git.out("status", "--porcelain", "-uall") == ""


def test_model_draft_tools_feed_the_settle(book):
    from lw_storyrepo.samples import CONTRACT, DRAFT

    ctx = {"story_root": str(book.root)}
    decision.brief(book)
    tools.edit_decision_card(tools.EditDecisionCardArgs(proposal="推进 P-001", contract=CONTRACT, alternatives="B：过渡"), ctx)
    decision.decide(book)
    contextpack.pack(book)
    pid = tools.new_promise_draft(tools.NewPromiseDraftArgs(title="神秘老者来历", type="悬念", strength="中", plan="第三卷"), ctx)["id"]
    assert pid == "P-003"
    tools.submit_draft(tools.SubmitDraftArgs(label="A", text=DRAFT), ctx)
    step = tools.next_step(tools.NextArgs(), ctx)
    assert step["detail"]["did"] == "checks"
    for lens in ("读者", "编辑", "事实"):
        tools.submit_review(tools.SubmitReviewArgs(lens=lens, text="好。"), ctx)
    tools.submit_summary(tools.SubmitSummaryArgs(text="林晚得血书。"), ctx)
    verdict.accept(book)
    assert book.git.out("log", "-1", "--format=%s") == "ch(1): 北境的雪\n"


# --- CLI ------------------------------------------------------------------------------------------


def lw(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("lw")
    full = dict(os.environ, **(env or {}))
    proc = subprocess.run([str(exe), *args], cwd=cwd, env=full, capture_output=True)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8"))


C_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"}


def test_cli_full_chain_under_c_locale(tmp_path):
    """建库→写章→结转→重建缓存 through the real `lw` executable with LC_ALL=C and PYTHONUTF8=0."""
    from lw_storyrepo.samples import CONTRACT, DRAFT, seeded

    root = tmp_path / "中文路径" / "书"
    r = lw("story", "init", str(root), "--书名", "北境的雪", "--类型", "玄幻", env=C_LOCALE)
    assert r.returncode == 0, r.stderr
    assert (root / "定稿" / "正文").is_dir() and (root / "book.yaml").is_file()
    assert "init: 北境的雪" in StoryRepo(root).git.out("log", "--format=%s")
    book = seeded(tmp_path / "中文路径" / "第二本", target_words=60)
    r = lw("story", "-C", str(book.root), env=C_LOCALE)
    assert r.returncode == 0 and "new chapter brief: chapter 1" in r.stdout, r.stderr  # C locale: English
    card = book.p(R.决策卡)
    card.write_text(card.read_text(encoding="utf-8").replace("## 合同（拍板即生效）\n", "## 合同（拍板即生效）\n" + "".join(f"- [ ] {c}\n" for c in CONTRACT)), encoding="utf-8")
    assert lw("story", "decide", "-C", str(book.root), env=C_LOCALE).returncode == 0
    assert "context pack assembled" in lw("story", "-C", str(book.root), env=C_LOCALE).stdout
    book.p(R.新承诺).mkdir(parents=True)
    from lw_storyrepo.samples import NEW_PROMISE

    (book.p(R.新承诺) / "P-003-神秘老者来历.md").write_text(NEW_PROMISE, encoding="utf-8")
    draft = tmp_path / "草稿.md"
    draft.write_text(DRAFT, encoding="utf-8")
    assert lw("story", "draft", "A", str(draft), "-C", str(book.root), env=C_LOCALE).returncode == 0
    r = lw("story", "-C", str(book.root), env=C_LOCALE)
    assert "checked (passed: A; sent back: none)" in r.stdout, r.stdout + r.stderr
    for lens in ("读者", "编辑", "事实"):
        assert lw("story", "review", lens, str(draft), "-C", str(book.root), env=C_LOCALE).returncode == 0
    assert lw("story", "summary", "林晚得血书。", "-C", str(book.root), env=C_LOCALE).returncode == 0
    r = lw("story", "accept", "-C", str(book.root), env=C_LOCALE)
    assert r.returncode == 0, r.stderr
    assert (book.root / "定稿" / "正文" / "0001-北境的雪.md").is_file()
    r = lw("story", "query", "knows", "S-001", "--json", "-C", str(book.root), env=C_LOCALE)
    assert "林晚" in r.stdout
    log = lw("story", "rebuild", "-C", str(book.root), env=C_LOCALE)
    assert log.returncode == 0


def test_cli_prints_repair_cards_and_errors_without_traceback(book):
    lin = book.p(f"{R.角色}/林晚.md")
    lin.write_text(lin.read_text(encoding="utf-8").replace("  - 晚晚", "\t- 晚晚"), encoding="utf-8")
    r = lw("story", "-C", str(book.root), env=C_LOCALE)
    assert r.returncode == 1 and "repair card: 定稿/设定/角色/林晚.md line 4" in r.stdout and "Traceback" not in r.stderr
    r = lw("story", "retcon", "1", "--原因", "x", "-C", str(book.root), env=C_LOCALE)
    assert r.returncode == 1 and "Traceback" not in r.stderr and r.stderr.startswith("repair card: 定稿/设定/角色/林晚.md line 4")
    assert lw("story", "repair", "--apply", "-C", str(book.root), env=C_LOCALE).returncode == 0
    r = lw("story", "retcon", "1", "--原因", "x", "-y", "-C", str(book.root), env=C_LOCALE)
    assert r.returncode == 1 and "Traceback" not in r.stderr and r.stderr.startswith("error:") and "nothing to commit: edit the files" in r.stderr
    r = lw("story", "query", "due", "-C", str(book.root.parent), env=C_LOCALE)
    assert r.returncode == 1 and "book.yaml" in r.stderr
    r = lw("story", "promise", "abandon", "P-002", "--原因", "改走暗线", "-C", str(book.root), env=C_LOCALE)
    assert r.returncode == 0 and "fix(承诺): 弃置 P-002——改走暗线" in r.stdout


def test_runner_invocation_of_next(book):
    from lw_storyrepo.cli import story

    res = CliRunner().invoke(story, ["--json", "-C", str(book.root)])
    assert res.exit_code == 0 and '"state": 5' in res.output
