"""Checkpoints from elsewhere: a pickle payload never runs, and a wrong or broken file is named."""

from __future__ import annotations

import builtins
import pickle

import pytest
import torch

from pathreport.errors import CheckpointError
from pathreport.generation.checkpoints import ALLOWED_GLOBALS, load_checkpoint
from tests.conftest import compose_train
from tests.helpers.faults import assert_user_error, run_script


class Payload:
    """Unpickling this object writes ``marker``: what a malicious checkpoint would do."""

    def __init__(self, marker) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return builtins.exec, (f"open({self.marker!r}, 'w').write('pwned')",)


def malicious_checkpoint(path, marker, protocol: int = 2):
    """A checkpoint shaped like pathreport's, with the payload in its hyper-parameters."""
    torch.save(
        {
            "state_dict": {"w": torch.zeros(2)},
            "pytorch-lightning_version": "2.6.0",
            "hyper_parameters": {"config": Payload(marker), "vocab": ["<pad>"], "context": {}},
        },
        path,
        pickle_protocol=protocol,
    )
    return path


def test_eval_refuses_a_malicious_checkpoint_and_never_runs_it(tmp_path):
    marker = tmp_path / "marker"
    ckpt = malicious_checkpoint(tmp_path / "shared.ckpt", marker)
    result = run_script(
        "eval.py", f"ckpt_path={ckpt}", f"hydra.run.dir={tmp_path / 'eval'}", cwd=tmp_path
    )
    assert_user_error(
        result.returncode,
        result.stderr,
        str(ckpt),
        "builtins.exec",
        "ckpt_trust=true",
        stdout=result.stdout,
    )
    assert not marker.exists()


@pytest.mark.parametrize("protocol", [2, 4])
def test_load_checkpoint_names_the_type_and_the_opt_in(tmp_path, protocol):
    marker = tmp_path / "marker"
    ckpt = malicious_checkpoint(tmp_path / "evil.ckpt", marker, protocol)
    with pytest.raises(
        CheckpointError, match=r"evil\.ckpt: refused.*builtins\.exec.*ckpt_trust=true"
    ):
        load_checkpoint(ckpt)
    assert not marker.exists()
    load_checkpoint(ckpt, trust=True)  # the opt-in loads it with the full unpickler...
    assert marker.read_text() == "pwned"  # ...which runs the payload: it is real


def test_memo_fetched_global_names_are_refused(tmp_path):
    """A protocol-4 global whose name comes from the memo cannot be checked statically."""
    import zipfile

    data = b"\x80\x04\x8c\x08builtins\x94\x8c\x04exec\x94h\x00h\x01\x93\x8c\x05print\x94\x85R."

    ckpt = tmp_path / "memo.ckpt"
    with zipfile.ZipFile(ckpt, "w") as archive:
        archive.writestr("memo/data.pkl", data)
    pickle.loads(data)  # a valid pickle that calls exec
    with pytest.raises(CheckpointError, match="not stored in plain text.*ckpt_trust=true"):
        load_checkpoint(ckpt)


def test_every_real_checkpoint_global_is_allowed_and_nothing_else(tiny_train):
    from pathreport.generation.checkpoints import checkpoint_globals

    _, out = tiny_train("model=migen", "model.d_model=16", "trainer.max_epochs=1", "test=false")
    for ckpt in (out / "checkpoints").glob("*.ckpt"):
        used = set(checkpoint_globals(ckpt))
        assert used and used <= ALLOWED_GLOBALS
        assert load_checkpoint(ckpt)["hyper_parameters"]["config"]["model"]["name"] == "migen"


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "not a readable torch checkpoint"),
        (b"\x00garbage" * 100, "not a readable torch checkpoint"),
    ],
)
def test_corrupt_checkpoint_is_named(tmp_path, content, message):
    ckpt = tmp_path / "broken.ckpt"
    ckpt.write_bytes(content)
    with pytest.raises(CheckpointError, match=rf"broken\.ckpt: {message}"):
        load_checkpoint(ckpt)


def test_truncated_checkpoint_is_named(tiny_train, tmp_path):
    _, out = tiny_train("model=most_frequent", "eval.metrics=[nlg]", "test=false")
    data = (out / "checkpoints" / "baseline.ckpt").read_bytes()
    cut = tmp_path / "cut.ckpt"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match=r"cut\.ckpt: not a readable torch checkpoint"):
        load_checkpoint(cut)


def test_checkpoint_of_another_model_is_one_line_naming_both(tiny_train, tmp_path):
    from pathreport.app.run import train

    _, out = tiny_train("model=most_frequent", "eval.metrics=[nlg]", "test=false")
    ckpt = out / "checkpoints" / "baseline.ckpt"
    cfg = compose_train(["model=histgen", "train=false", f"ckpt_path={ckpt}"], tmp_path / "second")
    with pytest.raises(CheckpointError) as err:
        train(cfg)
    message = str(err.value)
    assert "this checkpoint is a most_frequent model, the config asks for histgen" in message
    assert "model=most_frequent" in message and "\n" not in message
    assert not (tmp_path / "second" / "run.json").exists()  # refused before the folder was used


def test_a_torch_file_that_is_not_a_pathreport_checkpoint(tmp_path):
    from pathreport.generation.lit import module_from_checkpoint

    ckpt = tmp_path / "weights.pt"
    torch.save({"weight": torch.zeros(3)}, ckpt)
    with pytest.raises(CheckpointError, match=r"weights\.pt is not a pathreport checkpoint"):
        module_from_checkpoint(ckpt)
