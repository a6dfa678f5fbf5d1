"""The Ciw network of the VTS and the two simulation models built on it.

:func:`throughput_model` runs a closed network: ``streams`` virtual drives each
keep one customer (a chunk of ``chunk_mb`` host MB, or a whole volume for a
recall) circulating through the resources of :func:`.analytic.stations`, in
data-flow order:

* peak write:      channels -> processors -> cache
* sustained write: channels -> processors -> cache -> tape (copy-out)
* read hit:        cache -> processors -> channels
* read recall:     tape (mount, search, read) -> cache -> processors -> channels

A chunk of a sustained write goes back to its stream only after its copy-out, so
host writes and copy-out run at the same rate, as they do in the steady state
the VTS holds by throttling its input (Sec. 5).  Service times are Gamma with a
coefficient of variation of 0.5: one customer aggregates many block and track
operations, so it varies less than an exponential.

:func:`recall_model` is Fig. 6: ``recall_queue + 1`` recalls arrive together at
the ``drives`` tape drives; the metric is the last one's mount response.

The cache is striped (Sec. 2): each chunk is spread over all disk arms, so the
``cache`` node is one server whose service time is the chunk's arm time divided
by the number of arms.  A chunk uses one channel, one processor and one drive.
"""

import ciw

from perfstudies.models.vts.analytic import Rates, Station, bound, stations
from perfstudies.models.vts.calibration import calibrated_rates
from perfstudies.models.vts.params import VTSParams
from perfstudies.runner import run_ciw

#: Gamma shape of every service time (coefficient of variation 1/sqrt(4) = 0.5).
SERVICE_SHAPE = 4.0
#: Share of a throughput run before the measurement window opens (warm-up).
WARMUP_SHARE = 0.15
#: Gap between the customers injected at time ~0 to make a closed population.
INJECTION_GAP = 1e-6

#: Resources whose servers share every customer: data is striped across all cache
#: arms (Sec. 2), so the cache is one server as fast as all its arms together.
STRIPED = ("cache",)

PATHS = {
    "peak_write": ("channels", "processors", "cache"),
    "sustained_write": ("channels", "processors", "cache", "tape"),
    "read_hit": ("cache", "processors", "channels"),
    "read_recall": ("tape", "cache", "processors", "channels"),
}


class Population(ciw.dists.Distribution):
    """Inter-arrival times that inject ``count`` customers at once, then none.

    Ciw has no closed networks; a fixed population that loops forever behaves as one.
    """

    def __init__(self, count: int):
        self.remaining = count

    def sample(self, t=None, ind=None):
        self.remaining -= 1
        return INJECTION_GAP if self.remaining >= 0 else float("inf")


def gamma(mean: float) -> ciw.dists.Distribution:
    """Gamma service time with the given mean and shape :data:`SERVICE_SHAPE`."""
    return ciw.dists.Gamma(SERVICE_SHAPE, mean / SERVICE_SHAPE)


def service(station: Station, size_mb: float, speedup: float = 1.0) -> ciw.dists.Distribution:
    """Service time of a customer of ``size_mb`` host MB at a station.

    The per-MB work is Gamma; a per-volume overhead (a recall's mount and search)
    is a separate Gamma term added to a fixed transfer time, because a volume's
    transfer time is set by its size while mounts and searches vary.
    ``speedup`` divides the time (a striped resource working with all servers at once).
    """
    if station.s_per_volume == 0:
        return gamma(station.s_per_mb * size_mb / speedup)
    return (ciw.dists.Deterministic(station.s_per_mb * size_mb / speedup)
            + gamma(station.s_per_volume / speedup))


def customer_mb(p: VTSParams) -> float:
    """Host MB one customer carries: a whole volume for a recall, a chunk otherwise."""
    return p.volume_mb if p.workload == "read_recall" else p.chunk_mb


def vts_network(p: VTSParams, r: Rates) -> ciw.Network:
    """The closed Ciw network of the workload's resources, in data-flow order."""
    path = PATHS[p.workload]
    found = stations(p, r)
    size = customer_mb(p)
    servers = [1 if name in STRIPED else found[name].servers for name in path]
    services = [service(found[name], size, found[name].servers / c) for name, c in zip(path, servers)]
    last = len(path)
    return ciw.create_network(
        arrival_distributions=[Population(p.streams)] + [None] * (last - 1),
        service_distributions=services,
        number_of_servers=servers,
        routing=ciw.routing.NetworkRouting([ciw.routing.Direct(to=(i % last) + 1) for i in range(1, last + 1)]),
    )


def run_length_s(p: VTSParams, r: Rates) -> float:
    """Simulated seconds for about ``completions`` customers at the bound rate."""
    return p.completions * customer_mb(p) / bound(p, r)


def throughput_model(p: VTSParams, seed: int, rates: Rates | None = None) -> dict[str, float]:
    """One replication: host MB/s and each resource's utilisation.

    Host MB/s counts customers leaving the host-facing node (channels) inside
    the measurement window (after warm-up), times the MB each carries; busy
    time is clipped to the same window.  ``rates`` defaults to the calibrated ones.
    """
    r = rates or calibrated_rates()
    path = PATHS[p.workload]
    horizon = run_length_s(p, r)
    start = WARMUP_SHARE * horizon
    simulation, records = run_ciw(vts_network(p, r), seed, horizon)
    span = horizon - start
    host_node = path.index("channels") + 1
    done = records[(records["node"] == host_node) & (records["exit_date"] > start)]
    metrics = {"host_mb_s": len(done) * customer_mb(p) / span}
    busy_from = records["service_start_date"].clip(lower=start)
    busy_to = records["service_end_date"].clip(upper=horizon)
    busy = (busy_to - busy_from).clip(lower=0.0)
    for index, name in enumerate(path, start=1):
        in_node = busy[records["node"] == index].sum()
        metrics[f"utilisation_{name}"] = in_node / (simulation.nodes[index].c * span)
    return metrics


def recall_network(p: VTSParams, r: Rates) -> ciw.Network:
    """``recall_queue + 1`` recalls arriving together at ``drives`` tape drives."""
    return ciw.create_network(
        arrival_distributions=[Population(p.recall_queue + 1)],
        service_distributions=[service(stations(p.replace(workload="read_recall"), r)["tape"], p.volume_mb)],
        number_of_servers=[p.drives],
    )


def recall_model(p: VTSParams, seed: int, rates: Rates | None = None) -> dict[str, float]:
    """One replication of Fig. 6: mount response of the last recall to arrive, in seconds."""
    r = rates or calibrated_rates()
    horizon = 1e7
    _, records = run_ciw(recall_network(p, r), seed, horizon)
    last = records.sort_values("arrival_date").iloc[-1]
    return {"mount_response_s": float(last["exit_date"] - last["arrival_date"])}
