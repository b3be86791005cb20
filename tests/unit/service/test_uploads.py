"""Upload names: base name only, no control characters, short enough for any file system."""

from __future__ import annotations

import pytest

from pagereader.http.errors import ServiceError
from pagereader.service.jobs.uploads import MAX_NAME_BYTES, check_name, safe_name


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("deck.pdf", "deck.pdf"),
        ("C:\\Users\\me\\deck.pdf", "deck.pdf"),
        ("../../etc/deck.pdf", "deck.pdf"),
        ("de\x00ck\n.pdf", "deck.pdf"),
        (None, ""),
    ],
)
def test_safe_name(given: str | None, expected: str) -> None:
    assert safe_name(given) == expected


@pytest.mark.parametrize("stem", ["n" * 300, "文" * 300, "n" * 299 + "é"])
def test_long_names_keep_their_suffix_and_fit(stem: str) -> None:
    name = safe_name(stem + ".PDF")
    assert name.endswith(".PDF") and name.startswith(stem[:10])
    assert len(name.encode()) <= MAX_NAME_BYTES
    name.encode().decode()  # no character cut in half
    check_name(name)


@pytest.mark.parametrize("name", ["", ".pdf", "notes.txt", "archive"])
def test_names_the_pipeline_cannot_take(name: str) -> None:
    with pytest.raises(ServiceError) as caught:
        check_name(name)
    assert caught.value.status == 400
