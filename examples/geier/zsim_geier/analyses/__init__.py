"""Hol's der Geier's analyses and report plan.

``specs.py`` lists them for zsim's analyses registry (``Geier.analyses`` names
it): the ``carry-over`` analysis (``carry_over.py``, its figures and findings
in ``carry_over_show.py``) and ``zsim report --game geier`` (``report_run.py``).
They build on zsim's shared analysis machinery, the ``analyses`` package.
"""
