"""One alias per module: a short name for an imported module means the same module in every
file of skatbot/, tests/ and bench/ (``repo`` once meant the chat lists in some and the league
in others), and a module goes by one alias."""

from __future__ import annotations

import ast
import importlib.util
from collections import defaultdict
from pathlib import Path

import skatbot

PACKAGE = Path(skatbot.__file__).parent
ROOT = PACKAGE.parent
SCANNED = ("skatbot", "tests", "bench")


def is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def module_aliases() -> list[tuple[str, str, str]]:
    """(alias, module, where) for every ``import a.b as c`` / ``from a import b as c`` of a
    module of skatbot."""
    found = []
    paths = sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py"))
    for path in paths:
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [
                    (a.asname, a.name, where)
                    for a in node.names
                    if a.asname and a.name.startswith("skatbot")
                ]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("skatbot"):
                for a in node.names:
                    full = f"{node.module}.{a.name}"
                    if a.asname and a.asname != a.name and is_module(full):
                        found.append((a.asname, full, where))
    return found


def test_an_alias_means_one_module_everywhere() -> None:
    modules: dict[str, set[str]] = defaultdict(set)
    for alias, module, _ in module_aliases():
        modules[alias].add(module)
    twice = {alias: sorted(m) for alias, m in modules.items() if len(m) > 1}
    assert twice == {}, f"one alias, several modules: {twice}"


def test_a_module_goes_by_one_alias() -> None:
    aliases: dict[str, set[str]] = defaultdict(set)
    for alias, module, _ in module_aliases():
        aliases[module].add(alias)
    several = {module: sorted(a) for module, a in aliases.items() if len(a) > 1}
    assert several == {}, f"one module, several aliases: {several}"


def test_the_scan_sees_the_aliases() -> None:
    # (a scan that found nothing would pass the two tests above for nothing)
    assert ("trepo", "skatbot.storage.tournament") in {(a, m) for a, m, _ in module_aliases()}
