#!/usr/bin/env python3
"""Checks the project's Markdown: every relative link resolves (a file or folder in the
repository, and a #anchor to a heading of the target file, GitHub style), and, with
--headings OLD.md..., that every heading of the given old files still exists in README.md,
BENCHMARKS.md or docs/. Run from anywhere; exits 1 on a problem.

    tools/docs-check/check_docs.py
    tools/docs-check/check_docs.py --headings old-README.md old-BENCHMARKS.md
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def files():
    found = [ROOT / "README.md", ROOT / "BENCHMARKS.md"]
    found += sorted((ROOT / "docs").rglob("*.md"))
    found += sorted((ROOT / "deploy").rglob("*.md"))
    found += sorted((ROOT / "tools").rglob("README.md"))
    return [f for f in found if f.is_file()]


def prose(text):
    """The lines outside fenced code blocks, with inline code spans blanked."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"\s*(```+|~~~+)", line)
        if m:
            if fence is None:
                fence = m.group(1)[:3]
            elif line.strip().startswith(fence):
                fence = None
            out.append("")
            continue
        out.append("" if fence else re.sub(r"`[^`]*`", lambda s: " " * len(s.group(0)), line))
    return out


def headings(text):
    return [m.group(2).strip() for line in prose_keep_code(text) if (m := re.match(r"(#{1,6})\s+(.*?)\s*#*\s*$", line))]


def prose_keep_code(text):
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"\s*(```+|~~~+)", line)
        if m:
            fence = None if fence else m.group(1)[:3]
            continue
        if not fence:
            out.append(line)
    return out


def slug(heading):
    """GitHub's anchor for a heading: lower case, inline markup dropped, punctuation removed,
    spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen, result = {}, set()
    for h in headings(path.read_text()):
        s = slug(h)
        n = seen.get(s, 0)
        result.add(s if n == 0 else f"{s}-{n}")
        seen[s] = n + 1
    return result


def check_links():
    problems = 0
    for f in files():
        for number, line in enumerate(prose(f.read_text()), 1):
            for target in LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
                    continue  # http(s), mailto
                path, _, anchor = target.partition("#")
                dest = f if not path else (f.parent / path).resolve()
                if not dest.exists():
                    print(f"{f.relative_to(ROOT)}:{number}: {target}: no such file")
                    problems += 1
                    continue
                if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                    print(f"{f.relative_to(ROOT)}:{number}: {target}: no heading with that anchor in {dest.relative_to(ROOT)}")
                    problems += 1
    return problems


def check_headings(old_files):
    have = set()
    for f in [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        have |= set(headings(f.read_text()))
    problems = 0
    for old in old_files:
        for h in headings(Path(old).read_text()):
            if h not in have:
                print(f"{old}: heading not found in README.md, BENCHMARKS.md or docs/: {h}")
                problems += 1
    return problems


def main(argv):
    problems = check_links()
    checked = len(files())
    if "--headings" in argv:
        olds = argv[argv.index("--headings") + 1:]
        problems += check_headings(olds)
    print(f"{checked} Markdown files checked, {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
