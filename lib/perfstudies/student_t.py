"""Student's t quantiles for the confidence intervals, without importing ``scipy.stats``.

Importing ``scipy.stats`` takes 1.5-3 s on this project's 2-core machine, most of the start-up of a
chapter's kernel, of a live panel's first result and of every sweep child, and the library used it
only for ``stats.t.ppf``.  That is ``scipy.special.stdtrit`` behind argument checks (``scipy``'s
``t_gen._ppf``), so :func:`quantile` gives the same floats, ``nan`` for no degrees of freedom
included (``tests/test_student_t.py`` compares them).
"""

from scipy import special


def quantile(probability, degrees_of_freedom):
    """The ``probability`` quantile of Student's t with ``degrees_of_freedom`` (numbers or arrays)."""
    return special.stdtrit(degrees_of_freedom, probability)
