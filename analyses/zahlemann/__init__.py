"""Zahlemann & Söhne's analyses and report (``zsim analyze --game zahlemann``)."""
