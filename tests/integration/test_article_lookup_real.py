"""Articles asked for by number on real statutes that hold both an article and its inserted
sub-article (../shared/eval/real_legal: the labour statute prints 第 30 條 and 第 30-1 條,
第 32 條 and 第 32-1 條; the civil code 第十五條, 第十五條之一 and 第十五條之二): every form a
person writes gives that article, its text the reference's, or "no article" naming the
closest ones; never its neighbour."""

from __future__ import annotations

import pytest

from pagereader.errors import InputError
from pagereader.integrations.answers import article_answer
from pagereader.pipeline import parse
from pagereader.text.chars import char_consistency, normalize
from pagereader.types import DocumentResult

from shared_data import shared
from statute_refs import reference_articles


def _forms(main: int, han: str, sub: int | None, han_sub: str = "") -> list[str]:
    """Every way the docs say an article may be asked for (``sub`` None: the article itself)."""
    number = f"{main}-{sub}" if sub else str(main)
    chinese = f"第{han}條" + (f"之{han_sub}" if sub else "")
    korean = f"제{main}조" + (f"의{sub}" if sub else "")
    english = [f"Article {number}", f"Art. {number}", f"Art {number}", f"article {number}"]
    return [*english, f"第{number}條", f"第 {number} 條", chinese, korean, number, f"art-{number}"]


@pytest.fixture(scope="module")
def statutes() -> dict[str, DocumentResult]:
    return {stem: parse(shared("eval", "real_legal", f"{stem}.pdf")) for stem in STEMS}


STEMS = ("N0030001", "B0000001")
HELD = [
    ("N0030001", "30", _forms(30, "三十", None)),
    ("N0030001", "30-1", _forms(30, "三十", 1, "一")),
    ("N0030001", "32", _forms(32, "三十二", None)),
    ("N0030001", "32-1", _forms(32, "三十二", 1, "一")),
    ("B0000001", "15", _forms(15, "十五", None)),
    ("B0000001", "15-1", _forms(15, "十五", 1, "一")),
    ("B0000001", "15-2", _forms(15, "十五", 2, "二")),
]


@pytest.mark.parametrize(("stem", "number", "forms"), HELD)
def test_each_form_is_that_article_with_the_reference_text(
    statutes: dict[str, DocumentResult], stem: str, number: str, forms: list[str]
) -> None:
    expected = dict(reference_articles(stem))[number]
    for asked in forms:
        article = article_answer(stem, statutes[stem], asked)
        assert (article.id, article.number) == (f"art-{number}", number), asked
        assert char_consistency(normalize(article.text), normalize(expected)) >= 0.98, asked


@pytest.mark.parametrize(
    ("stem", "number", "forms", "closest"),
    [
        ("N0030001", "30-2", _forms(30, "三十", 2, "二"), ["art-30", "art-30-1", "art-31"]),
        ("N0030001", "31-1", _forms(31, "三十一", 1, "一"), ["art-31", "art-32"]),
        ("B0000001", "15-3", _forms(15, "十五", 3, "三"), ["art-15-1", "art-15-2", "art-16"]),
    ],
)
def test_an_article_not_printed_is_no_article_naming_the_closest(
    statutes: dict[str, DocumentResult],
    stem: str,
    number: str,
    forms: list[str],
    closest: list[str],
) -> None:
    held = [n for n, _ in reference_articles(stem)]
    assert number not in held and all(c.removeprefix("art-") in held for c in closest)
    for asked in forms:
        with pytest.raises(InputError) as caught:
            article_answer(stem, statutes[stem], asked)
        message = caught.value.message
        assert message.startswith(f"no article {number} (asked {asked!r})"), message
        assert all(c in message.split("; ", 1)[1] for c in closest), message
