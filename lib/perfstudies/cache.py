"""A disk memo for expensive, deterministic results (comparisons, sweeps).

The book executes every notebook on every build, so a page is never stale;
this memo keeps rebuilds fast.  A result is stored under ``_build/cache`` with
a key made from the call's name and arguments *and* a digest of every source
file of the package and every data file: change any of them and the result is
computed again.  Delete ``_build/cache`` to start from scratch.
"""

import functools
import hashlib
import pickle
from collections.abc import Callable

from perfstudies.paths import BUILD, DATA, ROOT

CACHE = BUILD / "cache"


@functools.cache
def sources_digest() -> str:
    """sha256 over the package's Python sources and the data files."""
    digest = hashlib.sha256()
    files = sorted((ROOT / "lib").rglob("*.py")) + sorted(p for p in DATA.rglob("*") if p.is_file())
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def memoized(name: str, compute: Callable[[], object], **arguments) -> object:
    """Return ``compute()``, from the disk memo when the same call was made before.

    ``name`` and ``arguments`` (their ``repr``) identify the call; the result
    must be picklable.
    """
    key = hashlib.sha256(repr((name, sorted(arguments.items()), sources_digest())).encode()).hexdigest()[:24]
    path = CACHE / f"{name}-{key}.pickle"
    if path.exists():
        return pickle.loads(path.read_bytes())
    result = compute()
    CACHE.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(pickle.dumps(result))
    temporary.replace(path)
    return result
