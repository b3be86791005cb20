"""Parsing of page selections such as ``1-3,7``."""

from __future__ import annotations

# the highest page number a selection may name; a range's end past it is cut to it (the
# pipeline then cuts a selection to the document's length, with a warning)
MAX_PAGE = 100_000
_HINT = f"use 1-based pages like 1-3,7 (at most {MAX_PAGE})"


def parse_page_spec(spec: str) -> tuple[int, ...]:
    """``"1-3,7"`` -> (1, 2, 3, 7); pages are 1-based."""
    from pagereader.errors import ConfigError

    pages: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            if "-" in part:
                first, last = (int(x) for x in part.split("-", 1))
                if first < 1 or last < first or first > MAX_PAGE:
                    raise ValueError
                pages.update(range(first, min(last, MAX_PAGE) + 1))
            else:
                page = int(part)
                if not 1 <= page <= MAX_PAGE:
                    raise ValueError
                pages.add(page)
        except ValueError as exc:
            raise ConfigError(f"bad page selection {spec!r}", hint=_HINT) from exc
    if not pages:
        raise ConfigError(f"empty page selection {spec!r}", hint=_HINT)
    return tuple(sorted(pages))
