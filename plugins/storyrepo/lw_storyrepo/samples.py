"""Sample book content and helpers used by the tests (a seeded book, a draft, a walk to review)."""

from __future__ import annotations

from pathlib import Path

from lw_storyrepo import layout as L
from lw_storyrepo.card import brief, decide
from lw_storyrepo.contextpack import pack
from lw_storyrepo.drafts import submit_draft
from lw_storyrepo.newbook import init_book
from lw_storyrepo.repo import StoryRepo
from lw_storyrepo.review import run_checks, submit_review, submit_summary
from lw_storyrepo.workspace import LENSES, load_state

LIN = """---
姓名: 林晚   # 主角
别名:
  - 晚晚
状态: 在世
位置: 青云宗
持有:
  - 青霜剑
最后变更章: 0
星座: 天蝎   # 作者自定义字段
---
## 设定
主角。
"""
ELDER = "---\n姓名: 大长老\n状态: 在世\n---\n## 设定\n反派。\n"
OLD = "---\n姓名: 神秘老者\n状态: 在世\n---\n"
SECRET = """---
知情人:
  - 大长老
读者已知: false
登记章: 0
关键词:
  - 灭门
  - 血书
---
## 内容
灭门真凶是大长老。
"""
KNOWN = """---
知情人:
  - 林晚
读者已知: true
登记章: 0
关键词:
  - 青霜剑
  - 母亲
  - 遗物
---
## 内容
青霜剑是林晚母亲的遗物。
"""
PROMISE = """---
类型: 悬念
强度: 高
状态: 进行
开启章: 0
兑付期限: 第7卷
最后推进章: 0
---
## 描述
灭门真凶的身份。

## 兑付计划
第七卷宗门大会当众揭穿。

## 履历
- 第0章：开启
"""
PROMISE2 = PROMISE.replace("强度: 高", "强度: 低").replace("灭门真凶的身份", "旧约")

DRAFT = """---
标题: 北境的雪
视角: 林晚
书内时间: 大历1023年冬月初三
开启承诺:
  - P-003
推进承诺:
  - P-001
推进说明:
  - P-001：林晚得到血书
设定变更:
  - 林晚.位置=北境雪原
  - 林晚.持有+玄阶令牌
  - S-001.知情人+林晚
一句话事件: 林晚于北境得血书
在场:
  - 林晚
  - 神秘老者
---
林晚踏入北境雪原，风雪扑面。
晚晚道：“灭门的血书，原来在这里。”
神秘老者萧无涯拄杖而立，看着她，一言不发。
她握紧了玄阶令牌。
"""
NEW_PROMISE = "---\n类型: 悬念\n强度: 中\n---\n## 描述\n老者是谁\n\n## 兑付计划\n第三卷揭晓\n"
CONTRACT = ["P-001 推进：林晚得到血书", "P-003 开启：神秘老者来历", "结尾强钩"]


def seeded(root: Path, *, target_words: int = 60) -> StoryRepo:
    repo = init_book(root, "北境的雪", "玄幻", target_words=target_words)
    files = {
        f"{L.角色}/林晚.md": LIN, f"{L.角色}/大长老.md": ELDER, f"{L.角色}/神秘老者.md": OLD,
        f"{L.信息差}/S-001-灭门真凶.md": SECRET, f"{L.信息差}/S-002-青霜剑来历.md": KNOWN,
        f"{L.承诺}/P-001-灭门真凶.md": PROMISE, f"{L.承诺}/P-002-旧约.md": PROMISE2,
    }
    for rel, text in files.items():
        repo.p(rel).write_bytes(text.encode("utf-8"))
    repo.git.commit_paths(sorted(files), "fix(设定): 种子\n")
    return repo


def to_reviewed(repo: StoryRepo, draft: str = DRAFT, contract: list[str] | None = None,
                exemption: str | None = None, new_promise: bool = True) -> None:
    """brief -> decide -> pack -> draft -> checks -> reviews -> summary (stage reviewed)."""
    brief(repo)
    card = repo.p(L.决策卡).read_text(encoding="utf-8")
    lines = "".join(f"- [ ] {c}\n" for c in (CONTRACT if contract is None else contract))
    card = card.replace("## 合同（拍板即生效）\n", "## 合同（拍板即生效）\n" + lines)
    if exemption:
        card = card.replace("- [ ] 本章豁免承诺结转（理由：）", f"- [x] 本章豁免承诺结转（理由：{exemption}）")
    repo.p(L.决策卡).write_text(card, encoding="utf-8")
    decide(repo)
    pack(repo)
    if new_promise:
        repo.p(L.新承诺).mkdir(parents=True, exist_ok=True)
        (repo.p(L.新承诺) / "P-003-神秘老者来历.md").write_text(NEW_PROMISE, encoding="utf-8")
    submit_draft(repo, "A", draft)
    results = run_checks(repo)
    state = load_state(repo)
    assert state is not None and state["阶段"] == "checked", results
    for lens in LENSES:
        submit_review(repo, lens, f"{lens}：节奏紧，结尾有钩。")
    submit_summary(repo, "林晚抵达北境雪原，得到灭门血书，遇见神秘老者。")
