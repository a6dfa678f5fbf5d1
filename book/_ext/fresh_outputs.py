"""Sphinx extension: re-execute every page when the model library or the data change.

Sphinx re-reads only the pages whose own source changed, but a chapter's outputs
also depend on ``lib/perfstudies`` and ``data/``.  The digest of those (the same
one the disk memo is keyed on) is kept in the build environment; when it
differs, every page is marked outdated, so ``make book`` never shows numbers of
older code.  With nothing changed the rebuild stays a no-op.
"""

from perfstudies.cache import sources_digest


def _outdated_when_sources_change(app, env, added, changed, removed):
    digest = sources_digest()
    if getattr(env, "perfstudies_sources_digest", None) == digest:
        return []
    env.perfstudies_sources_digest = digest
    return sorted(env.found_docs - added - removed)


def setup(app):
    app.connect("env-get-outdated", _outdated_when_sources_change)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
