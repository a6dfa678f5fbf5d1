"""ipywidgets controls built from parameter records, and a live re-run panel.

:func:`controls` turns the fields of a :class:`~perfstudies.params.Params`
record into sliders, dropdowns and checkboxes whose ranges are exactly the
ranges the record accepts, so a widget cannot offer an invalid value.
:func:`live_panel` wires the controls to a model: every change builds a new
record, re-runs the model and redraws its output; an invalid combination
shows the record's own error message instead of a stale chart.
"""

import time
from collections.abc import Callable, Mapping, Sequence

import ipywidgets as widgets
from IPython.display import display

from perfstudies.params import Params, validate_value

LABEL_STYLE = {"description_width": "14em"}
LAYOUT = widgets.Layout(width="34em")


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
    spec = params_cls.spec()
    defaults = defaults or params_cls()
    ranges = dict(ranges or {})
    unknown = [name for name in list(names) + list(ranges) if name not in spec]
    if unknown:
        raise ValueError(f"names = {unknown} are not fields of {params_cls.__name__}: allowed {list(spec)}")
    return {name: _widget(params_cls.__name__, name, spec[name], getattr(defaults, name), ranges.get(name))
            for name in names}


def _widget(owner: str, name: str, meta: dict, value, span: tuple | None) -> widgets.Widget:
    label = meta["doc"] or name
    common = dict(value=value, description=label, style=LABEL_STYLE, layout=LAYOUT)
    if meta["choices"] is not None:
        return widgets.Dropdown(options=list(meta["choices"]), **common)
    if meta["kind"] == "bool":
        return widgets.Checkbox(indent=False, **common)
    if meta["kind"] == "str":
        return widgets.Text(**common)
    if span is not None:
        for end in span:
            try:
                validate_value(owner, name, end, meta)
            except ValueError as error:
                raise ValueError(f"ranges[{name!r}] = {span!r} is not allowed: {error}") from None
        low, high = span
    else:
        low, high = meta["low"], meta["high"]
        if low is None or high is None:
            raise ValueError(f"ranges[{name!r}] is required: {owner}.{name} has an unbounded range")
    step = meta["step"] or (1 if meta["kind"] == "int" else (high - low) / 100)
    if span is None and meta["low_open"]:
        low += step
    if span is None and meta["high_open"]:
        high -= step
    unit = f" {meta['unit']}" if meta["unit"] else ""
    common["description"] = f"{label}{f' ({unit.strip()})' if unit else ''}"
    if meta["kind"] == "int":
        return widgets.IntSlider(min=int(low), max=int(high), step=int(step), continuous_update=False, **common)
    return widgets.FloatSlider(min=low, max=high, step=step, continuous_update=False, **common)


def live_panel(params_cls: type[Params], names: Sequence[str], run: Callable[[Params], object],
               render: Callable[[object], object], defaults: Params | None = None,
               ranges: Mapping[str, tuple] | None = None) -> widgets.VBox:
    """Controls plus an output area that re-runs ``run`` and shows ``render(result)``.

    The status line reports how long the model took, or the validation error
    when the chosen values do not make a valid record.
    """
    defaults = defaults or params_cls()
    boxes = controls(params_cls, names, defaults, ranges)
    status = widgets.HTML()
    output = widgets.Output()

    def rerun(_change=None):
        try:
            params = defaults.replace(**{name: box.value for name, box in boxes.items()})
        except ValueError as error:
            status.value = f"<span style='color:#b00020'>Invalid input: {error}</span>"
            return
        started = time.perf_counter()
        result = run(params)
        elapsed = time.perf_counter() - started
        output.clear_output(wait=True)
        with output:
            display(render(result))
        status.value = f"<span style='color:#555'>model re-ran in {elapsed:.2f} s</span>"

    for box in boxes.values():
        box.observe(rerun, names="value")
    rerun()
    return widgets.VBox([*boxes.values(), status, output])
