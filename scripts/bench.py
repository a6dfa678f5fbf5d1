"""The benchmark behind `make bench`: numbers reported in README, never asserted.

1. FIFONode against stock Ciw on a model whose queue grows long.
2. Per study, the default run one widget change triggers (median of repeats).
3. Per study, the full comparison (calibration and every full-scale prediction run),
   computed afresh rather than read from the book's disk memo.
4. A clean `make book` and a rebuild with nothing changed (skip with --no-book).

Results are printed as a Markdown table and written to _build/bench.json.
"""

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import time

import ciw

from perfstudies.fifo import FIFONode
from perfstudies.paths import BUILD, ROOT
from perfstudies.runner import records_frame
from perfstudies.studies import STUDIES, study_module

WIDGET_REPEATS = 7


def _long_queue_records(node_class):
    """An overloaded single server: arrivals at twice the service rate, so ~10,000 wait."""
    network = ciw.create_network(arrival_distributions=[ciw.dists.Exponential(2.0)],
                                 service_distributions=[ciw.dists.Exponential(1.0)],
                                 number_of_servers=[1])
    ciw.seed(1)
    simulation = ciw.Simulation(network, node_class=node_class)
    started = time.perf_counter()
    simulation.simulate_until_max_time(10_000.0)
    return time.perf_counter() - started, records_frame(simulation)


def bench_fifo() -> dict:
    stock_s, stock = _long_queue_records(None)
    fifo_s, fifo = _long_queue_records(FIFONode)
    return {"stock_ciw_s": stock_s, "fifo_node_s": fifo_s, "speedup": stock_s / fifo_s,
            "records": len(fifo), "identical_records": bool(stock.equals(fifo))}


def bench_widgets() -> dict:
    results = {}
    for key in STUDIES:
        run = study_module(key).widget_run
        run()  # warm imports and caches
        times = []
        for _ in range(WIDGET_REPEATS):
            started = time.perf_counter()
            run()
            times.append(time.perf_counter() - started)
        results[key] = {"median_s": statistics.median(times), "max_s": max(times)}
    return results


def bench_comparisons() -> dict:
    results = {}
    for key in STUDIES:
        started = time.perf_counter()
        table = study_module(key).comparison()
        results[key] = {"seconds": time.perf_counter() - started, "cells": len(table)}
    return results


def _timed(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def bench_book() -> dict:
    shutil.rmtree(BUILD, ignore_errors=True)
    clean = _timed(["make", "book"])
    rebuild = _timed(["make", "book"])
    return {"clean_build_s": clean, "rebuild_nothing_changed_s": rebuild}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-book", action="store_true", help="skip the two book builds")
    arguments = parser.parse_args()
    results = {"machine": f"{platform.machine()}, {subprocess.getoutput('nproc')} cores",
               "fifo": bench_fifo(), "widgets": bench_widgets(),
               "comparisons": bench_comparisons()}
    print("| measurement | value |\n|---|---|")
    fifo = results["fifo"]
    print(f"| FIFONode vs stock Ciw, {fifo['records']} customers | {fifo['stock_ciw_s']:.2f} s vs "
          f"{fifo['fifo_node_s']:.2f} s: {fifo['speedup']:.1f}x, identical records: {fifo['identical_records']} |")
    for key, widget in results["widgets"].items():
        print(f"| widget re-run, {key} | median {widget['median_s']:.3f} s (max {widget['max_s']:.3f} s) |")
    for key, comparison in results["comparisons"].items():
        print(f"| full comparison, {key} ({comparison['cells']} cells) | {comparison['seconds']:.1f} s |")
    if not arguments.no_book:
        results["book"] = bench_book()
        print(f"| clean `make book` | {results['book']['clean_build_s']:.0f} s |")
        print(f"| rebuild, nothing changed | {results['book']['rebuild_nothing_changed_s']:.0f} s |")
    BUILD.mkdir(exist_ok=True)
    (BUILD / "bench.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
