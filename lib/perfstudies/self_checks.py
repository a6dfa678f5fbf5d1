"""Self-check questions: numeric questions a reader answers on a chapter's static page and a browser checks.

Each chapter's *Check yourself* section shows the questions of :data:`CHAPTER_QUESTIONS` for its
page.  A question states every number it needs; its answer is computed here by the library's own
analytic functions (never typed in), and a reader's answer is accepted within the question's
stated relative tolerance (:meth:`Question.accepts`).  The page carries the answer in the form's
data; ``book/_ext/static/self_checks.js`` checks what the reader types against it in the browser,
offline, by the same rule, and says the answer, to the question's significant figures, once the
reader has found it.
"""

import html
import math
from dataclasses import dataclass
from typing import Callable

from perfstudies.tables import number


@dataclass(frozen=True)
class Question:
    """One question: its text, its answer and unit, and how close a reader's answer must be.

    ``tolerance`` is relative (0.02: within 2% of the answer); 0 asks for the exact value, for
    answers that are whole numbers (cartridges, stripes).
    """

    text: str
    answer: float
    unit: str
    tolerance: float
    digits: int = 3

    def __post_init__(self):
        if not isinstance(self.answer, (int, float)) or isinstance(self.answer, bool) or \
                not math.isfinite(self.answer):
            raise ValueError(f"answer = {self.answer!r} is out of range: allowed a finite number")
        if not 0 <= self.tolerance < 1:
            raise ValueError(f"tolerance = {self.tolerance!r} is out of range: allowed 0 <= tolerance < 1")
        if self.tolerance == 0 and self.answer != round(self.answer):
            raise ValueError(f"tolerance = 0 asks for an exact answer, but answer = {self.answer!r} is not a "
                             "whole number: allowed a tolerance > 0 for it")

    def accepts(self, given: float) -> bool:
        """Whether ``given`` is within the tolerance of the answer (the rule the page's script applies)."""
        return abs(given - self.answer) <= self.tolerance * abs(self.answer)

    @property
    def shown_answer(self) -> str:
        """The answer as a reader reads it once found: ``digits`` significant figures, or the whole number."""
        return number(self.answer, self.digits) if self.tolerance else f"{round(self.answer):,}"

    @property
    def rule(self) -> str:
        """The tolerance in words, shown beside the answer box."""
        return "exactly" if self.tolerance == 0 else f"within {100 * self.tolerance:g}%"


class SelfChecks:
    """A chapter's questions, shown as one HTML block of forms (and as text outside a browser)."""

    def __init__(self, questions: list[Question]):
        if len(questions) < 1:
            raise ValueError("questions is empty: allowed one question or more")
        self.questions = list(questions)

    def _repr_html_(self) -> str:
        forms = []
        for index, question in enumerate(self.questions, start=1):
            forms.append(
                f'<form class="perfstudies-self-check" data-answer="{question.answer!r}" '
                f'data-tolerance="{question.tolerance!r}" data-shown="{html.escape(question.shown_answer)}" '
                f'data-unit="{html.escape(question.unit)}">'
                f'<p><strong>Q{index}.</strong> {html.escape(question.text)}</p>'
                f'<label>Your answer ({html.escape(question.unit)}, {question.rule}): '
                f'<input type="text" inputmode="decimal" size="10" autocomplete="off"></label> '
                f'<button type="submit">Check</button> '
                f'<span class="perfstudies-self-check-verdict" role="status" aria-live="polite"></span>'
                f'</form>')
        return '<div class="perfstudies-self-checks">' + "".join(forms) + "</div>"

    def __repr__(self) -> str:
        return "\n".join(f"Q{index}. {question.text} ({question.unit}, {question.rule})"
                         for index, question in enumerate(self.questions, start=1))


def _queueing() -> list[Question]:
    from perfstudies import mva
    from perfstudies.centralserver import CentralServerParams, demands

    example = CentralServerParams().replace(think_time=10.0)  # not the chapter's example, whose knee it states
    found = demands(example)
    think = example.think_time
    stated = ", ".join(f"{name} {number(demand, 3)} s" for name, demand in found.items())
    network = f"A closed network with service demands {stated} per job and a think time of {number(think, 3)} s."
    return [
        Question(f"{network} Beyond which population N* does the bottleneck saturate (the knee of the bounds)?",
                 mva.bounds(found, 10, think).knee, "jobs", 0.02),
        Question("For the network of Q1: what is the optimistic (asymptotic) bound on throughput with 3 users?",
                 mva.bounds(found, 3, think).asymptotic_throughput[1], "jobs/s", 0.02),
        Question("For the network of Q1, run exact MVA by hand for 2 users: what is the throughput?",
                 mva.exact(found, 2, think).throughput, "jobs/s", 0.02),
    ]


def _spxtape() -> list[Question]:
    from perfstudies.models.spxtape import ConcurrentParams, SpxtapeParams
    from perfstudies.models.spxtape.analytic import hidden_per_change, tapes_needed, user_io_response

    dump = SpxtapeParams(command="SPXTAPE", drives=3)
    stream = 400.0
    users = ConcurrentParams(user_io_rate=20.0, dump_reads_queued=4)
    return [
        Question(f"An SPXTAPE dump of {dump.total_pages:,} pages writes to {dump.drives} drives at once, on "
                 f"cartridges of {dump.tape_capacity_pages:,.0f} pages each; every drive but the first ends on "
                 "a partly filled cartridge. How many cartridges does the dump need?",
                 tapes_needed(dump), "cartridges", 0),
        Question(f"A memory buffer of {dump.buffer_pages:,.0f} pages fills at {number(stream, 3)} pages/s while "
                 f"a tape change of {number(dump.change_time, 3)} s stops the writing. How many seconds of the "
                 "change does the buffer hide?",
                 hidden_per_change(dump, stream), "s", 0.02),
        Question(f"Users issue {number(users.user_io_rate, 3)} I/Os a second to a spool volume whose page I/O "
                 f"takes {number(1000 * users.page_io_time, 3)} ms; the dump always keeps "
                 f"{users.dump_reads_queued} reads queued there (FIFO). What is the users' mean I/O response "
                 "time?",
                 1000 * user_io_response(users), "ms", 0.02),
    ]


def _svcdump() -> list[Question]:
    from perfstudies.models.svcdump import DumpParams, bound_elapsed_s, knee_stripes
    from perfstudies.models.svcdump.analytic import io_ms, positioning_ms, resource_times, transfer_ms
    from perfstudies.models.svcdump.params import BLOCKS_PER_IO

    disk = DumpParams(device="3390-3", channel="ESCON", stripes=1)
    times = resource_times(disk)
    stated = ", ".join(f"{name} {number(seconds, 3)} s" for name, seconds in times.items())
    return [
        Question(f"One dump I/O to a 3390-3 over ESCON: a turnaround of {number(disk.io_turnaround_ms, 3)} ms, "
                 f"half a revolution ({number(positioning_ms(disk.device), 3)} ms) and the transfer of "
                 f"{BLOCKS_PER_IO} blocks ({number(transfer_ms(disk.device, disk.channel, BLOCKS_PER_IO), 3)} ms). "
                 "How long does the I/O take?",
                 io_ms(disk), "ms", 0.02),
        Question(f"Each resource of a dump alone would need (its demand over its servers): {stated}. What is the "
                 "bottleneck's lower bound on the dump's elapsed time?",
                 bound_elapsed_s(disk), "s", 0.02),
        Question("Striping divides the volumes' time of Q2 (on one volume) by the number of stripes; the other "
                 "times stay. At how many stripes does another resource take over as the bottleneck?",
                 knee_stripes(disk), "stripes", 0.05),
    ]


def _vts() -> list[Question]:
    from perfstudies.models.vts import bound, capacities, paf, sustained_crossover_cf

    machine = paf(compressibility=2.0)
    found = capacities(machine)
    stated = ", ".join(f"{name.replace('_', ' ')} {number(capacity, 3)} MB/s" for name, capacity in found.items())
    three = paf(compressibility=3.0)
    stated_three = ", ".join(f"{name.replace('_', ' ')} {number(capacity, 3)} MB/s"
                             for name, capacity in capacities(three).items())
    return [
        Question(f"At compressibility 2 the PAF machine's resources could each carry alone: {stated}. What is "
                 "the bound on host MB/s in sustained write?", bound(machine), "MB/s", 0.02),
        Question(f"At compressibility 3 they could carry: {stated_three}. What is the bound now?",
                 bound(three), "MB/s", 0.02),
        Question("Between those two, the processors' capacity grows faster with compressibility than the "
                 "drives'. At which compressibility do the two capacities meet (read it off the capacity chart)?",
                 sustained_crossover_cf(machine), "compressibility", 0.05),
    ]


def _diag44() -> list[Question]:
    from perfstudies.models.diag44 import mm1_wait, no_sibling_queued, queued_share

    return [
        Question("A guest has 4 virtual processors; each of its 3 siblings is queued for a real processor with "
                 "chance 0.05, independently. What is the chance that none of them is queued?",
                 no_sibling_queued(4, 0.05), "probability", 0.01),
        Question("A lock is held 25% of the time, for 4 µs on average per acquisition, with exponential holds "
                 "and Poisson acquisitions (M/M/1). What is the mean spin of one acquisition?",
                 mm1_wait(0.25, 4.0), "µs", 0.02),
        Question("Two real processors are each busy 50% of the time (M/M/2). What share of a ready virtual "
                 "processor's time is spent waiting for a real processor?",
                 queued_share(2, 0.5), "share", 0.02),
    ]


def _mdf() -> list[Question]:
    from perfstudies.models.mdf.analytic import closed_loop_bounds, closed_response, pollaczek_khinchine_wait

    rate, service = 20.0, 0.02
    return [
        Question(f"A device receives {number(rate, 3)} requests a second, each served in exactly "
                 f"{number(1000 * service, 3)} ms (M/D/1). What is the mean wait in queue?",
                 1000 * pollaczek_khinchine_wait(rate, service, service**2), "ms", 0.02),
        Question("50 terminal users think 10 s between transactions and the system completes 4 transactions a "
                 "second. What is the mean response time?", closed_response(50, 4.0, 10.0), "s", 0.02),
        Question("50 terminal users think 10 s; a transaction alone takes 0.5 s and the bottleneck can complete "
                 "6 a second. What is the optimistic bound on throughput?",
                 closed_loop_bounds(50, 10.0, 0.5, 6.0)[0], "tx/s", 0.02),
    ]


#: Every chapter's questions, by page (``folder/name``), computed when a page asks for them.
CHAPTER_QUESTIONS: dict[str, Callable[[], list[Question]]] = {
    "book/queueing": _queueing,
    "notebooks/spxtape": _spxtape,
    "notebooks/svcdump": _svcdump,
    "notebooks/vts": _vts,
    "notebooks/diag44": _diag44,
    "notebooks/mdf": _mdf,
}


def for_chapter(page: str) -> SelfChecks:
    """The self-check block of chapter ``page`` (a key of :data:`CHAPTER_QUESTIONS`)."""
    if page not in CHAPTER_QUESTIONS:
        raise ValueError(f"page = {page!r} has no self-checks: allowed one of {', '.join(CHAPTER_QUESTIONS)}")
    return SelfChecks(CHAPTER_QUESTIONS[page]())
