"""Analyses: pure functions from polars frames to frames and figures."""
