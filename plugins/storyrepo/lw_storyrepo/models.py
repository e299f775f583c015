"""Pydantic models of every Story Repo front matter (published with ``lw schema``).

Every model allows extra fields: unknown fields are the author's and survive every write
(invariant 8). The runtime readers do not need pydantic; these models are the published form.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class Book(_Open):
    """book.yaml (§3): flat, ten lines or fewer."""

    spec_version: str = "7.0"
    书名: str
    类型: str = ""
    每章目标字数: int = 3000
    卷规模: int = 40
    文体基线起: int = 1
    文体基线止: int = 30
    高承诺最大搁置章数: int = 10
    连续弱钩上限: int = 3
    关键章稿数: int = 3


class Chapter(_Open):
    """定稿/正文/NNNN-标题.md (§4.1): written only by settle."""

    章号: int
    标题: str
    卷: int
    视角: str | None = None
    书内时间: str | None = None
    字数: int | None = None
    开启承诺: list[str] | None = None
    推进承诺: list[str] | None = None
    兑付承诺: list[str] | None = None
    弃置承诺: list[str] | None = None
    合同: list[str] | None = None
    豁免承诺结转: str | None = None
    卷末: bool | None = None
    设定变更: list[str] | None = Field(None, description="本章结转的设定变更（retcon 据此同步角色卡与信息差）")
    一句话事件: str | None = None
    在场: list[str] | None = None


class Character(_Open):
    """定稿/设定/角色/<正名>.md (§4.2)."""

    姓名: str
    别名: list[str] | None = None
    状态: str | None = None
    位置: str | None = None
    境界: str | None = None
    持有: list[str] | None = None
    最后变更章: int | None = None


class Secret(_Open):
    """定稿/设定/信息差/S-NNN-短题.md (§4.3)."""

    知情人: list[str] | None = None
    读者已知: bool = False
    登记章: int | None = None
    关键词: list[str] | None = None


class Promise(_Open):
    """大纲/承诺/P-NNN-短题.md (§5): six flat fields; the rest is Markdown."""

    类型: Literal["伏笔", "悬念", "冲突", "关系线", "立旗", "爽点铺垫"]
    强度: Literal["高", "中", "低"]
    状态: Literal["进行", "已兑付", "已弃置"] = "进行"
    开启章: int
    兑付期限: str | int | None = None
    最后推进章: int | None = None


class StyleConstitution(_Open):
    """文风/风格宪法.md (§6.1)."""

    禁词: list[str] | None = None
    禁句式: list[str] | None = None
    口癖: list[str] | None = Field(None, description="「角色：词条」平铺为列表行")


class Draft(_Open):
    """工作区/草稿-X.md: the prose plus the moves settle files."""

    标题: str
    视角: str | None = None
    书内时间: str | None = None
    开启承诺: list[str] | None = None
    推进承诺: list[str] | None = None
    兑付承诺: list[str] | None = None
    弃置承诺: list[str] | None = None
    推进说明: list[str] | None = Field(None, description="「P-031：说明」")
    弃置理由: list[str] | None = Field(None, description="「P-044：原因」（弃置必填）")
    设定变更: list[str] | None = Field(None, description="「林晚.位置=北境雪原」「林晚.持有+玄阶令牌」「S-021.知情人+林晚」")
    一句话事件: str | None = None
    在场: list[str] | None = None
