"""Every `pip install` line in README.md and docs/*.md works from a clone: it installs this
repository (a path such as `".[mcp]"`, never a name an index would be asked for, as
`'pagereader[mcp]'` was), names only extras that pyproject.toml declares, and its constraints
file is in the repository. Read from the pages, checked without installing anything."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
LOCAL = re.compile(r"^(?P<path>\.[^\[\]]*)(?:\[(?P<extras>[^\]]*)\])?$")
VALUED = {"-c", "--constraint", "-r", "--requirement"}
INDEXES = {"-i", "--index-url", "--extra-index-url", "-f", "--find-links"}

pytestmark = pytest.mark.docs


def declared_extras() -> set[str]:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return set(pyproject["project"]["optional-dependencies"])


def install_lines(text: str) -> list[str]:
    """Each `pip install ...` command of a page, up to the end of its code span or line, or
    a shell operator."""
    return [m.strip() for m in re.findall(r"pip install ([^`\n&;|]*)", text)]


def problems(line: str, extras: set[str]) -> list[str]:
    """What keeps ``pip install LINE``, run at the repository's root, from installing this
    repository with declared extras and files it holds (empty when nothing does)."""
    found: list[str] = []
    words = shlex.split(line)
    targets: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in INDEXES or any(word.startswith(f"{flag}=") for flag in INDEXES):
            found.append(f"{word}: an index; install from the repository")
        elif word in VALUED:
            i += 1
            if i >= len(words) or not (REPO / words[i]).is_file():
                found.append(f"{word} names no file of the repository")
        elif not word.startswith("-"):
            targets.append(word)
        i += 1
    if not targets:
        found.append("installs nothing")
    for target in targets:
        local = LOCAL.match(target)
        if local is None:
            found.append(f"{target!r} is a name an index is asked for; give a path such as '.'")
            continue
        if not (REPO / local["path"] / "pyproject.toml").is_file():
            found.append(f"{target!r} is not the repository's root")
        for extra in (local["extras"] or "").split(","):
            if extra.strip() and extra.strip() not in extras:
                found.append(f"{target!r}: no extra {extra.strip()!r} in pyproject.toml")
    return found


def test_every_install_line_installs_the_repository_with_declared_extras() -> None:
    extras = declared_extras()
    lines = {
        (page.relative_to(REPO).as_posix(), line)
        for page in PAGES
        for line in install_lines(page.read_text(encoding="utf-8"))
    }
    assert len(lines) >= 5  # README's docs line, the extras of dependencies.md, mcp, batch, serve
    bad = {
        f"{page}: pip install {line}: {p}" for page, line in lines for p in problems(line, extras)
    }
    assert not bad, "\n".join(sorted(bad))


def test_every_extra_the_pages_name_is_declared() -> None:
    """The extras named alone (`".[router]"` for `router-config`) exist too."""
    extras = declared_extras()
    named = {
        (page.name, extra.strip())
        for page in PAGES
        for group in re.findall(r'`"?\.\[([^\]]+)\]"?`', page.read_text(encoding="utf-8"))
        for extra in group.split(",")
    }
    assert {extra for _, extra in named} >= {"mcp", "batch", "service"}
    assert not {(page, extra) for page, extra in named if extra not in extras}


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("'pagereader[mcp]'", "a name an index is asked for"),
        ('-e ".[nosuch]"', "no extra 'nosuch'"),
        ('-e ".[mcp]" -c missing.txt', "names no file"),
        ("-i https://example.org/simple -e .", "an index"),
        ("-e src", "a name an index is asked for"),
    ],
)
def test_the_check_sees_a_line_that_would_fail(line: str, problem: str) -> None:
    assert any(problem in p for p in problems(line, declared_extras()))
    assert problems('-e ".[mcp,batch]" -c constraints.txt', declared_extras()) == []
