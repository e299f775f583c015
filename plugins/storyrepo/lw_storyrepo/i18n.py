"""What ``lw story`` says, in the reader's language (Chinese or English).

The book's own formats stay Chinese whatever the locale (spec §2: cards, reports, commit
messages, every file). The messages *about* the book — errors, repair cards, the state
machine's status lines, confirmations — are written in Chinese in the code (the authors'
language) and translated here, at the CLI boundary, when the locale is English.

:data:`CATALOG` pairs each Chinese message template with its English one; ``{}`` marks a
value (``{0}``, ``{1}`` … in the English, in the order of the Chinese). A value that is itself
a catalogued message (a stage name, an item kind) is translated too. A test holds the catalog
and the code in step: every message the code can raise or print has an entry.

The help (``lw story … --help``) follows the same rule: the commands' and options' help is
Chinese in the code and catalogued here; click's own English words are translated for Chinese
readers by :data:`HELP_ZH` (see :mod:`lw_storyrepo.clihelp`).

The locale: ``lw story --locale zh|en``, else ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` (``zh…``
is Chinese; anything else, ``C`` included, is English).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Mapping

LOCALES = ("zh", "en")
_locale = "zh"


def locale_from(environ: Mapping[str, str] = os.environ, explicit: str | None = None) -> str:
    """The locale to speak: ``explicit`` when given, else the environment's."""
    value = explicit or next((environ[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(k)), "")
    return "zh" if value.lower().startswith("zh") else "en"


def set_locale(locale: str) -> None:
    global _locale
    _locale = locale if locale in LOCALES else "en"


def current() -> str:
    return _locale


CATALOG: tuple[tuple[str, str], ...] = (
    # issue 30: guardrails
    ("改合同必须写原因", "amending the contract needs a reason"),
    ('lw story amend --原因 "改走暗线" --合同 …', 'lw story amend --reason "改走暗线" --contract …'),
    ("新合同是空的", "the new contract is empty"), ("至少一条 --合同 断言", "at least one --contract line"),
    ("新合同和现在的一样，没有改动", "the new contract is the same as the current one: nothing to amend"),
    ("合同已修订：\n{}", "contract amended:\n{0}"),
    ("作者修订已固化的合同（代替 abort）。", "The author amends the frozen contract (instead of abort)."),
    ("给出完整的新合同与原因；草稿按新合同重新机检，原因记进章节 front matter 与 commit。",
     "Give the whole new contract and the reason; drafts are checked again against it; the reason is recorded in the "
     "chapter's front matter and the commit."),
    ("为什么改合同（记进章节与 commit）", "why the contract changes (recorded in the chapter and the commit)"),
    ("新合同的一条断言（可重复；给出完整的新合同）", "one line of the new contract (repeatable; give the whole new contract)"),
    ("本章的新摘要（≤200 字）；改了正文或一句话事件而没手改章摘要时必填",
     "the chapter's new summary (at most 200 characters); required when the prose changes and the summary was not edited by hand"),
    ("已自动处理：{}", "done automatically: {0}"),
    ("retcon 改了第 {} 章的正文，章摘要也要跟着改", "the retcon rewrites the prose of chapter {0}: its summary must change too"),
    ('--摘要 "新摘要"（≤200 字），或手改 {} 后再 retcon', '--summary "new summary" (at most 200 characters), or edit {0} by hand, then retcon'),
    ("给了第 {} 章的新摘要，但这次 retcon 没有改第 {} 章", "a new summary for chapter {0} was given, but this retcon does not change chapter {1}"),
    ("还没有三镜头评审，不能验收：缺{}", "the three lens reviews are not in yet, nothing can be accepted: missing {0}"),
    ("先让模型在各自新鲜的上下文里评审（lw story prompt lens --lens 读者；lw story review 读者 FILE）",
     "have the model review in a fresh context each (lw story prompt lens --lens 读者; lw story review 读者 FILE)"),
    ("还没有验收卡，不能验收", "there is no acceptance card yet, nothing can be accepted"),
    ("三镜头评审交齐后生成验收卡（lw story）", "the acceptance card is made once the three lens reviews are in (lw story)"),
    ("上次中断的结转已回滚（书恢复到结转之前）", "the interrupted settle was rolled back (the book is as before the settle)"),
    ("上次中断的结转已收尾（提交已在，文件补齐）", "the interrupted settle was finished (its commit exists; the files were completed)"),
    ("「{}」是「{}」的别名：记为正名「{}」", "«{0}» is an alias of «{1}»: written as the canonical name «{2}»"),
    ("验收卡里改过的正文已写回 {}", "the text corrected in the acceptance card was written back into {0}"),
    ("标题「{}」不能原样做文件名：文件名写作 {}", "the title «{0}» cannot be a file name as it is: the file is named {1}"),
    ("第 {} 章到了体检周期：体检报告已写进 {}", "chapter {0} reached the health-check period: the report is in {1}"),
    # words that appear inside messages
    ("承诺", "promise"), ("信息差", "info gap"), ("描述", "description"), ("兑付计划", "payoff plan"),
    ("回滚", "rolled back"), ("收尾", "finished"), ("无", "none"),
    # stages (STAGE_NAMES)
    ("等作者拍板决策卡", "the author decides on the decision card"), ("组装上下文包", "assemble the context pack"),
    ("模型渲染草稿", "the model renders drafts"), ("机检", "mechanical checks"), ("三镜头评审", "three lens reviews"),
    ("作者验收", "the author's acceptance"), ("结转", "settle"),
    # hints (HINTS)
    ("作者：看 工作区/决策卡.md，采纳 / 改卡 / 选备选，然后 lw story decide（选备选：--alt；模型可用 story_edit_decision_card 填提案）",
     "author: read 工作区/决策卡.md (the decision card); adopt it, edit it, or take the alternative, then run "
     "lw story decide (the alternative: --alt; the model can fill the proposal with story_edit_decision_card)"),
    ("脚本：组装上下文包（lw story 会直接做）", "script: assemble the context pack (lw story does it)"),
    ("模型：在干净上下文里渲染草稿（lw story prompt render；story_submit_draft 提交）",
     "model: render drafts in a clean context (lw story prompt render; submit with story_submit_draft)"),
    ("脚本：机检（lw story 会直接做）", "script: mechanical checks (lw story does them)"),
    ("模型：三镜头评审，各自新鲜上下文（lw story prompt lens --lens 读者/编辑/事实；story_submit_review）",
     "model: three lens reviews, each in a fresh context (lw story prompt lens --lens 读者/编辑/事实; story_submit_review)"),
    ("作者：看 工作区/验收卡.md（可改草稿和章摘要），lw story accept，lw story reject 理由，或选备选 lw story pick 标签",
     "author: read 工作区/验收卡.md (the acceptance card; you may correct the draft and the summary), then "
     "lw story accept, lw story reject REASON, or take another draft with lw story pick LABEL"),
    ("脚本：结转（lw story settle）", "script: settle (lw story settle)"),
    # the state machine
    ("{} 处需要修复", "{0} file(s) need repair"),
    ("发现未结转的手改，结转吗？建议：{}", "unsettled hand edits found; settle them? suggested: {0}"),
    ("发现未结转的手改，结转吗？建议：{}（改动了已接受的章节：定稿只增不改，这些要走 lw story retcon 章号 --原因 …）",
     "unsettled hand edits found; settle them? suggested: {0} (accepted chapters were changed: settled text only "
     "grows, those need lw story retcon CHAPTER --reason …)"),
    ("第 {} 章事务进行中：下一步「{}」", "chapter {0} in progress: next step «{1}»"),
    ("卷复盘进行中：勾选伏笔机会，写卷摘要后入册", "volume review in progress: tick the foreshadowing candidates, "
     "write the volume summary, then commit"),
    ("{}刚结束：卷复盘", "{0} just ended: volume review"),
    ("第 {} 章：体检", "chapter {0}: health check"),
    ("新章 brief：第 {} 章", "new chapter brief: chapter {0}"),
    ("新章 brief：第 {} 章，已生成决策卡；下一步「{}」", "new chapter brief: chapter {0}, decision card written; next step «{1}»"),
    ("第 {} 章：已组装上下文包；下一步「{}」", "chapter {0}: context pack assembled; next step «{1}»"),
    ("第 {} 章：已机检（过：{}；打回：{}）；下一步「{}」",
     "chapter {0}: checked (passed: {1}; sent back: {2}); next step «{3}»"),
    # the CLI
    ("已建库：{}", "book created: {0}"),
    ("合同已固化：\n{}", "contract frozen:\n{0}"),
    ("已结转：{}", "settled: {0}"),
    ("已打回（原稿留在 {}）。", "rejected (the draft is kept in {0})."),
    ("已换成草稿 {}：等三镜头评审。", "switched to draft {0}: waiting for the three lens reviews."),
    ("已清空工作区。", "workspace cleared."),
    ("已勾选：{}", "ticked: {0}"),
    ("{}（在草稿 front matter 的「开启承诺」里写 {}）", "{0} (list {1} under 开启承诺 in the draft's front matter)"),
    ("{}（角色得知用「设定变更: {}.知情人+名字」）", "{0} (a character learns it with 「设定变更: {1}.知情人+NAME」)"),
    ("{}（出处：{}）", "{0} (source: {1})"),
    ("先修好这些源文件：lw story repair（--apply 采纳建议），或 lw story prompt repair 让模型提议",
     "repair these source files first: lw story repair (--apply takes the proposals), or lw story prompt repair "
     "for the model's proposals"),
    ("Python 没有以 UTF-8 模式运行，无法处理中文路径", "Python is not running in UTF-8 mode and cannot handle Chinese paths"),
    ("PYTHONUTF8=1 或 UTF-8 的 locale", "PYTHONUTF8=1 or a UTF-8 locale"),
    ("（上次中断的结转已{}）", "(the interrupted settle was {0})"),
    ("  草稿 {} 没过机检，读：{}", "  draft {0} failed the checks, read: {1}"),
    ("  作者打回的理由：{}", "  the author's reasons for rejecting: {0}"),
    ("  结转：lw story fix（或 -m 写说明）；改的是已接受的章节就走 lw story retcon 章号 --原因 …",
     "  settle: lw story fix (or -m MESSAGE); changes to accepted chapters go through lw story retcon CHAPTER --reason …"),
    ("  须 retcon：{}", "  needs a retcon: {0}"),
    ("  采纳建议：lw story repair --apply；或让模型提议修复：lw story prompt repair",
     "  take the proposals: lw story repair --apply; or let the model propose fixes: lw story prompt repair"),
    ("已采纳修复提议：{}", "took the repair proposal for {0}"),
    ("已自动修复：{}", "fixed automatically: {0}"),
    ("所有源文件都能读。", "every source file reads."),
    ("（报告：{}）", "(report: {0})"),
    ("将以 retcon 入册这些修改：", "these changes will be committed as a retcon:"),
    ("确认 retcon({})：{}？", "confirm retcon({0}): {1}?"),
    ("（无）", "(none)"),
    ("  → 已按建议修复", "  → fixed as proposed"),
    ("并同步：{}", "and synced: {0}"),
    ("候选「{}」看不懂", "candidate «{0}» does not parse"),
    ("短题｜类型｜强度｜兑付期限｜兑付计划｜总纲：节点", "TITLE｜TYPE｜STRENGTH｜DEADLINE｜PAYOFF PLAN｜总纲：NODE"),
    ("没有确认，什么也没改", "not confirmed; nothing was changed"),
    ("没有确认，什么也没改（标准输入没有回答）", "not confirmed; nothing was changed (nothing to read on stdin)"),
    ("--yes，或从管道给出 y（echo y | …）", "--yes, or a y piped in (echo y | …)"),
    # repair cards
    ("修复卡：{}", "repair card: {0}"), ("修复卡：{} 第 {} 行", "repair card: {0} line {1}"), ("问题：{}", "problem: {0}"),
    ("上下文：", "context:"), ("建议修复：{}", "proposed fix: {0}"), ("已自动修复：{}", "fixed automatically: {0}"),
    ("格式解析失败：{}", "the front matter does not parse: {0}"), ("格式问题：{}", "format problem: {0}"),
    ("这里应是「键: 值」的字段表，却读到了别的内容", "expected a table of «key: value» fields here, found something else"),
    ("每行写成「字段名: 值」，冒号用半角并在后面空一格", "write one «field: value» per line, an ASCII colon followed by a space"),
    ("front matter 只写平铺的「字段名: 值」和块列表，不用锚点/别名、标签和重复的键",
     "front matter holds flat «field: value» lines and block lists only: no anchors/aliases, tags or repeated keys"),
    ("把行首的制表符（Tab）换成两个空格：{}", "replace the tab at the start of the line with two spaces: {0}"),
    ("把键后的全角冒号「：」换成半角冒号加空格「: 」", "replace the full-width colon «：» after the key with «: »"),
    ("按系统写出的样子改：「字段名: 值」，列表一行一条「  - 条目」",
     "write it as the system does: «field: value», lists one «  - item» per line"),
    ("{} 第 {} 行：键后的全角冒号「：」已改为半角「: 」", "{0} line {1}: the full-width colon after the key became «: »"),
    ("{} 第 {} 行：行内列表里的全角逗号已拆成块列表（一行一条）",
     "{0} line {1}: the full-width commas of an inline list became a block list (one item per line)"),
    ("「{}」应是 true 或 false，写成了「{}」", "«{0}» should be true or false, found «{1}»"),
    ("「{}」应是正整数，写成了「{}」", "«{0}» should be a positive whole number, found «{1}»"),
    ("「{}」应是整数，写成了「{}」", "«{0}» should be a whole number, found «{1}»"),
    ("「{}」应是整数", "«{0}» should be a whole number"),
    ("「{}」应是列表（一行一条「  - 条目」），写成了一行「{}」", "«{0}» should be a list (one «  - item» per line), found one line «{1}»"),
    ("「{}」应是列表（一行一条「  - 条目」）", "«{0}» should be a list (one «  - item» per line)"),
    ("「{}」的条目应是一行文字，不能再嵌套", "the items of «{0}» should be one line of text each, not nested"),
    ("「{}」应是一行文字，不能是列表或嵌套", "«{0}» should be one line of text, not a list or nested"),
    ("「{}」的值「{}」不在 {} 里", "«{0}»: «{1}» is not one of {2}"),
    ("{}（另有 {} 处）", "{0} (and {1} more)"),
    ("先修好：lw story repair（或 lw story 看修复卡）", "repair first: lw story repair (or lw story shows the repair cards)"),
    ("没有源文件 {}", "no source file {0}"),
    ("修复卡上的文件（仓库内相对路径）", "the file of a repair card (a path inside the book)"),
    ("提议的文件必须以 front matter（--- … ---）开头", "the proposed file must start with its front matter (--- … ---)"),
    ("{} 没有待确认的修复提议", "{0} has no repair proposal waiting"),
    # reading the book
    ("{} 不在任何 Story Repo 里（找不到 book.yaml）", "{0} is not inside a Story Repo (no book.yaml found)"),
    ("先运行 lw story init", "run lw story init first"),
    ("找不到{} {}", "{0} {1} not found"), ("{}/{}-短题.md", "{0}/{1}-TITLE.md"),
    ("指向书外（符号链接或 ..），不读也不写", "leads out of the book (a symbolic link or ..): neither read nor written"),
    ("书里的普通文件", "a regular file inside the book"),
    ("第 {} 章不存在", "chapter {0} does not exist"),
    ("上一次结转没有收尾，请先运行 lw story（会自动恢复）", "the last settle did not finish; run lw story first (it recovers)"),
    ("上次结转的日志读不出来（{}）", "the last settle's journal does not read ({0})"),
    ("git status 确认工作区后，删除 .git/lw-txn/ 再运行 lw story",
     "check the working tree with git status, then remove .git/lw-txn/ and run lw story"),
    ("git {} 失败：{}", "git {0} failed: {1}"), ("无法运行 git：{}", "cannot run git: {0}"),
    ("git 已安装并在 PATH 中", "git installed and on the PATH"),
    # queries
    ("未知查询 {}", "unknown query {0}"), ("找不到信息差 {}", "info gap {0} not found"),
    ("谁知道什么：给一个信息差编号（S-021）或一个角色名", "who knows what: give an info gap id (S-021) or a character's name"),
    ("谁在场：给一个章号或一个角色名", "who was present: give a chapter number or a character's name"),
    # the chapter transaction
    ("工作区已有进行中的章事务", "a chapter transaction is already in progress in the workspace"),
    ("lw story 继续，或 lw story abort 放弃", "lw story to continue, or lw story abort to drop it"),
    ("工作区没有进行中的章事务", "no chapter transaction in progress"), ("先运行 lw story brief", "run lw story brief first"),
    ("章事务当前阶段是「{}」，不能做这一步", "the chapter transaction is at «{0}»; this step cannot be done now"),
    ("工作区的事务文件坏了（阶段或章号不对）", "the workspace's transaction file is damaged (wrong stage or chapter number)"),
    ("lw story abort 放弃本章事务后重来", "lw story abort to drop this chapter's transaction and start again"),
    ("勾了「本章豁免承诺结转」但没写理由", "the promise exemption is ticked without a reason"),
    ("（理由：纯番外）", "(理由：纯番外)"), ("合同段是空的", "the contract section is empty"),
    ("备选段没有合同条目", "the alternative has no contract lines"),
    ("至少一条「- [ ] 合同断言」", "at least one «- [ ] contract line»"),
    ("只有在 brief 阶段（作者拍板前）才能改决策卡", "the decision card can only be edited before the author decides (stage brief)"),
    ("豁免承诺结转和卷末章只能由作者在决策卡上勾选，模型不能代勾",
     "the promise exemption and the volume end are ticked by the author on the card, never by the model"),
    ("草稿标签 {} 不合法", "draft label {0} is not valid"), ("A、B、C…（单个大写字母）", "A, B, C… (one capital letter)"),
    ("找不到草稿 {}", "draft {0} not found"), ("短题不能为空", "the short title must not be empty"),
    ("类型「{}」或强度「{}」不对", "type «{0}» or strength «{1}» is not valid"),
    ("类型 {}，强度 高|中|低", "type {0}, strength 高|中|低"),
    ("开新承诺必须有兑付计划", "a new promise needs a payoff plan"),
    ("强度为高的承诺必须填兑付期限", "a promise of strength 高 needs a deadline"),
    ("信息差至少要有一个关键词（泄密扫描用）", "an info gap needs at least one keyword (the leak check scans for them)"),
    ("信息差要写内容", "an info gap needs its content"),
    ("未知镜头 {}", "unknown lens {0}"), ("读者、编辑、事实", "读者, 编辑 or 事实"), ("评审是空的", "the review is empty"),
    ("第一句是给作者的一句话结论", "a first sentence that sums it up for the author"), ("章摘要是空的", "the summary is empty"),
    ("章摘要 {} 字，超过 {} 字上限", "the summary has {0} characters, over the {1} limit"),
    ("验收卡里的正文和草稿文件都改了：只改一处", "the text was changed both in the acceptance card and in the draft file: change one"),
    ("改回其中一处（{} 或验收卡的草稿段）", "undo one of them ({0} or the card's draft section)"),
    ("草稿 {} 不是评审过的那一稿（{}）", "draft {0} is not the reviewed one ({1})"),
    ("先 lw story pick {}（换稿后三镜头重评），或接受草稿 {}",
     "lw story pick {0} first (the lenses review it afresh), or accept draft {1}"),
    ("验收前复检不过关：{}{}", "the re-check before acceptance failed: {0}{1}"),
    ("读 {}，改好草稿后再 lw story accept", "read {0}, fix the draft, then lw story accept"),
    ("验收卡之后正文里又出现了新专名：{}（已加进验收卡）", "new names appeared after the acceptance card was made: {0} (added to the card)"),
    ("在验收卡上标记（[x] 登记进名册 / [-] 不是专名 / [ ] 笔误改稿）后再 lw story accept",
     "mark them on the acceptance card ([x] into the roster / [-] not a name / [ ] a typo to fix), then lw story accept"),
    ("打回要写理由", "a rejection needs a reason"), ("lw story reject \"开头太慢\"", "lw story reject \"开头太慢\""),
    ("要打回哪一稿？", "which draft is rejected?"), ("lw story reject 理由 --draft {}", "lw story reject REASON --draft {0}"),
    ("草稿 {} 没有通过机检（或不存在）", "draft {0} did not pass the checks (or does not exist)"),
    ("结转被打回：{}", "settle refused: {0}"), ("修改草稿或决策卡后重试", "change the draft or the decision card, then try again"),
    ("没有可结转的草稿", "no draft to settle"),
    ("草稿的「卷」是「{}」，应是正整数", "the draft's 卷 is «{0}», expected a positive whole number"),
    ("草稿的「卷」是 {}，但上一章已在第 {} 卷（卷只往后走）",
     "the draft's 卷 is {0}, but the previous chapter is already in volume {1} (volumes only go forward)"),
    # setting changes and edits
    ("设定变更「{}」看不懂", "setting change «{0}» does not parse"),
    ("角色.字段=值、角色.持有+物品、S-021.知情人+角色", "NAME.FIELD=VALUE, NAME.持有+THING, S-021.知情人+NAME"),
    ("名字「{}」不能用：名字里不能有 / \\ : * ? \" < > | 或首尾的点和空格",
     "the name «{0}» cannot be used: no / \\ : * ? \" < > |, no dot or space at either end"),
    ("设定变更「{}」：「{}」是整数字段，「{}」不是整数", "setting change «{0}»: «{1}» takes a whole number, «{2}» is not one"),
    ("设定变更「{}」：「{}」只能是 true 或 false（是/否）", "setting change «{0}»: «{1}» is true or false (是/否) only"),
    ("设定变更「{}」：「{}」是单值字段，用 = 改", "setting change «{0}»: «{1}» holds one value, change it with ="),
    ("设定变更「{}」：{} 的 {} 里没有「{}」", "setting change «{0}»: {1}'s {2} has no «{3}»"),
    ("设定变更「{}」：「{}」是列表，用 + 加入、- 移出", "setting change «{0}»: «{1}» is a list, add with + and remove with -"),
    ("设定变更「{}」：姓名是角色卡的正名，不能这样改", "setting change «{0}»: 姓名 is the card's canonical name and cannot change this way"),
    ("撤销设定变更「{}」要知道第 {} 章之前的值，git 历史里找不到 ch({}) 提交",
     "undoing the setting change «{0}» needs the value from before chapter {1}, and the git history has no ch({2}) commit"),
    ("改成一行新值（{}.{}=…）代替删掉这一行", "replace the line with a new value ({0}.{1}=…) instead of removing it"),
    ("角色「{}」和已有的「{}」只差大小写：在 Windows 和 macOS 上是同一个文件",
     "character «{0}» differs from the existing «{1}» by letter case only: one file on Windows and macOS"),
    ("用「{}」，或换一个名字", "use «{0}», or another name"),
    ("弃置承诺必须写原因", "abandoning a promise needs a reason"), ("理由：改走暗线", "理由：改走暗线"),
    ("{} 状态是「{}」，不能弃置", "{0} is «{1}» and cannot be abandoned"),
    ("承诺类型「{}」不对", "promise type «{0}» is not valid"), ("强度「{}」不对", "strength «{0}» is not valid"),
    ("高|中|低", "高|中|低"), ("第7卷 或 第200章", "第7卷 or 第200章"),
    ("不能用这个命令改「{}」", "this command cannot change «{0}»"),
    ("{}（状态请用弃置/章事务）", "{0} (the state changes through abandon or a chapter)"),
    ("强度为高的承诺必须有兑付期限", "a promise of strength 高 needs a deadline"),
    ("不能改「{}」", "«{0}» cannot be changed"), ("描述、兑付计划（履历只增不改）", "描述 or 兑付计划 (履历 only grows)"),
    ("{}不能为空", "the {0} must not be empty"), ("未知操作 {}", "unknown operation {0}"),
    ("字段名「{}」不合法", "field name «{0}» is not valid"), ("值不能为空", "the value must not be empty"),
    ("没有角色「{}」", "no character «{0}»"), ("角色卡的姓名或名册里的别名", "a card's name or an alias from the roster"),
    ("不能用这个命令改信息差的「{}」", "this command cannot change an info gap's «{0}»"),
    ("读者已知、知情人、关键词", "读者已知, 知情人 or 关键词"), ("信息差编号 {} 不对", "info gap id {0} is not valid"),
    ("{} 已经是 {} 的知情人", "{0} already knows {1}"), ("类型「{}」不对", "kind «{0}» is not valid"), ("+ 或 -", "+ or -"),
    ("别名「{}」不合法（不能为空，不能含 | 、 , ，/）", "alias «{0}» is not valid (not empty, no | 、 , ， /)"),
    ("「{}」已被 {} 占用——防同人异名/同名异人", "«{0}» is already {1}'s (one name, one entity)"),
    ("{} 没有别名「{}」", "{0} has no alias «{1}»"),
    ("名册和角色卡里都没有「{}」", "«{0}» is neither in the roster nor a character"),
    ("先 lw story entity add", "lw story entity add first"),
    ("要忽略哪些词？", "which words should be ignored?"), ("lw story entity ignore 雪下 那支", "lw story entity ignore 雪下 那支"),
    ("「{}」已在名册/角色卡里，是专名", "«{0}» is in the roster or a character: it is a name"),
    ("名册里没有的词", "words the roster does not hold"), ("这些词已在非专名列表里", "these words are already on the ignore list"),
    ("「{}」不是一个词", "«{0}» is not a word"),
    ("「{}」已在名册/角色卡中（正名：{}）——防同人异名/同名异人", "«{0}» is already in the roster or a card (canonical name: {1})"),
    ("「{}」里有名册的分隔符（| 、 , ，）", "«{0}» holds a roster separator (| 、 , ，)"),
    ("不能改时间线的「{}」", "the timeline's «{0}» cannot be changed"),
    ("一句话事件、在场（书内时间随章节 retcon 同步）", "一句话事件 or 在场 (书内时间 follows the chapter's retcon)"),
    ("时间线里没有第 {} 章", "the timeline has no chapter {0}"),
    ("大纲「{}」不认识", "outline «{0}» is not known"), ("总纲，或卷号：第3卷", "总纲, or a volume: 第3卷"),
    ("段名「{}」不合法", "section name «{0}» is not valid"), ("一行文字，如 结局承诺", "one line, e.g. 结局承诺"),
    ("未知规则类型「{}」", "unknown rule kind «{0}»"), ("规则内容不能为空", "the rule must not be empty"),
    ("{}里已有「{}」", "{0} already holds «{1}»"), ("禁句式「{}」不是合法的正则：{}", "banned pattern «{0}» is not a valid regular expression: {1}"),
    # hand edits, retcon
    ("没有需要结转的手改", "no hand edits to settle"),
    ("这些改动动了已接受的章节，定稿只增不改：{}", "these edits change accepted chapters, and settled text only grows: {0}"),
    ("确要改就走 lw story retcon {} --原因 …；只结转别的文件：lw story fix 路径",
     "to change them, lw story retcon {0} --reason …; to settle the other files only: lw story fix PATH"),
    ("retcon 必须写明原因", "a retcon needs a reason"),
    ("lw story retcon 87 --原因 \"修正大长老境界设定\"", "lw story retcon 87 --reason \"修正大长老境界设定\""),
    ("没有可入册的修改：先改好定稿/大纲里的文件，再运行 retcon", "nothing to commit: edit the files in 定稿/大纲 first, then retcon"),
    ("{}：retcon 改的是已接受章节的内容，不增删章节文件", "{0}: a retcon changes accepted chapters, it does not add or delete them"),
    ("{}：认不出章号", "{0}: no chapter number"),
    # help (lw story … --help): each paragraph of a command's help, then the options' help
    ("Story Repo v7：一本书即一个 git 仓库。", "Story Repo v7: a web novel as a git repository."),
    ("不带子命令 = 盘面状态机的下一步（同 lw story next）。", "Without a subcommand: the board's next step (as lw story next)."),
    ("放弃进行中的章事务（清空工作区）。", "Drop the chapter in progress (empties the workspace)."),
    ("作者验收：复检，然后原子结转。", "The author accepts: check again, then settle atomically."),
    ("可先改草稿或验收卡里的正文再接受。", "The draft, or the text on the acceptance card, may be corrected first."),
    ("生成决策卡（工作区/决策卡.md）。", "Write the decision card («工作区/决策卡.md»)."),
    ("决策卡。", "The decision card."),
    ("填写决策卡（作者拍板前）。", "Fill in the decision card (before the author decides)."),
    ("提案、合同、备选、备选合同，各用一个选项。", "The proposal, the contract, the alternative and its contract, one option each."),
    ("角色：移动 / 改字段。", "Characters: move one, change a field."),
    ("把角色移到新的位置（立即入册）。", "Move a character to a LOCATION (committed at once)."),
    ("改的是角色卡的「位置」。", "This is the card's «位置»."),
    ("改角色卡的一个字段（立即入册）。", "Change a field of a character card (committed at once)."),
    ("字段：位置、状态、境界、持有、别名，或作者自己的字段。", "FIELD: «位置», «状态», «境界», «持有», «别名», or a field of the author's own."),
    ("机检每一份草稿。", "Run the mechanical checks on every draft."),
    ("报告写进 工作区/评审报告/机检-*.md。", "The reports go to «工作区/评审报告/机检-*.md»."),
    ("作者拍板：决策卡的合同固化。", "The author decides: the card's contract is frozen."),
    ("--alt：采纳备选方案的合同。", "--alt: the alternative's contract instead."),
    ("提交一份草稿（front matter + 正文）。", "Submit a draft (front matter and prose)."),
    ("成为 工作区/草稿-标签.md；文件为 - 时读标准输入。", "It becomes «工作区/草稿-X.md», X being the LABEL; FILE - reads standard input."),
    ("名册：登记 / 别名 / 非专名。", "The roster: names, aliases, words that are no names."),
    ("在名册登记一个专名（立即入册）。", "Register a proper noun in the roster (committed at once)."),
    ("给名册条目或角色加（+）减（-）别名。", "Add (+) or remove (-) an alias of a name or a character."),
    ("这些词不是专名：机检不再提示。", "These WORDS are no proper nouns: the checks stop asking."),
    ("记在名册的「非专名」段。", "They are kept in the roster's «非专名» section."),
    ("把手改结转为 fix(…) commit。", "Commit hand edits as a fix(…) commit."),
    ("手改指定稿/大纲/文风里的修改；已接受的章节要走 retcon。给出路径时只结转这些文件。",
     "Hand edits are changes in «定稿», «大纲», «文风»; changes to accepted chapters need a retcon. Given PATHS, only those files."),
    ("体检：文体漂移、承诺坏账、时间线孤儿。", "Health check: style drift, promise debt, timeline orphans."),
    ("报告进工作区，不入册。", "The report goes to the workspace, not into the book."),
    ("建库：在目录里建一本新书。", "Create a new book in DIRECTORY."),
    ("全中文目录树、book.yaml、.gitignore、git init 与首个 commit，全有或全无。",
     "The Chinese folder tree, book.yaml, .gitignore, git init and the first commit, all or nothing."),
    ("把 v6 项目一次性迁移为 v7 的书。", "Migrate a v6 project to a v7 book, once."),
    ("来源是 v6 项目，目标是新书的目录；全有或全无，v6 目录只把 .story-system 设为只读。",
     "SOURCE is the v6 project, TARGET the new book's folder; all or nothing, and the only change to the v6 project is .story-system made read-only."),
    ("判定下一步，脚本的步骤直接做。", "Decide the next step, and do it when it is the script's."),
    ("顺序：修复 → 手改结转 → 继续事务 → 卷复盘 → 体检 → 新章 brief。有源文件要修复时退出码为 1。",
     "In order: repair → hand edits → the chapter in progress → volume review → health check → a new chapter's brief. Exits with 1 while a source file needs repair."),
    ("大纲：总纲与卷纲。", "Outlines: the master outline and the volume outlines."),
    ("改总纲或卷纲的一段（立即入册）。", "Replace one section of an outline (committed at once)."),
    ("目标：总纲，或卷号（第3卷）；段：段名，没有就添上。",
     "TARGET: «总纲» (the master outline) or a volume («第3卷»); PART: the section's heading, added when missing."),
    ("组装上下文包（工作区/上下文包.md）。", "Assemble the context pack («工作区/上下文包.md»)."),
    ("选备选：换成另一份通过机检的草稿。", "Take another draft that passed the checks."),
    ("三镜头重新评审。", "The three lenses review it afresh."),
    ("承诺：弃置 / 新开 / 起草 / 改字段 / 改文字。", "Promises: abandon, register, draft, change a field or the text."),
    ("弃置一条承诺（立即入册）。", "Abandon a promise (committed at once)."),
    ("必须写原因；commit 为 fix(承诺)。", "A reason is required; the commit is «fix(承诺)»."),
    ("登记一条新承诺（立即入册）。", "Register a new promise (committed at once)."),
    ("commit 为 fix(承诺)。", "The commit is «fix(承诺)»."),
    ("为本章要开的承诺起草。", "Draft a promise this chapter opens."),
    ("写进 工作区/新承诺/，结转时入册。", "It goes to «工作区/新承诺/» and is filed when the chapter settles."),
    ("改承诺的一个字段（立即入册）。", "Change a field of a promise (committed at once)."),
    ("字段：类型、强度、兑付期限、最后推进章；状态走弃置或章事务。",
     "FIELD: «类型», «强度», «兑付期限» or «最后推进章»; the state changes by abandoning the promise or in a chapter."),
    ("改承诺的描述或兑付计划（立即入册）。", "Rewrite a promise's description or payoff plan."),
    ("段：描述 或 兑付计划；履历只增不改。", "PART: «描述» or «兑付计划»; the history («履历») only grows. Committed at once."),
    ("打印某个模型步骤的提示词。", "Print the prompt of a model step."),
    ("查询（派生缓存）。", "Query the derived cache."),
    ("due 到期承诺，debt 节奏债，knows 谁知道什么（给信息差编号或角色名），present 谁在场（给章号或角色名），chapters 章节，promises 承诺。",
     "due: promises due; debt: pacing debt; knows: who knows what (give an info gap id or a character's name); present: who was present (a chapter number or a name); chapters; promises."),
    ("从源文件全量重建 .cache/index.db。", "Rebuild .cache/index.db from the source files."),
    ("打回这一稿，理由留给下一稿。", "Reject the draft; the REASON is kept for the next one."),
    ("这一稿和它的评审、验收卡、章摘要作废，回到渲染。",
     "The draft, its reviews, acceptance card and summary are dropped; the chapter goes back to rendering."),
    ("列出修复卡；有未修复的卡时退出码为 1。", "List the repair cards; exits with 1 while one is left."),
    ("全角冒号/逗号已自动修复，只报不问。", "Full-width colons and commas are fixed automatically and only reported."),
    ("为读不进来的源文件提出修复。", "Propose a repair of a source file that does not read."),
    ("来源：那个源文件；文件：整份修好的文件（- 为标准输入）；待 repair --accept 确认。",
     "SOURCE: that file; FILE: the whole fixed file (- for standard input); it waits for repair --accept."),
    ("显式 retcon：入册对已接受章节的修改。", "Commit changes to an accepted CHAPTER as a retcon."),
    ("原因写进 commit；同步设定、时间线、承诺与章摘要；作者确认。",
     "The reason goes into the commit; the settings, the timeline, the promises and the chapter summary are synced. The author confirms."),
    ("提交一个镜头评审。", "Submit one lens review."),
    ("镜头：读者/编辑/事实；文件为 - 时读标准输入。", "LENS: «读者», «编辑» or «事实»; FILE - reads standard input."),
    ("信息差：登记 / 起草 / 告知某角色 / 改字段。", "Info gaps: register, draft, tell a character, change a field."),
    ("为本章要登记的信息差起草。", "Draft an info gap this chapter registers."),
    ("写进 工作区/新信息差/，结转时入册。", "It goes to «工作区/新信息差/» and is filed when the chapter settles."),
    ("登记一条信息差（立即入册）。", "Register an info gap (committed at once)."),
    ("commit 为 fix(设定)。", "The commit is «fix(设定)»."),
    ("改信息差的一个字段（立即入册）。", "Change a field of an info gap (committed at once)."),
    ("读者已知 是/否；知情人、关键词用 --op + / --op - 增删。", "FIELD «读者已知» takes «是» or «否»; «知情人» and «关键词» take --op + or --op -."),
    ("让一个角色得知信息差（立即入册）。", "A character learns an info gap (committed at once)."),
    ("加进信息差的知情人。", "The NAME is added to its «知情人»."),
    ("（已验收时）原子结转。", "Settle atomically (once accepted)."),
    ("风格宪法。", "The style constitution."),
    ("往风格宪法加一条规则（立即入册）。", "Add a rule to the style constitution (committed at once)."),
    ("类型：禁词、禁句式或口癖。", "KIND: «禁词» (a banned word), «禁句式» (a banned pattern) or «口癖» (a verbal tic)."),
    ("提交章摘要（≤200 字）。", "Submit the chapter summary (200 characters at most)."),
    ("时间线。", "The timeline."),
    ("改时间线里某章的一行（立即入册）。", "Correct a chapter's row of the timeline (committed at once)."),
    ("字段：一句话事件 或 在场；书内时间随章节的 retcon 同步。",
     "FIELD: «一句话事件» (the event in one line) or «在场» (who was present); the book time follows a retcon of the chapter."),
    ("卷复盘：生成本卷审计。", "Volume review: write this volume's audit."),
    ("作者也可以随时用它结束本卷。", "The author may end the volume with it at any time."),
    ("写入 3–5 个伏笔机会。", "Write 3–5 foreshadowing candidates."),
    ("每个须原样引用总纲的远期节点。", "Each quotes a far node of the master outline word for word."),
    ("卷复盘入册 vol(NN)。", "Commit the volume review as vol(NN)."),
    ("卷摘要、下卷卷纲，勾选的伏笔机会生成承诺文件。",
     "The volume summary, the next volume's outline, and a promise file for each ticked candidate."),
    ("作者按序号勾选伏笔机会。", "The author ticks foreshadowing candidates by their NUMBERS."),
    ("分支未来：推演另一条线。", "A branching future: try another line."),
    ("start 开 git 分支 what-if/名字，推演后 merge 或 drop；list 列出。",
     "start makes the git branch what-if/NAME; outline there, then merge or drop it; list shows them."),
    ("书的目录（默认：当前目录向上找 book.yaml）", "the book's folder (default: the nearest folder from here up that holds book.yaml)"),
    ("输出 JSON", "print JSON"),
    ("提示与帮助的语言（默认按 LC_ALL/LC_MESSAGES/LANG；书里的文件永远是中文）",
     "the language of messages and help (default: from LC_ALL, LC_MESSAGES, LANG); the book's own files are Chinese always"),
    ("[必填]", "[required]"),
    ("书名（写进 book.yaml）", "the book's title (written into book.yaml)"),
    ("题材（玄幻、都市……）", "the genre (such as «玄幻», «都市»)"),
    ("每章目标字数（默认 3000）", "target characters per chapter (default 3000)"),
    ("卷规模：每卷大约多少章，只是参考值（默认 40）", "volume size: about how many chapters make a volume, a reference only (default 40)"),
    ("采纳每张卡的建议修复", "take each card's proposed fix"),
    ("采纳模型对这个文件的修复提议", "take the model's repair proposal for this file"),
    ("选备选：采纳备选段的合同", "take the alternative: its contract becomes the chapter's"),
    ("接受哪一稿（默认：评审过的那一稿）", "which draft (default: the reviewed one)"),
    ("打回哪一稿（默认：选中的那一稿）", "which draft (default: the chosen one)"),
    ("commit 说明（默认：系统提议的 fix(…) 说明）", "the commit message (default: the proposed fix(…) message)"),
    ("为什么改（写进 commit）", "why (written into the commit)"),
    ("不再询问确认", "do not ask for confirmation"),
    ("一个候选（共 3–5 个），六段以「｜」分隔：短题｜类型｜强度｜兑付期限｜兑付计划｜总纲：节点",
     "one candidate (3–5 in all): six parts separated by «｜»: title, type, strength, deadline, payoff plan, and «总纲：» followed by the node quoted"),
    ("卷摘要文件（- 为标准输入）", "the volume summary's file (- for standard input)"),
    ("下卷卷纲文件（- 为标准输入）", "the next volume outline's file (- for standard input)"),
    ("推演从哪个分支开始、merge 回哪个分支（默认 main）", "the branch the future starts from and merges back into (default main)"),
    ("镜头评审的镜头：读者/编辑/事实", "the lens of a lens review: «读者», «编辑» or «事实»"),
    ("书名（默认：从 v6 项目读出）", "the book's title (default: read from the v6 project)"),
    ("弃置的原因", "why it is abandoned"),
    ("类型：伏笔/悬念/冲突/关系线/立旗/爽点铺垫", "the type: «伏笔», «悬念», «冲突», «关系线», «立旗» or «爽点铺垫»"),
    ("强度：高/中/低", "the strength: «高», «中» or «低»"),
    ("兑付计划（开新承诺必须有）", "the payoff plan (a new promise needs one)"),
    ("兑付期限：第7卷 或 第200章（强度为高时必填）", "the deadline, such as «第7卷» or «第200章» (required for strength «高»)"),
    ("= 设值，+ 加入列表，- 移出列表", "= sets the value, + adds an item to a list, - removes one"),
    ("泄密扫描用的关键词（可重复，至少一个）", "a keyword the leak check looks for (repeatable, at least one)"),
    ("知道它的角色（可重复）", "a character who knows it (repeatable)"),
    ("信息差的内容", "what the info gap is"),
    ("读者已经知道", "the reader knows it already"),
    ("类型：人物/地点/组织/物品/功法/其他（默认 其他）", "the kind: «人物», «地点», «组织», «物品», «功法» or «其他» (default «其他»)"),
    ("别名（可重复）", "an alias (repeatable)"),
    ("首次出现的章号（默认：最后一章）", "the chapter it first appears in (default: the last one)"),
    ("+ 加别名，- 去掉别名", "+ adds the alias, - removes it"),
    ("规则的出处（默认：系统的入宪提议，即三次同类否决）",
     "where the rule comes from (default: the system's proposal, made after three rejections for the same reason)"),
    ("提案段的文字", "the proposal's text"),
    ("一条合同断言（可重复）", "one contract line (repeatable)"),
    ("备选段的文字", "the alternative's text"),
    ("备选方案的一条合同断言（可重复）", "one contract line of the alternative (repeatable)"),
    # the volume review
    ("还没有任何定稿章节，不能卷复盘", "no settled chapters yet: nothing to review"),
    ("第 {} 卷已复盘（{}/{}.md）", "volume {0} is already reviewed ({1}/{2}.md)"),
    ("没有进行中的卷复盘", "no volume review in progress"), ("先 lw story vol", "lw story vol first"),
    ("伏笔机会要 3–5 个，给了 {} 个", "3–5 foreshadowing candidates are needed, {0} given"),
    ("卷摘要不能为空", "the volume summary must not be empty"),
    ("卷摘要 {} 字，超过 {} 字上限", "the volume summary has {0} characters, over the {1} limit"),
    ("候选「{}」引用的总纲节点「{}」在 大纲/总纲.md 里找不到", "candidate «{0}» quotes «{1}», which 大纲/总纲.md does not hold"),
    ("原样引用总纲里的一句远期节点", "quote a far node of the master outline word for word"),
    ("候选「{}」强度为高，必须有兑付期限", "candidate «{0}» is of strength 高 and needs a deadline"),
    ("候选「{}」的类型或强度不对", "candidate «{0}» has a wrong type or strength"),
    ("没有第 {} 个候选", "there is no candidate {0}"), ("{} 没有「## 兑付计划」", "{0} has no «## 兑付计划»"),
    ("{} 强度为高，必须填兑付期限", "{0} is of strength 高 and needs a deadline"),
    # what-if, init, migrate
    ("未知动作 {}", "unknown action {0}"), ("分支名 {} 不合法", "branch name {0} is not valid"),
    ("不含空格和 ~ ^ : ? * [ \\ 的名字", "a name without spaces and ~ ^ : ? * [ \\"),
    ("{} 已经是一本书（book.yaml 已存在）", "{0} is already a book (book.yaml exists)"),
    ("书名不能为空", "the title must not be empty"), ("--书名 示例书名", "--title 示例书名"),
    ("每章目标字数和卷规模必须是正整数", "words per chapter and volume size must be positive whole numbers"),
    ("{} 已存在且不是文件夹", "{0} exists and is not a folder"), ("{} 不是空文件夹", "{0} is not an empty folder"),
    ("一个新的或空的文件夹", "a new or empty folder"), ("{} 不是目录", "{0} is not a folder"),
    ("state.json 应是一个 JSON 对象", "state.json should be a JSON object"),
    ("已切到 {}：推演 3 章纲要后 merge 或 drop", "switched to {0}: outline three chapters there, then merge or drop"),
    ("已合并 {} 到 {}", "merged {0} into {1}"), ("已删除 {}", "deleted {0}"),
    ("迁移完成：{}", "migrated: {0}"), ("跳过（认不出章号）：{}", "skipped (no chapter number): {0}"),
    ("章节：{} 章（合同字段标「迁移」，{} 章从 .story-system 补了合同）",
     "chapters: {0} (contracts marked 迁移; {1} filled from .story-system)"),
    ("角色卡：{} 张", "character cards: {0}"), ("名册：{} 个专名", "roster: {0} names"),
    ("承诺：{} 条（plot_threads / foreshadowing / chase_debt / reading_power）",
     "promises: {0} (plot_threads / foreshadowing / chase_debt / reading_power)"),
    ("章摘要：{} 篇", "chapter summaries: {0}"), ("风格宪法待审：{} 条", "style rules to review: {0}"),
    (".story-system：{} 份章节合同、{} 个已接受提交、{} 份评审（评审不迁移）",
     ".story-system: {0} chapter briefs, {1} accepted commits, {2} reviews (reviews are not migrated)"),
    (".story-system：已读入并压成初始 commit，原目录只读", ".story-system: read and squashed into the first commit; the folder is read-only now"),
    ("已删除（派生物，不迁移）：{}", "dropped (derived, not migrated): {0}"),
)
# the kernel's safe readers speak English: their messages, for Chinese readers
KERNEL_ZH: tuple[tuple[str, str], ...] = (
    ("invalid UTF-8 at byte {} ({})", "不是 UTF-8 编码：第 {0} 字节（{1}）读不出来"),
    ("a UTF-8 text file", "UTF-8（无 BOM）编码的文本文件"),
    ("file not found", "文件不存在"), ("is a folder, expected a file", "这是文件夹，应是文件"),
    ("permission denied", "没有权限"), ("cannot read: {}", "读不了：{0}"),
    ("file is larger than the {} limit", "文件超过 {0} 上限"), ("input is larger than the {} limit", "输入超过 {0} 上限"),
    ("invalid YAML: {}", "YAML 格式错误：{0}"), ("YAML nested too deeply", "YAML 嵌套太深"),
    ("YAML nested deeper than {} levels", "YAML 嵌套超过 {0} 层"),
    ("YAML expands to more than {} values (nested aliases? an alias bomb is refused)",
     "YAML 展开后超过 {0} 个值（嵌套别名？别名炸弹一律拒绝）"),
    ("recursive alias (a value that contains itself)", "递归别名（一个值包含它自己）"),
    ("unsupported YAML tag {}", "不支持的 YAML 标签 {0}"), ("duplicate key {}", "键 {0} 重复"),
    ("invalid JSON: {}", "JSON 格式错误：{0}"), ("JSON nested deeper than {} levels", "JSON 嵌套超过 {0} 层"),
    ("JSON is larger than the {} limit", "JSON 超过 {0} 上限"), ("{} is not a JSON number (expected a finite number)",
     "{0} 不是 JSON 数字（应是有限的数）"),
)


# click's own words in the help (English): for Chinese readers
HELP_ZH: tuple[tuple[str, str], ...] = (
    ("Usage: ", "用法："), ("Options", "选项"), ("Commands", "命令"), ("Positional arguments", "参数"),
    ("Show this message and exit.", "显示本帮助并退出。"),
    ("OPTIONS", "选项"), ("COMMAND", "命令"), ("ARGS", "参数"), ("TEXT", "文本"), ("INTEGER", "整数"),
    ("FILE", "文件"), ("LABEL", "标签"), ("LENS", "镜头"), ("DIRECTORY", "目录"), ("SOURCE", "来源"), ("TARGET", "目标"),
    ("REASON", "理由"), ("CHAPTER", "章号"), ("PID", "承诺编号"), ("SID", "信息差编号"), ("FIELD", "字段"), ("VALUE", "值"),
    ("NAME", "名字"), ("LOCATION", "位置"), ("ALIAS", "别名"), ("WORDS", "词"), ("PART", "段"), ("TITLE", "短题"),
    ("ARG", "参数"), ("NUMBERS", "序号"), ("PATHS", "路径"),
)


def _compile(template: str) -> re.Pattern[str]:
    parts = template.split("{}")
    return re.compile("^" + "(.+?)".join(re.escape(p) for p in parts) + "$", re.S)


@lru_cache(maxsize=2)
def _table(locale: str) -> tuple[dict[str, str], list[tuple[re.Pattern[str], str]]]:
    pairs = CATALOG if locale == "en" else KERNEL_ZH + HELP_ZH
    exact = {src: dst for src, dst in pairs if "{}" not in src}
    # the most specific first: the template with the most fixed text (找不到草稿 {} before 找不到{} {})
    patterns = [(_compile(src), dst) for src, dst in sorted(pairs, key=lambda p: -len(p[0].replace("{}", "")))
                if "{}" in src]
    return exact, patterns


def tr(text: str | None, locale: str | None = None) -> str:
    """``text`` in the reader's language (unchanged when it has no entry)."""
    if not text:
        return text or ""
    locale = locale or _locale
    if locale == "zh" and not any("a" <= c.lower() <= "z" for c in text[:1]):
        return text
    exact, patterns = _table("en" if locale == "en" else "zh")
    if text in exact:
        return exact[text]
    for pattern, target in patterns:
        m = pattern.match(text)
        if m:
            return target.format(*(tr(g, locale) for g in m.groups()))
    if "\n" in text:
        return "\n".join(tr(line, locale) for line in text.split("\n"))
    if "、" in text and locale == "en":
        parts = text.split("、")
        translated = [tr(p, locale) for p in parts]
        if translated != parts:
            return ", ".join(translated)
    return text


def catalogued(template: str) -> bool:
    """Whether a Chinese message template (``{}`` for its values) has an English entry."""
    return any(template == src for src, _dst in CATALOG)
