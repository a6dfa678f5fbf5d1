"""Issue 29: how a device's requests arrive (``DeviceParams.arrivals``), and that the study's default is unchanged."""

import ciw
import numpy as np
import pytest

from perfstudies.models.mdf.mechanism import (DEVICE, BlockGamma, DispatchSurge, DomainArrivals, HeldCompletion,
                                              RmfDelay, RmfTimer, Windows, device_arrivals, domain_windows, windows_of)
from perfstudies.models.mdf.network import device_network, device_node_classes, model
from perfstudies.models.mdf.params import ARRIVALS, DeviceParams
from perfstudies import student_t
from perfstudies.runner import run_ciw

SEED = 20261127
SHORT = dict(max_time=200.0, warmup=10.0)


class _Fixed(ciw.dists.Distribution):
    def __init__(self, value):
        self.value = value

    def sample(self, t=None, ind=None):
        return self.value


def _arrival_dates(params: DeviceParams, seed: int) -> np.ndarray:
    """Every request's arrival date at the device in one run, warm-up included."""
    _, records = run_ciw(device_network(params), seed, params.max_time, 0.0, node_class=device_node_classes(params))
    device = records[records["node"] == DEVICE]
    return np.sort(device["arrival_date"].to_numpy(float))


# --- the class, by hand ---------------------------------------------------------------------------

def test_dispatch_surge_issues_what_fell_due_in_an_absence_at_the_next_dispatch():
    ims, _ = domain_windows(1, 0.5, 0.5, 0.0)      # IMS runs [0, 30) ms of every 60 ms
    surge = DispatchSurge(10.0, ims)
    surge.due = _Fixed(0.020)                       # a request falls due every 20 ms
    issued, now = [], 0.0
    for _ in range(5):
        now += surge.sample(t=now)
        issued.append(now)
    # due at 20 ms: issued at once; due at 40 and 60 ms (TSO's slice, then the dispatch): both at 60 ms
    assert issued == pytest.approx([0.020, 0.060, 0.060, 0.080, 0.120])


def test_dispatch_surge_restarts_at_time_zero_and_is_poisson_unsliced():
    ims, _ = domain_windows(1, 0.5, 0.5, 0.0)
    surge = DispatchSurge(10.0, ims)
    surge.due = _Fixed(0.040)
    assert surge.sample(t=0.0) == pytest.approx(0.060)
    assert surge.sample(t=0.0) == pytest.approx(0.060)      # a new run: the due clock restarted
    always = DispatchSurge(10.0, Windows.always())
    always.due = _Fixed(0.040)
    assert [always.sample(t=t) for t in (0.0, 0.040, 0.080)] == pytest.approx([0.040] * 3)


def test_device_arrivals_picks_each_mechanism_and_refuses_others():
    ims, _ = domain_windows(3, 0.5, 0.5, 0.0003)
    assert isinstance(device_arrivals("in-slice", 5.0, ims), DomainArrivals)
    assert isinstance(device_arrivals("at-dispatch", 5.0, ims), DispatchSurge)
    assert device_arrivals("wall-clock", 5.0, ims).rate == 5.0
    assert repr(DispatchSurge(2.0, ims)).startswith("DispatchSurge(rate=2.0, windows=Windows(cycle=0.04")
    with pytest.raises(ValueError, match=r"kind = 'burst' is not allowed: allowed one of \['in-slice', "):
        device_arrivals("burst", 5.0, ims)
    with pytest.raises(ValueError, match="arrivals"):
        DeviceParams(arrivals="burst")


# --- in a run -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["in-slice", "at-dispatch"])
@pytest.mark.parametrize("domain", ["IMS", "TSO"])
def test_no_request_is_issued_while_its_domain_is_away(kind, domain):
    params = DeviceParams(scheduling_parameter=1, domain=domain, rate=20.0, arrivals=kind, **SHORT)
    windows = windows_of(params, domain)
    dates = _arrival_dates(params, SEED)
    late = np.array([windows.next_dispatch(t) - t for t in dates])
    assert len(dates) > 3000
    assert late.max() < 1e-9          # at most Ciw's rounding of the date (previous date + gap)


def test_wall_clock_requests_do_arrive_while_the_domain_is_away():
    """The reference stream ignores the slices: the check above can fail."""
    params = DeviceParams(scheduling_parameter=1, rate=20.0, arrivals="wall-clock", **SHORT)
    windows = windows_of(params, "IMS")
    dates = _arrival_dates(params, SEED)
    away = np.mean([windows.next_dispatch(t) - t > 1e-9 for t in dates])
    assert 0.45 < away < 0.56          # the TSO slice and the IMS switch: half the cycle


def test_at_dispatch_requests_come_in_surges_that_shrink_with_the_slices():
    """A surge at every dispatch (requests issued at the very same time), about rate x absence requests long."""
    sizes = {}
    for p in (1, 5):
        params = DeviceParams(scheduling_parameter=p, rate=20.0, arrivals="at-dispatch", **SHORT)
        dates = _arrival_dates(params, SEED)
        _, counts = np.unique(dates, return_counts=True)
        sizes[p] = counts[counts > 1].sum() / len(dates)      # share of requests issued with another at once
    assert sizes[1] > 0.2 and sizes[5] > 0.0
    assert sizes[1] > 1.5 * sizes[5]


@pytest.mark.parametrize("kind", ARRIVALS)
def test_every_mechanism_keeps_the_devices_rate(kind):
    """The long-run rate is the set rate (in-slice: raised by 1 / fraction inside the windows); the set rate lies
    inside the 95% interval of the mean over twelve seeds of the issued requests per second."""
    params = DeviceParams(scheduling_parameter=1, rate=20.0, arrivals=kind, **SHORT)
    rates = np.array([len(_arrival_dates(params, seed)) / params.max_time for seed in range(1, 13)])
    half = student_t.quantile(0.975, len(rates) - 1) * rates.std(ddof=1) / np.sqrt(len(rates))
    assert abs(rates.mean() - params.rate) <= half, (rates.mean(), half)
    assert half < 0.02 * params.rate     # narrow enough that a rate off by the duty cycle (x2) could not pass


@pytest.mark.parametrize("kind", ARRIVALS)
def test_same_seed_same_records_and_another_seed_other_records(kind):
    params = DeviceParams(scheduling_parameter=5, arrivals=kind, **SHORT)
    assert model(params, 3) == model(params, 3)
    assert model(params, 3) != model(params, 4)


def test_the_default_is_the_studys_in_slice_arrivals_with_the_same_records():
    """The record's default gives the records the device network gave before the switch existed: requests
    from :class:`DomainArrivals` (built here by hand, as the network built it), every field the same."""
    params = DeviceParams(scheduling_parameter=5, **SHORT)
    assert params.arrivals == "in-slice" == ARRIVALS[0]
    windows = windows_of(params, "IMS")
    before = ciw.create_network(
        arrival_distributions=[DomainArrivals(params.rate, windows), RmfTimer(params.rmf_cycle_ms / 1000.0)],
        service_distributions=[HeldCompletion(BlockGamma(params.hardware_s, params.scv), windows),
                               RmfDelay(windows, params.rmf_rule)],
        number_of_servers=[1, 1],
        routing=ciw.routing.NetworkRouting([ciw.routing.Leave(), ciw.routing.Leave()]),
    )
    _, old = run_ciw(before, SEED, params.max_time, 0.0, node_class=device_node_classes(params))
    _, new = run_ciw(device_network(params), SEED, params.max_time, 0.0, node_class=device_node_classes(params))
    assert len(new) > 1000
    assert [tuple(r) for r in new.itertuples(index=False)] == [tuple(r) for r in old.itertuples(index=False)]


def test_unsliced_the_mechanisms_agree():
    """At BASE nothing is away, so requests are a Poisson stream whichever mechanism issues them."""
    params = DeviceParams(sliced=False, **SHORT)
    values = [model(params.replace(arrivals=kind), SEED)["rmf_iosq_ms"] for kind in ARRIVALS]
    assert values == pytest.approx([values[0]] * 3, rel=1e-9)


@pytest.mark.parametrize("domain", ["IMS", "TSO"])
def test_rmf_sees_wall_clock_requests_as_the_surge(domain):
    """The chapter's remark: a request that arrives while its domain is away cannot start before the domain is
    back (held completions start at the next dispatch), and RMF under the study's rule samples only inside the
    slices, so it reports the same IOSQ for both streams (up to rounding); the true mean, which counts the wait in
    the absence as IOSQ only for the wall-clock stream, differs."""
    params = DeviceParams(scheduling_parameter=1, domain=domain, rate=14.0, **SHORT)
    surge, wall = (model(params.replace(arrivals=kind), SEED) for kind in ("at-dispatch", "wall-clock"))
    assert surge["rmf_missed_ms"] == pytest.approx(wall["rmf_missed_ms"], rel=1e-9)
    assert wall["iosq_ms"] > 1.1 * surge["iosq_ms"]
