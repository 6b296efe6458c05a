"""No module of skatbot imports itself, however indirectly: the import graph has no cycle.

The graph is grimp's (the library import-linter is built on), with every import counted: at
module level, inside functions (a lazy import that works around a cycle is still the cycle)
and under ``TYPE_CHECKING`` (a type that needs the other module is a dependency on it).
Strings that ``routes`` resolves with importlib are not imports, and grimp does not see them.
"""

from __future__ import annotations

import grimp


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative): each
    is one knot of modules that import each other, sorted by name."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append(
                        (other, iter(sorted(graph.find_modules_directly_imported_by(other))))
                    )
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    knot = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        knot.append(member)
                        if member == module:
                            break
                    if len(knot) > 1:
                        found.append(sorted(knot))
    return found


def describe(graph: grimp.ImportGraph, knot: list[str]) -> str:
    """One knot as the modules and the imports that tie them (file and line of each)."""
    lines = [" <-> ".join(knot)]
    members = set(knot)
    for module in knot:
        for other in sorted(graph.find_modules_directly_imported_by(module) & members):
            for detail in graph.get_import_details(importer=module, imported=other):
                lines.append(f"    {module}:{detail['line_number']} imports {other}")
    return "\n".join(lines)


def test_skatbot_has_no_import_cycle() -> None:
    graph = grimp.build_graph("skatbot", cache_dir=None)
    knots = cycles(graph)
    assert not knots, "import cycles in skatbot:\n" + "\n".join(
        describe(graph, knot) for knot in knots
    )


def test_a_cycle_is_found() -> None:
    """The search itself: a knot of three modules is reported, a chain is not."""
    graph = grimp.ImportGraph()
    for name in ("p", "p.a", "p.b", "p.c", "p.d"):
        graph.add_module(name)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.c")
    graph.add_import(importer="p.c", imported="p.d")
    assert cycles(graph) == []
    graph.add_import(importer="p.c", imported="p.a")
    assert cycles(graph) == [["p.a", "p.b", "p.c"]]
