"""The aligner on article trees built by hand: a kept number pairs its article, a text found
under another number is renumbered (not deleted and added), a shift renumbers each article it
moves, an article marked deleted is deleted, a rewrite under the same number is a change, and
short or deleted texts are never followed across numbers."""

from __future__ import annotations

from pagereader.structure.diff.align import align
from pagereader.structure.diff.compare import diff_documents
from pagereader.structure.diff.words import diff_patterns
from pagereader.types import DocumentResult, StructureNode

TEXTS = {
    1: "本規約依公寓大廈管理條例訂定之，適用於本社區全體區分所有權人、住戶及其受僱人。",
    2: "住戶得預約使用多功能會議室，每戶每月以八小時為限；預約後不使用者，應於三日前取消。",
    3: "游泳池開放時間為每日上午六時至晚間十時，未滿十二歲之兒童須由成年家屬陪同。",
    4: "住戶飼養寵物，應以牽繩或提籠方式出入公共區域，並須即時清理排泄物。",
    5: "裝修工程應於施工前十日向管理委員會申請，施工時間以平日上午九時至下午五時為限。",
    6: "本規約經區分所有權人會議通過後施行，修正時亦同。",
}
ADDED = "管理委員會應每年公告公共設施之收支報告，並提供住戶查閱。"


def article(number: int, text: str, page: int = 1, deleted: bool = False) -> StructureNode:
    return StructureNode(
        kind="article",
        label=f"第{number}條",
        number=str(number),
        id=f"art-{number}",
        level=6,
        deleted=deleted,
        pages=(page,),
        blocks=((page, number),),
        text=text,
    )


def document(*articles: StructureNode) -> DocumentResult:
    return DocumentResult(
        schema_version="2.0", source="x.pdf", status="ok", page_count=1, structure=articles
    )


OLD = tuple(article(n, t) for n, t in TEXTS.items())
NEW = (
    article(1, TEXTS[1]),
    article(2, TEXTS[2].replace("住戶得", "住戶應")),
    article(3, TEXTS[4], page=2),  # old 4, renumbered; old 3 deleted
    article(4, ADDED, page=2),
    article(5, TEXTS[5], page=2),
    article(6, TEXTS[6], page=2),
)


def _pairs(old: tuple[StructureNode, ...], new: tuple[StructureNode, ...]) -> list[tuple[str, str]]:
    return [
        (p.old.number if p.old else "-", p.new.number if p.new else "-") for p in align(old, new)
    ]


def test_number_first_then_text_for_the_renumbered() -> None:
    assert _pairs(OLD, NEW) == [("1", "1"), ("2", "2"), ("3", "-"), ("4", "3"), ("-", "4"),
                                ("5", "5"), ("6", "6")]  # fmt: skip


def test_the_changes_are_exactly_the_edits_and_the_modal_change_is_first() -> None:
    diff = diff_documents(document(*OLD), document(*NEW), diff_patterns())
    got = [(c.kind, c.old.number if c.old else None, c.new.number if c.new else None)
           for c in diff.changes]  # fmt: skip
    assert got == [("changed", "2", "2"), ("added", None, "4"), ("deleted", "3", None),
                   ("renumbered", "4", "3")]  # fmt: skip
    first = diff.changes[0]
    assert first.critical == ("得->應",)
    assert [(h.old, h.new) for h in first.hunks] == [("得", "應")]
    assert diff.changes[1].text == ADDED and diff.changes[1].new_pages == (2,)
    assert diff.changes[2].text == TEXTS[3] and diff.changes[2].old_pages == (1,)
    renumbered = diff.changes[3]
    assert renumbered.hunks == () and renumbered.similarity == 1.0
    assert (renumbered.old_pages, renumbered.new_pages) == ((1,), (2,))
    s = diff.summary
    assert (s.critical, s.added, s.deleted, s.renumbered, s.changed, s.unchanged) == (
        1, 1, 1, 1, 1, 3
    )  # fmt: skip


def test_an_article_inserted_first_renumbers_every_one_after_it() -> None:
    new = (article(1, ADDED), *(article(n + 1, t) for n, t in TEXTS.items()))
    assert _pairs(OLD, new) == [("-", "1")] + [(str(n), str(n + 1)) for n in TEXTS]


def test_an_article_marked_deleted_is_deleted() -> None:
    new = (*OLD[:2], article(3, "（刪除）", deleted=True), *OLD[3:])
    diff = diff_documents(document(*OLD), document(*new), diff_patterns())
    (change,) = diff.changes
    assert (change.kind, change.old and change.old.id, change.new and change.new.deleted) == (
        "deleted", "art-3", True
    )  # fmt: skip


def test_a_rewrite_under_its_number_is_a_change() -> None:
    new = (*OLD[:5], article(6, "本規約自公告日施行。"))
    diff = diff_documents(document(*OLD), document(*new), diff_patterns())
    (change,) = diff.changes
    assert (change.kind, change.old and change.old.number, change.new and change.new.number) == (
        "changed", "6", "6"
    )  # fmt: skip
    assert change.similarity is not None and change.similarity < 0.5


def test_short_and_deleted_texts_are_not_followed_across_numbers() -> None:
    old = (article(1, "（刪除）", deleted=True), article(2, "本法自公布日施行。"))
    new = (
        article(1, TEXTS[1]),
        article(2, "（刪除）", deleted=True),
        article(3, "本法自公布日施行。"),
    )
    assert _pairs(old, new) == [("1", "1"), ("2", "2"), ("-", "3")]


def test_identical_versions_have_no_changes() -> None:
    diff = diff_documents(document(*OLD), document(*OLD), diff_patterns())
    assert diff.changes == () and diff.summary.unchanged == len(OLD)


def test_a_renumbered_article_with_a_changed_word_is_renumbered_and_critical() -> None:
    moved = TEXTS[4].replace("應以牽繩", "得以牽繩")
    new = (*OLD[:3], article(4, ADDED), article(5, moved), article(6, TEXTS[5]))
    diff = diff_documents(document(*OLD), document(*new), diff_patterns())
    got = [(c.kind, c.old and c.old.number, c.new and c.new.number, c.critical)
           for c in diff.changes]  # fmt: skip
    assert got == [
        ("renumbered", "4", "5", ("應->得",)),
        ("added", None, "4", ()),
        ("deleted", "6", None, ()),
        ("renumbered", "5", "6", ()),
    ]
