"""Localized descriptions of the runtime tools (plain data: imported by the light plugin module)."""

from __future__ import annotations

RUNTIME_TOOL_NAMES: tuple[str, ...] = (
    "state_list",
    "history_list",
    "context_search",
    "context_read",
    "world_patch",
    "world_create",
    "world_retire",
    "world_checkpoint",
    "artifact_emit",
    "artifact_clear",
)

DESCRIPTIONS: dict[str, dict[str, str]] = {
    "state_list": {
        "en": (
            "List the documents and sub-directories of one state directory. parent is @dir-/ for "
            "the root or any @dir-* handle you already hold (from the initial directory index or "
            "an earlier listing); a handle you were given needs no listing to confirm it. Empty "
            "directories declared by the world frame are still listed. A cursor only continues the "
            "same snapshot, parent and limit. Read returned documents with context_read; "
            "committed history is not listed here."
        ),
        "zh": (
            "列出一个状态目录下的文档与子目录。parent 用 @dir-/ 表示根目录，或使用已持有的任意 "
            "@dir-* 句柄（来自初始目录索引或之前的列目录结果）；已给出的句柄不必再列目录确认。"
            "世界 frame 声明的空目录同样会列出。cursor 只能延续同一快照、parent 与 limit。"
            "返回的文档用 context_read 读取；已提交历史不在此列出。"
        ),
    },
    "history_list": {
        "en": (
            "List handles of committed history messages, newest_first or oldest_first. A cursor "
            "only continues the same history snapshot, order and limit. Read the returned "
            "@history-message-* handles with context_read; state directories are not listed here."
        ),
        "zh": (
            "列出已提交历史消息的句柄，order 为 newest_first 或 oldest_first。cursor 只能延续同一"
            "历史快照、顺序与 limit。返回的 @history-message-* 用 context_read 读取；此工具不列状态目录。"
        ),
    },
    "context_search": {
        "en": (
            "Search the literal text of state or history. No match only means the exact text was "
            "not found -- it does not prove a fact is absent from the world; never narrate the "
            "search itself to the player. within takes only an @document or @dir-* handle you "
            "were given."
        ),
        "zh": (
            "在状态或历史的原文中做字面搜索。没有命中只说明这段文字没出现，不能证明世界中不存在该事实；"
            "不要向玩家叙述搜索过程。within 只接受已获得的 @文档 或 @dir-* 句柄。"
        ),
    },
    "context_read": {
        "en": (
            "Read the whole of an @document, @node or @history-message-* handle you were given. "
            "The headings and boundary markers around the body are not part of the source. Edit "
            "the body between the boundaries with locators; YAML bodies omit the technical "
            "header, Markdown bodies start at the level-one heading. Results are never cut or "
            "paged. Never pass file paths or made-up world/ paths."
        ),
        "zh": (
            "完整读取已获得的 @文档、@节点 或 @history-message-* 句柄。正文周围的标题与边界标记不属于原文。"
            "用 locator 修改边界之间的正文；YAML 正文不含技术头，Markdown 正文从一级标题开始。"
            "结果不会截断或分页。不要传文件路径或自行拼写的 world/ 路径。"
        ),
    },
    "world_patch": {
        "en": (
            "Change a document you read exactly or whose full body was injected with write "
            "permission. target is its @short-ref. set_metadata carries only the title, summary "
            "or aliases that must change. Each edit names an op and a locator: "
            "{yaml:[key, index…]} for YAML, {markdown:[heading…]} for Markdown (the level-one "
            "heading is not part of the path). append adds to the end of an existing sequence; "
            "add creates a key or index that does not exist yet; remove deletes exactly one "
            "existing item; replace_section must start with the same heading; replace_preamble "
            "replaces the text before the first level-two heading; replace_body keeps the "
            "level-one heading. Reference a whole document only as {$ref:\"@short-ref\"} with a "
            "handle you were given; never invent ids. Success only says whether the document "
            "changed."
        ),
        "zh": (
            "修改已精确读取、或已随写入资格完整注入正文的文档。target 是它的 @短引用。set_metadata 只带需要"
            "改变的 title、summary 或 aliases。每个 edit 给出 op 与 locator：YAML 用 {yaml:[键, 下标…]}，"
            "Markdown 用 {markdown:[标题…]}（一级标题不在路径中）。append 向已有序列末尾追加；add 只创建尚不"
            "存在的键或下标；remove 删除恰好一个已有项；replace_section 必须以同级同名标题开头；"
            "replace_preamble 替换第一个二级标题之前的文字；replace_body 保留一级标题。引用整份文档只能写 "
            "{$ref:\"@短引用\"}，且句柄必须来自已获得的结果；不得编造 id。成功结果只说明文档是否改变。"
        ),
    },
    "world_create": {
        "en": (
            "Create a document in a state directory known to Runtime. parent is an @dir-* handle "
            "from the initial directory index or a listing (@dir-/ is the root); a well-formed "
            "but unknown directory is rejected. refHint is a lowercase ASCII short-reference "
            "hint, not a path. Reference whole documents only as {$ref:\"@short-ref\"} with "
            "handles you were given."
        ),
        "zh": (
            "在 Runtime 已知的状态目录中新建文档。parent 是初始目录索引或列目录结果给出的 @dir-* 句柄"
            "（根目录为 @dir-/）；格式正确但未知的目录会被拒绝。refHint 是小写 ASCII 短引用提示，不是路径。"
            "引用整份文档只能写 {$ref:\"@短引用\"}，且句柄必须来自已获得的结果。"
        ),
    },
    "world_retire": {
        "en": (
            "Retire (retired:true) or restore (retired:false) a document you read exactly or "
            "that was injected whole. A retired document leaves future catalog injection but "
            "stays listable, searchable, readable, referenceable and restorable. Use world_patch "
            "for ordinary changes such as a new location."
        ),
        "zh": (
            "让已精确读取或完整注入的文档退役（retired:true）或恢复（retired:false）。退役文档不再进入后续"
            "目录注入，但仍可列出、搜索、读取、引用与恢复。普通变化（例如位置改变）用 world_patch。"
        ),
    },
    "world_checkpoint": {
        "en": (
            "Declare that this turn's necessary state upkeep is done and suggest a fresh context "
            "from here. No arguments. It takes effect when this turn's final tool-free answer is "
            "committed, and the checkpoint includes that answer. It is your declaration, not a "
            "Runtime check, and it does not switch context by itself."
        ),
        "zh": (
            "声明本轮必要的状态整理已完成，并建议从此处开启全新上下文。无参数。在本轮最终无工具回复提交时生效，"
            "检查点包含该回复。这是你的声明，不是 Runtime 的校验，也不会自行切换上下文。"
        ),
    },
    "artifact_emit": {
        "en": (
            "Submit an artifact this follow-up declared in advance: give only the output name "
            "and the payload; channel, key, content type, renderer and retention are fixed by "
            "the declaration."
        ),
        "zh": (
            "提交本次后续请求预先声明的产物：只给出 output 名称与 payload；频道、key、内容类型、渲染器与保存策略"
            "均由声明固定。"
        ),
    },
    "artifact_clear": {
        "en": (
            "Clear the projection of an artifact this follow-up declared in advance as "
            "clearable. You cannot choose the channel, key or any other part of the contract."
        ),
        "zh": "清除本次后续请求预先声明为可清除的产物投影；不能选择频道、key 或契约的其他部分。",
    },
}
