"""The student's and the teacher's editions: no solution reachable in the one, all of them in the other.

Both editions are built once for the module, as `make student` and `make teacher` build them
(``scripts/edition.py``), while no other build of this tree runs (the book lock).  After the
reader's build of the same sources (``make book``, or the book test in the other worker) neither
executes a notebook; without it the student's edition executes them and the teacher's reuses them.

The leak test takes each solution's text from the sources: the plain-prose stretches of each
solution body (no markup, at least :data:`PROBE_WORDS` words) and its longer inline formulas, each
appearing nowhere else in the book's text, and greps every file of the student's build for them, page sources, notebooks, search index
and build environment included.  The same stretches must all be found in the teacher's edition,
so the probes do match what a build writes.
"""

import hashlib
import html
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, book_lock
from perfstudies import myst_blocks

pytestmark = pytest.mark.book
BUILD = ROOT / "_build"
PAGES = sorted((ROOT / "book").glob("*.md")) + sorted((ROOT / "notebooks").glob("*.md"))
#: The shortest stretch of a solution's prose used as a probe.
PROBE_WORDS = 6
#: A stretch of plain words: no markup, quotes or sentence ends that the HTML writer could change.
PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ,;()-]*[A-Za-z0-9)]")
#: The shortest inline formula used as a probe (the HTML keeps formulas as LaTeX for MathJax).
PROBE_MATH = 20


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _prose(body: str) -> str:
    """A solution body without code blocks, roles, math and inline code (what is left reads as written)."""
    body = re.sub(r"^(`{3,}|:{3,}).*?^\1\s*$", " | ", body, flags=re.MULTILINE | re.DOTALL)
    body = re.sub(r"\{[\w:-]+\}`[^`]*`|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$", " | ", body, flags=re.DOTALL)
    return _flat(body)


def probes() -> dict[str, list[str]]:
    """Each solution's probes (label: stretches of its prose), from every page of the sources."""
    found, elsewhere = {}, ""
    for page in PAGES:
        text = page.read_text()
        elsewhere += _flat(myst_blocks.strip(text, "solution")) + " "
        for block in myst_blocks.blocks(text, "solution"):
            found[block.label] = [stretch for stretch in PLAIN.findall(_prose(block.body))
                                  if len(stretch.split()) >= PROBE_WORDS]
            inline = re.sub(r"\$\$.*?\$\$", " ", block.body, flags=re.DOTALL).split("$")[1::2]
            found[block.label] += [_flat(math).strip() for math in inline if len(math) >= PROBE_MATH]
    return {label: [probe for probe in stretches if probe not in elsewhere] for label, stretches in found.items()}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def readable_text(path: Path) -> str:
    """What a file says, as a person (or a search) would read it: JSON strings joined, HTML unescaped."""
    raw = path.read_bytes().decode("utf-8", errors="ignore")
    if path.suffix in (".ipynb", ".json"):
        try:
            raw = "\n".join(_strings(json.loads(raw)))
        except ValueError:
            pass
    if path.suffix == ".html":
        raw = re.sub(r"<[^>]*>", " ", raw)  # "Solution to<a ...> Exercise 4.2</a>" reads as one phrase
    return _flat(html.unescape(raw))


def build(edition: str) -> tuple[subprocess.CompletedProcess, float]:
    started = time.monotonic()
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "edition.py"), edition],
                            cwd=ROOT, capture_output=True, text=True)
    return result, time.monotonic() - started


@pytest.fixture(scope="module")
def editions():
    """Both editions built (the student's first), with their logs and wall times."""
    with book_lock():  # not while the reader's build runs (its executed notebooks are reused)
        built = {edition: build(edition) for edition in ("student", "teacher")}
    for edition, (result, seconds) in built.items():
        assert result.returncode == 0, f"{edition} edition failed:\n{result.stdout[-5000:]}\n{result.stderr[-5000:]}"
        print(f"{edition} edition built in {seconds:.0f} s")
    return built


def test_every_solution_has_probes_unique_to_it():
    found = probes()
    assert len(found) >= 6 * 6, "every chapter's solutions are read from the sources"
    assert not [label for label, stretches in found.items() if not stretches], \
        "a solution with no plain prose of its own cannot be checked"


def test_the_student_edition_has_no_solution_in_any_file(editions):
    found = probes()
    files = [path for path in (BUILD / "student").rglob("*") if path.is_file()]
    assert len(files) > 50 and any(path.suffix == ".ipynb" for path in files)
    leaks, hits_of = {}, {}
    for path in files:  # files with the same bytes and kind read alike: each is searched once
        content = (path.suffix, hashlib.sha256(path.read_bytes()).digest())
        if content not in hits_of:
            text = readable_text(path)
            hits_of[content] = sorted(label for label, stretches in found.items()
                                      if any(probe in text for probe in stretches))
        if hits_of[content]:
            leaks[str(path.relative_to(BUILD))] = hits_of[content]
    assert not leaks, f"solutions reachable in the student's edition: {leaks}"


def test_the_teacher_edition_shows_every_solution_and_the_appendix_gathers_them(editions):
    found = probes()
    html_folder = BUILD / "teacher" / "html"
    appendix = readable_text(html_folder / "book" / "solutions.html")
    chapters = " ".join(readable_text(page) for page in html_folder.glob("*/*.html"))
    assert not [label for label, stretches in found.items() if not all(probe in appendix for probe in stretches)]
    assert not [label for label, stretches in found.items() if not all(probe in chapters for probe in stretches)]
    assert appendix.count("Solution to Exercise") == len(found)
    assert "Solution to Exercise 4.2" in appendix


def test_the_student_edition_keeps_exercises_and_says_what_to_open(editions):
    html_folder = BUILD / "student" / "html"
    chapter = readable_text(html_folder / "notebooks" / "vts.html")
    assert "Exercise 4.2" in chapter and "Solution to" not in chapter
    notebook = json.loads((html_folder / "_sources" / "notebooks" / "vts.ipynb").read_text())
    markdown = "".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")
    assert "{exercise}" in markdown and "{solution}" not in markdown
    assert "{glue" not in markdown, "glued numbers are pasted into the download's text"
    assert notebook["cells"][0]["source"].startswith("*A chapter of* Reproducible performance studies")
    intro = json.loads((html_folder / "_sources" / "book" / "intro.ipynb").read_text())
    code = "".join("".join(cell["source"]) for cell in intro["cells"] if cell["cell_type"] == "code")
    assert "wq-one-90" not in code, "the cell computing only the solutions' numbers is gone"
    assert "{solution}" not in (html_folder / "_sources" / "notebooks" / "vts.md").read_text()
    assert not (html_folder / "book" / "solutions.html").exists()


def test_exercises_and_equations_are_numbered_within_their_chapter(editions):
    html_folder = BUILD / "teacher" / "html"
    vts = readable_text(html_folder / "notebooks" / "vts.html")
    assert "Exercise 4.1" in vts and "Exercise 4.8" in vts and "Exercise 4.9" not in vts
    assert re.search(r"\(4\.\d+\)", vts), "equations read (4.m)"
    assert "4. The Virtual Tape Server" in readable_text(html_folder / "book" / "intro.html")
    teachers = readable_text(html_folder / "book" / "teachers.html")
    assert "Exercise 6.2" in teachers and "Exercise 2.1" in teachers and "Exercise 0.1" in teachers
    intro = readable_text(html_folder / "book" / "intro.html")
    assert "Exercise 0.1" in intro and "Exercise 0.6" in intro and re.search(r"\(0\.\d+\)", intro), \
        "the introduction numbers as chapter 0"
    assert "0. Reproducible performance studies" in readable_text(html_folder / "book" / "solutions.html")


def test_the_second_edition_executes_no_notebook(editions):
    result, seconds = editions["teacher"]
    log = result.stdout + result.stderr
    executed = re.findall(r"(\S+): Executing notebook", log)
    assert not executed, f"the teacher's edition executed {executed} again:\n{log[-3000:]}"
    assert re.search(r"teacher edition: \d+ notebooks executed from these sources", log)
