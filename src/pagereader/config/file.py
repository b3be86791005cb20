"""Options from a TOML config file and from flags: option paths laid over Options and
validated again, with every problem a ConfigError naming its source and field."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from pagereader.config.options import Options
from pagereader.errors import ConfigError

OptionPath = tuple[str, ...]
# dict fields merged key by key when overridden (a config's routes add to the defaults)
_MERGED: frozenset[OptionPath] = frozenset({("routes",)})


def override(options: Options, changes: Mapping[OptionPath, object], source: str | Path) -> Options:
    """The one way options change: ``changes`` (paths such as ``("render", "dpi")``, from a
    config file, the environment or CLI flags; ``None`` values skipped) laid over ``options``
    and validated again. Any problem is a ConfigError naming the source and the field."""
    data: dict[str, Any] = options.model_dump()
    for path, value in changes.items():
        if value is None:
            continue
        node = data
        for part in path[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        node[path[-1]] = value
    return _validate(data, source)


def _validate(data: Mapping[str, object], source: str | Path) -> Options:
    try:
        return Options.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(_problem(err) for err in exc.errors())
        raise ConfigError(f"invalid options: {problems}", file=source) from None
    except ValueError as exc:
        raise ConfigError(f"invalid options: {exc}", file=source) from None


def _problem(error: Any) -> str:
    """One validation error as ``field: what is wrong (got value)``."""
    where = ".".join(str(p) for p in error["loc"]) or "config"
    value = error.get("input")
    got = f" (got {value!r})" if isinstance(value, str | int | float) else ""
    return f"{where}: {error['msg']}{got}"


def _sections(model: type[BaseModel]) -> dict[str, type[BaseModel]]:
    """The fields of ``model`` that are option sections themselves (nested models)."""
    found: dict[str, type[BaseModel]] = {}
    for name, field in model.model_fields.items():
        kind = field.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            found[name] = kind
    return found


def config_changes(
    raw: Mapping[str, object], model: type[BaseModel] = Options, prefix: OptionPath = ()
) -> dict[OptionPath, object]:
    """A parsed config as option paths: sections are entered, any other value is replaced
    whole, except the merged dicts (``routes``), whose entries are laid over the current."""
    sections = _sections(model)
    changes: dict[OptionPath, object] = {}
    for key, value in raw.items():
        path = (*prefix, key)
        if key in sections and isinstance(value, Mapping):
            changes.update(config_changes(value, sections[key], path))
        elif path in _MERGED and isinstance(value, Mapping):
            changes.update({(*path, str(k)): v for k, v in value.items()})
        else:
            changes[path] = value
    return changes


def read_config(path: str | Path) -> dict[OptionPath, object]:
    """A TOML config file as option changes (see :func:`config_changes`)."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError("config file not found", file=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the config: {exc}", file=path) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", file=path) from None
    return config_changes(raw)


def load_config(path: str | Path) -> Options:
    """Read and validate a TOML config; routes are merged over the embedded defaults."""
    return override(Options(), read_config(path), source=path)


def options_from_mapping(raw: Mapping[str, object], source: str | Path = "<config>") -> Options:
    """Validate a mapping (a parsed config) into Options, with readable errors."""
    return override(Options(), config_changes(raw), source)
