"""Scripts just work: a sweep called from a plain script without a ``__main__`` guard.

Issue 27: a fork server re-imports the calling script in every worker, so a
three-line script that runs a sweep failed with ``RuntimeError ...
bootstrapping phase`` and ``BrokenProcessPool``.  The sweep now sees the
missing guard and forks (or runs in-process), and says which in its progress line.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from tqdm import tqdm

from perfstudies import sweep
from perfstudies.sweep import available_cpus, start_method

MODEL = '''
from perfstudies.reference import QueueParams, queue_model

POINTS = [QueueParams(max_time=200.0, warmup=20.0), QueueParams(max_time=200.0, warmup=20.0, servers=2)]


def model(params, seed):
    return queue_model(params, seed)
'''

# the reproducer: a plain three-line script
PLAIN = '''
from perfstudies.sweep import run_sweep
from toymodel import POINTS, model
print(run_sweep(model, POINTS, replications=2, max_workers=2, progress=False).to_json())
'''

UNGUARDED = '''
from perfstudies.sweep import run_sweep, start_method
from toymodel import POINTS, model
print("method", start_method()[0])
print(run_sweep(model, POINTS, replications=2, max_workers=2, progress=False).to_json())
'''

GUARDED = '''
from perfstudies.sweep import run_sweep, start_method
from toymodel import POINTS, model

if __name__ == "__main__":
    print("method", start_method()[0])
    print(run_sweep(model, POINTS, replications=2, max_workers=2, progress=False).to_json())
'''

# the model defined in the script itself, no guard: only a fork (or the caller itself) can run it
OWN_MODEL = '''
from perfstudies.reference import QueueParams, queue_model
from perfstudies.sweep import run_sweep, start_method


def model(params, seed):
    return queue_model(params, seed)


print("method", start_method()[0])
print(run_sweep(model, [QueueParams(max_time=200.0, warmup=20.0), QueueParams(max_time=200.0, warmup=20.0, servers=2)],
                replications=2, max_workers=2, progress=False).to_json())
'''


def _run(folder: Path, script: str, *arguments: str) -> subprocess.CompletedProcess:
    (folder / "toymodel.py").write_text(MODEL)
    path = folder / "script.py"
    path.write_text(textwrap.dedent(script))
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(folder),
                                                                              os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, *arguments] if arguments else [sys.executable, str(path)]
    return subprocess.run(command, cwd=folder, env=environment, capture_output=True, text=True, timeout=240,
                          check=False)


def _lines(child: subprocess.CompletedProcess) -> list[str]:
    assert child.returncode == 0, child.stderr[-3000:]
    return child.stdout.strip().splitlines()


@pytest.fixture(scope="module")
def reference_rows(tmp_path_factory):
    return _lines(_run(tmp_path_factory.mktemp("guarded"), GUARDED))


def test_a_plain_script_without_a_main_guard_runs_a_sweep(tmp_path, reference_rows):
    if available_cpus() < 2:
        pytest.skip("one CPU: the sweep runs in-process anyway")
    assert _lines(_run(tmp_path, PLAIN)) == reference_rows[1:]  # the same rows as a guarded script's


def test_a_script_without_a_main_guard_forks(tmp_path, reference_rows):
    method, rows = _lines(_run(tmp_path, UNGUARDED))
    assert method == "method fork"
    assert rows == reference_rows[1]  # the same rows as a guarded script's


def test_a_script_with_a_guard_keeps_the_fork_server(reference_rows):
    assert reference_rows[0] == "method forkserver"


def test_a_script_that_defines_its_model_and_has_no_guard(tmp_path, reference_rows):
    method, rows = _lines(_run(tmp_path, OWN_MODEL))
    assert method == "method fork"
    assert rows == reference_rows[1]


def test_python_c_keeps_the_fork_server(tmp_path, reference_rows):
    method, rows = _lines(_run(tmp_path, "", "-c", textwrap.dedent(UNGUARDED)))
    assert method == "method forkserver"
    assert rows == reference_rows[1]


def test_an_unguarded_script_with_threads_runs_in_process_and_says_so(tmp_path, reference_rows):
    threaded = "import threading, time\nthreading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n" \
               + UNGUARDED.replace('print("method", start_method()[0])',
                                   'print("method", start_method())')
    method, rows = _lines(_run(tmp_path, threaded))
    assert method.startswith("method (None, ") and "without an if __name__ == '__main__' guard" in method
    assert rows == reference_rows[1]


def test_the_progress_line_names_how_the_sweep_runs(monkeypatch):
    described = []

    def recording_bar(iterable, description, enabled=True, **options):
        described.append(description)
        return tqdm(iterable, disable=True)  # a bar the sweep can update, showing nothing

    monkeypatch.setattr(sweep, "progress_bar", recording_bar)
    monkeypatch.setattr(sweep, "start_method", lambda: (None, "test.py calls the sweep without a guard"))
    points = [__import__("perfstudies.reference", fromlist=["QueueParams"]).QueueParams(max_time=50.0, warmup=5.0)]
    sweep.run_sweep(_constant, points, replications=2, max_workers=2, progress=False)
    assert described == ["sweep _constant (in-process: test.py calls the sweep without a guard)"]


def test_in_a_daemonic_process_the_sweep_runs_in_process(monkeypatch):
    import multiprocessing

    monkeypatch.setattr(multiprocessing.current_process(), "_config",
                        {**multiprocessing.current_process()._config, "daemon": True})
    method, reason = start_method()
    assert method is None and "daemonic" in reason


def test_under_pytest_the_fork_server_is_kept():
    if available_cpus() < 2:
        pytest.skip("one CPU")
    assert start_method() == ("forkserver", "")


def _constant(params, seed):
    return {"x": float(seed % 7)}
