"""serve-engine's answers as pydantic models, in the shapes of OpenAI's chat API that the
openai client and vLLM's users read: a completion, its usage, the model list."""

from __future__ import annotations

import time
import uuid
from typing import Literal

from pydantic import BaseModel, Field

FinishReason = Literal["stop", "length"]


class Usage(BaseModel):
    """Tokens of one request: the image's visual tokens and the prompt's, and the answer's."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int

    @classmethod
    def of(cls, prompt_tokens: int, completion_tokens: int) -> Usage:
        total = prompt_tokens + completion_tokens
        return cls(
            prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, total_tokens=total
        )


class Message(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str


class Choice(BaseModel):
    index: int = 0
    message: Message
    finish_reason: FinishReason


def _completion_id() -> str:
    return f"chatcmpl-{uuid.uuid4().hex}"


class ChatCompletion(BaseModel):
    """``POST /v1/chat/completions`` without ``stream``."""

    id: str = Field(default_factory=_completion_id)
    object: Literal["chat.completion"] = "chat.completion"
    created: int = Field(default_factory=lambda: int(time.time()))
    model: str
    choices: list[Choice]
    usage: Usage


class ModelCard(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int = 0
    owned_by: str = "pagereader"


class ModelList(BaseModel):
    """``GET /v1/models``: the one model this server answers as."""

    object: Literal["list"] = "list"
    data: list[ModelCard]
