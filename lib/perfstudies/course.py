"""The book as a course: its chapters in reading order, and what each asks of a reader's time.

The introduction's concept map and the *For teachers* page read the same facts from here: the
chapters with their queueing ideas, prerequisites, level and goals (:data:`CHAPTERS`), the minutes
to read a chapter (counted from its text, :func:`reading_minutes`), and each exercise's minutes
and whether it needs a live kernel (counted from the exercise's own text, :func:`exercises`).
"""

import re
from dataclasses import dataclass

from perfstudies import myst_blocks
from perfstudies.paths import ROOT

WORDS_PER_MINUTE = 150  # technical prose, read with the charts
#: The shortest time worth stating, and the step times are rounded to.
MINUTES_STEP = 5
#: An exercise whose text names one of these is done on a live panel, which needs a running kernel
#: (`make lab`); the book's sliders over precomputed results work on the static pages.
LIVE = ("live panel", "jupyterlab", "make lab")


@dataclass(frozen=True)
class Chapter:
    """A chapter of the course: its page (``folder/name``, no suffix) and what the concept map says."""

    page: str
    title: str
    ideas: str
    prerequisites: str
    level: str
    goals: str


#: The chapters in reading order (the introduction is the book's front page, not a chapter).
CHAPTERS = [
    Chapter("book/queueing", "Queueing in one page",
            "operational laws (utilisation, forced flow, Little's law); bottleneck bounds; mean value analysis; "
            "warm-up and replications",
            "this introduction; mean, variance and the exponential distribution", "introductory",
            "apply the operational laws and bottleneck bounds by hand; run exact and approximate MVA; "
            "check a simulation against MVA; choose a warm-up and a number of replications"),
    Chapter("notebooks/spxtape", "SPXTAPE: spool files to tape",
            "servers in parallel; a finite buffer and blocking; a buffer that hides a server's outages",
            "Queueing in one page (utilisation, bottleneck)", "introductory",
            "estimate a dump's bottleneck by hand; say how much of a tape change a memory buffer hides; "
            "predict the cartridges a dump needs; tell calibrated agreement from prediction"),
    Chapter("notebooks/svcdump", "SVC dump: striping, device and channel",
            "service time of one disk I/O; bottleneck of a pipeline; where adding servers stops helping",
            "Queueing in one page (utilisation law, bottleneck)", "introductory",
            "compute a disk I/O's service time from its parts; find where striping stops helping and "
            "which of device and channel then limits a dump"),
    Chapter("notebooks/vts", "The Virtual Tape Server",
            "service demands; bottleneck bound of a closed network; compression moves the bottleneck; "
            "a first-come-first-served queue for tape drives; exact MVA beside the simulation",
            "Queueing in one page (service demand, closed networks)", "intermediate",
            "bound a configuration's throughput from each resource's service demand; say which resource "
            "limits each workload and how compressibility moves the limit"),
    Chapter("notebooks/diag44", "DIAGNOSE X'44' fast path",
            "M/M/c and the probability of waiting; a decision that depends on the queue; a lock as a "
            "one-server queue; a closed network with think time, MVA beside the simulation",
            "Queueing in one page (Erlang C, closed networks, MVA); spin locks", "intermediate",
            "compute how often a fast path applies from the chance that no sibling is queued; model a "
            "lock as a one-server queue; use the response-time law on a closed network"),
    Chapter("notebooks/mdf", "Partitioning a processor with MDF",
            "M/G/1 and the Pollaczek-Khinchine formula; servers that take vacations (time slices); a closed "
            "terminal population",
            "Queueing in one page (Little's law, closed systems)", "advanced",
            "compute how long a completion waits for its domain; explain why a held completion shows in "
            "the next requests' queueing time; judge where a mechanism-only model fits the measurements"),
]


def source(page: str) -> str | None:
    """The text of ``page`` (``folder/name``), or None while it does not exist."""
    path = ROOT / f"{page}.md"
    return path.read_text() if path.exists() else None


def words(text: str) -> int:
    """Words of prose in ``text``: front matter, code cells and directive options left out."""
    text = re.sub(r"^---\n.*?\n---\n", "", text, count=1, flags=re.DOTALL)
    prose = re.sub(r"```\{code-cell\}.*?```", "", text, flags=re.DOTALL)
    return len(re.findall(r"[A-Za-z0-9']+", re.sub(r"^:\w+:.*$", "", prose, flags=re.MULTILINE)))


def minutes(word_count: float) -> int:
    """Reading minutes for ``word_count`` words, rounded to :data:`MINUTES_STEP` (at least one step)."""
    return max(MINUTES_STEP, MINUTES_STEP * round(word_count / WORDS_PER_MINUTE / MINUTES_STEP))


def reading_minutes(page: str) -> int | None:
    """Minutes to read a chapter's prose, or None while its source does not exist."""
    text = source(page)
    return None if text is None else minutes(words(text))


@dataclass(frozen=True)
class Exercise:
    """One exercise of a chapter: its label, its text, its minutes and whether it needs a live kernel."""

    label: str
    text: str
    minutes: int
    live: bool


def exercises(page: str) -> list[Exercise]:
    """A chapter's exercises in order, each with its estimated minutes.

    The introduction tells readers that working a chapter's exercises takes about as long as
    reading it; that time is shared among the exercises in proportion to the words of each
    exercise and its solution (a longer answer is more work), then rounded like reading times.
    """
    text = source(page)
    if text is None:
        return []
    solutions = {block.label: block.body for block in myst_blocks.blocks(text, "solution")}
    found = myst_blocks.blocks(text, "exercise")
    weights = [words(block.body) + words(solutions.get(block.label, "")) for block in found]
    chapter_words = words(text)
    return [Exercise(block.label, block.body, minutes(chapter_words * weight / sum(weights)),
                     any(name in block.body.lower() for name in LIVE))
            for block, weight in zip(found, weights)]
