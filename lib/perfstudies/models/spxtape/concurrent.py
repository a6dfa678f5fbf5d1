"""Table 2: the dump shares its spool volumes with 5500 interactive CMS users.

The mechanism the report names is contention on the spool volumes.  One of the
four volumes the dump reads is simulated (they are alike by symmetry) as one
first-come-first-served server with two customer classes:

* ``dump``: SPXTAPE keeps ``dump_reads_queued`` page reads waiting on the
  volume; each completed read is replaced at once (a closed loop), so the
  dump takes whatever time the users leave it;
* ``users``: the users' spool I/Os to that volume, a Poisson stream, each
  with an exponential service time of the same mean as a page read.

The users' extra wait per command follows from the extra response time of
those I/Os; their command rate from the closed loop of 5500 users who think
and wait; the real I/O rate adds the dump's page reads and 32 KB tape writes
to the users' own I/O.
"""

import ciw

from perfstudies.models.spxtape.params import ConcurrentParams
from perfstudies.networks import closed_population
from perfstudies.runner import run_ciw

#: Four spool volumes held the dumped files ("all contained on 4 of the spool volumes").
DUMP_VOLUMES = 4
#: Pages per 32 KB tape block: one tape write per eight pages read.
PAGES_PER_BLOCK = 8


def volume_network(p: ConcurrentParams) -> ciw.Network:
    """One spool volume: the dump's queued reads (a closed loop) and the users' Poisson I/Os."""
    reads = closed_population(p.dump_reads_queued, gap=1e-9).arrivals
    users = ciw.dists.Exponential(p.user_io_rate) if p.user_io_rate > 0 else None
    return ciw.create_network(
        arrival_distributions={"dump": [reads], "users": [users]},
        service_distributions={"dump": [ciw.dists.Deterministic(p.page_io_time)],
                               "users": [ciw.dists.Exponential(1 / p.page_io_time)]},
        number_of_servers=[1],
        routing={"dump": ciw.routing.NetworkRouting([ciw.routing.Direct(1)]),
                 "users": ciw.routing.NetworkRouting([ciw.routing.Leave()])},
    )


def volume_model(p: ConcurrentParams, seed: int) -> dict[str, float]:
    """One replication: the dump's page rate and the users' I/O response time on one volume.

    The dump's rate is the dedicated rate scaled by the share of the volume
    the dump still gets (its reads per second times the page time), so the
    slow-down applies to the whole dump, volume imbalance included.
    """
    _, records = run_ciw(volume_network(p), seed, p.run_time, p.warmup)
    done = records[records["service_end_date"] <= p.run_time]
    dump = done[done["customer_class"] == "dump"]
    users = done[done["customer_class"] == "users"]
    response = (users["waiting_time"] + users["service_time"]).mean() if len(users) else 0.0
    dump_share = len(dump) * p.page_io_time / (p.run_time - p.warmup)
    return {"dump_pages_per_s": p.dedicated_rate * dump_share, "user_io_response_s": float(response)}


def user_io_response_alone(p: ConcurrentParams) -> float:
    """Users' I/O response time on the volume without the dump: M/M/1, ``s / (1 - rho)``."""
    return p.page_io_time / (1 - p.user_io_rate * p.page_io_time)


def system_effects(volume: dict, p: ConcurrentParams, baseline: dict) -> dict[str, float]:
    """From one volume's result to the Table 2 rows, given the run without the dump.

    ``baseline`` holds the without-dump run's published ``response_s`` (AVG LAST),
    ``think_s`` (AVG THINK), ``etr`` (ETR (T)), ``rio_rate`` (RIO RATE) and
    ``nonpage_rio_per_cmd``: the state the dump is added to.
    """
    io_per_command = DUMP_VOLUMES * p.user_io_rate / baseline["etr"]
    extra_wait = volume["user_io_response_s"] - user_io_response_alone(p)
    response = baseline["response_s"] + io_per_command * extra_wait
    # closed loop: each user alternates thinking and waiting, so throughput ~ 1 / (Z + R)
    etr = baseline["etr"] * (baseline["think_s"] + baseline["response_s"]) / (baseline["think_s"] + response)
    dump_io = volume["dump_pages_per_s"] * (1 + 1 / PAGES_PER_BLOCK)
    rio = baseline["rio_rate"] * etr / baseline["etr"] + dump_io
    return {"dump_pages_per_s": volume["dump_pages_per_s"], "avg_last_s": response, "etr": etr,
            "rio_rate": rio, "rio_per_cmd": rio / etr,
            "nonpage_rio_per_cmd": baseline["nonpage_rio_per_cmd"] + dump_io / etr}
