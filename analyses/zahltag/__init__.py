"""Zahltag's analyses and report (``zsim analyze``, ``zsim report``)."""
