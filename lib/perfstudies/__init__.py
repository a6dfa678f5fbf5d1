"""Ciw queueing-network models that rebuild historical mainframe performance reports.

The package is organised as one small module per job:

``fifo``       a FIFO Ciw node that does not rebuild its waiting list.
``delay``      an infinite-server Ciw node with a heap of departures.
``networks``   building blocks of the studies' networks: closed populations,
               Gamma by mean, per-run node state.
``params``     validated, immutable parameter records.
``runner``     seeded runs and replications with confidence intervals.
``sweep``      many parameter points x replications, locally or on Dask.
``compare``    the standard published-vs-model comparison table: three roles,
               no-change baselines, one tolerance policy, the scoreboard.
``data``       published tables as CSV files checked against their manifests.
``charts``     Altair helpers, including the offline renderer used by the book.
``diagrams``   queueing-network diagrams and timelines, drawn with Altair.
``widgets``    ipywidgets helpers that build controls from parameter records.
``reference``  textbook queues (M/M/1, M/M/c, M/M/1/K) with closed forms.
``mva``        exact and approximate mean value analysis, asymptotic and
               balanced job bounds for closed product-form networks.
``centralserver`` the central-server model the opening chapter solves and simulates.
``warmup``     MSER-5 truncation of an initial transient.
``tables``     numbers and tables as a reader sees them.
``studies``    the registry of studies and the skeleton every study package
               follows; ``models`` holds one package per study.
"""

from perfstudies._lazy import defer_rfc3987_syntax

__version__ = "0.1.0"

# A chapter's first import: jsonschema (through Altair) would build an RFC 3987 parser no chart uses.
defer_rfc3987_syntax()
