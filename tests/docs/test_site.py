"""The documentation site: `mkdocs build --strict` passes, the reference pages made from the
code hold what the code holds (read here another way: the options' JSON Schema, each command's
--help), every block the pages mark runnable runs, and `pagereader schema` prints a JSON Schema
that real output validates against."""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.config.options import Options
from pagereader.types import DocumentResult

pytestmark = pytest.mark.docs

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
RUNNABLE = "<!-- runnable -->"
runner = CliRunner()


def hooks() -> ModuleType:
    """docs/hooks.py, the module mkdocs loads to make the reference pages."""
    spec = importlib.util.spec_from_file_location(
        "pagereader_docs_hooks", REPO / "docs" / "hooks.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as `mkdocs build --strict` writes it (any warning fails the build)."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [str(BIN / "mkdocs"), "build", "--strict", "-f", str(REPO / "mkdocs.yml"), "-d", str(out)],
        capture_output=True,
        text=True,
        check=False,
        cwd=REPO,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "WARNING" not in done.stderr, done.stderr[-3000:]
    return out


def page_html(site: Path, page: str) -> str:
    return (site / page / "index.html").read_text(encoding="utf-8")


def test_the_site_has_every_page(site: Path) -> None:
    sources = sorted(p.stem for p in (REPO / "docs").glob("*.md"))
    built = [p for p in sources if p != "index" and not (site / p / "index.html").is_file()]
    assert (site / "index.html").is_file() and built == []
    for page in ("cli", "configuration"):
        assert "<table>" in page_html(site, f"reference/{page}")
    schema_text = html.unescape(re.sub(r"<[^>]+>", "", page_html(site, "reference/schema")))
    assert '"title": "DocumentResult"' in schema_text


def test_the_api_page_documents_every_public_name(site: Path) -> None:
    import pagereader

    page = page_html(site, "reference/api")
    for name in pagereader.__all__:
        home = getattr(pagereader, name).__module__
        assert f'id="{home}.{name}"' in page, f"{name} is not on the Python API page"
    # docstrings are there, not only the names
    first_words = " ".join((pagereader.parse.__doc__ or "").split()[:3])
    assert first_words and first_words in " ".join(page.split())


# -- the configuration reference ------------------------------------------------------------


def schema_keys(schema: dict[str, Any]) -> set[tuple[str, str]]:
    """(section, key) for every key of the config, walked from the options' JSON Schema:
    an object property is a section, a map of objects a section named NAME."""
    defs = schema.get("$defs", {})
    found: set[tuple[str, str]] = set()

    def resolve(node: dict[str, Any]) -> list[dict[str, Any]]:
        if "$ref" in node:
            return resolve(defs[node["$ref"].rsplit("/", 1)[1]])
        for union in ("anyOf", "oneOf"):
            if union in node:
                return [r for option in node[union] for r in resolve(option)]
        return [node]

    def walk(node: dict[str, Any], section: str) -> None:
        for key, value in node.get("properties", {}).items():
            path = f"{section}.{key}" if section else key
            parts = [p for p in resolve(value) if p.get("type") != "null"]
            if parts and all("properties" in p for p in parts):
                for part in parts:
                    walk(part, path)
                continue
            mapped = [
                r
                for p in parts
                if isinstance(p.get("additionalProperties"), dict)
                for r in resolve(p["additionalProperties"])
            ]
            if mapped and all("properties" in m for m in mapped):
                for model in mapped:
                    walk(model, f"{path}.NAME")
                continue
            found.add((section, key))

    walk(schema, "")
    return found


def page_keys(page: str) -> set[tuple[str, str]]:
    """(section, key) for every row of the built configuration page, in the section of the
    heading above it (no heading with a [table]: the top level)."""
    found: set[tuple[str, str]] = set()
    section = ""
    for match in re.finditer(r"<h2[^>]*>(.*?)</h2>|<tr>\s*<td><code>([^<]+)</code></td>", page):
        heading, key = match.groups()
        if heading is not None:
            table = re.search(r"<code>\[([^\]]+)\]</code>", heading)
            section = html.unescape(table.group(1)) if table else ""
        else:
            found.add((section, html.unescape(key)))
    return found


def test_the_configuration_reference_lists_every_key(site: Path) -> None:
    expected = schema_keys(Options.model_json_schema())
    listed = page_keys(page_html(site, "reference/configuration"))
    assert ("render", "dpi") in expected and ("engines.NAME", "base_url") in expected
    assert ("router.cache", "ttl_s") in expected
    assert expected - listed == set(), "keys missing from the configuration reference"
    assert listed - expected == set(), "keys on the page that the options do not have"


def test_every_option_has_a_description_type_and_default(site: Path) -> None:
    """Each row of the configuration reference is filled in."""
    page = page_html(site, "reference/configuration")
    rows = re.findall(r"<tr>\s*<td><code>([^<]+)</code></td>(.*?)</tr>", page, re.S)
    cells = {key: re.findall(r"<td>(.*?)</td>", rest, re.S) for key, rest in rows}
    blank = sorted(key for key, row in cells.items() if not row[0].strip() or not row[-1].strip())
    assert rows and blank == [], f"keys without a type or a description: {blank}"


# -- the command line reference ---------------------------------------------------------------


def command_paths() -> list[list[str]]:
    """Every command, read from `pagereader --help` and each group's --help."""
    paths: list[list[str]] = []

    def walk(path: list[str]) -> None:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, result.output
        paths.append(path)
        if "Commands:" in result.output:
            listed = result.output.split("Commands:", 1)[1]
            for name in re.findall(r"^  ([a-z][a-z-]*)\s", listed, re.M):
                walk([*path, name])

    walk([])
    return paths


def test_the_cli_reference_has_every_command_and_option(site: Path) -> None:
    page = html.unescape(page_html(site, "reference/cli"))
    sections = dict(
        (m.group(1), m.group(2))
        for m in re.finditer(r"<h2[^>]*>(pagereader[^<]*)<.*?</h2>(.*?)(?=<h2|$)", page, re.S)
    )
    paths = command_paths()
    assert ["schema"] in paths and ["plan", "calibrate"] in paths
    for path in paths:
        name = " ".join(["pagereader", *path])
        assert name in sections, f"{name} is not on the command line page"
        helped = runner.invoke(app, [*path, "--help"], terminal_width=200).output
        options = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", helped)) - {"--help"}
        missing = [o for o in sorted(options) if o not in sections[name]]
        assert missing == [], f"{name}: {missing}"


# -- runnable blocks -----------------------------------------------------------------------------


def runnable_blocks() -> list[tuple[str, str]]:
    """(page, script) for every ```bash block right after a runnable marker, on the pages in
    docs/, the generated reference pages and README.md."""
    pages = {p.relative_to(REPO).as_posix(): p.read_text(encoding="utf-8") for p in
             [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]}  # fmt: skip
    pages.update({f"docs/{k}": v for k, v in hooks().reference_pages().items()})
    blocks = []
    for name, text in pages.items():
        for script in re.findall(re.escape(RUNNABLE) + r"\n```bash\n(.*?)\n```", text, re.S):
            blocks.append((name, script))
    return blocks


def test_the_pages_mark_blocks_runnable() -> None:
    pages = {name for name, _ in runnable_blocks()}
    assert {"docs/index.md", "docs/plan.md", "docs/reference/schema.md"} <= pages
    for text in [p.read_text(encoding="utf-8") for p in (REPO / "docs").glob("*.md")]:
        # a marker not followed by a bash block would be a check that never runs
        assert text.count(RUNNABLE) == len(re.findall(re.escape(RUNNABLE) + r"\n```bash\n", text))


@pytest.mark.parametrize(("page", "script"), runnable_blocks())
def test_a_runnable_block_runs(page: str, script: str, tmp_path: Path) -> None:
    """Each block runs in a fresh folder that sees the repository's examples/, as a user who
    cloned it runs them from its root."""
    (tmp_path / "examples").symlink_to(REPO / "examples")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, f"{page}:\n{script}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"


# -- the schema command and the front page -------------------------------------------------------


def test_pagereader_schema_is_the_result_models_schema(tmp_path: Path) -> None:
    printed = runner.invoke(app, ["schema"])
    assert printed.exit_code == 0, printed.output
    schema = json.loads(printed.output)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith(".json")
    assert {k: v for k, v in schema.items() if k != "$id"} == DocumentResult.model_json_schema()
    # the output of a real parse is valid under it, and a broken one is not
    done = subprocess.run(
        [
            str(BIN / "pagereader"),
            "parse",
            str(REPO / "examples" / "deck.pdf"),
            "-o",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    written = json.loads((tmp_path / "deck" / "document.json").read_text(encoding="utf-8"))
    jsonschema.validate(written, schema)
    written["pages"][0]["blocks"][0]["verdict"]["outcome"] = "maybe"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(written, schema)


def test_the_schema_command_writes_a_file(tmp_path: Path) -> None:
    target = tmp_path / "schema.json"
    result = runner.invoke(app, ["schema", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8"))["title"] == "DocumentResult"
    blocked = runner.invoke(app, ["schema", "-o", str(tmp_path / "no" / "such" / "dir" / "x")])
    assert blocked.exit_code != 0 and "no/such/dir" in blocked.output


def test_the_readme_is_a_front_page_with_the_two_commands() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200
    quick = readme.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    assert [line.split("#")[0].strip() for line in quick.splitlines()] == ["make demo", "make test"]
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme):
        assert (REPO / target).exists(), f"README.md links to {target}, which is not there"
