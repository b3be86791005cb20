"""serve-engine's answers are what the openai client's own types accept: a completion with its
usage and finish reason, and the model list, read back without a field lost or renamed."""

from __future__ import annotations

from fastapi.testclient import TestClient
from openai.types import Model
from openai.types.chat import ChatCompletion

from pagereader.engine_server.server import completion, create_app


def test_a_completion_is_an_openai_chat_completion() -> None:
    body = completion("pagereader-embedded", "第 12 條 得申請", "length", 321, 7)
    parsed = ChatCompletion.model_validate(body)
    assert parsed.model_dump(exclude_none=True, exclude_unset=True) == body
    assert parsed.choices[0].message.content == "第 12 條 得申請"
    assert parsed.choices[0].finish_reason == "length"
    assert parsed.usage is not None and parsed.usage.total_tokens == 328
    assert body["id"] != completion("m", "x", "stop", 1, 1)["id"]


def test_the_model_list_is_a_list_of_openai_models() -> None:
    client = TestClient(create_app(model="reader-1"), base_url="http://127.0.0.1")
    listed = client.get("/v1/models").json()
    assert listed["object"] == "list"
    assert [Model.model_validate(m).id for m in listed["data"]] == ["reader-1"]
