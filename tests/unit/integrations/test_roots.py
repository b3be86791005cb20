"""Paths a client names are confined to the allowed roots, symlinks resolved."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.errors import ConfigError
from pagereader.integrations.roots import PathRefusedError, Roots


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a" / "sub").mkdir(parents=True)
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "sub" / "x.pdf").write_bytes(b"%PDF")
    (tmp_path / "b" / "y.pdf").write_bytes(b"%PDF")
    (tmp_path / "outside.pdf").write_bytes(b"%PDF")
    (tmp_path / "a" / "out.pdf").symlink_to(tmp_path / "outside.pdf")
    (tmp_path / "a" / "in.pdf").symlink_to(tmp_path / "a" / "sub" / "x.pdf")
    (tmp_path / "a" / "up").symlink_to(tmp_path)
    return tmp_path


def test_relative_and_absolute_paths_inside_a_root(tree: Path) -> None:
    roots = Roots([tree / "a", tree / "b"])
    assert roots.confine("sub/x.pdf") == (tree / "a" / "sub" / "x.pdf").resolve()
    assert roots.confine("y.pdf") == (tree / "b" / "y.pdf").resolve()  # the second root
    assert roots.confine(str(tree / "b" / "y.pdf")) == (tree / "b" / "y.pdf").resolve()
    assert roots.confine("in.pdf") == (tree / "a" / "sub" / "x.pdf").resolve()  # link inside


@pytest.mark.parametrize(
    ("given", "reason"),
    [
        ("../outside.pdf", "'..' is not allowed"),
        ("sub/../../outside.pdf", "'..' is not allowed"),
        ("/etc/passwd", "outside the allowed roots"),
        ("out.pdf", "leads outside the allowed roots"),
        ("up/outside.pdf", "leads outside the allowed roots"),
        ("missing.pdf", "no such file"),
        ("sub", "no such file"),
    ],
)
def test_escapes_are_refused_with_the_path_named(tree: Path, given: str, reason: str) -> None:
    with pytest.raises(PathRefusedError) as caught:
        Roots([tree / "a"]).confine(given)
    assert reason in caught.value.message and caught.value.file == given
    assert str(caught.value).startswith(f"{given}: ")


def test_an_absolute_path_outside_is_refused_even_when_it_exists(tree: Path) -> None:
    with pytest.raises(PathRefusedError, match="outside the allowed roots"):
        Roots([tree / "a"]).confine(str(tree / "outside.pdf"))


def test_roots_must_be_folders(tree: Path) -> None:
    with pytest.raises(ConfigError, match="not a folder"):
        Roots([tree / "outside.pdf"])
    with pytest.raises(PathRefusedError, match="no document roots"):
        Roots([]).confine("x.pdf")
