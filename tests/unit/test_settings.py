"""Every override (environment, config file, CLI flags) goes through one validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagereader.config.settings import resolve_options
from pagereader.errors import ConfigError


def test_precedence_flags_over_config_over_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PAGEREADER_CONFIG", raising=False)
    monkeypatch.setenv("PAGEREADER_DPI", "300")
    assert resolve_options().render.dpi == 300
    config = tmp_path / "c.toml"
    config.write_text("[render]\ndpi = 250\n", encoding="utf-8")
    assert resolve_options(config).render.dpi == 250
    assert resolve_options(config, {("render", "dpi"): 120}).render.dpi == 120
    assert resolve_options(config, {("render", "dpi"): None}).render.dpi == 250


@pytest.mark.parametrize(
    ("env", "flags", "config", "needles"),
    [
        ({"PAGEREADER_DPI": "abc"}, {}, "", ("PAGEREADER_DPI", "render.dpi")),
        ({}, {("lang",): "fr"}, "", ("command line", "lang")),
        ({}, {("render", "dpi"): 5000}, "", ("command line", "render.dpi")),
        ({}, {}, '[verify.remedies]\nrepetiton = ["review"]\n', ("c.toml", "repetiton")),
        ({}, {}, "[verify.agreement_min]\nparagraph = 0.5\n", ("c.toml", "paragraph")),
        ({}, {}, '[verify]\nremedies = { table = ["shrug"] }\n', ("c.toml", "shrug")),
        ({}, {}, "[rendr]\ndpi = 100\n", ("c.toml", "rendr")),
    ],
)
def test_bad_values_are_config_errors(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    flags: dict[tuple[str, ...], object],
    config: str,
    needles: tuple[str, ...],
) -> None:
    monkeypatch.delenv("PAGEREADER_CONFIG", raising=False)
    monkeypatch.delenv("PAGEREADER_DPI", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    path = None
    if config:
        path = tmp_path / "c.toml"
        path.write_text(config, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        resolve_options(path, flags)
    for needle in needles:
        assert needle in str(info.value)
