"""Sphinx extension: drop repeated inline scripts from a page's ``<head>``.

With Jupyter Book 1.0.4 on Sphinx 7.4, sphinx-togglebutton and sphinx-thebe
each add their inline configuration script twice; the second
``const THEBE_JS_URL`` then throws "Identifier has already been declared" in
every page's console.  Identical scripts (same file or body, same attributes)
are kept once, in their first position.
"""


def _drop_repeated_scripts(app, pagename, templatename, context, doctree):
    seen, unique = set(), []
    for script in context["script_files"]:
        attributes = getattr(script, "attributes", {})
        # the same inline script may come once with filename None and once with ""
        key = (str(getattr(script, "filename", script) or ""), tuple(sorted(attributes.items())))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    # in place: later handlers add scripts through the builder to this same list
    context["script_files"][:] = unique


def setup(app):
    # early: html-page-context stops at the first handler that returns a template
    app.connect("html-page-context", _drop_repeated_scripts, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
