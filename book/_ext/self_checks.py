"""Sphinx extension: the script that checks the chapters' self-check questions in the reader's browser.

The questions and their answers come from :mod:`perfstudies.self_checks` through each chapter's
*Check yourself* cell; ``static/self_checks.js`` (published by the presentation extension's static
folder) compares what a reader types with the answer, offline, within the stated tolerance.
"""


def setup(app):
    app.add_js_file("self_checks.js", priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
