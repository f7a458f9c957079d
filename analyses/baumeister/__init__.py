"""Wettstreit der Baumeister's analyses (zsim analyze --game baumeister, zsim report --game baumeister)."""
