"""A worked example of one held interrupt, as intervals for :func:`perfstudies.diagrams.timeline`.

Two requests go to the same IMS device during an IMS slice.  The first one's
transfer ends while the TSO domain runs, so its completion interrupt waits for
the next IMS slice and the device stays busy; the second request waits in IOS
(IOSQ) the whole time.  The intervals come from the same
:class:`~perfstudies.models.mdf.slices.Windows` arithmetic the model uses.
"""

import pandas as pd

from perfstudies.models.mdf.slices import domain_windows


def held_interrupt_example(scheduling_parameter: int = 1, first_issue_ms: float = 20.0,
                           second_issue_ms: float = 24.0, transfer_ms: float = 18.0,
                           cycles: int = 2) -> pd.DataFrame:
    """Intervals (ms) of the domains' slices, two transfers, the hold and the second request's IOSQ."""
    if not 0 <= first_issue_ms <= second_issue_ms:
        raise ValueError(f"second_issue_ms = {second_issue_ms!r} is out of range: allowed "
                         f"0 <= first_issue_ms ({first_issue_ms}) <= second_issue_ms")
    ims, tso = domain_windows(scheduling_parameter, 0.5, 0.5, 0.0)
    rows = []
    for k in range(cycles):
        start = 1000.0 * k * ims.cycle
        rows.append(("IMS domain", "IMS dispatched", start, start + 1000.0 * ims.slice))
        rows.append(("TSO domain", "TSO dispatched", start + 1000.0 * tso.offset,
                     start + 1000.0 * (tso.offset + tso.slice)))
    first_end = first_issue_ms + transfer_ms
    cleared = 1000.0 * ims.next_dispatch(first_end / 1000.0)
    second_end = cleared + transfer_ms
    rows += [
        ("IMS device", "transfer (PEND+DISC+CONN)", first_issue_ms, first_end),
        ("IMS device", "held: interrupt pending", first_end, cleared),
        ("IMS device", "transfer (PEND+DISC+CONN)", cleared, second_end),
        ("2nd request", "IOSQ: queued in IOS", second_issue_ms, cleared),
    ]
    return pd.DataFrame(rows, columns=["lane", "state", "start", "end"])
