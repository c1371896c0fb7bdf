"""Request bodies built by the real chat SDKs, captured by a mock transport (nothing is sent)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest


def captured_body(client_call: Any, http_module: str = "httpx") -> dict[str, Any]:
    """The JSON body ``client_call(http_client)`` made the SDK send (answered with a 400)."""
    httpx = pytest.importorskip(http_module)
    bodies: list[dict[str, Any]] = []

    def handler(request: Any) -> Any:
        bodies.append(json.loads(request.content))
        return httpx.Response(400, json={"error": {"message": "not sent", "type": "test"}})

    with (
        httpx.Client(transport=httpx.MockTransport(handler)) as http,
        contextlib.suppress(Exception),
    ):  # the SDK raises its own error for the 400 answer, after sending
        client_call(http)
    [body] = bodies
    return body
