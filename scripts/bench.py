"""The benchmark behind `make bench`: numbers reported in README, never asserted.

1. The loop unit (LU): a pure-Python ``s = 0; for i in range(10_000_000): s += i``,
   timed in this process before and after the widget runs (median), the yardstick
   of issue 14 (a widget re-run should take at most 0.3 LU).  Wall-clock is what a
   reader waits; the same ratio in CPU time is printed beside it because it moves
   less when other work shares the machine.
2. FIFONode against stock Ciw on a model whose queue grows long, and the same
   model on the engine.
3. Per study, the live panel's re-run (one setting's replications; the default's
   are cached per process) at the panel's default and at its slowest setting within
   the control ranges (median of repeats), in seconds and in LU, and the precision
   reached: the first headline metric's 95% half-width at the default, and the paired
   change of a one-step move of the main control with its half-width.  The slowest
   setting is searched: every control at each end of its range (each option of a
   choice) one at a time, then the slowest of those moves combined where the record
   accepts them; each candidate is timed once in CPU seconds (steadier than wall-clock on a
   shared machine) and the slowest timed again.
4. Per study, that run on stock ``ciw.Simulation`` against the engine
   (``perfstudies.engine.Simulation``, what ``run_ciw`` builds), interleaved,
   with a check that every simulation's records are identical: the ratio of the
   median wall-clock times, and of the least CPU times (steadier on a shared machine).
5. Per study, the full comparison (calibration and every full-scale prediction run),
   computed afresh rather than read from the book's disk memo.
6. A clean `make book` and a rebuild with nothing changed (skip with --no-book).
7. Per page with a live panel, a first Run All as on a fresh clone: the page's cells in a fresh
   kernel on an empty disk memo (``PERFSTUDIES_CACHE_DIR``; the stored runs and sweeps of
   ``data/runs`` are there, as in any clone), in wall-clock seconds and in CPU seconds of the
   kernel and every process it started (skip with --no-cold).

Results are printed as a Markdown table and written to _build/bench.json.
"""

import argparse
import contextlib
import json
import platform
import shutil
import statistics
import subprocess
import tempfile
import time
from unittest import mock

import ciw

from perfstudies import engine
from perfstudies.fifo import FIFONode
from perfstudies.panel import forget, run_panel
from perfstudies.paths import BUILD, ROOT
from perfstudies.runner import records_frame
from perfstudies.studies import STUDIES, study_module

WIDGET_REPEATS = 7
ENGINE_ROUNDS = 7
LOOP_COUNT = 10_000_000
#: Issue 14's target for a widget re-run, in loop units.
TARGET_LU = 0.3


def loop_seconds() -> tuple[float, float]:
    """One timing of the loop unit: (wall-clock, CPU) seconds."""
    started, cpu = time.perf_counter(), time.process_time()
    s = 0
    for i in range(LOOP_COUNT):
        s += i
    return time.perf_counter() - started, time.process_time() - cpu


def _long_queue_records(simulation_class, node_class):
    """An overloaded single server: arrivals at twice the service rate, so ~10,000 wait."""
    network = ciw.create_network(arrival_distributions=[ciw.dists.Exponential(2.0)],
                                 service_distributions=[ciw.dists.Exponential(1.0)],
                                 number_of_servers=[1])
    ciw.seed(1)
    simulation = simulation_class(network, node_class=node_class)
    started = time.perf_counter()
    simulation.simulate_until_max_time(10_000.0)
    return time.perf_counter() - started, records_frame(simulation)


def bench_fifo() -> dict:
    stock_s, stock = _long_queue_records(ciw.Simulation, None)
    fifo_s, fifo = _long_queue_records(ciw.Simulation, FIFONode)
    engine_s, on_engine = _long_queue_records(engine.Simulation, FIFONode)
    return {"stock_ciw_s": stock_s, "fifo_node_s": fifo_s, "fifo_node_engine_s": engine_s,
            "speedup": stock_s / fifo_s, "speedup_engine": stock_s / engine_s, "records": len(fifo),
            "identical_records": bool(stock.equals(fifo) and stock.equals(on_engine))}


@contextlib.contextmanager
def collected_records():
    """Collect the records of every simulation built inside the block (stock or engine)."""
    collected = []
    get_all_records = ciw.Simulation.get_all_records

    def collecting(simulation, *args, **kwargs):
        records = get_all_records(simulation, *args, **kwargs)
        collected.append(list(records))
        return records

    with mock.patch.object(ciw.Simulation, "get_all_records", collecting):
        yield collected


def _same(first: list, second: list) -> bool:
    """Record lists equal field by field, NaN equal to NaN."""
    def plain(records):
        return [[tuple("nan" if value != value else value for value in record) for record in run]
                for run in records]
    return plain(first) == plain(second)


def _timed_cpu(function) -> tuple[float, float]:
    """(wall-clock, CPU) seconds of one call."""
    started, cpu = time.perf_counter(), time.process_time()
    function()
    return time.perf_counter() - started, time.process_time() - cpu


def _table(result):
    """The panel table of what a study's ``widget_run`` returned (a table, or a traced run holding one)."""
    return getattr(result, "table", result)


def _rerun(module, params):
    """One re-run of ``params`` on the study's panel: its replications computed afresh, the default's cached."""
    def run():
        forget(module.PANEL, params)
        return module.widget_run(params)
    return run


def _candidates(panel) -> list:
    """The settings searched for the slowest: each control at each end (each option), then the slow ones combined."""
    default = panel.defaults()
    spec = panel.params.spec()
    moves = []
    for name in panel.controls:
        meta = spec[name]
        if meta["choices"] is not None:
            values = list(meta["choices"])
        elif meta["kind"] == "bool":
            values = [False, True]
        else:
            low, high = panel.ranges.get(name, (meta["low"], meta["high"]))
            values = [low, high]
        for value in values:
            if value != getattr(default, name):
                try:
                    moves.append(({name: value}, default.replace(**{name: value})))
                except (TypeError, ValueError):
                    continue
    return moves


def _slowest(module) -> tuple[dict, object, float]:
    """The slowest setting of a panel within its control ranges: (changes, record, CPU seconds of one re-run).

    Ranked by CPU time: on a shared machine the wall-clock ranking picked another setting on every run."""
    panel = module.PANEL
    timed = []
    for changes, params in _candidates(panel):
        try:
            timed.append((_timed_cpu(_rerun(module, params))[1], changes, params))
        except (TypeError, ValueError):
            continue
    default = panel.defaults()
    baseline = _timed_cpu(_rerun(module, default))[1]
    slow = {}
    for seconds, changes, _ in sorted(timed, key=lambda item: item[0], reverse=True):
        if seconds > baseline and not set(changes) & set(slow):
            try:
                default.replace(**slow, **changes)
                slow.update(changes)
            except (TypeError, ValueError):
                continue
    if len(slow) > 1:
        combined = default.replace(**slow)
        timed.append((_timed_cpu(_rerun(module, combined))[1], slow, combined))
    seconds, changes, params = max(timed, key=lambda item: item[0])
    return changes, params, seconds


def _precision(module) -> dict:
    """The first headline metric's half-width at the default, and a one-step move of the main control."""
    panel = module.PANEL
    default = panel.defaults()
    level = _table(module.widget_run(default)).iloc[0]
    meta = panel.params.spec()[panel.main]
    value = getattr(default, panel.main)
    step = meta["step"] or 1
    moved = None
    for candidate in (value - step, value + step):
        try:
            moved = default.replace(**{panel.main: type(value)(candidate)})
            break
        except (TypeError, ValueError):
            continue
    table = _table(module.widget_run(moved)).set_index("metric")
    through = table[(table["change"].abs() > table["change_half_width"])]
    return {"metric": level["label"], "mean": level["mean"], "half_width": level["half_width"],
            "replications": int(level["replications"]), "main": panel.main,
            "step": f"{value} -> {getattr(moved, panel.main)}",
            "changes": {row["label"]: [row["change"], row["change_half_width"]] for _, row in table.iterrows()},
            "shows_through": list(through["label"])}


def bench_widgets() -> dict:
    results = {}
    for key in STUDIES:
        try:
            module = study_module(key)
            module.widget_run()  # warm imports, caches and the default's replications
            default = module.PANEL.defaults()
            changes, slowest, _ = _slowest(module)
        except Exception as error:  # noqa: BLE001 - a study broken on this branch is reported, not fatal
            results[key] = {"error": repr(error)}
            continue
        result = {"slowest_setting": changes}
        for name, params in (("default", default), ("slowest", slowest)):
            times = [_timed_cpu(_rerun(module, params)) for _ in range(WIDGET_REPEATS)]
            walls = [wall for wall, _ in times]
            result[name] = {"median_s": statistics.median(walls), "max_s": max(walls),
                            "median_cpu_s": statistics.median(cpu for _, cpu in times)}
        result["precision"] = _precision(module)
        results[key] = result
    return results


def bench_engine() -> dict:
    """Each study's default widget run on stock Ciw and on the engine, interleaved."""
    results = {}
    for key in STUDIES:
        try:
            module = study_module(key)
            module.widget_run()
            run = _rerun(module, module.PANEL.defaults())
        except Exception as error:  # noqa: BLE001
            results[key] = {"error": repr(error)}
            continue
        stock_times, engine_times = [], []
        for _ in range(ENGINE_ROUNDS):
            with mock.patch.object(engine, "Simulation", ciw.Simulation), collected_records() as stock:
                stock_times.append(_timed_cpu(run))
            with collected_records() as fast:
                engine_times.append(_timed_cpu(run))
        stock_s = statistics.median(wall for wall, _ in stock_times)
        engine_s = statistics.median(wall for wall, _ in engine_times)
        stock_cpu = min(cpu for _, cpu in stock_times)
        engine_cpu = min(cpu for _, cpu in engine_times)
        results[key] = {"stock_ciw_s": stock_s, "engine_s": engine_s, "speedup": stock_s / engine_s,
                        "stock_ciw_cpu_min_s": stock_cpu, "engine_cpu_min_s": engine_cpu,
                        "speedup_cpu": stock_cpu / engine_cpu,
                        "simulations": len(stock), "records": sum(map(len, stock)),
                        "identical_records": bool(stock) and _same(stock, fast)}
    return results


def bench_comparisons() -> dict:
    results = {}
    for key in STUDIES:
        try:
            started = time.perf_counter()
            table = study_module(key).comparison()
        except Exception as error:  # noqa: BLE001
            results[key] = {"error": repr(error)}
            continue
        results[key] = {"seconds": time.perf_counter() - started, "cells": len(table)}
    return results


def _timed_build() -> tuple[float, int]:
    """Seconds `make book` takes, and how many notebooks it executed (myst-nb logs each one)."""
    started = time.perf_counter()
    build = subprocess.run(["make", "book"], cwd=ROOT, check=True, capture_output=True, text=True)
    return time.perf_counter() - started, (build.stdout + build.stderr).count(": Executing notebook")


def bench_book() -> dict:
    shutil.rmtree(BUILD, ignore_errors=True)
    clean, clean_executed = _timed_build()
    rebuild, rebuild_executed = _timed_build()
    return {"clean_build_s": clean, "clean_build_executed": clean_executed,
            "rebuild_nothing_changed_s": rebuild, "rebuild_nothing_changed_executed": rebuild_executed}


#: The pages a reader runs live (the chapters and the two theory pages with a panel).
LIVE_PAGES = ["book/intro.md", "book/queueing.md", *sorted(f"notebooks/{key}.md" for key in STUDIES)]
#: Most CPU seconds a page's first Run All should take on the project's machine (issue 31).
COLD_TARGET_CPU_S = 30.0


def _process_tree_cpu(pid: int) -> float:
    """CPU seconds of process ``pid`` and of every process it started (ended ones counted by their parents)."""
    import psutil

    root = psutil.Process(pid)
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
    return total


def bench_cold_pages() -> dict:
    """Each live page's first Run All on an empty disk memo, in a fresh kernel (section 7)."""
    import jupytext
    import nbclient

    results = {}
    for page in LIVE_PAGES:
        notebook = jupytext.read(ROOT / page)
        with tempfile.TemporaryDirectory(prefix="cold-memo-") as memo, \
                mock.patch.dict("os.environ", {"PERFSTUDIES_CACHE_DIR": memo}):
            client = nbclient.NotebookClient(notebook, timeout=900, kernel_name="python3",
                                             resources={"metadata": {"path": str((ROOT / page).parent)}})
            started = time.monotonic()
            with client.setup_kernel():
                pid = client.km.provisioner.process.pid
                for index, cell in enumerate(notebook.cells):
                    client.execute_cell(cell, index)
                wall = time.monotonic() - started
                cpu = _process_tree_cpu(pid)
        results[page] = {"wall_s": wall, "cpu_s": cpu}
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-book", action="store_true", help="skip the two book builds")
    parser.add_argument("--no-comparisons", action="store_true", help="skip the full comparisons")
    parser.add_argument("--no-cold", action="store_true", help="skip the live pages' first Run All")
    parser.add_argument("--panels-only", action="store_true",
                        help="the loop unit and the live panels only (no FIFO, engine, comparisons or book)")
    arguments = parser.parse_args()
    loops = [loop_seconds() for _ in range(3)]
    widgets = bench_widgets()
    engine_runs = {} if arguments.panels_only else bench_engine()
    loops += [loop_seconds() for _ in range(3)]
    loop_unit = statistics.median(wall for wall, _ in loops)
    loop_unit_cpu = statistics.median(cpu for _, cpu in loops)
    for widget in widgets.values():
        for name in ("default", "slowest"):
            if name in widget:
                widget[name]["loop_units"] = widget[name]["median_s"] / loop_unit
                widget[name]["loop_units_cpu"] = widget[name]["median_cpu_s"] / loop_unit_cpu
    results = {"machine": f"{platform.machine()}, {subprocess.getoutput('nproc')} cores",
               "loop_unit_s": loop_unit, "loop_unit_cpu_s": loop_unit_cpu, "loop_unit_timings_s": loops,
               "target_loop_units": TARGET_LU,
               "fifo": {} if arguments.panels_only else bench_fifo(), "widgets": widgets, "engine": engine_runs}
    if not (arguments.no_comparisons or arguments.panels_only):
        results["comparisons"] = bench_comparisons()
    if not (arguments.no_cold or arguments.panels_only):
        results["cold_pages"] = bench_cold_pages()

    print("| measurement | value |\n|---|---|")
    walls = [wall for wall, _ in loops]
    print(f"| loop unit (LU): `for i in range(10_000_000): s += i` | {loop_unit:.3f} s "
          f"(median of {len(loops)}, {min(walls):.3f}-{max(walls):.3f} s; CPU {loop_unit_cpu:.3f} s) |")
    fifo = results["fifo"]
    if fifo:
        print(f"| FIFONode vs stock Ciw, {fifo['records']} customers served from a queue ~10,000 long | "
              f"{fifo['stock_ciw_s']:.2f} s vs {fifo['fifo_node_s']:.2f} s: {fifo['speedup']:.1f}x; on the engine "
              f"{fifo['fifo_node_engine_s']:.2f} s: {fifo['speedup_engine']:.1f}x; identical records: "
              f"{fifo['identical_records']} |")
    for key, widget in widgets.items():
        if "error" in widget:
            print(f"| panel re-run, {key} | failed: {widget['error']} |")
            continue
        for name in ("default", "slowest"):
            timing = widget[name]
            verdict = "at or under" if timing["loop_units"] <= TARGET_LU else "over"
            where = "its default" if name == "default" else \
                "its slowest setting (" + ", ".join(f"{k} = {v!r}" for k, v in widget["slowest_setting"].items()) + ")"
            print(f"| panel re-run at {where} (median of {WIDGET_REPEATS}), {key} | {timing['median_s']:.3f} s = "
                  f"{timing['loop_units']:.2f} LU ({verdict} the {TARGET_LU} LU target; in CPU time "
                  f"{timing['loop_units_cpu']:.2f} LU) |")
        precision = widget["precision"]
        print(f"| panel precision, {key} | {precision['metric']} {precision['mean']:.4g} ± "
              f"{precision['half_width']:.2g} ({precision['replications']} replications); {precision['main']} "
              f"{precision['step']}: changes through the noise in {precision['shows_through'] or 'none'} |")
    for key, run in engine_runs.items():
        if "error" in run:
            print(f"| engine vs stock Ciw, {key} | failed: {run['error']} |")
            continue
        print(f"| engine vs stock Ciw, {key} default run ({run['simulations']} simulations, {run['records']} "
              f"records) | {run['stock_ciw_s']:.3f} s vs {run['engine_s']:.3f} s: {run['speedup']:.2f}x "
              f"(least CPU time of {ENGINE_ROUNDS}: {run['speedup_cpu']:.2f}x); "
              f"identical records: {run['identical_records']} |")
    for key, comparison in results.get("comparisons", {}).items():
        if "error" in comparison:
            print(f"| full comparison, {key} | failed: {comparison['error']} |")
            continue
        print(f"| full comparison, {key} ({comparison['cells']} cells) | {comparison['seconds']:.1f} s |")
    for page, run in results.get("cold_pages", {}).items():
        verdict = "at or under" if run["cpu_s"] <= COLD_TARGET_CPU_S else "over"
        print(f"| first Run All on an empty memo, {page} | {run['wall_s']:.1f} s wall, {run['cpu_s']:.1f} CPU-s of "
              f"the kernel and its workers ({verdict} the {COLD_TARGET_CPU_S:.0f} CPU-s target) |")
    if not (arguments.no_book or arguments.panels_only):
        results["book"] = bench_book()
        book = results["book"]
        print(f"| clean `make book` | {book['clean_build_s']:.0f} s ({book['clean_build_executed']} notebooks "
              "executed) |")
        print(f"| rebuild, nothing changed | {book['rebuild_nothing_changed_s']:.0f} s "
              f"({book['rebuild_nothing_changed_executed']} notebooks executed"
              f"{', a no-op' if book['rebuild_nothing_changed_executed'] == 0 else ''}) |")
    BUILD.mkdir(exist_ok=True)
    (BUILD / "bench.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
