"""Loading checkpoints without running code from them.

A ``.ckpt`` file is a pickle, and unpickling can call any function the file names: a checkpoint
shared between labs must not be able to run code on the machine that evaluates it. Before
loading, the pickle's opcode stream is scanned for the globals it imports, and a checkpoint is
refused unless every one of them is in :data:`ALLOWED_GLOBALS`; it is then loaded with
``torch.load(weights_only=True)`` as a second, independent line of defence.

The allow-list is what pathreport's own checkpoints need, found by saving checkpoints of every
generator and baseline and listing the ``GLOBAL`` opcodes of their pickles: ``OrderedDict`` (state
dicts), ``torch._utils._rebuild_tensor_v2`` and one storage type per tensor dtype. Everything else
a checkpoint holds (config, vocabulary, loop and callback state) is plain dicts, lists, strings and
numbers, which a pickle stores without importing anything. Parameters and integer/boolean tensors
of other dtypes use the same three kinds of global, so every storage type is allowed.

``trust=True`` (``ckpt_trust=true`` in ``train.py``/``eval.py``) loads a file that needs anything
else with the plain unpickler: only for files whose author you trust.
"""

from __future__ import annotations

import logging
import pickletools
import zipfile
from pathlib import Path
from typing import Any

from pathreport.errors import CheckpointError

log = logging.getLogger("pathreport")

_STORAGES = (
    "Float",
    "Double",
    "Half",
    "BFloat16",
    "Long",
    "Int",
    "Short",
    "Char",
    "Byte",
    "Bool",
    "ComplexFloat",
    "ComplexDouble",
)
ALLOWED_GLOBALS: frozenset[str] = frozenset(
    {
        "collections.OrderedDict",
        "torch._utils._rebuild_tensor_v2",
        "torch._utils._rebuild_parameter",
        *(f"torch.{kind}Storage" for kind in _STORAGES),
    }
)
TRUST_HINT = "ckpt_trust=true"


def checkpoint_globals(path: Path) -> list[str]:
    """The ``module.name`` of every global the checkpoint's pickle imports, in order of use.

    Raises:
        CheckpointError: the file is not a zip-format torch checkpoint (torch >= 1.6 writes only
            those), or its pickle imports a global whose name cannot be read statically.
    """
    try:
        with zipfile.ZipFile(path) as archive:
            pickles = [n for n in archive.namelist() if n.endswith("data.pkl")]
            if len(pickles) != 1:
                raise CheckpointError(
                    f"{path}: not a torch checkpoint (found {len(pickles)} data.pkl entries, "
                    "expected 1). Use a .ckpt file written by train.py."
                )
            data = archive.read(pickles[0])
    except (zipfile.BadZipFile, OSError) as err:
        raise CheckpointError(
            f"{path}: not a readable torch checkpoint ({err}). The file is corrupt or "
            "incomplete, or was written in torch's legacy format; if you trust its author, load "
            f"it with {TRUST_HINT}."
        ) from None
    found: list[str] = []
    recent: list[tuple[str, Any]] = []  # the last opcodes that push a value (memo stores skipped)
    try:
        for opcode, arg, _ in pickletools.genops(data):
            if opcode.name in ("GLOBAL", "INST"):
                module, _, name = str(arg).partition(" ")
                found.append(_python3_name(module, name))
            elif opcode.name == "STACK_GLOBAL":
                # Module and name must be the two strings pushed just before: a name fetched
                # from the memo cannot be read without running the pickle, so it is refused.
                last = recent[-2:]
                if len(last) < 2 or not all("UNICODE" in op for op, _ in last):
                    raise CheckpointError(
                        f"{path}: its pickle imports a global whose name is not stored in plain "
                        "text, so it cannot be checked. If you trust the file's author, load it "
                        f"with {TRUST_HINT}."
                    )
                found.append(f"{last[0][1]}.{last[1][1]}")
            if opcode.name not in ("MEMOIZE", "PUT", "BINPUT", "LONG_BINPUT"):
                recent = [*recent[-1:], (opcode.name, arg)]
    except (ValueError, EOFError) as err:
        raise CheckpointError(f"{path}: the checkpoint's pickle is corrupt ({err}).") from None
    return found


def _python3_name(module: str, name: str) -> str:
    """``module.name`` as Python 3 resolves it (protocol-2 pickles write ``__builtin__`` for
    ``builtins``, for Python 2), so a message names what would really be called."""
    import _compat_pickle

    module, name = _compat_pickle.NAME_MAPPING.get((module, name), (module, name))
    return f"{_compat_pickle.IMPORT_MAPPING.get(module, module)}.{name}"


def load_checkpoint(
    path: str | Path, *, trust: bool = False, map_location: Any = "cpu"
) -> dict[str, Any]:
    """Load a checkpoint dict, refusing one that imports anything outside :data:`ALLOWED_GLOBALS`.

    Args:
        path: the ``.ckpt`` file.
        trust: load with the plain unpickler (may run code from the file).
        map_location: passed to ``torch.load``.

    Raises:
        CheckpointError: an unexpected type (named in the message, with the opt-in), or a file
            that is not a readable checkpoint.
        FileNotFoundError: no such file.
    """
    import pickle

    import torch

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"Checkpoint {path} does not exist.")
    if trust:
        log.warning(
            "Loading %s with the full unpickler (%s): it may run code stored in the file.",
            path,
            TRUST_HINT,
        )
        return torch.load(path, map_location=map_location, weights_only=False)
    unexpected = sorted(set(checkpoint_globals(path)) - ALLOWED_GLOBALS)
    if unexpected:
        raise CheckpointError(
            f"{path}: refused to load: the checkpoint holds the type(s) {', '.join(unexpected)}, "
            "which a pathreport checkpoint never holds, and unpickling them can run code. If "
            f"you trust the file's author, load it with {TRUST_HINT}."
        )
    try:
        return torch.load(path, map_location=map_location, weights_only=True)
    except pickle.UnpicklingError as err:
        raise CheckpointError(
            f"{path}: refused to load ({str(err).splitlines()[0]}). If you trust the "
            f"file's author, load it with {TRUST_HINT}."
        ) from None
    except (RuntimeError, EOFError, OSError) as err:
        raise CheckpointError(
            f"{path}: not a readable torch checkpoint ({err}); the file is corrupt or incomplete."
        ) from None
