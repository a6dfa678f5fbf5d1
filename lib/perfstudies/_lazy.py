"""Imports deferred until used: seconds of import time that serve no chapter.

``jsonschema`` (reached through Altair) imports ``rfc3987_syntax`` when it is
installed, to check the JSON Schema formats ``iri`` and ``iri-reference``; that
import builds a Lark Earley parser of RFC 3987's grammar, about 3 s of a
chapter's first import on this project's machine.  The Vega-Lite schema Altair
validates every chart against uses the formats ``uri``, ``uri-reference`` and
``color-hex`` only, so no chart ever calls that parser.  :func:`defer_rfc3987_syntax`
puts a stand-in module in its place whose ``is_valid_syntax`` (and every other
name) imports the real module on first use: an ``iri`` check still runs the
real parser, so no validation is dropped; it is only built when one is asked for.
"""

import importlib
import importlib.util
import sys
import types

#: The module deferred, and the name jsonschema imports from it.
MODULE = "rfc3987_syntax"


def _real() -> types.ModuleType:
    """The real module, imported now (the stand-in leaves ``sys.modules``)."""
    module = sys.modules.get(MODULE)
    if getattr(module, "perfstudies_stand_in", False):
        del sys.modules[MODULE]
    return importlib.import_module(MODULE)


def defer_rfc3987_syntax() -> bool:
    """Put the stand-in in ``sys.modules`` unless the module is imported already or not installed.

    Returns whether the stand-in is in place.
    """
    if MODULE in sys.modules:
        return bool(getattr(sys.modules[MODULE], "perfstudies_stand_in", False))
    spec = importlib.util.find_spec(MODULE)
    if spec is None:
        return False
    stand_in = types.ModuleType(MODULE, "Stand-in for rfc3987_syntax: imports it on first use (perfstudies._lazy).")
    stand_in.__spec__ = spec
    stand_in.perfstudies_stand_in = True

    def is_valid_syntax(term, value):
        return _real().is_valid_syntax(term, value)

    def other_name(name):
        if name.startswith("__"):  # the import system's questions (__path__ ...) are about the stand-in
            raise AttributeError(f"module {MODULE!r} has no attribute {name!r}")
        return getattr(_real(), name)

    stand_in.is_valid_syntax = is_valid_syntax
    stand_in.__getattr__ = other_name
    sys.modules[MODULE] = stand_in
    return True
