"""Sphinx extension: the book's own stylesheet (``static/perfstudies.css``) and search from a file.

It makes every page fit its text column: long code lines wrap instead of being
cut at the right edge, charts larger than the column (or than a phone's screen)
scale down instead of scrolling sideways, reader-facing tables
(:mod:`perfstudies.tables`) are set compactly, and folded tables
(:func:`perfstudies.tables.fold`) show their summary as a clickable line.
``static/file_search.js`` lets the search page work when the book is opened as files
(``file://``): results without the snippets a browser will not let it read, and no console error.
"""

from pathlib import Path

STATIC = Path(__file__).resolve().with_name("static")


def _publish_static(app):
    app.config.html_static_path.append(str(STATIC))


def setup(app):
    app.connect("builder-inited", _publish_static)
    app.add_css_file("perfstudies.css", priority=900)  # after the theme's and sphinx-exercise's
    app.add_js_file("file_search.js")  # after documentation_options.js (priority 200), whose options it sets
    return {"parallel_read_safe": True, "parallel_write_safe": True}
