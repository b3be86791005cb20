"""Parsing of page selections such as ``1-3,7``."""

from __future__ import annotations

from pagereader.errors import ConfigError


def parse_page_spec(spec: str) -> tuple[int, ...]:
    """``"1-3,7"`` -> (1, 2, 3, 7); pages are 1-based."""
    pages: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            if "-" in part:
                first, last = (int(x) for x in part.split("-", 1))
                if first < 1 or last < first:
                    raise ValueError
                pages.update(range(first, last + 1))
            else:
                page = int(part)
                if page < 1:
                    raise ValueError
                pages.add(page)
        except ValueError as exc:
            raise ConfigError(
                f"bad page selection {spec!r}", hint="use 1-based pages like 1-3,7"
            ) from exc
    if not pages:
        raise ConfigError(f"empty page selection {spec!r}", hint="use 1-based pages like 1-3,7")
    return tuple(sorted(pages))
