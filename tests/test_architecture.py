"""The package's layers: imports run only downward; no module or sub-package imports in a circle.

Layers, bottom to top: kernel (registry, errors, io, paths, encoders, discovery) -> data ->
generation -> evaluation (every report metric, PathLang, PathBind) -> results -> app (the
``pathreport`` command and the Hydra entry points). A module may import its own layer and the
layers below it. The graph is read from the source with ``ast`` (every ``import`` statement,
including those inside functions, so an import moved into a function to dodge a cycle still counts);
discovery's imports of plug-ins by name at run time are not edges, which is what makes it a loader.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pathreport"

LAYERS = ("kernel", "data", "generation", "evaluation", "results", "app")

#: Sub-packages and their layer; a module outside them is kernel.
PACKAGE_LAYERS = {
    "pathreport.data": "data",
    "pathreport.generation": "generation",
    "pathreport.evaluation": "evaluation",
    "pathreport.pathlang": "evaluation",
    "pathreport.pathbind": "evaluation",
    "pathreport.results": "results",
    "pathreport.app": "app",
}

#: Known upward imports, each with the reason it is still there. Empty is the goal.
ALLOWED_UPWARD: set[tuple[str, str]] = set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _existing(name: str) -> str | None:
    """The deepest module of the package that ``name`` (a dotted import path) lies in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> list[tuple[str, int]]:
    """Every module of the package that ``module`` imports, with the line of the import."""
    path = MODULES[module]
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        targets: list[str | None] = []
        if isinstance(node, ast.Import):
            targets = [_existing(a.name) for a in node.names if a.name.startswith("pathreport")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".") if is_package else module.split(".")[:-1]
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            if not base.startswith("pathreport"):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in MODULES else _existing(base))
        found += [(t, node.lineno) for t in targets if t and t != module]
    return found


GRAPH: dict[str, list[tuple[str, int]]] = {m: _imports(m) for m in MODULES}


def _absolute_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in ``path`` (``from . import`` is left out)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.append((node.lineno, node.module or ""))
    return found


def layer_of(module: str) -> str:
    for package, layer in PACKAGE_LAYERS.items():
        if module == package or module.startswith(package + "."):
            return layer
    return "kernel"


def _unit(module: str) -> str:
    """The wing a module belongs to: its first-level sub-package (``pathreport.results``), or itself
    for a module at the package root. Inside a wing, order is kept by the module-level check: a wing
    may hold its own sub-package between its lower and upper modules (``pathlang/tasks/`` uses
    ``pathlang/metrics.py`` and is used by ``pathlang/benchmark.py``)."""
    return ".".join(module.split(".")[:2])


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        result.append(sorted(component))
    return result


def test_imports_run_only_downward():
    upward = []
    for module, targets in GRAPH.items():
        for target, line in targets:
            if (module, target) in ALLOWED_UPWARD:
                continue
            if LAYERS.index(layer_of(target)) > LAYERS.index(layer_of(module)):
                upward.append(
                    f"{MODULES[module].relative_to(PACKAGE.parent)}:{line} ({layer_of(module)}) "
                    f"imports {target} ({layer_of(target)})"
                )
    assert not upward, "Imports that run up the layers:\n" + "\n".join(upward)


def test_allowed_upward_imports_still_exist():
    """An exception no longer needed is removed from the list, so it cannot hide a new one."""
    edges = {(m, t) for m, targets in GRAPH.items() for t, _ in targets}
    assert edges >= ALLOWED_UPWARD, f"no longer imported: {sorted(ALLOWED_UPWARD - edges)}"


def test_no_module_imports_in_a_circle():
    graph = {m: {t for t, _ in targets} for m, targets in GRAPH.items()}
    assert not _cycles(graph), "Modules that import each other in a circle: " + "; ".join(
        " <-> ".join(c) for c in _cycles(graph)
    )


def test_no_subpackages_import_in_a_circle():
    graph: dict[str, set[str]] = defaultdict(set)
    for module, targets in GRAPH.items():
        graph[_unit(module)] |= {_unit(t) for t, _ in targets if _unit(t) != _unit(module)}
    cycles = _cycles(dict(graph))
    assert not cycles, "Sub-packages that import each other in a circle: " + "; ".join(
        " <-> ".join(c) for c in cycles
    )


def test_the_package_imports_no_plugin_code():
    """Plug-ins sit above every layer: their files and helper packages (``models/_bigen/``, loaded
    under ``pathreport_plugins``) may import the package, never the other way round."""
    found = []
    for module, path in MODULES.items():
        found += [
            f"{module}:{line} {name}"
            for line, name in _absolute_imports(path)
            if name.split(".")[0] in ("models", "pathreport_plugins")
        ]
    assert not found, "The package imports plug-in code:\n" + "\n".join(found)


def test_the_registry_imports_nothing_from_the_package():
    assert GRAPH["pathreport.registry"] == []


def test_the_kernel_facade_imports_only_the_kernel():
    """``pathreport/__init__.py`` re-exports the plug-in API of the upper layers lazily, by name."""
    import pathreport

    assert {layer_of(t) for t, _ in GRAPH["pathreport"]} == {"kernel"}
    for name, module in pathreport._LAZY.items():
        assert getattr(pathreport, name) is getattr(__import__(module, fromlist=[name]), name)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "pathreport"))
def test_no_module_takes_upper_layer_names_from_the_facade(module):
    """In the package, ``from pathreport import ReportGenerator`` would hide an upward import."""
    import pathreport

    tree = ast.parse(MODULES[module].read_text())
    hidden = [
        a.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "pathreport" and not node.level
        for a in node.names
        if a.name in pathreport._LAZY
    ]
    assert not hidden


def test_the_check_finds_a_cycle_and_an_upward_import():
    """The checks themselves can fail (so a green run means something)."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert layer_of("pathreport.app.run") == "app" and layer_of("pathreport.data.batch") == "data"
    assert LAYERS.index(layer_of("pathreport.results.collect")) > LAYERS.index(
        layer_of("pathreport.evaluation.nlg")
    )


def test_nothing_in_the_repository_imports_a_moved_module_by_its_old_path():
    """Old paths stay importable for plug-ins written earlier (:mod:`pathreport._moved`); the
    repository itself uses the new ones."""
    from pathreport._moved import new_name

    root = PACKAGE.parent
    old = []
    for path in sorted(
        [
            *PACKAGE.rglob("*.py"),
            *(root / "models").rglob("*.py"),
            *(root / "benchmarks").glob("*.py"),
            *(root / "tests").rglob("*.py"),
            root / "train.py",
            root / "eval.py",
        ]
    ):
        if path.name == "test_moved_modules.py":
            continue
        old += [
            f"{path.relative_to(root)}:{line} {name}"
            for line, name in _absolute_imports(path)
            if new_name(name)
        ]
    assert not old, "Imports of old module paths:\n" + "\n".join(old)
