"""The live book in a real browser: JupyterLab as `make lab` starts it, offline.

For the introduction and every chapter, headless Chromium (every non-localhost
request blocked) opens the page as a notebook (Jupytext; one JupyterLab tab opens
the pages one after the other, as a reader opens the next file), runs all cells and
checks what a reader sees: no raw MyST role or directive in the text
(jupyterlab-myst renders glossary terms, equation references, exercises and
folded solutions), every glued number and table showing its value (in a chapter,
the number its study's facts give, formatted as the book formats it; the lab's
contents manager, perfstudies.lab_glue, makes each role a lookup in the kernel), no error output, every Altair chart drew Vega marks
(JupyterLab's own Vega, no CDN), the live panel shows "running the model" while
its model re-runs after one slider step and then a changed chart or table, and
in a chapter, every control of the panel then moves to its maximum, its minimum and back (or
through every option) in the same kernel and the model re-runs at each value, and saving the page
without edits gives its file byte for byte.  The save goes to a copy (``_build/lab-saves/``) through
the same contents API a save uses, and autosave is off in the test's JupyterLab, so the chapters are
never written while the other worker builds the book from them.  One screenshot
per page lands in `_build/screenshots/lab/`.  The JupyterLab server, its
kernels and the browser are stopped even when a check fails.
"""

import difflib
import os
import re
import secrets
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

from conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, book_extension, only_localhost
from perfstudies import glued, lab_glue, studies
from perfstudies.context import BOOK_BUILD_ENV
from perfstudies.facts import checked_facts

# A page whose kernel sits idle (no CPU, no output) while cells are still to run fails in seconds,
# with the kernel's state, instead of at RUN_TIMEOUT (book/_ext/stuck_cells.py).
stuck_cells = book_extension("stuck_cells")

SCREENSHOTS = ROOT / "_build" / "screenshots" / "lab"
PAGES = ["book/intro.md", "book/queueing.md",
         *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").glob("*.md"))]
#: jupyterlab-myst logs this for every {term} role: the glossary is a page of the book, not of the
#: notebook, so the term shows as plain text (the book links it); every other console error counts.
OTHER_PAGES_TERM = "Cross reference target was not found: term-"
#: jupyterlab-myst 2.7.0 logs these when it draws a cell again while an inline result that is not plain
#: text (a glued table, perfstudies.lab_glue) is still attached to the cell's previous drawing; the table is
#: drawn anew (the glued-value check counts the tables shown).  Only for glued tables.
REDRAWN_TABLE = re.compile(r"(Could not dispose of renderer|Unable to detach expression renderer) for `" +
                           re.escape(lab_glue.BLOCK_LOOKUP).replace(re.escape("{content}"), '[^"]+') +
                           "`: node is not connected")
RUN_TIMEOUT = 900  # seconds for one page's cells, as for the book build
MOVES_TIMEOUT = 300  # seconds for every control of a chapter to move through its range (a few dozen re-runs)
# marks Vega draws as SVG paths, symbols, lines, rects or text inside a mark group
MARKS = "g[class*='mark-'] path, g[class*='mark-'] line, g[class*='mark-'] rect, g[class*='mark-'] text"
ALTAIR_FALLBACK = "renderer has not been properly enabled"
#: How each kernel lookup perfstudies.lab_glue writes for a glued value begins.
GLUED_PREFIX = lab_glue.LOOKUP.split(".glued.")[0]

pytestmark = pytest.mark.browser

NOTEBOOK_READY = """(path) => {
  const app = window.jupyterapp, w = app && app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.context.isReady || !w.sessionContext) return false;
  const kernel = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
}"""

RUN_ALL = """() => {
  window.__ranAll = null;
  jupyterapp.commands.execute('notebook:run-all-cells')
    .then(ok => { window.__ranAll = {ok: ok}; }, error => { window.__ranAll = {error: String(error)}; });
}"""

RAN_ALL = """() => {
  const w = jupyterapp.shell.currentWidget, kernel = w.sessionContext.session.kernel;
  return window.__ranAll !== null && kernel.status === 'idle';
}"""

# Where "Run All" is: the kernel's status, the cells run so far, the outputs so far, the cell running.
RUN_STATE = """() => {
  const w = jupyterapp.shell.currentWidget, kernel = w.sessionContext.session.kernel;
  let ran = 0, outputs = 0, running = null, code = 0;
  w.content.widgets.forEach((cell, index) => {
    if (cell.model.type !== 'code') return;
    code += 1;
    if (cell.model.executionCount !== null) ran += 1;
    outputs += cell.model.outputs.length;
    if (running === null && cell.node.querySelector('.jp-InputArea-prompt') &&
        cell.node.querySelector('.jp-InputArea-prompt').innerText.includes('*')) running = index;
  });
  return `kernel ${kernel.status}, ${ran} of ${code} code cells run, ${outputs} outputs, ` +
         `cell running: ${running === null ? 'none' : running}`;
}"""

# Every code cell's outputs, from the notebook model (what was produced, drawn or not).
OUTPUTS = """() => {
  const cells = [];
  jupyterapp.shell.currentWidget.content.widgets.forEach((cell, index) => {
    if (cell.model.type !== 'code') return;
    const outputs = [];
    for (let i = 0; i < cell.model.outputs.length; i++) outputs.push(cell.model.outputs.get(i).toJSON());
    cells.push({index: index, count: cell.model.executionCount, outputs: outputs});
  });
  return cells;
}"""

# The raw MyST markup a reader would see in the text cells (jupyterlab-myst renders it): every markdown
# cell scrolled into view so JupyterLab renders it, then its visible text (a cell's hidden source editor
# and folded solutions left out) searched for a role's name or a directive's option line, or for
# jupyterlab-myst's box around a directive or role it cannot render.
#: Saves the open notebook's model to another path, as docmanager:save does to its own (contents.save).
SAVE_COPY = """async (target) => {
  const content = jupyterapp.shell.currentWidget.context.model.toJSON();
  await jupyterapp.serviceManager.contents.save(target, {type: 'notebook', format: 'json', content});
}"""
SAVES = ROOT / "_build" / "lab-saves"
RAW_MARKUP = """async () => {
  const notebook = jupyterapp.shell.currentWidget.content, found = [];
  // a role's name (plain Markdown shows "{term}" before its text), or a directive's option line
  // or jupyterlab-myst's box for a directive or role it does not know ("only - Unknown Directive")
  const raw = /\\{(term|eq|numref|doc|ref|glue(:\\w+)?)\\}|^:(label|class):|Unknown (Directive|Role)/gm;
  for (let index = 0; index < notebook.widgets.length; index++) {
    const cell = notebook.widgets[index];
    if (cell.model.type !== 'markdown') continue;
    await notebook.scrollToItem(index, 'start');
    let seen = cell.node.innerText.match(raw);
    // jupyterlab-myst renders after the cell is attached: raw text counts only if it stays 2 s
    for (let wait = 0; seen && wait < 20; wait++) {
      await new Promise(done => setTimeout(done, 100));
      seen = cell.node.innerText.match(raw);
    }
    if (seen) found.push(`markdown cell ${index}: ${[...new Set(seen)].join(' ')}`);
  }
  return found;
}"""

# Every Markdown cell that quotes a glued value (perfstudies.lab_glue turned its roles into kernel lookups):
# scrolled into view with its folded solutions opened, its visible text once it shows every number
# jupyterlab-myst stored for it when "Run All" ran it and no placeholder (at most 5 s after it rendered),
# the role contents its source looks up and those stored results.
GLUED = """async (lookup) => {
  const notebook = jupyterapp.shell.currentWidget.content, found = [];
  const call = /glued\\.(text|block)\\("([^"]+)"\\)/g;
  for (let index = 0; index < notebook.widgets.length; index++) {
    const cell = notebook.widgets[index], source = cell.model.sharedModel.getSource();
    if (cell.model.type !== 'markdown' || !source.includes(lookup.prefix)) continue;
    await notebook.scrollToItem(index, 'start');
    cell.node.querySelectorAll('details').forEach(details => { details.open = true; });
    const results = {}, shown = [];
    for (const entry of cell.model.getMetadata('user_expressions') || []) {
      results[entry.expression] = entry.result;
      const plain = entry.result.data && entry.result.data['text/plain'];
      if (entry.expression.includes('.glued.text(') && plain) shown.push(plain);
    }
    let text = cell.node.innerText;
    for (let wait = 0; (text.includes(lookup.placeholder) || !shown.every(s => text.includes(s))) && wait < 50;
         wait++) {
      await new Promise(done => setTimeout(done, 100));
      text = cell.node.innerText;
    }
    found.push({index: index, text: text, results: results,
                tables: cell.node.querySelectorAll('.myst-RenderedExpression table').length,
                lookups: [...source.matchAll(call)].map(m => ({kind: m[1], content: m[2]}))});
  }
  return found;
}"""

# Records every text the panel's status line shows from now on.
WATCH_STATUS = """(panel) => {
  const status = panel.querySelector('.perfstudies-panel-status');
  window.__statuses = [status.innerText];
  new MutationObserver(() => window.__statuses.push(status.innerText))
    .observe(status, {subtree: true, childList: true, characterData: true});
}"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab started by `make lab` on a free localhost port with a token; stopped at the end."""
    port, token = _free_port(), secrets.token_hex(16)
    scratch = tmp_path_factory.mktemp("lab")
    log = (scratch / "lab.log").open("w")
    # A fresh workspace directory, so no tab from an earlier session reopens; settings with autosave off, so
    # no chapter file is written (the save check saves a copy).
    settings = scratch / "settings" / "@jupyterlab" / "docmanager-extension"
    settings.mkdir(parents=True)
    (settings / "plugin.jupyterlab-settings").write_text('{"autosave": false}')
    env = {**os.environ, "JUPYTERLAB_WORKSPACES_DIR": str(scratch / "workspaces"),
           "JUPYTERLAB_SETTINGS_DIR": str(scratch / "settings")}
    env.pop(BOOK_BUILD_ENV, None)  # a live JupyterLab, whatever this worker ran before (perfstudies.context)
    # Kernels on Unix sockets (book/_ext/ipc_kernels.py): no localhost ports to race for with the
    # kernels and servers of the other pytest worker.
    args = f"--port={port} --ServerApp.port_retries=0 --IdentityProvider.token={token} " \
           "--LabApp.expose_app_in_browser=True --KernelManager.transport=ipc"
    server = subprocess.Popen(["make", "--no-print-directory", "lab", f"LAB_ARGS={args}"], cwd=ROOT, env=env,
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            if server.poll() is not None:
                pytest.fail(f"`make lab` exited with {server.returncode}:\n{_tail(scratch / 'lab.log')}")
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not answer on {url} in 300 s:\n{_tail(scratch / 'lab.log')}")
                time.sleep(1)
        yield {"url": url, "token": token, "log": scratch / "lab.log", "pid": server.pid}
    finally:
        _stop_server(server, url, token)
        log.close()


def _stop_server(server: subprocess.Popen, url: str, token: str) -> None:
    """Shut JupyterLab down (it stops its kernels); then end what is left of the processes it started."""
    try:
        family = psutil.Process(server.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        family = []
    try:
        urllib.request.urlopen(urllib.request.Request(f"{url}/api/shutdown?token={token}", method="POST"),
                               timeout=10)
    except OSError:
        pass
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    for process in family:  # kernels run in sessions of their own, outside the process group
        try:
            process.terminate()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(family, timeout=10)


def _tail(path: Path, lines: int = 40) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium under Playwright; every request that is not to localhost is blocked and recorded."""
    playwright = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = chromium.new_context(viewport={"width": 1300, "height": 1000})
            context.blocked = []
            context.route("**/*", lambda route: only_localhost(route, context.blocked))
            yield context
        finally:
            chromium.close()


class _LabTab:
    """One JupyterLab tab for the module's pages, each opened in it as a reader opens the next file.

    Loading JupyterLab again for every page cost about 4 s a page (on an idle machine a fresh tab took
    8.5-9.1 s to show a chapter's notebook ready, the same tab opening the next chapter 4.8-5.0 s).  After a
    page the tab shuts its kernel down and closes its notebook; a page whose test could not do that gets a
    fresh tab for the next page."""

    def __init__(self, lab, browser):
        self._lab, self._browser, self._page, self._loaded = lab, browser, None, False

    def page(self):
        """The tab (a fresh one if the last page left none)."""
        if self._page is None:
            self._page, self._loaded = self._browser.new_page(), False
        return self._page

    def show(self, path: str) -> None:
        """Open ``path`` as a notebook in the tab and wait until its kernel is connected and idle."""
        page = self.page()
        if self._loaded:
            page.evaluate(OPEN, path)
        else:
            page.goto(f"{self._lab['url']}/lab/workspaces/test-{secrets.token_hex(4)}/tree/{path}"
                      f"?token={self._lab['token']}")
            self._loaded = True
        page.wait_for_function(NOTEBOOK_READY, arg=path, timeout=180_000, polling=500)

    def close_notebook(self) -> None:
        """Shut the shown notebook's kernel down and close it unsaved (autosave is off); else a fresh tab next."""
        try:
            self._page.evaluate(CLOSE)
        except Exception:  # the next page opens in a fresh tab
            self.close()

    def close(self) -> None:
        if self._page is not None:
            self._page.close()
            self._page = None


#: Opens a file in the tab as JupyterLab's file browser does (the default viewer: Jupytext's notebook).
OPEN = "(path) => { jupyterapp.commands.execute('docmanager:open', {path: path}); }"
#: Shuts the shown notebook's kernel down and closes the notebook without asking to save it.
CLOSE = """async () => {
  const w = jupyterapp.shell.currentWidget;
  await w.sessionContext.shutdown();
  w.dispose();
}"""


@pytest.fixture(scope="module")
def lab_tab(lab, browser):
    """The module's JupyterLab tab (:class:`_LabTab`), closed at the end."""
    tab = _LabTab(lab, browser)
    yield tab
    tab.close()


@pytest.mark.parametrize("path", PAGES)
def test_page_runs_draws_and_its_live_panel_redraws_offline(lab, lab_tab, browser, path):
    original, stat = (ROOT / path).read_bytes(), (ROOT / path).stat()
    problems = []

    def console(message):
        if message.type == "error" and not message.text.startswith(OTHER_PAGES_TERM) \
                and not REDRAWN_TABLE.fullmatch(message.text):
            problems.append(f"console error: {message.text}")

    def page_error(error):
        problems.append(f"page error: {error}")

    page = lab_tab.page()
    page.on("console", console)
    page.on("pageerror", page_error)
    try:
        lab_tab.show(path)
        page.evaluate("jupyterapp.shell.collapseLeft()")
        page.evaluate(RUN_ALL)
        _wait_until_all_cells_ran(page, lab)
        problems += _output_problems(page.evaluate(OUTPUTS))
        problems += _chart_problems(page)
        problems += _live_panel_problems(page)
        problems += _panel_fit_problems(page)
        if Path(path).parent.name == "notebooks":
            problems += _every_control_problems(page, Path(path).stem)
        problems += [f"raw MyST shown (jupyterlab-myst renders it): {where}" for where in page.evaluate(RAW_MARKUP)]
        problems += _glued_problems(page.evaluate(GLUED, {"prefix": GLUED_PREFIX, "placeholder": glued.PLACEHOLDER}),
                                    Path(path).stem if Path(path).parent.name == "notebooks" else None)
        copy = SAVES / f"{secrets.token_hex(4)}-{Path(path).name}"
        copy.parent.mkdir(parents=True, exist_ok=True)
        page.evaluate(SAVE_COPY, str(copy.relative_to(ROOT)))
        saved = copy.read_bytes()
        copy.unlink()
        if saved != original:
            problems.append("saving without edits changed the file:\n" + "".join(difflib.unified_diff(
                original.decode().splitlines(True), saved.decode().splitlines(True), "before", "after saving")))
    except stuck_cells.StuckCellError as error:  # the whole message: the cell and the kernel's state
        problems.append(f"{type(error).__name__}: {error}")
    except Exception as error:  # a timeout or a missing element: report it with what was found so far
        problems.append(f"{type(error).__name__}: {str(error).splitlines()[0]}")
    finally:
        try:  # the screenshot shows the first failed cell, or else the live panel
            for where in (".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']",
                          ".perfstudies-live-panel"):
                if page.locator(where).count():
                    page.locator(where).first.scroll_into_view_if_needed(timeout=10_000)
                    break
            page.screenshot(path=str(SCREENSHOTS / f"{path.replace('/', '__')}.png"))
        except Exception:
            pass
        page.remove_listener("console", console)
        page.remove_listener("pageerror", page_error)
        lab_tab.close_notebook()
        if (ROOT / path).read_bytes() != original or (ROOT / path).stat().st_mtime_ns != stat.st_mtime_ns:
            problems.append("the chapter's own file was written (autosave is off, the save check saves a copy)")
            (ROOT / path).write_bytes(original)  # never leave a rewritten page in the work tree
            os.utime(ROOT / path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # nor a newer one
    blocked = sorted(set(browser.blocked))
    assert not blocked, f"{path}: requests outside localhost: {blocked}"
    assert not problems, f"{path}:\n" + "\n".join(problems) + f"\n(JupyterLab's log: {lab['log']})"


def _expected_texts(key: str | None) -> dict[str, str]:
    """A chapter's ``{glue:text}`` contents (``key:format``) -> the text the book shows, from its study's
    own ``facts()`` (the computation its page glues), for every role the chapter quotes."""
    if key is None:
        return {}
    facts = checked_facts(key, studies.study(key).facts())
    contents = glued.ROLE.findall((ROOT / "notebooks" / f"{key}.md").read_text())
    return {content: glued.formatted(facts[glued.key_and_spec(content)[0]].value, glued.key_and_spec(content)[1])
            for content in contents if glued.key_and_spec(content)[0] in facts}


def _glued_problems(cells: list[dict], key: str | None) -> list[str]:
    """After "Run All", every glued number and table a page quotes shows its value: no placeholder, key or
    lookup left in the text, every lookup's result evaluated without error, and in a chapter each number's
    text the one its study's facts give, formatted as in the book, visible in its cell."""
    problems, expected, checked = [], _expected_texts(key), 0
    if not cells:
        return ["no Markdown cell quotes a glued value (perfstudies.lab_glue's lookups are missing)"]
    for cell in cells:
        where = f"markdown cell {cell['index']}"
        visible = [shown for shown in (glued.PLACEHOLDER, "{eval}", GLUED_PREFIX) if shown in cell["text"]]
        visible += sorted({lookup["content"] for lookup in cell["lookups"]
                           if glued.key_and_spec(lookup["content"])[0] in cell["text"]})
        if visible:
            problems.append(f"{where} shows {visible} after Run All")
        for lookup in cell["lookups"]:
            lookup_of = lab_glue.LOOKUP if lookup["kind"] == "text" else lab_glue.BLOCK_LOOKUP
            result = cell["results"].get(lookup_of.format(content=lookup["content"]))
            data = (result or {}).get("data", {})
            if not result or result.get("status") != "ok" or data.get("text/plain") == glued.PLACEHOLDER:
                problems.append(f"{where}: {lookup['content']} was not evaluated after Run All: {result}")
            elif lookup["kind"] == "block" and "text/html" not in data:
                problems.append(f"{where}: the table {lookup['content']} has no HTML: {data}")
            elif lookup["kind"] == "text" and lookup["content"] in expected:
                checked += 1
                if data["text/plain"] != expected[lookup["content"]] or expected[lookup["content"]] not in cell["text"]:
                    problems.append(f"{where}: {lookup['content']} shows {data['text/plain']!r}, the book "
                                    f"{expected[lookup['content']]!r}")
        blocks = sum(lookup["kind"] == "block" for lookup in cell["lookups"])
        if cell["tables"] < blocks:
            problems.append(f"{where} shows {cell['tables']} of its {blocks} glued tables after Run All")
    if key is not None and checked == 0:
        problems.append(f"{key}: no glued number checked against the study's facts")
    return problems


def _kernel_pids(lab) -> list[int]:
    """JupyterLab's kernel processes (started by its server, in sessions of their own)."""
    try:
        family = psutil.Process(lab["pid"]).children(recursive=True)
    except psutil.Error:
        return []
    pids = []
    for process in family:
        try:
            if "ipykernel_launcher" in " ".join(process.cmdline()):
                pids.append(process.pid)
        except psutil.Error:
            pass
    return pids


def _wait_until_all_cells_ran(page, lab) -> None:
    """Wait for "Run All" to finish: at most RUN_TIMEOUT, and at most stuck_cells.STUCK_AFTER_S without the
    kernel using CPU or a cell running or producing output (StuckCellError with the page's and kernel's state)."""
    deadline = time.monotonic() + RUN_TIMEOUT
    watch = stuck_cells.Watch(_kernel_pids(lab))
    state = None
    while not page.evaluate(RAN_ALL):
        now_state = page.evaluate(RUN_STATE)
        if now_state != state:
            state = now_state
            watch.message(state)
        watch.pids = _kernel_pids(lab) or watch.pids
        if watch.idle_seconds() >= stuck_cells.STUCK_AFTER_S:
            raise stuck_cells.StuckCellError(stuck_cells.stuck_message(
                "a cell of 'Run All'", None, watch, f" JupyterLab says: {state}."))
        if time.monotonic() > deadline:
            raise TimeoutError(f"'Run All' did not finish in {RUN_TIMEOUT} s: {state}")
        page.wait_for_timeout(1000)


def _output_problems(cells: list[dict]) -> list[str]:
    problems = []
    for cell in cells:
        where = f"cell {cell['index']}"
        for output in cell["outputs"]:
            if output["output_type"] == "error":
                problems.append(f"{where} raised {output['ename']}: {output['evalue']}")
            elif output["output_type"] == "stream" and output["name"] == "stderr":
                text = "".join(output["text"]) if isinstance(output["text"], list) else output["text"]
                problems.append(f"{where} wrote to stderr: {text[:500]}")
            elif ALTAIR_FALLBACK in str(output.get("data", {}).get("text/plain", "")) and \
                    "application/vnd.vegalite.v5+json" not in output.get("data", {}):
                problems.append(f"{where} shows Altair's fallback text instead of a chart")
    not_run = [str(cell["index"]) for cell in cells if cell["count"] is None]
    if not_run:  # "Run All" stops at the first cell that raises
        problems.append(f"cells {', '.join(not_run)} did not run")
    return problems


def _chart_problems(page) -> list[str]:
    problems = []
    text = page.locator(".jp-Notebook").inner_text()
    for sign in ("Error loading script", "Chart failed to draw", "Javascript Error"):
        if sign in text:
            problems.append(f"the page shows {sign!r}")
    charts = page.locator(".jp-Notebook .jp-RenderedVegaLite, .jp-Notebook .jp-RenderedVega")
    if charts.count() == 0:
        problems.append("no chart drawn")
    for index in range(charts.count()):
        chart = charts.nth(index)
        chart.scroll_into_view_if_needed()
        try:
            chart.locator(MARKS).first.wait_for(state="attached", timeout=60_000)
        except Exception:
            problems.append(f"chart {index + 1} of {charts.count()} drew no marks: {chart.inner_text()[:300]!r}")
    return problems


def _live_panel_problems(page) -> list[str]:
    panels = page.locator(".perfstudies-live-panel")
    if panels.count() == 0:
        return ["no live panel"]
    panel = panels.first
    panel.scroll_into_view_if_needed()
    status = panel.locator(".perfstudies-panel-status")
    if "ran in" not in status.inner_text():
        return [f"the live panel did not run its model: {status.inner_text()!r}"]
    output = panel.locator(".perfstudies-panel-output")
    before = output.inner_html()
    page.evaluate(WATCH_STATUS, panel.element_handle())
    handles = panel.locator(".widget-slider .noUi-handle")
    if handles.count():  # one keyboard step of the first slider, as a reader would move it
        handle = handles.first
        control = handle.locator("xpath=ancestor::div[contains(@class, 'widget-slider')][1]")
        at_max = float(handle.get_attribute("aria-valuenow")) >= float(handle.get_attribute("aria-valuemax"))
        handle.focus()
        handle.press("ArrowLeft" if at_max else "ArrowRight")
    else:  # no slider: the next option of the first dropdown
        control = panel.locator(".widget-dropdown").first
        select = control.locator("select")
        options = select.locator("option").all_inner_texts()
        select.select_option(index=(options.index(select.evaluate("s => s.selectedOptions[0].text")) + 1)
                             % len(options))
    label = control.evaluate("c => c.previousElementSibling ? c.previousElementSibling.innerText : '?'")
    page.wait_for_function("""(panel) => {
        const text = panel.querySelector('.perfstudies-panel-status').innerText;
        return /re-ran in|Invalid input|model failed/.test(text);
      }""", arg=panel.element_handle(), timeout=120_000, polling=200)
    problems = []
    move = f"one step of the control {label.strip()!r}"
    after = status.inner_text()
    if "re-ran in" not in after:
        problems.append(f"after {move} the panel says {after!r}")
    if not any("running the model" in text for text in page.evaluate("window.__statuses")):
        problems.append(f"the panel never said 'running the model' after {move}")
    if panel.locator(".jp-RenderedVegaLite").count():
        panel.locator(MARKS).first.wait_for(state="attached", timeout=60_000)
    page.wait_for_timeout(500)  # vega-embed finishes drawing
    if output.inner_html() == before:
        problems.append(f"{move} did not change the panel's chart or table")
    return problems


#: The live panel's widths: its content's (scrollWidth), its box's, and the notebook cell's it sits in.
PANEL_WIDTHS = """() => {
  const panel = document.querySelector('.perfstudies-live-panel');
  const cell = panel.closest('.jp-OutputArea-output') || panel.parentElement;
  return {scrollWidth: panel.scrollWidth, clientWidth: panel.clientWidth,
          width: panel.getBoundingClientRect().width, cell: cell.clientWidth};
}"""


def _panel_fit_problems(page) -> list[str]:
    """At a phone's 420 px and a desktop's 1300 px, the live panel fits its cell without sideways scrolling."""
    problems = []
    for width in (420, 1300):
        page.set_viewport_size({"width": width, "height": 1000})
        page.wait_for_timeout(500)
        measured = page.evaluate(PANEL_WIDTHS)
        if measured["scrollWidth"] > measured["clientWidth"] + 1 or measured["width"] > measured["cell"] + 1:
            problems.append(f"at {width} px the live panel scrolls sideways: {measured['scrollWidth']} px of "
                            f"content in {measured['clientWidth']} px, the panel {measured['width']:.0f} px in a "
                            f"{measured['cell']} px cell")
    return problems


#: Run in the page's kernel after "Run All": moves every control of every live panel to its maximum, its
#: minimum and back (or through every option), as a reader does, and prints how many controls moved, how
#: many panels there are, each failure a panel's status line reported, and every status line at the end.
MOVE_EVERY_CONTROL = """
import ipywidgets as widgets
from ipywidgets.widgets.widget import _instances  # every live widget of this kernel

statuses = [w for w in list(_instances.values())
            if isinstance(w, widgets.HTML) and "perfstudies-panel-status" in w._dom_classes]
moved, failures = [], []
for control in list(_instances.values()):
    if isinstance(control, (widgets.IntSlider, widgets.FloatSlider)):
        values = [control.max, control.min]
    elif isinstance(control, widgets.Checkbox):
        values = [not control.value]
    elif isinstance(control, (widgets.Dropdown, widgets.ToggleButtons, widgets.RadioButtons)):
        values = list(control._options_values)
    else:
        continue
    default = control.value
    for value in [*values, default]:
        control.value = value
        failures += [f"{control.tooltip} = {value!r}: {s.value}" for s in statuses if "model failed" in s.value]
    moved.append(control.tooltip)
print(len(moved), len(statuses), repr(failures), repr([s.value for s in statuses]), sep="\\n")
"""

#: Executes code in the page's kernel (not in a cell, so the saved page is unchanged); its printed text
#: and any error land in ``window.__moved``.
EXECUTE_IN_KERNEL = """(code) => {
  window.__moved = null;
  const future = jupyterapp.shell.currentWidget.sessionContext.session.kernel.requestExecute(
    {code: code, silent: false, store_history: false});
  let text = '', error = null;
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') text += msg.content.text;
    if (msg.header.msg_type === 'error') error = `${msg.content.ename}: ${msg.content.evalue}`;
  };
  future.done.then(() => { window.__moved = {text: text, error: error}; },
                   (reason) => { window.__moved = {text: text, error: String(reason)}; });
}"""


def _every_control_problems(page, key: str) -> list[str]:
    """Every control of the chapter's live panels moved through its range in the page's own kernel: the
    model must not fail at any value a control offers, and each panel's status must end on "re-ran"."""
    page.evaluate(EXECUTE_IN_KERNEL, MOVE_EVERY_CONTROL)
    page.wait_for_function("() => window.__moved !== null", timeout=MOVES_TIMEOUT * 1000, polling=500)
    moved = page.evaluate("window.__moved")
    if moved["error"]:
        return [f"moving every control raised {moved['error']}"]
    count, panels, failures, statuses = moved["text"].rstrip("\n").split("\n")
    problems = []
    if int(count) < 4:
        problems.append(f"{key}: only {count} controls found")
    if int(panels) < 1:
        problems.append(f"{key}: no live panel")
    if failures != "[]":
        problems.append(f"{key}: the model failed at values a control offers: {failures}")
    if "Invalid input" in statuses or statuses.count("re-ran in") != int(panels):
        problems.append(f"{key}: after every control moved and came back, the panels say {statuses}")
    return problems
