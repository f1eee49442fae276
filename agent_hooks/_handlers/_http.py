"""HTTP hooks (Claude Code's ``type: "http"``): POST the payload, read the answer.

Needs the optional ``http`` extra (``pip install 'py-agent-hooks[http]'``, which
brings h11); the connection itself is anyio (TCP, TLS for ``https``). Rules, as
Claude Code defines them: 2xx with an empty body is no opinion; 2xx with a JSON
object is the handler's answer; anything else (other body, other status,
connection failure, timeout) is a non-blocking error with a diagnostic, under the
handler's failure policy; so is a payload that cannot be sent (a value set from
Python that is not JSON data) and a body nested deeper than the JSON parser goes.
``$VAR``/``${VAR}`` in header values expand only for names in
``allowed_env_vars``; other references become empty strings.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import anyio
import attrs

from .._base._diagnostics import DiagnosticCode, Severity
from .._base._errors import RegistrationError
from .._wire._codec import decode_output
from ._nodes import HandlerNode, HandlerResult, HookCall, OnError
from ._on_failure import invalid_answer_fails

__all__ = ["HttpHook", "HttpResponse", "expand_header", "http_post"]

MAX_RESPONSE = 1_000_000
_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def _h11() -> Any:
    try:
        import h11
    except ImportError:  # pragma: no cover - depends on the environment
        raise RegistrationError(
            "HTTP hooks need the 'http' extra: pip install 'py-agent-hooks[http]'"
        ) from None
    return h11


def expand_header(
    value: str, allowed: Sequence[str], environ: Mapping[str, str] | None = None
) -> str:
    """Expand ``$VAR``/``${VAR}`` for allowed names; other references become ``""``."""
    env = os.environ if environ is None else environ
    allowed_set = set(allowed)

    def sub(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        return env.get(name, "") if name in allowed_set else ""

    return _VAR.sub(sub, value)


@attrs.frozen(kw_only=True)
class HttpResponse:
    """Status, headers (lower-cased names) and at most ``MAX_RESPONSE`` bytes of body."""

    status: int
    headers: Mapping[str, str]
    body: bytes
    truncated: bool = False


async def http_post(
    url: str,
    body: bytes,
    headers: Mapping[str, str] | None = None,
    *,
    max_response: int = MAX_RESPONSE,
) -> HttpResponse:
    """POST ``body`` to an ``http``/``https`` URL with HTTP/1.1 and read the answer.

    Raises:
        OSError: connection failures. ValueError: a bad URL or a protocol error.
    """
    h11 = _h11()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {url!r}")
    tls = parts.scheme == "https"
    port = parts.port or (443 if tls else 80)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    host_header = parts.netloc.rsplit("@", 1)[-1]
    stream: Any
    if tls:
        import ssl

        stream = await anyio.connect_tcp(
            parts.hostname, port, tls=True, ssl_context=ssl.create_default_context()
        )
    else:
        stream = await anyio.connect_tcp(parts.hostname, port)
    async with stream:
        conn = h11.Connection(our_role=h11.CLIENT)
        hdrs = [
            ("Host", host_header),
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
            ("User-Agent", "agent-hooks"),
        ]
        hdrs += [(k, v) for k, v in (headers or {}).items()]
        await stream.send(conn.send(h11.Request(method="POST", target=target, headers=hdrs)))
        await stream.send(conn.send(h11.Data(data=body)))
        await stream.send(conn.send(h11.EndOfMessage()))
        status = 0
        resp_headers: dict[str, str] = {}
        chunks: list[bytes] = []
        size = 0
        truncated = False
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                try:
                    data = await stream.receive()
                except (anyio.EndOfStream, anyio.BrokenResourceError):
                    data = b""
                conn.receive_data(data)
                continue
            if isinstance(event, h11.Response):
                status = event.status_code
                resp_headers = {k.decode().lower(): v.decode("latin-1") for k, v in event.headers}
            elif isinstance(event, h11.Data):
                if size < max_response:
                    piece = bytes(event.data)[: max_response - size]
                    chunks.append(piece)
                    size += len(piece)
                    truncated = truncated or len(piece) < len(event.data)
                else:
                    truncated = True
            elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                break
        return HttpResponse(
            status=status, headers=resp_headers, body=b"".join(chunks), truncated=truncated
        )


def _error(message: str, status: int | None = None) -> HandlerResult:
    return HandlerResult.failure(
        DiagnosticCode.NONZERO_EXIT, message, severity=Severity.WARNING, exit_code=status
    )


def _unsendable(url: str, exc: Exception) -> HandlerResult:
    message = f"HTTP hook {url} not called: the payload is not JSON data ({exc})"
    return HandlerResult.failure(DiagnosticCode.PAYLOAD_UNENCODABLE, message)


@attrs.frozen(kw_only=True)
class HttpHook:
    """A hook answered by an HTTP endpoint (Claude Code's ``type: "http"``).

    Raises:
        RegistrationError: the URL is not http(s), or the ``http`` extra is missing.
    """

    url: str
    headers: Mapping[str, str] = attrs.field(factory=dict)
    allowed_env_vars: Sequence[str] = ()
    timeout: float | None = None
    name: str | None = None
    status_message: str | None = None
    on_error: OnError | None = None
    async_: bool = False
    if_rule: str | None = None
    answer_must_be_valid: bool = False
    """Claude Code's ``onFailure: "block"``: a JSON answer that fails validation is a
    failure, under ``on_error`` (a body that is no JSON object always is)."""

    def __attrs_post_init__(self) -> None:
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RegistrationError(f"http hook url must be http:// or https://, got {self.url!r}")
        if self.timeout is not None and not self.timeout > 0:
            raise RegistrationError(f"http hook timeout must be positive, got {self.timeout!r}")
        _h11()

    def to_node(self) -> HandlerNode:
        """Build the handler node."""
        hook = self

        async def call(c: HookCall) -> HandlerResult:
            # a reference expanded to "" may leave whitespace at an end, which is not part
            # of a field value (RFC 9110, 5.5) and which h11 refuses to send
            headers = {
                k: expand_header(v, hook.allowed_env_vars).strip(" \t")
                for k, v in hook.headers.items()
            }
            try:
                body = c.payload_bytes(c.dialect.wire)
            except (TypeError, ValueError) as exc:
                return _unsendable(hook.url, exc)
            try:
                resp = await http_post(hook.url, body, headers)
            except (OSError, ValueError) as exc:
                return _error(f"HTTP hook {hook.url} failed: {type(exc).__name__}: {exc}")
            except Exception as exc:  # h11 protocol errors
                return _error(f"HTTP hook {hook.url} failed: {type(exc).__name__}: {exc}")
            if not 200 <= resp.status < 300:
                return _error(f"HTTP hook {hook.url} answered status {resp.status}", resp.status)
            text = resp.body.decode("utf-8", errors="replace").strip()
            if not text:
                return HandlerResult(exit_code=resp.status)
            try:
                obj = json.loads(text)
            except ValueError:
                obj = None
            except RecursionError:
                return _error(
                    f"HTTP hook {hook.url} answered a body nested too deeply to read", resp.status
                )
            if not isinstance(obj, dict):
                return _error(
                    f"HTTP hook {hook.url} answered a body that is not a JSON object", resp.status
                )
            decoded = decode_output(c.spec.event, obj, dialect=c.dialect)
            if decoded.unreadable is not None and c.spec.can_block:
                # a decision that cannot be read is a failure, under the hook's policy
                message = f"HTTP hook {hook.url} answered what cannot be read: {decoded.unreadable}"
                return HandlerResult.failure(
                    DiagnosticCode.UNREADABLE_ANSWER,
                    message,
                    earlier=decoded.diagnostics,
                    exit_code=resp.status,
                    output=decoded.output,
                )
            result = HandlerResult(
                exit_code=resp.status, output=decoded.output, diagnostics=decoded.diagnostics
            )
            return invalid_answer_fails(result) if hook.answer_must_be_valid else result

        return HandlerNode(
            name=self.name or self.url,
            kind="http",
            call=call,
            timeout=self.timeout,
            on_error=self.on_error,
            background=self.async_,
            if_rule=self.if_rule,
            status_message=self.status_message,
        )
