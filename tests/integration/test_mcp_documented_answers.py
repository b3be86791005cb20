"""docs/integrations.md's table of MCP tools names the fields a real answer has: for `parse`
and `read_page`, the fields of the answer of a real `pagereader mcp` over stdio and of each
tool's output schema, nested objects included (`markdown` is an object, not a string)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from service_process import server_env

REPO = Path(__file__).resolve().parents[2]
Fields = dict[str, "Fields | None"]


def documented(tool: str) -> Fields:
    """The answer column of ``tool``'s row: backticked names, ``{...}`` an object's fields,
    ``[{...}]`` a list of objects' fields; words in parentheses explain and are skipped."""
    page = (REPO / "docs" / "integrations.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if line.startswith(f"| `{tool}` |"))
    cell = row.strip("|").split(" | ")[2]
    while (shorter := re.sub(r"\([^()]*\)", "", cell)) != cell:
        cell = shorter
    stack: list[Fields] = [{}]
    last = ""
    for token in re.findall(r"`([a-z_]+)`|(\{)|(\})", cell):
        name, opening, closing = token
        if name:
            stack[-1][name] = None
            last = name
        elif opening:
            inner: Fields = {}
            stack[-1][last] = inner
            stack.append(inner)
        elif closing:
            stack.pop()
    assert len(stack) == 1, f"unbalanced braces in the row of {tool}"
    return stack[0]


def from_schema(schema: dict[str, Any], defs: dict[str, Any]) -> Fields | None:
    """The fields of an object (or a list of objects) in a JSON Schema; None for a value."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if schema.get("type") == "array":
        return from_schema(schema.get("items", {}), defs)
    if "properties" in schema:
        return {k: from_schema(v, defs) for k, v in schema["properties"].items()}
    return None


def from_answer(answer: object) -> Fields | None:
    """The fields of a real answer (objects within it; a list's first item)."""
    if isinstance(answer, list):
        return from_answer(answer[0]) if answer else None
    if isinstance(answer, dict):
        return {k: from_answer(v) for k, v in answer.items()}
    return None


def _agrees(answer: Fields | None, docs: Fields | None) -> bool:
    """Each field of the answer documented, and nothing documented the answer lacks (an empty
    list in the answer says nothing of its items)."""
    if answer is None or docs is None:
        return True if answer is None else docs is None
    return set(answer) == set(docs) and all(_agrees(answer[k], docs[k]) for k in answer)


async def test_the_documented_answers_are_the_real_ones(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "deck.pdf").write_bytes((REPO / "examples" / "deck.pdf").read_bytes())
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "pagereader", "mcp", "--root", str(root), "--out", str(tmp_path / "out")],
        env=server_env(),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        schemas = {tool.name: tool.output_schema for tool in (await session.list_tools()).tools}
        parsed = await session.call_tool("parse", {"path": "deck.pdf"})
        page = await session.call_tool(
            "read_page", {"document": parsed.structured_content["document"], "page": 2}
        )
    for tool, result in (("parse", parsed), ("read_page", page)):
        assert not result.is_error, result.content
        docs = documented(tool)
        schema = schemas[tool]
        assert schema is not None
        assert from_schema(schema, schema.get("$defs", {})) == docs, tool
        real = from_answer(result.structured_content)
        assert _agrees(real, docs), (tool, real, docs)
        assert isinstance(docs["markdown"], dict) and "truncated" in docs["markdown"]
