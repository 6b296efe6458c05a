"""SQL lives in skatbot/storage only: use cases decide, handlers deliver, neither talks to
the database but through a storage function."""

from __future__ import annotations

import ast
from pathlib import Path

import skatbot

PACKAGE = Path(skatbot.__file__).parent
# Session methods that issue SQL (or queue it: a flush writes what is pending).
SESSION_SQL = {"execute", "scalars", "scalar", "flush", "add", "add_all", "delete", "merge", "get"}
# SQLAlchemy's statement builders.
STATEMENTS = {"select", "insert", "update", "delete", "text"}


def sql_outside_storage(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
            found.append(f"{where} from {node.module} import …")
        elif isinstance(node, ast.Import) and any(
            a.name.startswith("sqlalchemy") for a in node.names
        ):
            found.append(f"{where} import sqlalchemy")
        elif isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "session"
                and func.attr in SESSION_SQL
            ):
                found.append(f"{where} session.{func.attr}(…)")
            elif isinstance(func, ast.Name) and func.id in STATEMENTS:
                found.append(f"{where} {func.id}(…)")
    return found


def test_no_sql_in_use_cases_or_handlers() -> None:
    found = [
        hit
        for layer in ("usecases", "handlers")
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for hit in sql_outside_storage(path)
    ]
    assert found == [], "SQL outside skatbot/storage – move it into a storage function:\n" + (
        "\n".join(found)
    )
