"""Exact MVA against published textbook examples and an independent exact computation; the
Bard-Schweitzer approximation and the bounds against exact MVA; exact MVA against Ciw.

Published examples reproduced digit for digit (pages are not given: the copies read had none):

* Jain, R. (1991). *The Art of Computer Systems Performance Analysis*. Wiley. Chapter 34,
  Example 34.2 and Table 34.1 (MVA of a timesharing system) and Chapter 35, Example 35.5
  (the same kind of system solved by convolution).
* Menasce, D. A., Almeida, V. A. F. and Dowdy, L. W. (2004). *Performance by Design*.
  Prentice Hall. Section 12.2 (the database server example of Chapter 10 at two customers).

Independently of MVA, every exact result is also checked against the normalising constant of
the product-form solution, computed here by Buzen's convolution (single class, with delay and
multi-server stations) and by enumerating every state (several classes).
"""

import doctest
import itertools
import math

import numpy as np
import pytest

from perfstudies import centralserver, mva
from perfstudies.delay import DelayNode
from perfstudies.networks import closed_population
from perfstudies.runner import replicate, run_ciw, summarize

# --------------------------------------------------------------------------- independent exact solutions


def station_factors(demand: float, kind: str, servers: int, population: int) -> np.ndarray:
    """Product-form factor f(j) of a station holding j jobs: D^j / prod_{i<=j} min(i, c)."""
    factors = np.ones(population + 1)
    for j in range(1, population + 1):
        rate = j if kind == "delay" else min(j, servers)
        factors[j] = factors[j - 1] * demand / rate
    return factors


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.convolve(a, b)[: len(a)]


def convolution(demands, population, think_time=0.0, delay=(), servers=None):
    """Buzen's convolution algorithm: normalising constants G(n), throughput and mean queues.

    The terminals are one more delay station whose demand is the think time.
    Returns ``(G, X, R, Q)`` for the whole population.
    """
    servers = servers or {}
    factors = {name: station_factors(d, "delay" if name in delay else "queue", servers.get(name, 1), population)
               for name, d in demands.items()}
    terminals = station_factors(think_time, "delay", 1, population)
    total = terminals
    for f in factors.values():
        total = convolve(total, f)
    throughput = total[population - 1] / total[population]
    queues = {}
    for name, f in factors.items():
        others = terminals
        for other, g in factors.items():
            if other != name:
                others = convolve(others, g)
        marginal = f * others[::-1] / total[population]   # P(j jobs at the station)
        queues[name] = float(np.dot(np.arange(population + 1), marginal))
    return total, throughput, population / throughput - think_time, queues


def enumerate_multiclass(demands, populations, think_times, delay=()):
    """Exact multi-class mean values by summing the product-form solution over every state."""
    stations = list(demands)
    classes = list(populations)

    def placements(n, slots):
        for cut in itertools.combinations(range(n + slots - 1), slots - 1):
            bounds = (-1, *cut, n + slots - 1)
            yield tuple(bounds[i + 1] - bounds[i] - 1 for i in range(slots))

    def constant(pops):
        total, queues = 0.0, {(s, c): 0.0 for s in stations for c in classes}
        per_class = [list(placements(pops[c], len(stations) + 1)) for c in classes]  # + terminals
        for state in itertools.product(*per_class):
            weight = 1.0
            for c, spread in zip(classes, state):
                weight *= think_times[c] ** spread[-1] / math.factorial(spread[-1])
            for k, s in enumerate(stations):
                counts = [spread[k] for spread in state]
                part = math.prod(demands[s].get(c, 0.0) ** n / math.factorial(n) for c, n in zip(classes, counts))
                weight *= part if s in delay else part * math.factorial(sum(counts))
            total += weight
            for c, spread in zip(classes, state):
                for k, s in enumerate(stations):
                    queues[(s, c)] += weight * spread[k]
        return total, {key: value / total for key, value in queues.items()}

    full, queues = constant(populations)
    throughput = {c: constant({**populations, c: populations[c] - 1})[0] / full for c in classes}
    return throughput, queues


# --------------------------------------------------------------------------- published examples

JAIN_VISITS = {"cpu": 16, "disk A": 10, "disk B": 5}
JAIN_SERVICE = {"cpu": 0.125, "disk A": 0.3, "disk B": 0.2}
JAIN_THINK = 4.0
#: Jain (1991), Table 34.1: N, response time per visit at CPU, disk A, disk B; system response
#: time; throughput; queue lengths at CPU, disk A, disk B.
JAIN_TABLE_34_1 = [
    (1, 0.125, 0.300, 0.200, 6.000, 0.100, 0.200, 0.300, 0.100),
    (2, 0.150, 0.390, 0.220, 7.400, 0.175, 0.421, 0.684, 0.193),
    (3, 0.178, 0.505, 0.239, 9.088, 0.229, 0.651, 1.158, 0.273),
    (4, 0.206, 0.647, 0.255, 11.051, 0.266, 0.878, 1.721, 0.338),
    (5, 0.235, 0.816, 0.268, 13.256, 0.290, 1.088, 2.365, 0.388),
    (17, 0.370, 3.962, 0.300, 47.045, 0.333, 1.974, 13.195, 0.499),
    (18, 0.372, 4.259, 0.300, 50.032, 0.333, 1.981, 14.187, 0.499),
    (19, 0.373, 4.556, 0.300, 53.022, 0.333, 1.987, 15.181, 0.500),
    (20, 0.373, 4.854, 0.300, 56.016, 0.333, 1.991, 16.177, 0.500),
]


def test_jain_example_34_2_table_34_1_every_printed_digit():
    """Jain (1991), Example 34.2: think time 4 s; 16 CPU bursts of 0.125 s, 10 disk A I/Os of 0.3 s
    and 5 disk B I/Os of 0.2 s per interaction.  Every number of Table 34.1, rounded to its three
    printed decimals, equals exact MVA's."""
    path = mva.exact_path(mva.demands_from(JAIN_VISITS, JAIN_SERVICE), 20, JAIN_THINK)
    for n, *printed in JAIN_TABLE_34_1:
        s = path[n - 1]
        ours = [s.residence_time[k] / JAIN_VISITS[k] for k in JAIN_VISITS]
        ours += [s.response_time, s.throughput] + [s.queue_length[k] for k in JAIN_VISITS]
        assert [f"{value:.3f}" for value in ours] == [f"{value:.3f}" for value in printed], f"N = {n}"


def test_jain_example_35_5_by_mva_and_by_convolution():
    """Jain (1991), Example 35.5: three terminals thinking 4.68 s; demands 0.78 s (CPU, 20 x 39 ms),
    2.34 s (disk A, 13 x 180 ms) and 1.56 s (disk B, 6 x 260 ms).  Printed: G(0..3) = 1, 12, 79,
    384 with the scaling factor 1/0.78; X = 0.264/s, R = 6.694 s, mean queue at disk A 0.97, and
    utilisations 0.206, 0.618, 0.412 computed from the rounded X = 0.264."""
    demands = {"cpu": 0.78, "disk A": 2.34, "disk B": 1.56}
    scaled = {name: d / 0.78 for name, d in demands.items()}
    constants, *_ = convolution(scaled, 3, think_time=4.68 / 0.78)
    assert np.round(constants, 9).tolist() == [1.0, 12.0, 79.0, 384.0]
    s = mva.exact(demands, 3, think_time=4.68)
    assert f"{s.throughput:.3f}" == "0.264"
    assert f"{s.response_time:.3f}" == "6.694"
    assert f"{s.queue_length['disk A']:.2f}" == "0.97"
    assert f"{s.utilisation['cpu']:.3f}" == "0.206"
    for name, printed in (("disk A", 0.618), ("disk B", 0.412)):
        assert f"{0.264 * demands[name]:.3f}" == f"{printed:.3f}"        # Jain's own arithmetic
        assert s.utilisation[name] == pytest.approx(printed, abs=0.001)  # ours, from the unrounded X


def test_menasce_database_server_two_customers():
    """Menasce, Almeida and Dowdy (2004), Sec. 12.2: the database server of Chapter 10 with two
    customers and no think time.  Its balance equations give the CPU a rate of 6, the fast disk 4
    and the slow disk 2 per unit time, with each CPU completion going to either disk with
    probability 1/2, so the demands per CPU visit are 1/6, 1/2 x 1/4 and 1/2 x 1/2.  Printed mean
    queues: 0.5913 (CPU), 0.4174 (fast disk), 0.9913 (slow disk), i.e. 68/115, 48/115, 114/115."""
    s = mva.exact({"cpu": 1 / 6, "fast disk": 1 / 8, "slow disk": 1 / 4}, population=2)
    assert {k: f"{q:.4f}" for k, q in s.queue_length.items()} == {
        "cpu": "0.5913", "fast disk": "0.4174", "slow disk": "0.9913"}
    assert s.queue_length["cpu"] == pytest.approx(68 / 115, rel=1e-12)


def test_module_examples_hold():
    for module in (mva, centralserver):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0 and result.attempted > 0


# --------------------------------------------------------------------------- exact MVA = exact normalising constant


def random_network(rng, multi_server=False):
    stations = int(rng.integers(1, 6))
    demands = {f"s{k}": float(rng.uniform(0.05, 2.0)) for k in range(stations)}
    delay = tuple(name for name in demands if rng.random() < 0.2)
    servers = {name: int(rng.integers(1, 5)) for name in demands
               if name not in delay and multi_server and rng.random() < 0.5}
    servers = dict(list(servers.items())[:mva.MAX_MULTI_SERVER_STATIONS])
    think = float(rng.choice([0.0, rng.uniform(0.1, 10.0)]))
    if think == 0 and len(delay) == len(demands):
        think = 1.0
    return demands, think, delay, servers


@pytest.mark.parametrize("multi_server", [False, True])
def test_exact_mva_equals_convolution_on_random_networks(multi_server):
    rng = np.random.default_rng(20 + multi_server)
    for _ in range(60):
        demands, think, delay, servers = random_network(rng, multi_server)
        population = int(rng.integers(1, 30))
        s = mva.exact(demands, population, think, delay, servers)
        _, throughput, response, queues = convolution(demands, population, think, delay, servers)
        assert s.throughput == pytest.approx(throughput, rel=1e-9)
        assert s.response_time == pytest.approx(response, rel=1e-9)
        assert s.queue_length == pytest.approx(queues, rel=1e-8, abs=1e-12)
        assert sum(s.queue_length.values()) + s.throughput * think == pytest.approx(population)  # Little


def test_multi_server_station_stays_exact_at_large_population():
    demands = {"channels": 8.0, "cpu": 1.0}
    s = mva.exact(demands, 400, think_time=50.0, servers={"channels": 8})
    _, throughput, _, queues = convolution(demands, 400, 50.0, servers={"channels": 8})
    assert s.throughput == pytest.approx(throughput, rel=1e-9)
    assert s.queue_length["channels"] == pytest.approx(queues["channels"], rel=1e-8)
    assert s.utilisation["channels"] == pytest.approx(throughput * 8.0 / 8)


def test_exact_multiclass_equals_state_enumeration():
    rng = np.random.default_rng(7)
    for _ in range(25):
        stations, classes = int(rng.integers(1, 4)), int(rng.integers(2, 4))
        demands = {f"s{k}": {f"c{c}": float(rng.uniform(0.05, 2.0)) for c in range(classes)
                             if rng.random() < 0.85} for k in range(stations)}
        delay = tuple(name for name in demands if rng.random() < 0.25)
        populations = {f"c{c}": int(rng.integers(1, 4)) for c in range(classes)}
        think = {c: float(rng.uniform(0.5, 5.0)) for c in populations}
        s = mva.exact_multiclass(demands, populations, think, delay)
        throughput, queues = enumerate_multiclass(demands, populations, think, delay)
        for c in populations:
            assert s.throughput[c] == pytest.approx(throughput[c], rel=1e-9)
            for name in demands:
                assert s.classes[c].queue_length[name] == pytest.approx(queues[(name, c)], rel=1e-8, abs=1e-12)


def test_one_class_of_exact_multiclass_is_exact():
    demands = mva.demands_from(JAIN_VISITS, JAIN_SERVICE)
    single = mva.exact(demands, 7, JAIN_THINK)
    multi = mva.exact_multiclass({k: {"users": d} for k, d in demands.items()}, {"users": 7}, JAIN_THINK)
    assert multi.throughput["users"] == pytest.approx(single.throughput, rel=1e-12)
    assert multi.queue_length == pytest.approx(single.queue_length, rel=1e-12)


def test_identical_classes_add_up_to_one_class():
    demands = {"cpu": 0.4, "disk": 0.7}
    single = mva.exact(demands, 6, 2.0)
    split = mva.exact_multiclass({k: {"a": d, "b": d} for k, d in demands.items()}, {"a": 2, "b": 4}, 2.0)
    assert sum(split.throughput.values()) == pytest.approx(single.throughput, rel=1e-12)
    assert split.utilisation == pytest.approx(single.utilisation, rel=1e-12)


# --------------------------------------------------------------------------- Bard-Schweitzer


def test_bard_schweitzer_is_exact_for_one_job_and_tends_to_exact():
    demands = mva.demands_from(JAIN_VISITS, JAIN_SERVICE)
    assert mva.bard_schweitzer(demands, 1, JAIN_THINK).throughput == pytest.approx(0.1, rel=1e-9)
    large = mva.bard_schweitzer(demands, 5_000, JAIN_THINK)
    assert large.throughput == pytest.approx(mva.exact(demands, 5_000, JAIN_THINK).throughput, rel=1e-6)
    assert mva.bard_schweitzer(demands, 10_000_000, JAIN_THINK).throughput == pytest.approx(1 / 3, rel=1e-9)


def test_bard_schweitzer_error_on_jain_example():
    demands = mva.demands_from(JAIN_VISITS, JAIN_SERVICE)
    for exact in mva.exact_path(demands, 20, JAIN_THINK):
        approx = mva.bard_schweitzer(demands, exact.population, JAIN_THINK)
        assert approx.throughput == pytest.approx(exact.throughput, rel=0.04)   # 3.9% at N = 4
        assert approx.response_time == pytest.approx(exact.response_time, rel=0.06)
    assert approx.throughput == pytest.approx(exact.throughput, rel=0.011)     # 1.0% at N = 20


def test_bard_schweitzer_error_is_a_few_percent_on_random_networks():
    """The approximation's error over many networks: throughput always at or below exact and at
    most 7% below it (response time within 25%), the bounds stated in its docstring."""
    rng = np.random.default_rng(5)
    for _ in range(60):
        demands, think, delay, _ = random_network(rng)
        for exact in mva.exact_path(demands, 60, think, delay)[::4]:
            approx = mva.bard_schweitzer(demands, exact.population, think, delay)
            assert approx.throughput <= exact.throughput * (1 + 1e-9)
            assert approx.throughput >= 0.93 * exact.throughput
            assert approx.response_time == pytest.approx(exact.response_time, rel=0.25)


def test_bard_schweitzer_multiclass_is_close_to_exact():
    rng = np.random.default_rng(11)
    for _ in range(40):
        stations, classes = int(rng.integers(1, 5)), int(rng.integers(2, 4))
        demands = {f"s{k}": {f"c{c}": float(rng.uniform(0.01, 1)) for c in range(classes)} for k in range(stations)}
        populations = {f"c{c}": int(rng.integers(1, 8)) for c in range(classes)}
        think = {c: float(rng.uniform(0.0, 3.0)) for c in populations}
        exact = mva.exact_multiclass(demands, populations, think)
        approx = mva.bard_schweitzer_multiclass(demands, populations, think)
        for c in populations:
            assert approx.throughput[c] == pytest.approx(exact.throughput[c], rel=0.15)
            assert approx.response_time[c] == pytest.approx(exact.response_time[c], rel=0.30)
    large = {c: 2_000 for c in ("a", "b")}
    demands = {"cpu": {"a": 0.1, "b": 0.2}, "disk": {"a": 0.3}}
    assert sum(mva.bard_schweitzer_multiclass(demands, large).utilisation.values()) <= 2.0


# --------------------------------------------------------------------------- bounds


def test_bounds_bracket_exact_mva():
    rng = np.random.default_rng(3)
    for _ in range(120):
        demands, think, delay, servers = random_network(rng, multi_server=rng.random() < 0.3)
        for exact in mva.exact_path(demands, 50, think, delay, servers)[::4]:
            b = mva.bounds(demands, exact.population, think, delay, servers)
            low, high = b.asymptotic_throughput
            assert low * (1 - 1e-12) <= exact.throughput <= high * (1 + 1e-12)
            low, high = b.asymptotic_response_time
            assert low * (1 - 1e-9) - 1e-12 <= exact.response_time <= high * (1 + 1e-9) + 1e-12
            if any(c > 1 for c in servers.values()):
                assert all(math.isnan(x) for x in b.balanced_throughput)
                continue
            low, high = b.balanced_throughput
            assert b.asymptotic_throughput[0] * (1 - 1e-12) <= low <= exact.throughput * (1 + 1e-12)
            assert exact.throughput * (1 - 1e-12) <= high <= b.asymptotic_throughput[1] * (1 + 1e-12)


def test_bounds_of_jain_example_and_the_knee():
    b = mva.bounds(mva.demands_from(JAIN_VISITS, JAIN_SERVICE), 20, JAIN_THINK)
    assert b.bottleneck == "disk A"
    assert b.knee == pytest.approx((6 + 4) / 3)
    assert b.asymptotic_throughput == pytest.approx((20 / (20 * 6 + 4), 1 / 3))
    assert b.asymptotic_response_time == pytest.approx((20 * 3 - 4, 20 * 6))


def test_sweep_table_matches_solutions():
    demands = {"cpu": 0.2, "disk": 0.3}
    table = mva.sweep(demands, [1, 5, 10], think_time=2.0)
    assert table["population"].tolist() == [1, 5, 10]
    assert table["throughput"].iloc[2] == pytest.approx(mva.exact(demands, 10, 2.0).throughput)
    assert (table["throughput_balanced_low"] <= table["throughput"]).all()
    approx = mva.sweep(demands, [10], think_time=2.0, method="bard-schweitzer")
    assert approx["throughput"].iloc[0] == pytest.approx(mva.bard_schweitzer(demands, 10, 2.0).throughput)


def test_solution_table_and_repr():
    s = mva.exact({"cpu": 1.0, "think inside": 2.0}, 3, delay=("think inside",))
    table = s.table()
    assert list(table.index) == ["cpu", "think inside", "total"]
    assert table.loc["total", "residence_time"] == pytest.approx(s.response_time)
    assert math.isnan(s.utilisation["think inside"]) and s.residence_time["think inside"] == 2.0
    assert "bottleneck='cpu'" in repr(s)
    multi = mva.exact_multiclass({"cpu": {"a": 1.0, "b": 0.5}}, {"a": 1, "b": 2})
    assert set(multi.table().index.get_level_values("class")) == {"a", "b", "all classes"}
    assert "MultiClassSolution(method='exact'" in repr(multi)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(("call", "error", "words"), [
    (lambda: mva.exact({"cpu": -1.0}, 2), ValueError, ["demands['cpu'] = -1.0", "0 <= demand"]),
    (lambda: mva.exact({"cpu": "1"}, 2), TypeError, ["demands['cpu'] = '1'", "a number"]),
    (lambda: mva.exact({"cpu": math.nan}, 2), ValueError, ["demands['cpu'] = nan"]),
    (lambda: mva.exact([1.0, 2.0], 2), TypeError, ["demands = [1.0, 2.0]", "mapping"]),
    (lambda: mva.exact({}, 2), ValueError, ["0 stations", "1 <= stations <= 50"]),
    (lambda: mva.exact({"cpu": 1.0}, 0), ValueError, ["population = 0", "1 <= population <= 10,000"]),
    (lambda: mva.exact({"cpu": 1.0}, 10_001), ValueError, ["population = 10001"]),
    (lambda: mva.exact({"cpu": 1.0}, 2.5), TypeError, ["population = 2.5", "an integer"]),
    (lambda: mva.exact({"cpu": 1.0}, True), TypeError, ["population = True"]),
    (lambda: mva.exact({"cpu": 1.0}, 2, think_time=-1), ValueError, ["think_time = -1.0"]),
    (lambda: mva.exact({"cpu": 1.0}, 2, delay="cpu"), TypeError, ["delay = 'cpu'", "collection"]),
    (lambda: mva.exact({"cpu": 1.0}, 2, delay=("disk",)), ValueError, ["'disk'", "allowed ['cpu']"]),
    (lambda: mva.exact({"cpu": 1.0}, 2, servers={"cpu": 0}), ValueError, ["servers['cpu'] = 0", "1 <= servers"]),
    (lambda: mva.exact({"cpu": 1.0, "t": 1.0}, 2, delay=("t",), servers={"t": 2}), ValueError,
     ["delay stations 't'"]),
    (lambda: mva.exact({"cpu": 0.0}, 2), ValueError, ["infinitely fast"]),
    (lambda: mva.exact({"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}, 2, servers=dict(a=2, b=2, c=2, d=2)), ValueError,
     ["4 stations more than one server", "at most 3"]),
    (lambda: mva.exact_multiclass({"cpu": {"a": 1.0, "b": 1.0}}, {"a": 400, "b": 400}), ValueError,
     ["160,801", "at most 100,000", "bard_schweitzer_multiclass"]),
    (lambda: mva.exact_multiclass({"cpu": {"x": 1.0}}, {"a": 1}), ValueError, ["'x'", "allowed ['a']"]),
    (lambda: mva.exact_multiclass({"cpu": 1.0}, {"a": 1}), TypeError, ["demands['cpu'] = 1.0", "mapping"]),
    (lambda: mva.exact_multiclass({"cpu": {"a": 1.0}}, {"a": 0}), ValueError, ["populations['a'] = 0"]),
    (lambda: mva.exact_multiclass({"cpu": {"a": 1.0}}, [1]), TypeError, ["populations = [1]"]),
    (lambda: mva.exact_multiclass({"cpu": {"a": 1.0}}, {"a": 1}, {"b": 1.0}), ValueError, ["think_times", "'b'"]),
    (lambda: mva.exact_multiclass({"cpu": {"a": 0.0}}, {"a": 1}), ValueError, ["class 'a'", "infinitely fast"]),
    (lambda: mva.bard_schweitzer({"cpu": 1.0}, 10**8), ValueError, ["population = 100000000"]),
    (lambda: mva.bard_schweitzer({"cpu": 1.0}, 3, tolerance=0.1), ValueError, ["tolerance = 0.1"]),
    (lambda: mva.sweep({"cpu": 1.0}, [], 1.0), ValueError, ["populations is empty"]),
    (lambda: mva.sweep({"cpu": 1.0}, [2], method="mean"), ValueError, ["method = 'mean'"]),
    (lambda: mva.demands_from({"a": 1}, {"b": 1.0}), ValueError, ["different stations"]),
])
def test_invalid_inputs_are_refused_with_a_message(call, error, words):
    with pytest.raises(error) as raised:
        call()
    for word in words:
        assert word in str(raised.value)


# --------------------------------------------------------------------------- simulation agrees with MVA

SEED = 20261123


def test_central_server_simulation_agrees_with_exact_mva():
    """Ten Ciw replications of the chapter's central-server model at 15 terminals: throughput
    and response time inside their 95% intervals; every per-station metric inside its
    Bonferroni-adjusted interval (95% for the family of nine)."""
    params = centralserver.CentralServerParams(terminals=15, max_time=700.0, warmup=70.0)
    theory = centralserver.mva_metrics(params)
    runs = replicate(centralserver.simulate, params, replications=10, seed=SEED, progress=False).runs
    _check_inside(runs, theory, headline=("throughput", "response_time"))


def _check_inside(runs, theory, headline):
    """Headline metrics inside their 95% intervals; all metrics inside Bonferroni-adjusted ones."""
    plain = summarize(runs)
    for metric in headline:
        assert plain.loc[metric, "low"] <= theory[metric] <= plain.loc[metric, "high"], metric
    wide = summarize(runs, confidence=1 - 0.05 / len(theory))
    for metric, value in theory.items():
        assert wide.loc[metric, "low"] <= value <= wide.loc[metric, "high"], metric


def _two_class_network(populations):
    """Terminals (delay) -> CPU -> disk -> CPU ...: class 0 ('interactive') makes 2 CPU bursts and
    one disk I/O per interaction, class 1 ('batch') 4 bursts and 3 I/Os and thinks less.  Both
    classes have the same service time per visit at each FIFO station, as product form requires."""
    import ciw

    think = {0: 3.0, 1: 0.5}
    ios = {0: 1, 1: 3}
    cpu_s, disk_s = 0.05, 0.08

    class Phase(ciw.routing.NodeRouting):
        """From the CPU: to the disk until the job has made its I/Os, then back to its terminal."""

        def next_node(self, ind):
            done = getattr(ind, "ios_done", 0)
            if done < ios[ind.customer_class]:
                ind.ios_done = done + 1
                return self.simulation.nodes[3]
            ind.ios_done = 0
            return self.simulation.nodes[1]

    def per_class(cls):
        population = closed_population(populations[cls])
        return dict(arrivals=[population.arrivals, None, None], batches=[population.batches, None, None])

    parts = {cls: per_class(cls) for cls in (0, 1)}
    return ciw.create_network(
        arrival_distributions={cls: parts[cls]["arrivals"] for cls in (0, 1)},
        batching_distributions={cls: parts[cls]["batches"] for cls in (0, 1)},
        service_distributions={cls: [ciw.dists.Exponential(1 / think[cls]), ciw.dists.Exponential(1 / cpu_s),
                                     ciw.dists.Exponential(1 / disk_s)] for cls in (0, 1)},
        number_of_servers=[math.inf, 1, 1],
        routing={cls: ciw.routing.NetworkRouting([ciw.routing.Direct(to=2), Phase(), ciw.routing.Direct(to=2)])
                 for cls in (0, 1)},
    ), {"cpu": {"interactive": 2 * cpu_s, "batch": 4 * cpu_s}, "disk": {"interactive": disk_s, "batch": 3 * disk_s}}, \
        {"interactive": think[0], "batch": think[1]}


TWO_CLASS_POPULATIONS = {0: 6, 1: 3}
TWO_CLASS_TIME, TWO_CLASS_WARMUP = 800.0, 80.0


def two_class_model(populations, seed):
    network, _, _ = _two_class_network(populations)
    _, records = run_ciw(network, seed, TWO_CLASS_TIME, TWO_CLASS_WARMUP, node_class=DelayNode)
    span = TWO_CLASS_TIME - TWO_CLASS_WARMUP
    metrics = {}
    for cls, name in ((0, "interactive"), (1, "batch")):
        mine = records[records["customer_class"] == cls]
        metrics[f"throughput {name}"] = len(mine[mine["node"] == 1]) / span
        for node, station in ((2, "cpu"), (3, "disk")):
            here = mine[mine["node"] == node]
            metrics[f"queue {station} {name}"] = float((here["waiting_time"] + here["service_time"]).sum()) / span
    return metrics


def test_two_class_simulation_agrees_with_exact_multiclass_mva():
    _, demands, think = _two_class_network(TWO_CLASS_POPULATIONS)
    theory = mva.exact_multiclass(demands, {"interactive": 6, "batch": 3}, think)
    expected = {}
    for name in ("interactive", "batch"):
        expected[f"throughput {name}"] = theory.throughput[name]
        for station in ("cpu", "disk"):
            expected[f"queue {station} {name}"] = theory.classes[name].queue_length[station]
    runs = replicate(two_class_model, TWO_CLASS_POPULATIONS, replications=10, seed=SEED, progress=False).runs
    _check_inside(runs, expected, headline=("throughput interactive", "throughput batch"))
