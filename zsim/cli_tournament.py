"""``zsim tournament``: a fair tournament on duplicate deals.

The options mirror ``zsim simulate``'s; they are declared here rather than
imported from :mod:`zsim.cli`, because ``python -m zsim.cli`` imports this
module while ``zsim.cli`` runs as ``__main__``.
"""
from __future__ import annotations

import json

import click

from zsim.errors import ZsimError


@click.command()
@click.option("--players", "-p", type=int, default=4, show_default=True, help="players at the table (2..4)")
@click.option("--field", "field_spec", required=True, metavar="A,B,...",
              help="the competing strategies, comma-separated, each once (name:key=value sets "
                   "parameters); fewer than the players fill the table with copies")
@click.option("--games", "-n", type=int, default=2_000, show_default=True,
              help="deals, each played under every seating of the field")
@click.option("--seatings", "design", type=click.Choice(["all", "rotations"]), default="all",
              show_default=True,
              help="all: every seating of the field each deal; rotations: each table-sized subset "
                   "of the field in its rotations (balanced too, fewer games per deal)")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="run seed")
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE",
              help="override a rule (repeatable); see `zsim rules`")
@click.option("--deck", default=None, metavar="FILE", help="job deck CSV [default: jobs.csv]")
@click.option("--out", default=None, metavar="FILE",
              help="write one row per game per seat (Parquet)")
@click.option("--json", "as_json", is_flag=True, help="print the tables as JSON")
@click.option("--compare-independent", is_flag=True,
              help="also play as many games on independent deals and report how much the "
                   "duplicate deals narrow the confidence intervals")
@click.option("--threads", type=int, default=None, help="numba threads [default: all cores]")
def tournament(players, field_spec, games, design, seed, rules, deck, out, as_json, compare_independent,
               threads):
    """Play every strategy of the field from every seat on the same deals."""
    from zsim.games.zahltag.deck import load_deck
    from zsim.games.zahltag.rules import parse_rule_options
    from zsim.output import parquet_output
    from zsim.runner import check_games_and_seed, check_out_path
    from zsim.runner import set_threads
    from zsim.tournament import (
        parse_field,
        run_tournament,
        tournament_json,
        variance_reduction,
    )

    if not 2 <= players <= 4:
        raise ZsimError(f"--players must be 2..4, got {players}")
    entries = parse_field(field_spec)
    rule_set, deck_obj = parse_rule_options(rules), load_deck(deck)
    check_games_and_seed(games, seed)
    set_threads(threads)
    args = (entries, players, games, seed, rule_set, deck_obj)
    if out:
        with parquet_output(check_out_path(out)) as sink:
            result = run_tournament(*args, design=design, on_rows=sink.write)
    else:
        result = run_tournament(*args, design=design)
    comparison = None
    if compare_independent:
        comparison = variance_reduction(result, run_tournament(*args, design=design, independent=True))
    if as_json:
        click.echo(json.dumps(tournament_json(result, comparison), indent=1))
        return
    _print_report(result, comparison, deck_obj.name)


def _print_report(t, comparison, deck_name):
    import polars as pl

    n_seat, f, p = len(t.seatings), len(t.entries), t.players
    if t.design == "rotations":
        design = f"each {p}-subset of the field in its {p} rotations"
    elif f == 1:
        design = "copies in every seat"
    elif f < p:
        design = f"every seating with each entry in {p // f}..{-(-p // f)} seats"
    elif f == p:
        design = "every permutation"
    else:
        design = f"every seating of every {p}-subset of the field"
    click.echo(f"Tournament: {t.players} players, field {', '.join(t.entries)}; seed {t.seed}, "
               f"deck {deck_name}")
    same = "; each deal is the same cards under every seating" if n_seat > 1 else ""
    click.echo(f"{t.deals:,} deals x {n_seat:,} seating{'s' if n_seat > 1 else ''} ({design}) = "
               f"{t.games:,} games played{same}")
    click.echo("\nPer strategy (95% CIs over deals; a strategy's value in a deal is its mean over its "
               "seats in that deal's games):")
    frame = t.strategies()
    unfair = [e for e, fair in zip(t.entries, frame["fair"]) if not fair]
    frame = frame.with_columns(note=pl.when(pl.col("fair")).then(pl.lit(""))
                               .otherwise(pl.lit("upper bound, not fair"))).drop("fair")
    _print_table(frame)
    for e in unfair:
        click.echo(f"  {e}: reads hidden information, an upper bound rather than a fair competitor")
    if len(t.entries) > 1:
        click.echo("\nHead to head: share of shared games in which the row finished above the column "
                   "(ties count for neither):")
        _print_table(t.head_to_head_matrix())
    click.echo("\nPer seat (every strategy sits at every seat equally often):")
    _print_table(t.seats())
    if comparison is not None:
        click.echo(f"\nDuplicate vs independent deals ({t.games:,} games more on independent deals): "
                   "95% half-widths, their ratio (independent / duplicate) and the variance factor "
                   "(ratio squared: how many times as many games independent deals need for the "
                   "same precision; below 1, duplicate deals are the less precise):")
        _print_table(comparison, precision=4)


def _print_table(frame, precision=3):
    import polars as pl

    with pl.Config(tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True,
                   float_precision=precision, tbl_width_chars=200, tbl_cols=-1, tbl_rows=-1):
        click.echo(str(frame))
