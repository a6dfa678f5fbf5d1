"""Every study's comparison replications, kept in the repository and used only when they reproduce.

Simulating a study's comparison from nothing takes minutes of CPU (mdf's
about 17 on this project's 2-core machine), and a clean clone, CI and a
reader's first ``make book`` would each pay it.  ``make runs`` stores what
:meth:`perfstudies.study.Study.runs` returns in ``data/runs/<study>.json``
(the disk memo's file format: a header with the sha256 of the rest, then the
frames).  When its memo is cold, :meth:`~perfstudies.study.Study.runs` takes
the stored runs, but only after checking that this code would produce them
(:func:`problems`):

1. **Replay.** The sequential precision rule of
   :func:`perfstudies.evaluate.simulate` runs again with the stored
   replications standing in for the model: it must ask for every stored
   replication of every configuration and for no other.
2. **Spot check.** One replication of every configuration, picked by the
   digest of the study's sources (so a code change moves the pick) and a
   different one from configuration to configuration, is simulated again
   with its seed and must give the stored metrics bit for bit.

Runs that fail are not used: they are simulated, with a
:class:`StoredRunsWarning` naming the first problem and the command that
refreshes the file, and ``tests/test_stored_runs.py`` fails on them.  The
check costs one replication per configuration instead of all of them (as
:mod:`perfstudies.stored_sweeps` checks the chapters' sweeps).
What it cannot see is a change that alters only replications the picks do not
reach (a rare path that a few seeds take); ``python -m
perfstudies.stored_runs --full`` simulates every study from scratch and
compares all of it.

Usage: ``python -m perfstudies.stored_runs [--full] [study ...]`` (``make
runs``): without ``--full``, rewrite the file of every study whose stored
runs are missing or do not reproduce, and of every sweep of theirs
(:mod:`perfstudies.stored_sweeps`); with it, simulate both from scratch and compare.
"""

import argparse
import hashlib
import math
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from perfstudies import stored_sweeps
from perfstudies.cache import memoized, read_entry, same, sources_digest, write_entry_unless_same
from perfstudies.evaluate import simulate
from perfstudies.paths import RUNS
from perfstudies.runner import model_metrics, replication_seeds

#: The command that rewrites stale stored runs.
REFRESH = "make runs"


class StoredRunsWarning(UserWarning):
    """A study's stored runs are missing or do not reproduce, so they are simulated."""


class _Unstored(Exception):
    """The precision rule asked for a replication the store does not hold."""


def path(key: str) -> Path:
    """Where study ``key``'s runs are stored."""
    if not isinstance(key, str) or not key.isidentifier():
        raise ValueError(f"key = {key!r} is not allowed: allowed a study's key (an identifier)")
    return RUNS / f"{key}.json"


def load(key: str) -> dict | None:
    """Study ``key``'s stored runs, or None when there are none (ValueError if the file cannot be used)."""
    if not path(key).exists():
        return None
    return read_entry(path(key), f"runs-{key}")[1]


def problems(study, runs: Mapping) -> list[str]:
    """What stops ``runs`` from being the runs this code simulates for ``study`` (empty: none).

    ``study`` is a :class:`~perfstudies.study.Study`; see the module docstring
    for the two checks.
    """
    if not all(hasattr(study, name) for name in ("key", "seed", "experiments", "cells")):
        raise ValueError(f"study = {study!r} has the wrong type: allowed a Study (perfstudies.study)")
    used: dict[tuple[str, str], tuple] = {}

    def replicate(experiment, name, configuration, index, seed):
        frame = runs.get(experiment.name, {}).get(name) if isinstance(runs, Mapping) else None
        if not isinstance(frame, pd.DataFrame) or index >= len(frame):
            held = len(frame) if isinstance(frame, pd.DataFrame) else 0
            raise _Unstored(f"the precision rule asks for replication {index + 1} of {experiment.name!r} / "
                            f"{name!r}; {held} stored")
        used[experiment.name, name] = (experiment, configuration)
        return {column: frame[column].iat[index] for column in frame.columns}

    try:
        replayed = simulate(study.seed, study.experiments(), study.cells(), replicate=replicate)
    except _Unstored as reason:
        return [str(reason)]
    found = _differences(replayed, runs)
    if found:
        return found
    pick = int(sources_digest(study.key)[:8], 16)
    for position, ((experiment_name, name), (experiment, configuration)) in enumerate(used.items()):
        frame = runs[experiment_name][name]
        index = stored_sweeps.spot_checked(pick, position, len(frame))
        fresh = model_metrics(experiment.model, configuration, replication_seeds(study.seed, experiment.cap)[index])
        stored = {column: frame[column].iat[index] for column in frame.columns}
        if not _identical(fresh, stored):
            return [f"replication {index + 1} of {experiment_name!r} / {name!r} simulates to {dict(fresh)} "
                    f"with this code; stored: {stored}"]
    return []


def _differences(replayed: Mapping, runs: Mapping) -> list[str]:
    if not isinstance(runs, Mapping) or set(replayed) != set(runs):
        shown = sorted(runs) if isinstance(runs, Mapping) else type(runs).__name__
        return [f"the experiments are {sorted(replayed)}; stored: {shown}"]
    found = []
    for experiment, frames in replayed.items():
        stored = runs[experiment]
        if not isinstance(stored, Mapping) or set(frames) != set(stored):
            found.append(f"{experiment!r} runs configurations {sorted(frames)}; stored: "
                         f"{sorted(stored) if isinstance(stored, Mapping) else type(stored).__name__}")
            continue
        for name, frame in frames.items():
            if len(frame) != len(stored[name]):
                found.append(f"the precision rule stops {experiment!r} / {name!r} at {len(frame)} replications; "
                             f"stored: {len(stored[name])}")
            elif not same(frame, stored[name]):
                found.append(f"{experiment!r} / {name!r} stored has other metrics or types than the model returns")
    return found


def _identical(fresh: Mapping, stored: Mapping) -> bool:
    if set(fresh) != set(stored):
        return False
    return all(float(fresh[name]) == float(stored[name])
               or (math.isnan(float(fresh[name])) and math.isnan(float(stored[name]))) for name in fresh)


def reproduced(study) -> dict | None:
    """``study``'s stored runs if they reproduce (:func:`problems`), else None.

    None without a word when nothing is stored; with a
    :class:`StoredRunsWarning` when the stored runs cannot be read or do not reproduce.

    The verdict is disk-memoized on the study's sources and the stored file's
    sha256, so the check runs once per change of either.
    """
    try:
        runs = load(study.key)
    except ValueError as reason:
        warnings.warn(f"{reason}; simulating instead ({REFRESH} rewrites it)", StoredRunsWarning, stacklevel=2)
        return None
    if runs is None:
        return None  # nothing stored (a new study, the toy one): simulated, as before stored runs existed
    digest = hashlib.sha256(path(study.key).read_bytes()).hexdigest()
    found = verdict(study, runs, digest)
    if found:
        warnings.warn(f"{path(study.key)} does not reproduce: {found[0]}; simulating instead ({REFRESH} "
                      "rewrites it)", StoredRunsWarning, stacklevel=2)
        return None
    return runs


def verdict(study, runs: Mapping, digest: str) -> list[str]:
    """:func:`problems` of ``runs``, disk-memoized on ``study``'s sources and ``digest`` (the file's sha256)."""
    return memoized(f"stored-runs-check-{study.key}", lambda: problems(study, runs), scope=study.key,
                    stored=digest)


def update(keys) -> list[str]:
    """Write the stored runs of every study of ``keys`` that are missing or do not reproduce; one line each."""
    from perfstudies.studies import study as study_of

    lines = []
    for key in keys:
        study = study_of(key)
        runs = study.runs()  # the stored runs when they reproduce, else simulated by this code
        if not write_entry_unless_same(path(key), f"runs-{key}", sources_digest(key)[:24], runs):
            lines.append(f"{key}: {path(key)} reproduces; unchanged")
            continue
        lines.append(f"{key}: wrote {path(key)} ({sum(len(f) for frames in runs.values() for f in frames.values())} "
                     "replications)")
    return lines


def full_check(keys) -> list[str]:
    """Simulate every study of ``keys`` from scratch and compare all of it with the stored runs; one line each."""
    from perfstudies.studies import study as study_of

    lines = []
    for key in keys:
        study = study_of(key)
        fresh = simulate(study.seed, study.experiments(), study.cells())
        stored = load(key)
        lines.append(f"{key}: {'identical' if stored is not None and same(fresh, stored) else 'DIFFERENT'}")
    return lines


def main(argv=None) -> int:
    from perfstudies.studies import STUDIES

    parser = argparse.ArgumentParser(prog="python -m perfstudies.stored_runs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="simulate from scratch and compare every replication")
    parser.add_argument("studies", nargs="*", metavar="study",
                        help=f"studies to check (default: all of {', '.join(STUDIES)})")
    arguments = parser.parse_args(argv)
    unknown = [key for key in arguments.studies if key not in STUDIES]
    if unknown:
        parser.error(f"study {unknown[0]!r} is not allowed: allowed one of {', '.join(STUDIES)}")
    keys = arguments.studies or list(STUDIES)
    pages = not arguments.studies  # the book pages' sweeps too, unless studies are named
    if arguments.full:
        lines = full_check(keys) + stored_sweeps.full_check(keys, pages)
    else:
        lines = update(keys) + stored_sweeps.update(keys, pages)
    print("\n".join(lines))
    return 1 if any(line.endswith("DIFFERENT") for line in lines) else 0


if __name__ == "__main__":
    sys.exit(main())
