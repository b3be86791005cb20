"""Page selections."""

from __future__ import annotations

import pytest

from pagereader.cli.pages import parse_page_spec
from pagereader.errors import ConfigError


def test_ranges_and_single_pages() -> None:
    assert parse_page_spec("1-3,7") == (1, 2, 3, 7)
    assert parse_page_spec("7, 2,2") == (2, 7)


@pytest.mark.parametrize("spec", ["0", "3-1", "a", "1-x", ","])
def test_bad_selections(spec: str) -> None:
    with pytest.raises(ConfigError, match="page selection"):
        parse_page_spec(spec)
