"""Plug-in registries: one small class, one instance per kind of plug-in, one way to register.

A name is the join key of the whole benchmark (``model=histgen`` selects the entry ``histgen``, W&B
and result tables show ``histgen``), so names are validated once, here, and a duplicate is an error
that names both providers instead of a silent overwrite. Unknown names answer with close matches.

Every kind registers the same way, with the decorator where the object is defined::

    @GENERATORS.register("mygen", config=MyConfig, paper="...", licence="...")
    class MyGenerator(ReportGenerator): ...

    EVALUATORS.register("pathbind", kind="vlm-generative")(PathBind())   # an instance: call it

The style follows timm's ``register_model`` (a decorator that records the object and metadata where
it is defined) and mmengine's ``Registry`` (one instance per kind), without their build machinery:
building is the plug-in's own constructor.

This module is the bottom of the package: it imports nothing else from pathreport. Finding the
plug-ins (built-ins, plug-in folders, entry points) is :mod:`pathreport.discovery`'s job, which
installs itself as every registry's loader; rules that belong to one kind (a generator must
subclass ``ReportGenerator``; a generator's config goes into Hydra's ConfigStore) are hooks that
the layer owning that kind installs with :meth:`Registry.set_hooks`.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")

T = TypeVar("T")


class RegistryError(KeyError):
    """A name that is malformed, unknown or registered twice.

    Subclasses ``KeyError`` so that callers that look names up like dict keys can catch it, but
    prints its message as plain text (``KeyError`` would quote it). Entry points treat it as a user
    error (see :data:`pathreport.errors.USER_ERRORS`).
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class Entry(Generic[T]):
    """What the registry knows about one plug-in.

    Attributes:
        name: the join key (``^[a-z][a-z0-9_]*$``).
        obj: the registered object (a class, a function or a spec instance).
        config: the plug-in's config dataclass, when it has one.
        provider: where the entry came from: a file path for built-ins, a distribution name for
            entry points. Shown in duplicate errors and in ``pathreport list``.
        smoke: overrides that make a tiny, fast configuration for tests.
        metadata: free-form facts (paper, upstream, licence, ...), shown by ``pathreport list``.
    """

    name: str
    obj: T
    config: type | None = None
    provider: str = "unknown"
    smoke: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)


def did_you_mean(name: str, candidates: list[str] | tuple[str, ...]) -> str:
    """A "did you mean" hint for an unknown name, or an empty string when nothing is close."""
    close = difflib.get_close_matches(name, list(candidates), n=3, cutoff=0.6)
    if not close:
        return ""
    return "Did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


class Registry(Generic[T]):
    """Named plug-ins of one kind (generators, encoders, datasets, evaluators, ...).

    Args:
        kind: plural noun used in messages and by ``pathreport list``, e.g. ``"models"``.
        group: the entry-point group through which installed packages contribute this kind
            (``pathreport.<kind>`` unless given).
    """

    #: Registrations made so far in all registries; discovery compares it before and after loading
    #: a plug-in to find one that registers nothing.
    registrations: int = 0

    def __init__(self, kind: str, group: str | None = None) -> None:
        self.kind = kind
        self.group = group or f"pathreport.{kind}"
        self._entries: dict[str, Entry[T]] = {}
        self._prepare: Callable[[Entry[T]], Entry[T]] | None = None
        self._on_register: Callable[[Entry[T]], None] | None = None
        self._loader: Callable[[], None] | None = None

    # -- registration ------------------------------------------------------------------------
    def register(
        self,
        name: str,
        *,
        config: type | None = None,
        smoke: dict[str, Any] | None = None,
        provider: str | None = None,
        **metadata: Any,
    ) -> Callable[[T], T]:
        """Register the decorated (or called-on) object under ``name``; returns it unchanged.

        Args:
            name: the join key (``^[a-z][a-z0-9_]*$``); malformed or taken names raise
                :class:`RegistryError` (a duplicate names both providers).
            config: the plug-in's config dataclass.
            smoke: overrides giving a tiny configuration for fast tests.
            provider: where the plug-in comes from; by default the file of the object's module.
            **metadata: paper, upstream, licence and kind-specific facts.
        """

        def decorate(obj: T) -> T:
            self._store(name, obj, config=config, smoke=smoke, provider=provider, metadata=metadata)
            return obj

        return decorate

    def _store(
        self,
        name: str,
        obj: T,
        *,
        config: type | None,
        smoke: dict[str, Any] | None,
        provider: str | None,
        metadata: dict[str, Any],
    ) -> Entry[T]:
        if not isinstance(name, str) or not NAME_PATTERN.match(name):
            raise RegistryError(
                f"Invalid {self.kind[:-1]} name {name!r}: names must match {NAME_PATTERN.pattern} "
                "(lower case, digits and underscores, starting with a letter)."
            )
        provider = provider or _provider_of(obj)
        if name in self._entries:
            other = self._entries[name]
            raise RegistryError(
                f"Duplicate {self.kind[:-1]} name '{name}': registered by {other.provider} and "
                f"again by {provider}. Rename one of them."
            )
        entry: Entry[T] = Entry(
            name=name,
            obj=obj,
            config=config,
            provider=provider,
            smoke=dict(smoke or {}),
            metadata=dict(metadata),
        )
        if self._prepare is not None:
            entry = self._prepare(entry)
        self._entries[name] = entry
        Registry.registrations += 1
        if self._on_register is not None:
            self._on_register(entry)
        return entry

    def set_hooks(
        self,
        *,
        prepare: Callable[[Entry[T]], Entry[T]] | None = None,
        on_register: Callable[[Entry[T]], None] | None = None,
    ) -> None:
        """Install the kind's own rules, from the layer that owns the kind.

        Args:
            prepare: checks (raising ``TypeError`` with the plug-in named) and completes an entry
                before it is stored, returning the entry to store (e.g. a generator must subclass
                ``ReportGenerator``; a VLM adapter class is wrapped in its factory).
            on_register: called with every stored entry (e.g. a generator's config goes into
                Hydra's ConfigStore, so that ``model=<name>`` works with no YAML file).
        """
        if prepare is not None:
            self._prepare = prepare
        if on_register is not None:
            self._on_register = on_register

    def remove(self, name: str) -> None:
        """Forget an entry (tests and interactive reloading of a plug-in file use this)."""
        self._entries.pop(name, None)

    # -- lookup --------------------------------------------------------------------------------
    def set_loader(self, loader: Callable[[], None]) -> None:
        """Install the function that discovers plug-ins; it runs once, on first lookup."""
        self._loader = loader

    def _ensure_loaded(self) -> None:
        if self._loader is not None:
            loader, self._loader = self._loader, None
            loader()

    def get(self, name: str) -> Entry[T]:
        """The entry named ``name``; an unknown name raises with close matches and the full list."""
        self._ensure_loaded()
        try:
            return self._entries[name]
        except KeyError:
            names = self.names()
            hint = did_you_mean(str(name), names)
            raise RegistryError(
                f"Unknown {self.kind[:-1]} '{name}'. {hint + ' ' if hint else ''}"
                f"Registered {self.kind}: {', '.join(names) or '(none)'}."
            ) from None

    def __getitem__(self, name: str) -> T:
        return self.get(name).obj

    def __contains__(self, name: object) -> bool:
        self._ensure_loaded()
        return name in self._entries

    def names(self) -> list[str]:
        self._ensure_loaded()
        return sorted(self._entries)

    def entries(self) -> list[Entry[T]]:
        self._ensure_loaded()
        return [self._entries[n] for n in sorted(self._entries)]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        self._ensure_loaded()
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {len(self._entries)} entries)"


def _provider_of(obj: Any) -> str:
    module = getattr(obj, "__module__", None) or type(obj).__module__
    path = getattr(sys.modules.get(module), "__file__", None)
    return path or module or "unknown"


# -- the registries: one per kind ---------------------------------------------------------------
GENERATORS: Registry = Registry("models", "pathreport.generators")
ENCODERS: Registry = Registry("encoders", "pathreport.encoders")
DATASETS: Registry = Registry("datasets", "pathreport.datasets")
EVALUATORS: Registry = Registry("evaluators", "pathreport.evaluators")
EXTRACTORS: Registry = Registry("extractors", "pathreport.extractors")
TEXT_ENCODERS: Registry = Registry("text_encoders", "pathreport.text_encoders")
#: ``pathreport <name>`` sub-commands that plug-ins contribute: the entry is a function that fills
#: the sub-command's ``argparse`` parser (arguments, and ``func`` through ``set_defaults``); its
#: ``help`` metadata is the line shown by ``pathreport --help``.
COMMANDS: Registry = Registry("commands", "pathreport.commands")
VLMS: Registry = Registry("vlms", "pathreport.vlms")
GENERATIVE_VLMS: Registry = Registry("generative_vlms", "pathreport.generative_vlms")
JUDGE_BACKENDS: Registry = Registry("judge_backends", "pathreport.judge_backends")

#: Every registry by its kind (the argument of ``pathreport list``).
REGISTRIES: dict[str, Registry] = {
    r.kind: r
    for r in (
        GENERATORS,
        ENCODERS,
        DATASETS,
        EVALUATORS,
        EXTRACTORS,
        TEXT_ENCODERS,
        COMMANDS,
        VLMS,
        GENERATIVE_VLMS,
        JUDGE_BACKENDS,
    )
}
