"""The documentation's links work: the README is short and points into docs/, so a moved page
or a renamed heading would leave a newcomer at a dead link. Every relative link of the
README, the changelog and docs/ names a file that exists, and its #anchor a heading there
(GitHub's rule: lower case, punctuation dropped, spaces to hyphens)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(
    [
        ROOT / "README.md",
        ROOT / "CHANGELOG.md",
        ROOT / "bench" / "README.md",
        *(ROOT / "docs").glob("*.md"),
    ]
)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def prose(text: str) -> str:
    """``text`` without its fenced code blocks (a snippet's brackets are no links)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``page``."""
    found = set()
    for line in prose(page.read_text(encoding="utf-8")).splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):  # https:, mailto: - not ours to check
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no such heading")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_of_the_documentation_leads_somewhere(page: Path) -> None:
    assert broken_links(page) == []


def test_the_readme_links_every_page_of_the_docs() -> None:
    """A page nobody links is a page nobody reads."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    unlinked = [p.name for p in (ROOT / "docs").glob("*.md") if f"](docs/{p.name}" not in readme]
    assert unlinked == []
