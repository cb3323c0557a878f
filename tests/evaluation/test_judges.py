"""LLM judges: JSON parsing and repair, the call cache, both backends, and hand-computed scores."""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pathreport.data.predictions import PredictionRecord
from pathreport.evaluation.evaluate import evaluate_records
from pathreport.evaluation.judging.cache import JudgeCache
from pathreport.evaluation.judging.json_output import JudgeOutputError, check_schema, extract_json
from pathreport.evaluation.judging.judge import Judge
from pathreport.evaluation.judging.prompts import load_prompts

SCORES_SCHEMA = load_prompts("wsi_llava").task("score_precision")["output_schema"]


# -- parsing -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"claims": ["a"]}', {"claims": ["a"]}),
        (
            'Sure! Here it is:\n```json\n{"claims": ["a", "b"]}\n```\nHope this helps.',
            {"claims": ["a", "b"]},
        ),
        ('The answer is {"claims": ["a {b}"]} as requested.', {"claims": ["a {b}"]}),
        ('{"claims": ["a", "b",],}', {"claims": ["a", "b"]}),
        ("{'significant': True, 'category': None}", {"significant": True, "category": None}),
        ('{"errors": [{"significant": False}]}', {"errors": [{"significant": False}]}),
        ("[1, 0.7]", [1, 0.7]),
    ],
)
def test_malformed_answers_that_are_repaired(text, expected):
    assert extract_json(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("I cannot judge this report.", "no JSON"),
        ('{"claims": ["a", "b"', "cut off"),  # by max_new_tokens
        ('{"claims": [a, b]}', "cannot be parsed"),
    ],
)
def test_answers_that_cannot_be_repaired(text, message):
    with pytest.raises(JudgeOutputError, match=message):
        extract_json(text)


def test_schema_names_the_offending_field():
    check_schema({"scores": [{"claim": "x", "score": 0.7}]}, SCORES_SCHEMA)
    with pytest.raises(JudgeOutputError, match=r"scores\[1\]\.score must be one of"):
        check_schema(
            {"scores": [{"claim": "x", "score": 1}, {"claim": "y", "score": 0.5}]}, SCORES_SCHEMA
        )
    with pytest.raises(JudgeOutputError, match="lacks the field 'scores'"):
        check_schema({"score": 1}, SCORES_SCHEMA)
    with pytest.raises(JudgeOutputError, match="must be one of"):
        check_schema({"scores": [{"claim": "x", "score": "1"}]}, SCORES_SCHEMA)


def test_prompt_versions_are_data_with_a_content_digest(tmp_path):
    prompts = load_prompts("path_errors")
    assert prompts.full_version.startswith("path_errors/v1#")
    ids = [c["id"] for c in prompts.data["categories"]]
    assert ids == [
        "false_finding",
        "missed_finding",
        "wrong_diagnosis",
        "wrong_grade",
        "wrong_site",
        "wrong_measurement",
        "wrong_negation",
    ]
    assert (
        prompts.task("find_errors")["output_schema"]["properties"]["errors"]["items"]["properties"][
            "category"
        ]["enum"]
        == ids
    )
    edited = tmp_path / "edited.yaml"
    edited.write_text(Path(prompts.path).read_text() + "\n# local edit\n")
    assert load_prompts(edited).full_version != prompts.full_version  # same 'version', other digest


# -- a scripted backend for the judge logic ------------------------------------------------------
class Scripted:
    """A backend that answers with ``answer(conversation)`` and records every call."""

    name = "scripted"

    def __init__(self, answer, model="script-v1"):
        self.answer = answer
        self.model = model
        self.calls: list[list[dict]] = []

    def complete(self, conversations):
        self.calls += conversations
        return [self.answer(c) for c in conversations]

    def describe(self):
        return {}


def quoted(text: str) -> list[str]:
    return re.findall(r'"""\n(.*?)\n"""', text, flags=re.DOTALL)


def test_unusable_answer_is_sent_back_with_the_reason_then_cached(tmp_path):
    replies = iter(['{"claims": ["a",', '{"claims": ["tumor present"]}'])
    backend = Scripted(lambda c: next(replies))
    judge = Judge(
        backend, load_prompts("wsi_llava"), cache=JudgeCache(tmp_path), max_parse_retries=2
    )
    (answer,) = judge.ask("extract_claims", [{"text": "Tumor present."}])
    assert answer.ok and answer.value == {"claims": ["tumor present"]} and answer.attempts == 2
    repair = backend.calls[1]
    assert [m["role"] for m in repair] == ["system", "user", "assistant", "user"]
    assert "cut off" in repair[-1]["content"]
    # A new judge over the same cache (a rerun, or a resumed interrupted run) pays nothing.
    again = Judge(
        Scripted(lambda c: pytest.fail("the cache should answer")),
        load_prompts("wsi_llava"),
        cache=JudgeCache(tmp_path),
    )
    (cached,) = again.ask("extract_claims", [{"text": "Tumor present."}])
    assert cached.cached and cached.value == answer.value


def test_an_interrupted_run_resumes_without_paying_again(tmp_path):
    sent: list[str] = []

    def answer(conversation):
        (text,) = quoted(conversation[1]["content"])
        if text == "case 5" and len(sent) < 6:
            raise KeyboardInterrupt  # the user stops the run in the third chunk
        sent.append(text)
        return json.dumps({"claims": [text]})

    requests = [{"text": f"case {i}"} for i in range(8)]
    with pytest.raises(KeyboardInterrupt):
        Judge(
            Scripted(answer), load_prompts("wsi_llava"), cache=JudgeCache(tmp_path), chunk_size=2
        ).ask("extract_claims", requests)
    assert sent == [
        f"case {i}" for i in range(5)
    ]  # chunks [0,1] and [2,3] cached, 4 lost with its chunk
    answers = Judge(
        Scripted(answer), load_prompts("wsi_llava"), cache=JudgeCache(tmp_path), chunk_size=2
    ).ask("extract_claims", requests)
    assert sent[5:] == ["case 4", "case 5", "case 6", "case 7"]  # only the rest is paid for
    assert [a.value["claims"] for a in answers] == [[f"case {i}"] for i in range(8)]
    assert [a.cached for a in answers] == [True] * 4 + [False] * 4


def test_retries_are_bounded_and_failures_are_not_cached(tmp_path):
    backend = Scripted(lambda c: "no idea")
    judge = Judge(
        backend, load_prompts("wsi_llava"), cache=JudgeCache(tmp_path), max_parse_retries=2
    )
    (answer,) = judge.ask("extract_claims", [{"text": "x"}])
    assert not answer.ok and "no JSON" in answer.error and len(backend.calls) == 3
    assert not list(tmp_path.rglob("*.json"))
    (fresh,) = Judge(
        backend, load_prompts("wsi_llava"), cache=JudgeCache(tmp_path), max_parse_retries=0
    ).ask("extract_claims", [{"text": "x"}])
    assert not fresh.ok and len(backend.calls) == 4  # asked again on the rerun


def test_cache_key_covers_backend_model_and_prompt_version(tmp_path):
    good = '{"claims": ["a"]}'
    Judge(Scripted(lambda c: good), load_prompts("wsi_llava"), cache=JudgeCache(tmp_path)).ask(
        "extract_claims", [{"text": "x"}]
    )
    other_model = Scripted(lambda c: good, model="script-v2")
    Judge(other_model, load_prompts("wsi_llava"), cache=JudgeCache(tmp_path)).ask(
        "extract_claims", [{"text": "x"}]
    )
    assert len(other_model.calls) == 1
    assert len(list(tmp_path.rglob("*.json"))) == 2


# -- the metrics, hand-computed ------------------------------------------------------------------
GT = "Squamous cell carcinoma, moderately differentiated. Keratin pearls. No necrosis."
CLAIMS = {
    GT: ["squamous cell carcinoma", "moderately differentiated", "keratin pearls"],
    "Squamous cell carcinoma.": ["squamous cell carcinoma"],
    "Not assessable.": [],
}
SCORES = {"squamous cell carcinoma": 1, "moderately differentiated": 0.7, "keratin pearls": 0}


def wsi_judge(conversation):
    user = conversation[1]["content"]
    if "Carefully extract the claims" in user:
        (text,) = quoted(user)
        if text == "Broken.":
            return "I'm sorry, I can't."
        return json.dumps({"claims": CLAIMS[text]})
    claims = json.loads(re.search(r"claims \(JSON list\):\n(\[.*?\])\n", user).group(1))
    return json.dumps(
        {"scores": [{"claim": c, "explanation": "-", "score": SCORES.get(c, 0.3)} for c in claims]}
    )


def test_wsi_precision_and_relevance_hand_computed(tmp_path):
    records = [
        PredictionRecord(id="1", reference=GT, prediction="Squamous cell carcinoma."),
        PredictionRecord(
            id="2", reference="Not assessable.", prediction="Squamous cell carcinoma."
        ),
        PredictionRecord(id="3", reference="Broken.", prediction=""),
    ]
    backend = Scripted(wsi_judge)
    options = {"judge": backend, "cache_dir": str(tmp_path), "max_parse_retries": 1}
    result = evaluate_records(
        records,
        metrics=["wsi_precision", "wsi_relevance"],
        options={"wsi_precision": options, "wsi_relevance": options},
    )
    s, cases = result.summary, result.per_case
    # WSI-P, case 1: GT claims scored 1, 0.7, 0 -> 1.7/3; case 2: GT without claims -> unscored;
    # case 3: claims extraction failed twice -> judge failure, unscored (never 0).
    assert cases["1"]["WSI_P"] == pytest.approx(1.7 / 3)
    assert cases["2"]["WSI_P"] is None and cases["2"]["WSI_P_n_claims"] == 0
    assert cases["3"]["WSI_P"] is None and "claims extraction" in cases["3"]["WSI_P_judge_error"]
    assert s["WSI_P"] == pytest.approx(1.7 / 3)
    assert (s["WSI_P_n_scored"], s["WSI_P_n_judge_failures"], s["WSI_P_n_no_claims"]) == (1, 1, 1)
    # WSI-R: response claim "squamous cell carcinoma" scored 1 in cases 1 and 2; the empty
    # response of case 3 has no claims -> 0 (policy), without a judge call.
    assert cases["1"]["WSI_R"] == 1.0 and cases["2"]["WSI_R"] == 1.0 and cases["3"]["WSI_R"] == 0.0
    assert s["WSI_R"] == pytest.approx(2 / 3) and s["WSI_R_n_judge_failures"] == 0
    assert s["WSI_P_judge"]["prompt_version"].startswith("wsi_llava/v1#")
    assert (
        set(s["comparability"]) == {"WSI_P", "WSI_R"}
        and "scripted:script-v1" in s["comparability"]["WSI_P"]
    )
    assert cases["1"]["WSI_P_claims"][1] == {
        "claim": "moderately differentiated",
        "score": 0.7,
        "explanation": "-",
    }


def test_wsi_scoring_with_a_score_per_claim_mismatch_is_repaired_or_failed(tmp_path):
    def short(conversation):
        user = conversation[-1]["content"]
        if "Carefully extract" in conversation[1]["content"]:
            return json.dumps({"claims": ["a", "b"]})
        if "entries for 2 claims" in user:  # the repair turn names the problem
            return '{"scores": [{"claim": "a", "score": 1}, {"claim": "b", "score": 0.3}]}'
        return '{"scores": [{"claim": "a", "score": 1}]}'

    result = evaluate_records(
        [PredictionRecord(id="1", reference="R.", prediction="P.")],
        metrics=["wsi_precision"],
        options={"wsi_precision": {"judge": Scripted(short), "cache_dir": str(tmp_path)}},
    )
    assert result.summary["WSI_P"] == pytest.approx(0.65)


def path_judge(conversation):
    reference, prediction = quoted(conversation[1]["content"])
    if prediction == "garbage":
        return "The candidate is wrong."
    if prediction == "Benign.":
        return json.dumps(
            {
                "matched_findings": [],
                "errors": [
                    {
                        "category": "wrong_diagnosis",
                        "significant": True,
                        "description": "benign vs carcinoma",
                    },
                    {"category": "missed_finding", "significant": True},
                    {"category": "wrong_site", "significant": False},
                ],
            }
        )
    if prediction == "Nothing.":
        return json.dumps(
            {
                "matched_findings": [],
                "errors": [{"category": "false_finding", "significant": False}],
            }
        )
    return json.dumps(
        {
            "matched_findings": ["carcinoma", "grade 2", "margins clear"],
            "errors": [
                {"category": "wrong_grade", "significant": True},
                {"category": "wrong_measurement", "significant": False},
            ],
        }
    )


def test_path_errors_score_and_category_counts_hand_computed(tmp_path):
    records = [
        PredictionRecord(id=str(i), reference="Carcinoma, grade 2, margins clear.", prediction=p)
        for i, p in enumerate(["Carcinoma grade 3.", "Benign.", "Nothing.", "garbage"])
    ]
    result = evaluate_records(
        records,
        metrics=["path_errors"],
        options={
            "path_errors": {
                "judge": Scripted(path_judge),
                "cache_dir": str(tmp_path),
                "max_parse_retries": 1,
            }
        },
    )
    s, c = result.summary, result.per_case
    assert c["0"]["PATH_ERRORS"] == pytest.approx(3 / 4)  # 3 matched, 1 significant error
    assert (c["0"]["PATH_ERRORS_wrong_grade"], c["0"]["PATH_ERRORS_wrong_measurement_minor"]) == (
        1,
        1,
    )
    assert (
        c["1"]["PATH_ERRORS"] == 0.0
        and c["1"]["PATH_ERRORS_significant"] == 2
        and c["1"]["PATH_ERRORS_minor"] == 1
    )
    assert c["2"]["PATH_ERRORS"] is None  # 0 matched, 0 significant: undefined, not 0 or 1
    assert c["3"]["PATH_ERRORS"] is None and c["3"]["PATH_ERRORS_judge_error"]
    assert s["PATH_ERRORS"] == pytest.approx((0.75 + 0.0) / 2)
    assert (
        s["PATH_ERRORS_n_scored"],
        s["PATH_ERRORS_n_undefined"],
        s["PATH_ERRORS_n_judge_failures"],
    ) == (2, 1, 1)
    assert s["PATH_ERRORS_significant_per_case"] == pytest.approx(3 / 3)
    assert s["PATH_ERRORS_wrong_diagnosis_per_case"] == pytest.approx(1 / 3)


# -- the OpenAI-compatible HTTP backend, over real HTTP -------------------------------------------
class ChatServer:
    """An in-process chat-completions server on 127.0.0.1 (a random free port)."""

    def __init__(self, reply, *, fail_first: int = 0, status: int = 500, delay_s: float = 0.0):
        self.reply, self.fail_first, self.status, self.delay_s = reply, fail_first, status, delay_s
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.in_flight = self.max_in_flight = 0
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.requests.append(body)
                    server.headers.append(dict(self.headers))
                    n = len(server.requests)
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    time.sleep(server.delay_s)
                    if self.path != "/v1/chat/completions":
                        return self._send(404, {"error": "not found"})
                    if n <= server.fail_first:
                        return self._send(server.status, {"error": "busy"})
                    text = server.reply(body["messages"])
                    self._send(
                        200,
                        {
                            "id": "x",
                            "object": "chat.completion",
                            "model": body["model"],
                            "choices": [
                                {
                                    "index": 0,
                                    "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": text},
                                }
                            ],
                        },
                    )
                finally:
                    with server.lock:
                        server.in_flight -= 1

            def _send(self, code, payload):
                data = json.dumps(payload).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def chat_server():
    servers = []

    def start(*args, **kwargs):
        servers.append(ChatServer(*args, **kwargs))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def test_http_backend_scores_concurrently_retries_and_resumes_from_the_cache(
    chat_server, tmp_path, monkeypatch
):
    monkeypatch.setenv("JUDGE_TEST_KEY", "secret")
    server = chat_server(path_judge, fail_first=2, status=503, delay_s=0.05)
    records = [
        PredictionRecord(id=str(i), reference=f"Carcinoma {i}.", prediction=p)
        for i, p in enumerate(["Carcinoma grade 3.", "Benign.", "Carcinoma.", "Benign."])
    ]
    options = {
        "backend": "openai",
        "model": "judge-7b",
        "cache_dir": str(tmp_path),
        "backend_options": {
            "base_url": server.url,
            "concurrency": 4,
            "retry_wait_s": 0.01,
            "api_key_env": "JUDGE_TEST_KEY",
        },
    }
    result = evaluate_records(records, metrics=["path_errors"], options={"path_errors": options})
    assert result.summary["PATH_ERRORS"] == pytest.approx((0.75 + 0 + 0.75 + 0) / 4)
    assert result.summary["PATH_ERRORS_n_judge_failures"] == 0
    assert len(server.requests) == 4 + 2  # two 503s were retried
    assert server.max_in_flight > 1
    first = server.requests[0]
    assert first["model"] == "judge-7b" and first["temperature"] == 0.0
    assert [m["role"] for m in first["messages"]] == ["system", "user"]
    assert server.headers[0]["Authorization"] == "Bearer secret"
    assert result.summary["PATH_ERRORS_judge"]["endpoint_host"].startswith("127.0.0.1:")
    # Rerun: every answer comes from the cache.
    again = evaluate_records(records, metrics=["path_errors"], options={"path_errors": options})
    assert (
        len(server.requests) == 6 and again.summary["PATH_ERRORS"] == result.summary["PATH_ERRORS"]
    )


def test_http_backend_failures_are_counted_not_scored(chat_server, tmp_path):
    server = chat_server(path_judge, fail_first=100, status=400)
    options = {
        "backend": "openai",
        "model": "m",
        "cache_dir": str(tmp_path),
        "backend_options": {"base_url": server.url, "retry_wait_s": 0.01},
    }
    result = evaluate_records(
        [PredictionRecord(id="1", reference="R.", prediction="Benign.")],
        metrics=["path_errors"],
        options={"path_errors": options},
    )
    assert len(server.requests) == 1  # HTTP 400 is not retried
    assert (
        result.summary["PATH_ERRORS"] is None
        and result.summary["PATH_ERRORS_n_judge_failures"] == 1
    )
    assert "HTTP 400" in result.per_case["1"]["PATH_ERRORS_judge_error"]
    assert "PATH_ERRORS" in result.unavailable


def test_http_backend_times_out_and_gives_up_after_its_retries(chat_server):
    from pathreport.evaluation.judging.openai_backend import OpenAICompatibleJudge

    server = chat_server(lambda m: "{}", delay_s=0.5)
    backend = OpenAICompatibleJudge(
        "m", base_url=server.url, timeout_s=0.1, max_retries=1, retry_wait_s=0.01
    )
    started = time.monotonic()
    (reply,) = backend.complete([[{"role": "user", "content": "hi"}]])
    assert isinstance(reply, Exception) and "after 2 attempt(s)" in str(reply)
    assert time.monotonic() - started < 2.0


# -- the local transformers backend, with tiny models built from a config -------------------------
def test_transformers_backend_generates_greedily_through_the_chat_template(tmp_path):
    from tests.helpers.tiny_models import causal_lm

    answer = ["{", '"matched_findings":', '["carcinoma"],', '"errors":', "[]", "}"]
    folder = causal_lm(tmp_path / "wired", ["carcinoma"], answer=answer)
    records = [
        PredictionRecord(id=str(i), reference="carcinoma", prediction="carcinoma") for i in range(3)
    ]
    options = {
        "backend": "transformers",
        "model": str(folder),
        "cache_dir": str(tmp_path / "cache"),
        "backend_options": {"batch_size": 2, "max_new_tokens": 12},
    }
    result = evaluate_records(records, metrics=["path_errors"], options={"path_errors": options})
    assert result.summary["PATH_ERRORS"] == 1.0 and result.summary["PATH_ERRORS_n_scored"] == 3
    judge = result.summary["PATH_ERRORS_judge"]
    assert judge["judge_backend"] == "transformers" and judge["decoding"] == "greedy"


def test_transformers_backend_with_a_random_model_counts_failures(tmp_path):
    from pathreport.evaluation.judging.transformers_backend import TransformersJudge
    from tests.helpers.tiny_models import causal_lm

    folder = causal_lm(tmp_path / "random", ["carcinoma", "{", "}"])
    backend = TransformersJudge(str(folder), batch_size=2, max_new_tokens=6)
    text = backend.prompt_text(
        [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
    )
    assert text == "<|system|> s <|user|> u <|assistant|>"
    records = [PredictionRecord(id=str(i), reference="carcinoma", prediction="x") for i in range(2)]
    result = evaluate_records(
        records,
        metrics=["wsi_precision"],
        options={
            "wsi_precision": {
                "judge": backend,
                "cache_dir": str(tmp_path / "cache"),
                "max_parse_retries": 1,
            }
        },
    )
    assert result.summary["WSI_P"] is None and result.summary["WSI_P_n_judge_failures"] == 2
    assert all(c["WSI_P"] is None for c in result.per_case.values())
