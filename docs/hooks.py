"""mkdocs hooks: the reference pages are made from the code each time the site is built, so
they cannot drift from it: the command line from the typer app, the configuration from the
pydantic options, the JSON output schema from the result models and the Python API from the
docstrings of the names in ``pagereader.__all__``."""

from __future__ import annotations

import json
import types
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

ENGINE_NAME = "NAME"
"""The placeholder for an engine's own name in ``[engines.NAME]``."""


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated reference pages to the site."""
    for path, text in reference_pages().items():
        files.append(File.generated(config, path, content=text))
    return files


def reference_pages() -> dict[str, str]:
    """Each generated page's path under docs/ and its Markdown."""
    return {
        "reference/cli.md": cli_page(),
        "reference/configuration.md": configuration_page(),
        "reference/schema.md": schema_page(),
        "reference/api.md": api_page(),
    }


def cell(text: object) -> str:
    """Text that fits in one Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


# -- the command line ---------------------------------------------------------------------


def cli_page() -> str:
    import typer

    from pagereader.cli.main import app

    root = typer.main.get_command(app)
    lines = [
        "# Command line",
        "",
        "Every `pagereader` command with its arguments and options, read from the command "
        "itself when this site is built (the same text `--help` prints). An option left out "
        "takes its default; a command that needs an extra names it when the extra is missing.",
        "",
    ]
    for path, command in _commands(root, ["pagereader"]):
        lines += _command_section(_context(command, path), path)
    return "\n".join(lines)


def _context(command: Any, path: list[str]) -> Any:
    """A context for reading a command's usage (typer carries its own copy of click, so the
    command's own context class, not click's)."""
    return command.context_class(command, info_name=" ".join(path))


def _is_group(command: Any) -> bool:
    return hasattr(command, "list_commands")


def _commands(command: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    yield path, command
    if _is_group(command):
        ctx = _context(command, path)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _commands(sub, [*path, name])


def _command_section(ctx: Any, path: list[str]) -> list[str]:
    command = ctx.command
    usage = " ".join([ctx.info_name, *command.collect_usage_pieces(ctx)])
    lines = [f"## {' '.join(path)}", "", f"`{usage}`", ""]
    if command.help:
        lines += [" ".join(command.help.split()), ""]
    if _is_group(command):
        rows = [
            f"| [`{' '.join([*path, name])}`](#{'-'.join([*path, name])}) | "
            f"{cell(sub.get_short_help_str(limit=200))} |"
            for name in command.list_commands(ctx)
            if (sub := command.get_command(ctx, name)) is not None and not sub.hidden
        ]
        lines += ["| command | what it does |", "| --- | --- |", *rows, ""]
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    params = [p for p in params if p.name != "help"]
    if not params:
        return lines
    lines += ["| argument or option | type | default | description |", "| --- | --- | --- | --- |"]
    lines += [_param_row(p) for p in params]
    return [*lines, ""]


def _param_row(param: Any) -> str:
    if param.param_type_name == "argument":
        name = param.human_readable_name + ("..." if param.nargs == -1 else "")
        default = "required" if param.required else _cli_default(param.default)
    else:
        name = ", ".join(param.opts)
        if param.secondary_opts:
            name += " / " + ", ".join(param.secondary_opts)
        default = "required" if param.required else _cli_default(param.default)
        if getattr(param, "is_flag", False) and isinstance(param.default, bool):
            chosen = param.opts if param.default or not param.secondary_opts else None
            default = f"`{chosen[0]}`" if chosen else f"`{param.secondary_opts[0]}`"
            default = default if param.default or param.secondary_opts else "off"
    kind = "flag" if getattr(param, "is_flag", False) else _cli_type(param.type)
    help_text = getattr(param, "help", None) or ""
    return f"| `{cell(name)}` | {cell(kind)} | {cell(default)} | {cell(help_text)} |"


def _cli_type(kind: Any) -> str:
    if hasattr(kind, "choices"):
        return " | ".join(str(c) for c in kind.choices)
    name = str(kind.name).lower().removesuffix(" range")
    bounds = [
        f"{sign} {value}"
        for sign, value, open_ in (
            (">", getattr(kind, "min", None), getattr(kind, "min_open", False)),
            ("<", getattr(kind, "max", None), getattr(kind, "max_open", False)),
        )
        if value is not None
        for sign in [sign if open_ else sign + "="]
    ]
    return ", ".join([name, *bounds])


def _cli_default(value: object) -> str:
    if value is None or callable(value):
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return f"`{value}`"


# -- the configuration ----------------------------------------------------------------------


def configuration_page() -> str:
    from pagereader.config.options import Options

    lines = [
        "# Configuration",
        "",
        "Every key of the TOML config (`--config FILE` or `PAGEREADER_CONFIG`), read from "
        "pagereader's options when this site is built. A key left out takes its default; a "
        "value out of range, of the wrong type or an unknown key is an error that names the "
        "file and the key. Nested tables are TOML sections. See "
        "[Configure VLM engines and routes](../vlm.md) for worked examples.",
        "",
    ]
    for section, model, note in option_sections(Options):
        if not section:
            lines += ["## Top-level keys", ""]
        elif note:
            lines += [f"## `[{section}]` with `{note}`", ""]
        else:
            lines += [f"## `[{section}]`", ""]
        intro = " ".join((model.__doc__ or "").split())
        if intro:
            lines += [intro, ""]
        rows = [_option_row(name, info) for name, info in leaf_fields(model)]
        if rows:
            lines += ["| key | type | default | constraints | description |"]
            lines += ["| --- | --- | --- | --- | --- |", *rows, ""]
    return "\n".join(lines)


def option_sections(model: type[BaseModel], prefix: str = "") -> Iterator[tuple[str, Any, str]]:
    """(section, model, note) for the model and every table nested in it, depth first."""
    yield prefix, model, ""
    for name, info in model.model_fields.items():
        key = f"{prefix}.{name}" if prefix else name
        nested = _model_of(info.annotation)
        if nested is not None:
            yield from option_sections(nested, key)
        for variant in _mapped_models(info.annotation):
            kind = variant.model_fields["kind"].default
            for section, sub, note in option_sections(variant, f"{key}.{ENGINE_NAME}"):
                yield section, sub, note or f'kind = "{kind}"'


def leaf_fields(model: type[BaseModel]) -> list[tuple[str, FieldInfo]]:
    """The fields that are keys of the model's own table (not tables of their own)."""
    return [
        (name, info)
        for name, info in model.model_fields.items()
        if _model_of(info.annotation) is None and not _mapped_models(info.annotation)
    ]


def _strip(annotation: Any) -> Any:
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


def _union_members(annotation: Any) -> list[Any]:
    annotation = _strip(annotation)
    if get_origin(annotation) in (Union, types.UnionType):
        return [_strip(a) for a in get_args(annotation)]
    return [annotation]


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _model_of(annotation: Any) -> type[BaseModel] | None:
    """The model of a field that is a table of its own (``X`` or ``X | None``)."""
    members = [m for m in _union_members(annotation) if m is not type(None)]
    return members[0] if len(members) == 1 and _is_model(members[0]) else None


def _mapped_models(annotation: Any) -> list[type[BaseModel]]:
    """The models of a field that is a table of named tables (``Mapping[str, A | B]``)."""
    annotation = _strip(annotation)
    if get_origin(annotation) not in (Mapping, dict):
        return []
    members = _union_members(get_args(annotation)[1])
    return members if all(_is_model(m) for m in members) else []


def _option_row(name: str, info: FieldInfo) -> str:
    default = (
        "required"
        if info.is_required()
        else _toml_value(info.get_default(call_default_factory=True))
    )
    return (
        f"| `{name}` | {cell(toml_type(info.annotation))} | {cell(default)} | "
        f"{cell(_constraints(info))} | {cell(info.description or '')} |"
    )


def toml_type(annotation: Any) -> str:
    """The TOML type of a field's values, as a reader of the config file sees it."""
    annotation = _strip(annotation)
    members = _union_members(annotation)
    if len(members) > 1:
        known = [toml_type(m) for m in members if m is not type(None)]
        optional = " (optional)" if type(None) in members else ""
        return " or ".join(known) + optional
    origin = get_origin(annotation)
    if origin is Literal:
        return " | ".join(json.dumps(v) for v in get_args(annotation))
    if origin in (tuple, list):
        return f"array of {toml_type(get_args(annotation)[0])}"
    if origin in (Mapping, dict):
        key, value = get_args(annotation)
        return f"table of {toml_type(key)} to {toml_type(value)}"
    names = {bool: "boolean", int: "integer", float: "float", str: "string"}
    if annotation is SecretStr:
        return "string (secret: never printed or stored)"
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def _constraints(info: FieldInfo) -> str:
    signs = {"ge": ">=", "gt": ">", "le": "<=", "lt": "<", "min_length": "length >=",
             "max_length": "length <="}  # fmt: skip
    found = []
    for item in [*info.metadata, *_inner_metadata(info.annotation)]:
        for attr, sign in signs.items():
            value = getattr(item, attr, None)
            if value is not None:
                found.append(f"{sign} {value:,}" if isinstance(value, int) else f"{sign} {value}")
    return ", ".join(found)


def _inner_metadata(annotation: Any) -> list[Any]:
    """Constraints on the items of an array (``tuple[Annotated[int, Field(ge=1)], ...]``)."""
    found: list[Any] = []
    for member in _union_members(annotation):
        for arg in get_args(member):
            if get_origin(arg) is Annotated:
                for meta in get_args(arg)[1:]:
                    found += getattr(meta, "metadata", [meta])
    return found


def _toml_value(value: object) -> str:
    if value is None:
        return "not set"
    if isinstance(value, SecretStr):
        return '`"…"` (secret)' if value.get_secret_value() else '`""`'
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, Mapping):
        if not value:
            return "`{}`"
        inner = ", ".join(f"{json.dumps(str(k))} = {_plain(v)}" for k, v in value.items())
        return f"`{{ {inner} }}`"
    return f"`{_plain(value)}`"


def _plain(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


# -- the JSON output and the Python API -----------------------------------------------------


def schema_page() -> str:
    from pagereader.render.json import SCHEMA_VERSION, json_schema

    return "\n".join(
        [
            "# JSON output schema",
            "",
            f"The JSON Schema of `document.json` (schema version {SCHEMA_VERSION}), made from "
            "pagereader's result models (`DocumentResult`) when this site is built. "
            "`pagereader schema` prints the same schema, so a consumer can validate outputs "
            "against the version that wrote them:",
            "",
            "<!-- runnable -->",
            "```bash",
            "pagereader schema -o document.schema.json",
            "```",
            "",
            "```json",
            json.dumps(json_schema(), ensure_ascii=False, indent=2),
            "```",
            "",
        ]
    )


def api_page() -> str:
    import pagereader

    lines = [
        "# Python API",
        "",
        "The names `import pagereader` exports (`pagereader.__all__`), with their docstrings, "
        "read from the code when this site is built. `parse` is the one synchronous entry "
        "point; async code awaits `aparse`. See [Parse documents](../parse.md) for examples.",
        "",
    ]
    for name in sorted(pagereader.__all__, key=str.lower):
        home = getattr(pagereader, name).__module__
        lines += [f"::: {home}.{name}", "    options:", "      heading_level: 2", ""]
    return "\n".join(lines)
