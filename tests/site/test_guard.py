"""RequestGuard (maerstanas_site/guard.py): a request is bounded before Django reads it."""

from __future__ import annotations

import asyncio
import json

import pytest

from maerstanas_site.guard import MAX_BODY_BYTES, RequestGuard
from tests.support import aio


class App:
    """Stands for Django: records the request and the body it could read."""

    def __init__(self) -> None:
        self.called = False
        self.scope: dict | None = None
        self.body = b""
        self.after: dict | None = None

    async def __call__(self, scope, receive, send) -> None:
        self.called = True
        self.scope = scope
        message = await receive()
        assert message["type"] == "http.request"
        self.body = message["body"]
        assert message["more_body"] is False
        self.after = await receive()  # what the client sends next: here, leaving
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def call(
    headers: dict[str, str],
    chunks: list[bytes] | None = None,
    path: str = "/",
    method: str = "POST",
    delay: float = 0.0,
    body_seconds: float = 5,
    repeated: tuple[tuple[str, str], ...] = (),
    uploads: dict[str, int] | None = None,
) -> tuple[App, int, dict[bytes, bytes], bytes]:
    """Send one request through the guard: its body in ``chunks``, ``delay`` s apart."""
    app = App()
    guard = RequestGuard(app, body_seconds=body_seconds, uploads=uploads)
    parts = list(chunks if chunks is not None else [b""])
    sent: list[dict] = []

    async def receive() -> dict:
        if parts:
            await asyncio.sleep(delay)
            chunk = parts.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(parts)}
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        # As an ASGI server reads them: the start first, then the body.
        assert message["type"] == ("http.response.body" if sent else "http.response.start")
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "headers": [(k.lower().encode(), v.encode()) for k, v in (*headers.items(), *repeated)],
    }
    aio.run(guard(scope, receive, send))
    if app.called:
        assert app.scope is scope
    start = sent[0]
    body = b"".join(message.get("body", b"") for message in sent[1:])
    answered = dict(start["headers"])
    assert all(name == name.lower() for name in answered)  # as ASGI asks
    if b"content-length" in answered and method != "HEAD":
        assert int(answered[b"content-length"]) == len(body)
    return app, start["status"], answered, body


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_a_form_passes_to_django_whole_and_the_client_is_still_heard_after():
    app, status, _, body = call(FORM | {"Content-Length": "19"}, [b"mode=hot", b"seat&ply=1"])
    assert (status, body) == (200, b"ok")
    assert app.body == b"mode=hotseat&ply=1"
    assert app.after == {"type": "http.disconnect"}


def test_a_request_without_a_body_passes():
    app, status, _, _ = call({}, method="GET")
    assert status == 200 and app.called and app.body == b""


def test_a_body_declared_too_large_is_refused_before_a_byte_is_read():
    app, status, headers, body = call(FORM | {"Content-Length": str(MAX_BODY_BYTES + 1)}, [])
    assert status == 413 and not app.called
    assert headers[b"connection"] == b"close"
    assert headers[b"content-type"] == b"text/plain; charset=utf-8"
    assert body.startswith(b"The ") and body.endswith(b".\n")
    assert b"larger than this site takes (16 kB)" in body


def test_a_body_at_the_limit_passes_and_one_byte_more_sent_in_chunks_is_refused():
    app, status, _, _ = call(FORM, [b"x" * 1000] * (MAX_BODY_BYTES // 1000) + [b"x" * 384])
    assert status == 200 and len(app.body) == MAX_BODY_BYTES
    app, status, _, _ = call(FORM, [b"x" * 1000] * (MAX_BODY_BYTES // 1000) + [b"x" * 385])
    assert status == 413 and not app.called


@pytest.mark.parametrize("length", ["-1", "12x", "1e3"])
def test_a_length_that_is_not_a_number_is_refused(length):
    app, status, _, _ = call(FORM | {"Content-Length": length})
    assert status == 400 and not app.called


def test_an_upload_is_refused_whatever_its_size():
    multipart = {"Content-Type": "multipart/form-data; boundary=x", "Content-Length": "40"}
    app, status, _, body = call(multipart, [b"--x\r\n" + b"y" * 35])
    assert status == 413 and not app.called
    assert b"no uploads" in body
    # An empty multipart body (a form with nothing in it) is no upload.
    app, status, _, _ = call(multipart | {"Content-Length": "0"})
    assert status == 200 and app.called


@pytest.mark.parametrize("charset", ["latin-1", "utf-16", '"iso-8859-1"', "nonsense"])
def test_a_form_in_another_encoding_than_utf8_is_refused_with_a_400(charset):
    headers = {"Content-Type": f"application/x-www-form-urlencoded; charset={charset}"}
    app, status, _, body = call(headers | {"Content-Length": "4"}, [b"a=\xe9b"])
    assert status == 400 and not app.called
    assert body == b"Send forms encoded as UTF-8.\n"


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", '"utf-8"', "utf8"])
def test_a_form_in_utf8_passes(charset):
    headers = {"Content-Type": f"application/x-www-form-urlencoded; charset={charset}"}
    app, status, _, _ = call(headers, [b"a=b"])
    assert status == 200 and app.called


def test_a_body_that_dribbles_in_is_cut_off_at_the_deadline():
    app, status, _, body = call(FORM, [b"a"] * 10, delay=0.05, body_seconds=0.2)
    assert status == 408 and not app.called
    assert b"did not arrive in time" in body


def test_refusals_under_the_api_are_json():
    app, status, headers, body = call(
        {"Content-Length": str(10**9)}, path="/api/games", method="POST"
    )
    assert status == 413 and headers[b"content-type"] == b"application/json"
    assert "larger than" in json.loads(body)["error"]


def test_a_client_that_leaves_while_sending_reaches_nothing():
    app = App()

    async def scenario() -> list:
        sent: list = []

        async def receive() -> dict:
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "path": "/", "headers": []}
        await RequestGuard(app)(scope, receive, send)
        return sent

    assert aio.run(scenario()) == [] and not app.called


@pytest.mark.parametrize(
    "repeated",
    [
        (("Content-Type", "application/x-www-form-urlencoded; charset=latin-1"),),
        (("content-length", "3"),),
        (("Cookie", "sessionid=x"),),
        (("HOST", "example.com"),),
    ],
    ids=["content-type", "content-length", "cookie", "host"],
)
def test_a_header_that_may_come_once_but_comes_twice_is_refused(repeated):
    headers = FORM | {"Content-Length": "3", "Cookie": "a=b", "Host": "testserver"}
    app, status, _, body = call(headers, [b"a=b"], repeated=repeated)
    assert status == 400 and not app.called
    name = repeated[0][0].lower()
    assert body == f"The {name} header comes more than once.\n".encode()


def test_list_headers_may_come_more_than_once():
    repeated = (("Accept", "text/html"), ("Accept", "*/*"), ("Cache-Control", "no-cache"))
    app, status, _, _ = call({"Cache-Control": "max-age=0"}, method="GET", repeated=repeated)
    assert status == 200 and app.called


@pytest.mark.parametrize(
    "content_type",
    [
        "application/x-www-form-urlencoded; charset=utf-8; charset=latin-1",
        "application/x-www-form-urlencoded; charset=utf-8; CHARSET=utf-8",
        "multipart/form-data; boundary=a; boundary=b",
    ],
)
def test_a_parameter_of_the_content_type_given_twice_is_refused(content_type):
    app, status, _, body = call({"Content-Type": content_type}, [b"a=b"])
    assert status == 400 and not app.called
    assert body == b"A parameter of the Content-Type comes twice.\n"


def test_each_refusal_says_why_in_its_own_words():
    _, status, _, body = call(FORM | {"Content-Length": "12x"})
    assert (status, body) == (400, b"Bad length.\n")
    multipart = {"Content-Type": "multipart/form-data; boundary=x", "Content-Length": "40"}
    _, status, _, body = call(multipart, [b"--x\r\n" + b"y" * 35])
    assert (status, body) == (413, b"This address takes no uploads: send forms urlencoded.\n")
    _, status, _, body = call(FORM, [b"a"] * 10, delay=0.05, body_seconds=0.2)
    assert (status, body) == (408, b"The request's body did not arrive in time.\n")


def test_a_refusal_of_a_head_request_has_the_headers_of_its_text_and_no_body():
    app, status, headers, body = call({"Host": "a"}, method="HEAD", repeated=(("Host", "b"),))
    assert status == 400 and not app.called
    assert body == b""
    assert (
        headers[b"content-length"] == str(len(b"The host header comes more than once.\n")).encode()
    )
    assert headers[b"connection"] == b"close"


def test_a_body_declared_exactly_at_the_limit_passes():
    length = {"Content-Length": str(MAX_BODY_BYTES)}
    app, status, _, _ = call(FORM | length, [b"x" * MAX_BODY_BYTES])
    assert status == 200 and len(app.body) == MAX_BODY_BYTES


@pytest.mark.parametrize(
    "framing", [{"Content-Length": "1"}, {"Transfer-Encoding": "chunked"}], ids=["1", "chunked"]
)
def test_any_upload_body_is_refused_however_it_is_framed(framing):
    multipart = {"Content-Type": "multipart/form-data; boundary=x"} | framing
    app, status, _, body = call(multipart, [b"-"])
    assert status == 413 and not app.called
    assert b"no uploads" in body


def test_the_import_address_takes_an_upload_up_to_its_own_limit():
    multipart = {"Content-Type": "multipart/form-data; boundary=x"}
    upload = b"--x\r\n" + b"y" * (60 * 1024)
    app, status, _, _ = call(multipart, [upload], path="/import/")
    assert status == 200 and app.body == upload
    app, status, _, body = call(multipart | {"Content-Length": str(81 * 1024)}, path="/import/")
    assert status == 413 and not app.called
    assert b"larger than this site takes (80 kB)" in body


def test_the_addresses_that_take_uploads_are_the_guards_to_choose():
    multipart = {"Content-Type": "multipart/form-data; boundary=x", "Content-Length": "2000"}
    uploads = {"/pictures/": 2048}
    app, status, _, _ = call(multipart, [b"y" * 2000], path="/pictures/", uploads=uploads)
    assert status == 200 and app.body == b"y" * 2000
    app, status, _, body = call(multipart, [b"y" * 2000], path="/import/", uploads=uploads)
    assert status == 413 and b"no uploads" in body


def test_what_is_not_an_http_request_reaches_the_app_untouched():
    seen: list = []

    async def app(scope, receive, send) -> None:
        seen.append((scope, receive, send))

    async def receive() -> dict:
        return {"type": "lifespan.startup"}

    async def send(message: dict) -> None:
        pass

    for scope in ({"type": "lifespan"}, {"type": "websocket", "path": "/", "headers": []}):
        aio.run(RequestGuard(app)(scope, receive, send))
        assert seen.pop() == (scope, receive, send)


def test_a_body_in_messages_that_leave_out_their_optional_keys_is_read_whole():
    app = App()
    messages = [
        {"type": "http.request", "more_body": True},
        {"type": "http.request", "body": b"a=b", "more_body": True},
        {"type": "http.request", "body": b"&c=d"},
    ]

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        pass

    scope = {"type": "http", "method": "POST", "path": "/", "headers": []}
    aio.run(RequestGuard(app)(scope, receive, send))
    assert app.body == b"a=b&c=d"
    assert app.after == {"type": "http.disconnect"}


@pytest.mark.parametrize(
    "content_type",
    [
        "application/x-www-form-urlencoded;a=b;charset=latin-1",
        "application/x-www-form-urlencoded; charset=UTF-8X",
        "application/x-www-form-urlencoded; charset=utf-8=latin-1",
    ],
)
def test_a_charset_is_read_wherever_it_stands_and_must_be_utf8_itself(content_type):
    app, status, _, body = call({"Content-Type": content_type}, [b"a=b"])
    assert status == 400 and not app.called
    assert body == b"Send forms encoded as UTF-8.\n"


@pytest.mark.parametrize(
    "content_type",
    [
        "application/x-www-form-urlencoded;charset=utf-8;charset=latin-1",
        "multipart/form-data; boundary=a=b; boundary=c",
    ],
)
def test_a_parameter_given_twice_is_found_however_it_is_written(content_type):
    app, status, _, body = call({"Content-Type": content_type}, [b"a=b"])
    assert status == 400 and not app.called
    assert body == b"A parameter of the Content-Type comes twice.\n"


def test_parameters_of_different_names_pass():
    content_type = "application/x-www-form-urlencoded; charset=utf-8; q=1"
    app, status, _, _ = call({"Content-Type": content_type}, [b"a=b"])
    assert status == 200 and app.body == b"a=b"
