"""What runs after a reply is sent is named by a stable key (``continuations``), never by a
module path: every key is declared once, registered by the function it names, found even
when nothing has imported that function's module yet, and every ``Call`` in the code names
one. A key nobody declared is refused with a message that says how to declare it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from skatbot.usecases.common.continuations import (
    DECLARED,
    UnknownContinuation,
    continuation,
    resolve,
)
from skatbot.usecases.common.reply import Call

SKATBOT = Path(__file__).resolve().parents[3] / "skatbot"
# the one place that makes a Call from data, not from a key in the code: a stored reply read
# back (it checks the key it reads)
DECODER = SKATBOT / "handlers" / "durable.py"


def test_every_declared_key_is_registered_by_its_module_imported_on_demand() -> None:
    """In a fresh interpreter that imported nothing but the registry, every declared key
    resolves to a function of its module decorated with that key."""
    script = """
import sys
from skatbot.usecases.common import continuations as c
for key, home in c.DECLARED.items():
    fn = c.resolve(key)
    assert fn.__module__ == home, (key, fn.__module__, home)
    assert getattr(sys.modules[home], fn.__name__) is fn, key
print(sorted(c.DECLARED))
"""
    first = next(iter(DECLARED.values()))
    check = f"import sys; import skatbot.usecases.common.reply; print({first!r} in sys.modules)"
    before = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, check=True
    )
    assert before.stdout.strip() == "False"  # resolving has to import it
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == repr(sorted(DECLARED))


def _calls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Call"
    ]


def test_every_call_in_the_code_names_a_declared_key() -> None:
    seen: dict[str, list[str]] = {}
    for path in sorted(SKATBOT.rglob("*.py")):
        for node in _calls(path):
            where = f"{path.relative_to(SKATBOT.parent)}:{node.lineno}"
            first = node.args[0] if node.args else None
            if path == DECODER:
                continue
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
                f"{where}: a Call names its key as a string literal"
            )
            assert first.value in DECLARED, f"{where}: {first.value!r} is not declared"
            seen.setdefault(first.value, []).append(where)
    # every declared key is used somewhere (an unused one would be kept only for rows that
    # migration 0016 rewrote into it - none)
    assert sorted(seen) == sorted(DECLARED), set(DECLARED) ^ set(seen)


def test_an_unknown_key_is_refused_when_named_and_when_resolved() -> None:
    with pytest.raises(UnknownContinuation, match=r"unknown continuation 'standings\.forgot'"):
        Call("standings.forgot", (1, 2))
    # the old form, a module path, is no key
    with pytest.raises(UnknownContinuation, match="declare it in"):
        resolve("skatbot.usecases.sheet.standings:forget")
    with pytest.raises(UnknownContinuation, match="@continuation"):
        continuation("nobody.declared")


def test_a_key_registered_outside_its_declared_module_is_refused() -> None:
    def forget(session: object, chat_id: int, message_id: int) -> None:
        pass  # pragma: no cover - never registered

    with pytest.raises(
        UnknownContinuation, match=r"declared in skatbot\.usecases\.sheet\.standings"
    ):
        continuation("standings.forget")(forget)
    # the real one stays registered
    assert resolve("standings.forget").__module__ == "skatbot.usecases.sheet.standings"
