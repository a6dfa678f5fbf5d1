"""A first-in-first-out Ciw node that finds its next customer in constant time.

Stock :meth:`ciw.Node.choose_next_customer` builds the list of every waiting
customer before handing it to the service discipline, which makes a start of
service cost O(queue length) and a long queue quadratic overall.  Under FIFO the
customer to serve is simply the first one in arrival order without a server,
and the customers that hold servers all sit near the head of the list, so a
lazy scan stops after at most ``c`` steps.  The choice is exactly the one stock
Ciw makes, so the records are identical (``tests/test_fifo.py`` checks this).

``FIFONode`` is an :class:`perfstudies.engine.Node`, so under
:class:`perfstudies.engine.Simulation` (what :func:`perfstudies.runner.run_ciw`
builds) it is re-dated only when an event touches it; under a stock
:class:`ciw.Simulation` it is a :class:`ciw.Node` with a faster FIFO choice.
"""

import ciw

from perfstudies import engine


class FIFONode(engine.Node):
    """A :class:`perfstudies.engine.Node` whose FIFO choice scans lazily instead of copying.

    Any other service discipline falls back to the stock implementation, so the
    class is safe to use for every node of a network.

    Examples
    --------
    >>> import ciw
    >>> net = ciw.create_network(
    ...     arrival_distributions=[ciw.dists.Exponential(1.0)],
    ...     service_distributions=[ciw.dists.Exponential(2.0)],
    ...     number_of_servers=[1])
    >>> ciw.seed(1)
    >>> sim = ciw.Simulation(net, node_class=FIFONode)
    >>> sim.simulate_until_max_time(10.0)
    """

    def choose_next_customer(self):
        if self.service_discipline is not ciw.disciplines.FIFO:
            return super().choose_next_customer()
        for priority_individuals in self.individuals:
            for individual in priority_individuals:
                if not individual.server:
                    return individual
        return None
