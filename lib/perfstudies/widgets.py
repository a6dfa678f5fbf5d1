"""ipywidgets controls built from parameter records, and a live re-run panel.

:func:`controls` turns the fields of a :class:`~perfstudies.params.Params`
record into sliders, dropdowns and checkboxes whose ranges are exactly the
ranges the record accepts, so a widget cannot offer an invalid value.
:func:`live_panel` wires the controls to a model: every change builds a new
record, re-runs the model and redraws its output.  While the model runs the
controls are disabled and the status line says so; a combination the record
refuses, or a model that fails, is reported in words and the output is
cleared, so no stale chart is ever presented as the answer to the new values.

In the static book (:func:`perfstudies.context.building_book`) there is no
kernel behind the controls, so the panel is built as a snapshot: controls
disabled, a note saying to run the page live, and no timing.
"""

import html
import itertools
import time
from collections.abc import Callable, Mapping, Sequence

import ipywidgets as widgets
from IPython.display import display

from perfstudies.context import building_book
from perfstudies.panel import Panel, panel_view, run_panel
from perfstudies.params import Params, validate_value

LABEL_STYLE = {"description_width": "14em"}
#: Every control and label: the column's width up to 34em, so a phone's narrow column (388 px at a
#: 420 px screen) holds the panel without sideways scrolling, and a wide one gets no overlong sliders.
LAYOUT = widgets.Layout(width="100%", max_width="34em")
#: The panel's own style rules, shipped inside the panel (JupyterLab has no book stylesheet): nothing in
#: it is wider than the column; tables wrap their cells, charts scale down as a whole.
PANEL_STYLE = ("<style>"
               ".perfstudies-live-panel { max-width: 100%; box-sizing: border-box; }"
               ".perfstudies-live-panel .widget-inline-hbox, .perfstudies-live-panel .widget-html, "
               ".perfstudies-live-panel .jupyter-widgets { max-width: 100%; min-width: 0; }"
               ".perfstudies-live-panel > .jupyter-widgets, .perfstudies-live-panel .widget-box > .jupyter-widgets "
               "{ margin-left: 0 !important; margin-right: 0 !important; }"
               ".perfstudies-live-panel table { max-width: 100%; table-layout: auto; }"
               ".perfstudies-live-panel th, .perfstudies-live-panel td, .perfstudies-live-panel caption "
               "{ white-space: normal; overflow-wrap: anywhere; }"
               ".perfstudies-live-panel th { overflow-wrap: break-word; }"
               ".perfstudies-live-panel .vega-embed { display: block; width: 100%; }"
               ".perfstudies-live-panel svg, .perfstudies-live-panel canvas { max-width: 100%; height: auto; }"
               "</style>")
#: DOM classes of the panel and its parts (the browser tests find them by these).
PANEL_CLASS = "perfstudies-live-panel"
STATUS_CLASS = "perfstudies-panel-status"
OUTPUT_CLASS = "perfstudies-panel-output"
#: The status line's texts: what the browser tests and readers look for.
RUNNING = "running the model"
SNAPSHOT = "run this page live to move these controls"
# A turning ring drawn by the browser itself (SVG animation: no font, no script).
SPINNER = ("<svg width='14' height='14' viewBox='0 0 50 50' style='vertical-align: -2px' aria-hidden='true'>"
           "<circle cx='25' cy='25' r='20' fill='none' stroke='currentColor' stroke-width='6' "
           "stroke-dasharray='90 40'><animateTransform attributeName='transform' type='rotate' "
           "from='0 25 25' to='360 25 25' dur='1s' repeatCount='indefinite'/></circle></svg>")
_panel_ids = itertools.count()


def controls(params_cls: type[Params], names: Sequence[str], defaults: Params | None = None,
             ranges: Mapping[str, tuple] | None = None) -> dict[str, widgets.Widget]:
    """One widget per field in ``names`` of ``params_cls``.

    Parameters
    ----------
    params_cls : type
        The parameter record class.
    names : sequence of str
        Fields to expose, in display order.
    defaults : Params, optional
        Initial values (the class defaults otherwise).
    ranges : mapping, optional
        ``{field: (low, high)}`` narrower slider ranges; each must lie inside
        the field's allowed range, and is required for unbounded numbers.
    """
    _check_record_arguments(params_cls, names, defaults, ranges)
    spec = params_cls.spec()
    defaults = defaults or params_cls()
    ranges = dict(ranges or {})
    unknown = [name for name in list(names) + list(ranges) if name not in spec]
    if unknown:
        raise ValueError(f"names = {unknown} are not fields of {params_cls.__name__}: allowed {list(spec)}")
    return {name: _widget(params_cls.__name__, name, spec[name], getattr(defaults, name), ranges.get(name))
            for name in names}


def _check_record_arguments(params_cls, names, defaults, ranges) -> None:
    if not (isinstance(params_cls, type) and issubclass(params_cls, Params)):
        raise TypeError(f"params_cls = {params_cls!r} is not allowed: a Params subclass")
    if isinstance(names, str) or not isinstance(names, Sequence) or not names \
            or not all(isinstance(name, str) for name in names):
        raise TypeError(f"names = {names!r} is not allowed: a non-empty sequence of field names (str)")
    if len(set(names)) != len(names):
        raise ValueError(f"names = {list(names)!r} is not allowed: each field at most once")
    if defaults is not None and not isinstance(defaults, params_cls):
        raise TypeError(f"defaults = {defaults!r} is not allowed: None or a {params_cls.__name__} record")
    if ranges is not None and not isinstance(ranges, Mapping):
        raise TypeError(f"ranges = {ranges!r} is not allowed: None or a mapping {{field: (low, high)}}")


def _label(meta: dict, name: str) -> str:
    label = meta["doc"] or name
    return f"{label} ({meta['unit']})" if meta["unit"] and meta["kind"] in ("int", "float") else label


def _widget(owner: str, name: str, meta: dict, value, span: tuple | None) -> widgets.Widget:
    common = dict(value=value, description=meta["doc"] or name, style=LABEL_STYLE, layout=LAYOUT)
    if meta["choices"] is not None:
        return widgets.Dropdown(options=list(meta["choices"]), **common)
    if meta["kind"] == "bool":
        return widgets.Checkbox(indent=False, **common)
    if meta["kind"] == "str":
        return widgets.Text(**common)
    if span is not None:
        if not (isinstance(span, tuple) and len(span) == 2):
            raise ValueError(f"ranges[{name!r}] = {span!r} is not allowed: a (low, high) pair")
        for end in span:
            try:
                validate_value(owner, name, end, meta)
            except ValueError as error:
                raise ValueError(f"ranges[{name!r}] = {span!r} is not allowed: {error}") from None
        low, high = span
        if not low < high:
            raise ValueError(f"ranges[{name!r}] = {span!r} is not allowed: low < high")
    else:
        low, high = meta["low"], meta["high"]
        if low is None or high is None:
            raise ValueError(f"ranges[{name!r}] is required: {owner}.{name} has an unbounded range")
    step = meta["step"] or (1 if meta["kind"] == "int" else (high - low) / 100)
    if span is None and meta["low_open"]:
        low += step
    if span is None and meta["high_open"]:
        high -= step
    common["description"] = _label(meta, name)
    if meta["kind"] == "int":
        return widgets.IntSlider(min=int(low), max=int(high), step=int(step), continuous_update=False, **common)
    return widgets.FloatSlider(min=low, max=high, step=step, continuous_update=False, **common)


class LivePanel(widgets.VBox):
    """The box :func:`live_panel` returns; ``controls``, ``status`` and ``output`` name its parts."""

    def __init__(self, boxes: dict[str, widgets.Widget], status: widgets.HTML, output: widgets.Output,
                 rows: list[widgets.Widget]):
        super().__init__(rows)
        self.controls, self.status, self.output = boxes, status, output
        self.add_class(PANEL_CLASS)


def live_panel(params_cls: type[Params], names: Sequence[str], run: Callable[[Params], object],
               render: Callable[[object], object], defaults: Params | None = None,
               ranges: Mapping[str, tuple] | None = None,
               check: Callable[[Params], object] | None = None) -> widgets.VBox:
    """Controls plus an output area that re-runs ``run`` and shows ``render(result)``.

    Parameters
    ----------
    params_cls, names, defaults, ranges
        As for :func:`controls`; ``defaults`` also supplies every field that
        has no control.
    run : callable
        ``run(params) -> result``: the model, called with a validated record.
    render : callable
        ``render(result) -> object`` to display (an Altair chart, a table...).
    check : callable, optional
        ``check(params)``: refuses (ValueError) a setting the record accepts but
        the model cannot run; reported like a value the record refuses.

    Returns
    -------
    LivePanel
        A ``VBox``: one full-width label above each control, a status line and
        the output.  Every change disables the controls and says "running the
        model" until the new output is drawn, then reports how long the model
        took; values the record refuses, or a model or render that raises,
        are reported in words in the status line and the output is cleared.
        While the static book builds, the panel is a snapshot of the defaults:
        controls disabled and a note to run the page live, no timing.
    """
    for argument, value in (("run", run), ("render", render)):
        if not callable(value):
            raise TypeError(f"{argument} = {value!r} is not allowed: a callable")
    if check is not None and not callable(check):
        raise TypeError(f"check = {check!r} is not allowed: None or a callable")
    boxes = controls(params_cls, names, defaults, ranges)
    defaults = defaults or params_cls()
    spec = params_cls.spec()
    status = widgets.HTML()
    status.add_class(STATUS_CLASS)
    output = widgets.Output()
    output.add_class(OUTPUT_CLASS)
    # While the model runs the old output is dimmed by a style rule that lives in
    # the "running" status text only, so it goes away with that text.
    output_id = f"{OUTPUT_CLASS}-{next(_panel_ids)}"
    output.add_class(output_id)
    dim = f"<style>.{output_id} {{ opacity: 0.35; transition: opacity 0.2s; }}</style>"
    snapshot = building_book()
    rows = []
    for name, box in boxes.items():
        label = _label(spec[name], name)
        # The label goes above its control at the panel's full width and wraps,
        # so it is never cut; the control keeps it as its tooltip.
        box.description, box.tooltip = "", label
        rows += [widgets.HTML(f"<div style='white-space: normal; line-height: 1.3; padding-top: 0.35em'>"
                              f"{html.escape(label)}</div>", layout=LAYOUT), box]
        box.disabled = snapshot

    def say(text: str, color: str = "#555") -> None:
        status.value = f"<div style='white-space: normal; line-height: 1.3; color: {color}'>{text}</div>"

    def show(params: Params) -> float:
        started = time.perf_counter()
        result = run(params)
        shown = render(result)
        # a render may return several things to show, one under the other (a table, then a chart)
        parts = list(shown) if isinstance(shown, tuple) else [shown]
        bundles = [_mime_bundle(part) for part in parts]
        elapsed = time.perf_counter() - started
        output.clear_output(wait=True)
        with output:
            for part, bundle in zip(parts, bundles):
                if bundle is None:
                    display(part)
                else:
                    display(bundle[0], metadata=bundle[1], raw=True)
        return elapsed

    def rerun(change=None) -> None:
        for box in boxes.values():
            box.disabled = True
        changed = "" if change is None else f" for {html.escape(_field_of(boxes, change['owner']))} = " \
                                             f"{html.escape(repr(change['new']))}"
        say(f"{dim}{SPINNER} {RUNNING}{changed}&hellip; (the output below is from the previous values)",
            "#8a5a00")
        try:
            try:
                params = defaults.replace(**{name: box.value for name, box in boxes.items()})
                if check is not None:
                    check(params)
            except (ValueError, TypeError) as error:
                output.clear_output()
                say(f"<b>Invalid input</b>, so the model did not run: {html.escape(str(error))}. "
                    "Move a control back to see a result.", "#b00020")
                return
            try:
                elapsed = show(params)
            except Exception as error:  # the reader sees any failure in words, never a traceback
                output.clear_output()
                say(f"<b>The model failed</b> at these values ({html.escape(type(error).__name__)}: "
                    f"{html.escape(str(error))}), so there is no result to show. Move a control to try "
                    "other values.", "#b00020")
                return
            say(f"model {'ran' if change is None else 're-ran'} in {elapsed:.2f} s")
        finally:
            for box in boxes.values():
                box.disabled = False

    if snapshot:
        show(defaults.replace(**{name: box.value for name, box in boxes.items()}))
        say(f"<b>A snapshot</b> of the model at the values shown: this static page has no Python "
            f"behind it, so {SNAPSHOT} (open it in JupyterLab with <code>make lab</code>).")
    else:
        for box in boxes.values():
            box.observe(rerun, names="value")
        rerun()
    return LivePanel(boxes, status, output, [*rows, status, output, widgets.HTML(PANEL_STYLE)])


def panel_widget(panel: Panel, run: Callable[[Params], object] | None = None,
                 render: Callable[[object], object] | None = None) -> widgets.VBox:
    """The live panel of a declared :class:`~perfstudies.panel.Panel`: its controls, ranges and default.

    ``run`` defaults to :func:`perfstudies.panel.run_panel` of ``panel`` (a
    study passes its ``widget_run`` when it returns more, such as a trace) and
    ``render`` to :func:`perfstudies.panel.panel_view` (a study passes its
    ``widget_view`` to add theory or a chart); a render may return a tuple of
    things to show one under the other.
    """
    if not isinstance(panel, Panel):
        raise TypeError(f"panel = {panel!r} has the wrong type: allowed a Panel (perfstudies.panel)")
    run = run if run is not None else (lambda params: run_panel(panel, params))
    render = render if render is not None else panel_view
    return live_panel(panel.params, panel.controls, run=run, render=render, defaults=panel.defaults(),
                      ranges=panel.ranges or None, check=panel.check)


def _field_of(boxes: dict[str, widgets.Widget], owner) -> str:
    return next((name for name, box in boxes.items() if box is owner), "a control")


def _mime_bundle(shown) -> tuple[dict, dict] | None:
    """The display data of ``shown`` computed now, so a chart that fails validation raises here."""
    method = getattr(shown, "_repr_mimebundle_", None)
    if method is None:
        return None
    bundle = method()
    if bundle is None:
        return None
    data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
    return data, metadata or {}
