"""The OpenAI-compatible API adapter against a local HTTP server (loopback only, no network)."""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from pathreport.pathbind import PathBind
from pathreport.pathbind.config import VQAConfig
from pathreport.pathbind.data import read_vqa
from pathreport.pathbind.vlm import build_vlm
from tests.helpers.pathbind import colour_vqa_file


@pytest.fixture
def server():
    """A chat-completions endpoint: fails once with HTTP 503, then answers and records requests."""
    state = {"requests": [], "failures_left": 1}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server API
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if state["failures_left"]:
                state["failures_left"] -= 1
                self.send_response(503)
                self.end_headers()
                self.wfile.write(b"busy")
                return
            state["requests"].append(
                {"path": self.path, "auth": self.headers.get("Authorization"), "body": body}
            )
            has_image = any(
                part.get("type") == "image_url" for part in body["messages"][1]["content"]
            )
            reply = {
                "choices": [
                    {
                        "message": {
                            "content": "<answer>A</answer>" if has_image else "<answer>B</answer>"
                        }
                    }
                ]
            }
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    httpd = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", state
    httpd.shutdown()
    httpd.server_close()


def test_api_adapter_sends_the_image_only_in_the_image_condition_and_retries(
    tmp_path, server, monkeypatch
):
    url, state = server
    monkeypatch.setenv("PATHBIND_TEST_KEY", "secret-key")
    vlm = build_vlm(
        "openai_compatible",
        model="closed-model-1",
        base_url=url,
        api_key_env="PATHBIND_TEST_KEY",
        retry_wait_s=0.01,
    )
    items = read_vqa(colour_vqa_file(tmp_path, [("A", "D1", "S"), ("B", "D1", "S")]))
    doc = PathBind().vqa(vlm, items, tmp_path / "out", VQAConfig())
    requests = state["requests"]
    assert len(requests) == 4 and all(
        r["path"] == "/v1/chat/completions" and r["auth"] == "Bearer secret-key" for r in requests
    )
    image_request, text_request = requests[0]["body"], requests[1]["body"]
    assert (
        image_request["model"] == "closed-model-1"
        and image_request["temperature"] == 0.0
        and image_request["seed"] == 0
    )
    assert image_request["messages"][0] == text_request["messages"][0]  # same system prompt
    image_part, text_part = image_request["messages"][1]["content"]
    assert image_part["image_url"]["url"].startswith("data:image/png;base64,")
    assert base64.b64decode(image_part["image_url"]["url"].split(",", 1)[1])[:4] == b"\x89PNG"
    assert text_request["messages"][1]["content"] == [text_part]
    assert (
        doc["cells"]["image"]["D1"]["accuracy"] == 50.0
        and doc["cells"]["text"]["D1"]["accuracy"] == 50.0
    )
    assert "secret-key" not in (tmp_path / "out" / "summary.json").read_text()


def test_api_adapter_explains_a_missing_key_and_a_missing_model_id(monkeypatch):
    monkeypatch.delenv("PATHBIND_ABSENT_KEY", raising=False)
    vlm = build_vlm("openai_compatible", model="m", api_key_env="PATHBIND_ABSENT_KEY")
    with pytest.raises(ValueError, match="export PATHBIND_ABSENT_KEY=<key>"):
        vlm.complete("s", "u", None, VQAConfig().decoding)
    with pytest.raises(ValueError, match="--option model=<id>"):
        build_vlm("openai_compatible")
    assert not vlm.supports_attention and vlm.is_api
