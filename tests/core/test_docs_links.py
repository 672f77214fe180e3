"""Every link between the project's Markdown pages leads somewhere: the file exists and,
when the link names a heading (``page.md#heading``), the page has that heading under
GitHub's rules for anchors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^()\s]+)\)")


def prose(page: Path) -> str:
    """The page without its fenced code blocks (code is not linked)."""
    return re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped,
    spaces made hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    out = set()
    for line in prose(page).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def links() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for target in LINK.findall(prose(page)):
            if not re.match(r"[a-z]+:", target):  # not http:, https:, mailto:
                found.append((str(page.relative_to(ROOT)), target))
    return found


def test_the_pages_link_to_each_other():
    assert len(links()) > 50


@pytest.mark.parametrize(("page", "target"), links())
def test_a_link_leads_somewhere(page, target):
    path, _, anchor = target.partition("#")
    file = (ROOT / page).parent / path if path else ROOT / page
    assert file.exists(), f"{page}: {target}: no such file"
    if anchor and file.suffix == ".md":
        assert anchor in anchors(file), f"{page}: {target}: no such heading"
