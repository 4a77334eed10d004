"""The web server's frame (issue 17): the guard (Host, Origin, body size), the one escaping
place, and the ``serve`` command's checks before it listens."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the 'web' extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from click.testing import CliRunner  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import PlainTextResponse  # noqa: E402
from starlette.routing import Route, WebSocketRoute  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocket, WebSocketDisconnect  # noqa: E402

from rulesplay.cli import main  # noqa: E402
from rulesplay.web.app import create_app  # noqa: E402
from rulesplay.web.config import ServeConfig  # noqa: E402
from rulesplay.web.guard import guarded  # noqa: E402
from rulesplay.web.html import Html, escape, html, json_script, page  # noqa: E402

HOSTILE = '<script>alert("x")</script>&\'"'


def _client(**kw: object) -> TestClient:
    config = ServeConfig(allow_hosts=("testserver",), **kw)  # type: ignore[arg-type]
    return TestClient(create_app(config))


def test_the_index_lists_the_shipped_games() -> None:
    text = _client().get("/").text
    assert "bargain_hunter" in text and "classics/hearts" in text
    assert '<meta name="viewport"' in text


def test_a_host_header_that_is_not_this_server_is_refused() -> None:
    # DNS rebinding: a page of another site whose name resolves to 127.0.0.1.
    client = TestClient(create_app(ServeConfig()), base_url="http://evil.example")
    assert client.get("/").status_code == 400
    ok = TestClient(create_app(ServeConfig()), base_url="http://127.0.0.1:8000")
    assert ok.get("/").status_code == 200


def _echo_app(max_body: int = 100) -> TestClient:
    async def post(request: Request) -> PlainTextResponse:
        return PlainTextResponse(str(len(await request.body())))

    async def ws(socket: WebSocket) -> None:
        await socket.accept()
        await socket.send_text("hello")
        await socket.close()

    app = Starlette(routes=[Route("/p", post, methods=["POST"]), WebSocketRoute("/ws", ws)])
    return TestClient(guarded(app, ServeConfig(allow_hosts=("testserver",)).host_names(),
                              max_body))


JSON = {"content-type": "application/json"}


def test_a_post_from_another_site_is_refused_and_from_this_one_accepted() -> None:
    client = _echo_app()
    assert client.post("/p", content=b"x", headers={"origin": "http://evil.example", **JSON}
                       ).status_code == 403
    assert client.post("/p", content=b"x", headers={"origin": "http://testserver", **JSON}
                       ).text == "1"


def test_a_body_over_the_bound_is_refused_whether_its_length_is_said_or_not() -> None:
    client = _echo_app(max_body=100)
    assert client.post("/p", content=b"x" * 100, headers=JSON).text == "100"
    assert client.post("/p", content=b"x" * 101, headers=JSON).status_code == 413

    def chunks() -> object:
        yield b"x" * 60
        yield b"x" * 60

    assert client.post("/p", content=chunks(),  # type: ignore[arg-type]
                       headers=JSON).status_code == 413


def test_a_websocket_from_another_site_is_closed_before_it_opens() -> None:
    client = _echo_app()
    with pytest.raises(WebSocketDisconnect) as info, \
            client.websocket_connect("/ws", headers={"origin": "http://evil.example"}):
        pass
    assert info.value.code == 1008
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as s:
        assert s.receive_text() == "hello"


def test_text_enters_a_page_escaped_and_markup_only_as_html() -> None:
    assert escape(HOSTILE) == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#x27;&quot;"
    assert escape(Html("<b>")) == "<b>"
    made = html('<a title="$t">$t</a>', t=HOSTILE)
    assert "<script>" not in made and made.count("&lt;script&gt;") == 2
    whole = page(HOSTILE, made)
    assert "<script>alert" not in whole
    data = json_script("d", {"label": "</script><script>alert(1)</script>"})
    assert data.count("</script>") == 1  # only the element's own end


def test_the_config_accepts_its_own_names_and_the_allowed_ones() -> None:
    names = ServeConfig(allow_hosts=("table.lan",)).host_names()
    assert {"127.0.0.1", "localhost", "table.lan"} <= set(names)
    assert ServeConfig().local_only and not ServeConfig(host="0.0.0.0").local_only
    assert ServeConfig(host="::1", port=9).url() == "http://[::1]:9/"


def test_serve_checks_its_rulesets_before_listening(tmp_path: Path) -> None:
    broken = tmp_path / "broken.rules"
    broken.write_text('game "x"\nplayers 2\nphase p:\n    sett y = 1\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["serve", str(broken)])
    assert result.exit_code == 1
    assert "broken.rules:" in result.output and "Traceback" not in result.output


def test_serve_says_what_its_options_allow() -> None:
    result = CliRunner().invoke(main, ["serve", "--lang", "xx"])
    assert result.exit_code == 2 and "'en'" in result.output and "'ja'" in result.output
    assert "--games" in CliRunner().invoke(main, ["serve", "--help"]).output


def test_serve_on_a_taken_port_says_so_before_claiming_to_serve() -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 1, result.output
    assert f"port {port} is in use" in result.output and "--port" in result.output
    assert "serves on" not in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(main, ["serve", "--host", "192.0.2.1"])  # (TEST-NET-1)
    assert result.exit_code == 1 and "cannot listen on 192.0.2.1:8000" in result.output
