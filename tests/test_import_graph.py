"""The import graph of the ``xdb`` package, read from the source (nothing is imported).

Three rules, each with the exceptions that exist today written out below (issue 35 moves
the house towards none):

- no import circle between modules beyond ``KNOWN_CIRCLES``;
- the skins (``xdb.interfaces.*``) are imported by nothing outside ``xdb.interfaces`` but
  ``SKIN_ENTRY_POINTS``;
- imports run one way, down the layers (``LAYERS``): the kernel imports only the kernel,
  storage the kernel and storage, the capabilities' rooms the kernel, storage and rooms;
  the assembly and the skins sit on top. ``KNOWN_UPWARD`` lists the arrows that go up.

Every list may only shrink: a listed circle that no longer exists, an entry point that
no longer imports a skin, or an upward arrow that is gone fails the test too, so the lists
say what is true.

An edge is every ``import`` and ``from ... import`` of an ``xdb`` module, at module level
or inside a function (a deferred import still ties the two modules together), but not those
under ``if TYPE_CHECKING:`` (they never run). ``from a.b import c`` is an edge to ``a.b.c``
where that is a module, else to ``a.b``; the packages above the module named (whose
``__init__`` also runs) get no edge, as in import-linter, or every package would be in a
circle with what its ``__init__`` re-exports.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import xdb

PACKAGE = Path(xdb.__file__).parent
SKINS = "xdb.interfaces"

# The import circles (strongly connected components of more than one module) there are
# today, each as the set of its modules: none since the registry's index of operations moved
# into ``ops.catalog`` and the engine's hook sessions into ``engine.hook_sessions``. Never
# add one: break it.
KNOWN_CIRCLES: list[frozenset[str]] = []

# The modules outside ``xdb.interfaces`` that import a skin today: the entry points.
SKIN_ENTRY_POINTS = frozenset(
    {
        "xdb.launch",  # the console script: runs ``interfaces.cli``
        # The explorer is a web skin of its own outside ``interfaces``: its login and
        # pages take the HTTP skin's key check (``interfaces.auth``).
        "xdb.explorer.login",
        "xdb.explorer.routes",
    }
)

# The layers, lowest first, each module placed by its name or the package it is in (the
# longest match decides). The kernel holds the vocabulary every layer speaks: the errors,
# ids, time, the models storage reads and writes (``xdb.models``: ``common``,
# ``log_objects``, ``episode_objects``, ``concept_markers``), the operations' registry and
# paging, and ``chat`` (one HTTP call, no ``xdb`` import, used by two rooms). The explorer is
# a skin (web pages over ``Database``, served by the HTTP skin), not a capability room.
KERNEL, STORAGE, ROOMS, ASSEMBLY, SKIN = "kernel", "storage", "rooms", "assembly", "skins"
LAYERS: dict[str, tuple[str, ...]] = {
    KERNEL: (
        "xdb.errors",
        "xdb.ids",
        "xdb.timeutil",
        "xdb.config",
        "xdb.paths",
        "xdb.text",
        "xdb.progress",
        "xdb.gcpause",
        "xdb.chat",
        "xdb.models",
        "xdb.ops.registry",
        "xdb.ops.cursor",
        "xdb.ops.listing_pages",
    ),
    STORAGE: ("xdb.store", "xdb.index", "xdb.embed"),
    ROOMS: (
        "xdb.log",
        "xdb.episodes",
        "xdb.concepts",
        "xdb.policy",
        "xdb.learning",
        "xdb.fidelity",
        "xdb.engine",
    ),
    # What puts the rooms together: the package and ``Database``, the generated API, the
    # operations' catalog (and ``xdb.ops``, which hands it out and gives ``Context`` the
    # rooms' functions, ``xdb.ops.room_services``), the entry points.
    ASSEMBLY: (
        "xdb",
        "xdb.__main__",
        "xdb.api",
        "xdb.core",
        "xdb.ops",
        "xdb.ops.catalog",
        "xdb.launch",
        "xdb.migrate",
        "xdb.demo",
    ),
    SKIN: (SKINS, "xdb.explorer"),
}
# What each layer may import; the assembly and the skins may import every layer (which
# skins are imported is ``SKIN_ENTRY_POINTS``'s rule).
MAY_IMPORT: dict[str, frozenset[str]] = {
    KERNEL: frozenset({KERNEL}),
    STORAGE: frozenset({KERNEL, STORAGE}),
    ROOMS: frozenset({KERNEL, STORAGE, ROOMS}),
}

# The imports that go up a layer today, as (importer, imported). Never add one: invert it.
KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    """``if TYPE_CHECKING:`` or ``if typing.TYPE_CHECKING:``."""
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree`` at any depth, but those only a type checker runs
    (the ``else`` of an ``if TYPE_CHECKING:`` runs, so it is walked)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _targets(
    node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]
) -> Iterator[str]:
    """The ``xdb`` modules an import statement in ``module`` loads (see the docstring)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            name = alias.name
            while name and name not in known:  # ``import a.b.Name`` never happens; be safe
                name = name.rpartition(".")[0]
            if name:
                yield name
        return
    if node.level:
        here = module.split(".") if is_package else module.split(".")[:-1]
        base = ".".join(here[: len(here) - node.level + 1])
        source = f"{base}.{node.module}" if node.module else base
    else:
        source = node.module or ""
    for alias in node.names:
        child = f"{source}.{alias.name}"
        if child in known:
            yield child
        elif source in known:
            yield source


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        for node in _imports(tree):
            graph[module].update(
                t for t in _targets(node, module, is_package, known) if t != module
            )
    return graph


def _circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(frozenset(component))
    return out


def _show(circle: frozenset[str]) -> str:
    return "{" + ", ".join(sorted(circle)) + "}"


def test_the_graph_is_read() -> None:
    graph = _graph()
    assert "xdb.store.protocol" in graph, sorted(graph)[:5]
    assert "xdb.store.types" in graph["xdb.store.protocol"], graph["xdb.store.protocol"]


def test_no_new_import_circle() -> None:
    found = set(_circles(_graph()))
    known = set(KNOWN_CIRCLES)
    new = sorted(_show(c) for c in found - known)
    gone = sorted(_show(c) for c in known - found)
    assert not new, (
        "import circles not in KNOWN_CIRCLES (break them; a circle that grew or shrank shows"
        " here and below): " + "; ".join(new)
    )
    assert not gone, (
        "circles in KNOWN_CIRCLES that no longer exist (delete them from the list): "
        + "; ".join(gone)
    )


def test_skins_are_imported_only_by_the_entry_points() -> None:
    graph = _graph()

    def is_skin(module: str) -> bool:
        return module == SKINS or module.startswith(SKINS + ".")

    importers = {
        module: sorted(t for t in targets if is_skin(t))
        for module, targets in graph.items()
        if not is_skin(module) and any(is_skin(t) for t in targets)
    }
    strays = {m: skins for m, skins in importers.items() if m not in SKIN_ENTRY_POINTS}
    assert not strays, "modules outside xdb.interfaces importing a skin: " + "; ".join(
        f"{m} -> {', '.join(skins)}" for m, skins in sorted(strays.items())
    )
    idle = sorted(SKIN_ENTRY_POINTS - set(importers))
    assert not idle, (
        "SKIN_ENTRY_POINTS that import no skin any more (delete them from the list): "
        + ", ".join(idle)
    )


def _layer(module: str) -> str | None:
    """The layer ``module`` is in (the longest name in ``LAYERS`` it is or is under)."""
    best: tuple[int, str] | None = None
    for layer, names in LAYERS.items():
        for name in names:
            if (module == name or module.startswith(name + ".")) and (
                best is None or len(name) > best[0]
            ):
                best = (len(name), layer)
    return None if best is None else best[1]


def test_every_module_has_a_layer() -> None:
    unplaced = sorted(m for m in _graph() if _layer(m) is None)
    assert not unplaced, "place these modules in LAYERS: " + ", ".join(unplaced)


def test_imports_run_one_way() -> None:
    graph = _graph()
    upward = {
        (module, target)
        for module, targets in graph.items()
        if (allowed := MAY_IMPORT.get(_layer(module) or "")) is not None
        for target in targets
        if _layer(target) not in allowed
    }
    new = sorted(upward - KNOWN_UPWARD)
    gone = sorted(KNOWN_UPWARD - upward)
    assert not new, "imports going up a layer (invert them: pass in what is needed): " + "; ".join(
        f"{m} ({_layer(m)}) -> {t} ({_layer(t)})" for m, t in new
    )
    assert not gone, "KNOWN_UPWARD arrows that no longer exist (delete them): " + "; ".join(
        f"{m} -> {t}" for m, t in gone
    )
