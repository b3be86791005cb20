"""The served engines of the options, as ``pagereader doctor`` checks them: the endpoint's
``/v1/models`` lists the model (not in router mode), and the start-up check of a run
(engine_check.py) passes.
A configured engine that fails either is a blocking check: ``doctor`` then exits non-zero."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from pagereader.cli.doctor_checks import Check

if TYPE_CHECKING:
    from pagereader.config.options import Options

MODELS_TIMEOUT_S = 10.0


def served_endpoints(options: Options) -> dict[str, tuple[str, str, str]]:
    """Each served engine's name -> (URL, model, API key) it sends its requests to (the router's
    in router mode)."""
    from pagereader.config.options import OpenAIEngineOptions

    endpoints = {}
    for name, engine in options.engines.items():
        if not isinstance(engine, OpenAIEngineOptions):
            continue
        if options.router is not None:
            router = options.router
            endpoints[name] = (router.base_url, router.model, router.api_key.get_secret_value())
        else:
            endpoints[name] = (engine.base_url, engine.model, engine.api_key.get_secret_value())
    return endpoints


async def served_models(url: str, api_key: str) -> list[str]:
    """The model ids ``url``/models lists; an OSError-like httpx error when it cannot."""
    import httpx

    headers = {"Authorization": f"Bearer {api_key}"}
    async with httpx.AsyncClient(timeout=MODELS_TIMEOUT_S) as client:
        response = await client.get(url.rstrip("/") + "/models", headers=headers)
        response.raise_for_status()
        data = response.json().get("data", [])
    return [str(item.get("id")) for item in data if isinstance(item, dict)]


async def _listing(url: str, model: str, api_key: str) -> str | None:
    """None when ``url`` lists ``model``; else what is wrong."""
    import httpx

    try:
        models = await served_models(url, api_key)
    except httpx.HTTPStatusError as exc:
        return f"GET /models answered {exc.response.status_code}"
    except (httpx.HTTPError, ValueError) as exc:
        return f"cannot reach it: {type(exc).__name__}: {exc}"
    if model not in models:
        served = ", ".join(models) or "no model"
        return f"serves {served}, not {model!r}"
    return None


async def check_engines(options: Options) -> list[Check]:
    """One check per served engine: its model is listed and it answers a block's request."""
    from pagereader.engine_check import preflight
    from pagereader.pipeline import make_context

    endpoints = served_endpoints(options)
    if not endpoints:
        return []
    if options.router is None:
        listings = await asyncio.gather(*(_listing(*e) for e in endpoints.values()))
    else:  # a router's choosing model need not be one it lists: its answer is the check
        listings = [None] * len(endpoints)
    ctx = make_context(options)
    try:
        problems = await preflight(ctx)
    finally:
        await asyncio.gather(*(engine.aclose() for engine in ctx.engines.values()))
    checks = []
    for (name, (url, model, _)), listing in zip(endpoints.items(), listings, strict=True):
        problem = listing or (problems[name].message if name in problems else None)
        if problem is None:
            checks.append(Check(f"engine {name}", True, f"{url} serves {model}"))
            continue
        hint = problems[name].hint if name in problems else None
        costs = f"pages routed to {name} fall back or fail (parse exits non-zero)"
        fix = hint or f"start the server at {url} with {model}, or fix [engines.{name}]"
        checks.append(
            Check(f"engine {name}", False, f"{url}: {problem}", costs, fix, blocking=True)
        )
    return checks
