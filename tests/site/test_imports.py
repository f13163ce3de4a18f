"""No import circle, between the site's apps or between its modules, ``bench/`` included.

Every import counts, at a module's top or inside a function (a lazy import is still
a circle, only one that bites later); only those under ``if TYPE_CHECKING:``, which
never run, do not. ``from a import b`` names the module ``a.b`` when there is one,
else ``a``.
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The site's apps and packages, each a folder at the top of the repository.
APPS = ("kit", "game", "players", "lobby", "chat", "notifications", "maerstanas_site", "bench")

pytestmark = pytest.mark.source


def project_modules() -> dict[str, Path]:
    """Every module of the apps (their migrations aside), by dotted name."""
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import under ``node``, however deep, but for those only a type checker runs."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        elif isinstance(child, ast.If) and _type_checking(child):
            yield from _import_nodes(ast.Module(body=child.orelse, type_ignores=[]))
        else:
            yield from _import_nodes(child)


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """``name``, or the nearest package above it, if it is the project's."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules that module ``name`` (at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(_known(alias.name, modules) for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            above = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*above, *([node.module] if node.module else [])])
        for alias in node.names:
            child = f"{base}.{alias.name}"
            found.add(child if child in modules else _known(base, modules))
    found.discard(None)
    found.discard(name)
    return found


def module_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def app_graph(modules: dict[str, set[str]]) -> dict[str, set[str]]:
    """Which apps each app imports from, found from its modules' imports."""
    apps: dict[str, set[str]] = {app: set() for app in APPS}
    for name, imported in modules.items():
        app = name.partition(".")[0]
        apps[app].update(other.partition(".")[0] for other in imported)
        apps[app].discard(app)
    return apps


def circle(graph: dict[str, set[str]]) -> list[str]:
    """A circle of ``graph`` (each node followed by what it imports), or []."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as error:
        return error.args[1]
    return []


def test_the_reader_finds_imports_at_the_top_in_functions_and_relative_ones(tmp_path):
    modules = {"a": Path("a.py"), "a.b": Path("a/b.py"), "a.c": Path("a/c.py")}
    source = (
        "from typing import TYPE_CHECKING\n"
        "from a import b\n"
        "if TYPE_CHECKING:\n    import a.c\n"
        "def f():\n    from . import c\n"
    )
    path = tmp_path / "d.py"
    path.write_text(source, encoding="utf-8")
    assert imports_of("a.d", path, modules) == {"a.b", "a.c"}
    path.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a.c\n")
    assert imports_of("a.d", path, modules) == set()
    assert circle({"x": {"y"}, "y": {"z"}, "z": {"x"}}) in (
        ["x", "z", "y", "x"],
        ["y", "x", "z", "y"],
        ["z", "y", "x", "z"],
    )


def test_no_module_imports_its_way_back_to_itself():
    graph = module_graph()
    # The reader sees imports at the top and inside functions alike.
    assert {"game.play", "kit.live"} <= graph["game.views.games"]
    assert {"bench.friends", "bench.measures"} <= graph["bench.load"]
    assert circle(graph) == []


def test_no_app_imports_its_way_back_to_itself():
    apps = app_graph(module_graph())
    assert circle(apps) == []


def test_the_apps_stand_on_one_another_in_one_order():
    apps = app_graph(module_graph())
    # The kit stands on nothing of the site's; the games on the kit alone; the
    # notices, the lobby and the chat on the games, never the other way round; the
    # site's own package (settings, URLs, ASGI) puts them all together.
    assert apps["kit"] == set()
    assert apps["game"] == {"kit"}
    assert "notifications" not in apps["game"] | apps["players"] | apps["lobby"]
    assert apps["bench"] <= {"kit", "game"}
    assert apps["maerstanas_site"] >= {"players"}
    for app in APPS:
        if app != "maerstanas_site":
            assert "maerstanas_site" not in apps[app], app
