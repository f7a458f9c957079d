"""``zsim tournament``: a fair tournament on duplicate deals.

The options mirror ``zsim simulate``'s; the shared ones come from
:mod:`zsim.cli_options`.
"""
from __future__ import annotations

import json
import warnings

import click

from zsim.cli_options import (DECK, GAME, PLAYERS, QUIET, RULE, SEED, THREADS, check_given, check_players,
                              game_deck, game_of, game_rules)


@click.command()
@GAME
@PLAYERS
@click.option("--field", "field_spec", required=True, metavar="A,B,...",
              help="the competing strategies, comma-separated, each once (name:key=value sets "
                   "parameters); fewer than the players fill the table with copies")
@click.option("--games", "-n", type=int, default=2_000, show_default=True,
              help="deals, each played under every seating of the design (with rotations, of "
                   "the deal's cyclic order)")
@click.option("--seatings", "design", type=click.Choice(["all", "rotations"]), default="all",
              show_default=True,
              help="all: every seating of the field each deal; rotations: each table-sized subset "
                   "of the field in its P rotations, in one of its (P-1)! cyclic orders (2 at three "
                   "players, 6 at four), the orders taking contiguous blocks of the deals, equal when "
                   "--games is a multiple of (P-1)! and one deal apart otherwise; balanced like all "
                   "over the orders, fewer games per deal")
@SEED
@RULE
@DECK
@click.option("--out", default=None, metavar="FILE",
              help="write one row per game per seat (Parquet)")
@click.option("--json", "as_json", is_flag=True, help="print the tables as JSON")
@click.option("--compare-independent", is_flag=True,
              help="also play as many games on independent deals and report how much the "
                   "duplicate deals narrow the confidence intervals")
@THREADS
@QUIET
def tournament(game, players, field_spec, games, design, seed, rules, deck, out, as_json, compare_independent,
               threads, quiet):
    """Play every strategy of the field from every seat on the same deals.

    Two entries that played identical games (checked on 256 deals after the
    tournament) get a warning on stderr and are listed under "identical" in
    the JSON. Ctrl-C stops it with no results and no --out file (exit status
    130)."""
    from zsim.output import parquet_output
    from zsim.progress import exit_interrupted, progress
    from zsim.runner import check_games_and_seed, check_out_path
    from zsim.runner import set_threads
    from zsim.tournament import (
        parse_field,
        run_tournament,
        seatings,
        tournament_json,
        variance_reduction,
    )

    if quiet:
        warnings.simplefilter("ignore")
    spec = game_of(game)
    check_players(spec, players)
    check_given(out, "--out")
    entries = parse_field(field_spec, spec.name)
    rule_set, deck_obj = game_rules(spec, rules, players), game_deck(spec, deck)
    check_games_and_seed(games, seed)
    set_threads(threads)
    target = check_out_path(out) if out else None
    args = (entries, players, games, seed, rule_set, deck_obj)
    # games in all: every deal under every seating, twice with --compare-independent
    total = games * len(seatings(len(entries), players, design)[0]) * (2 if compare_independent else 1)
    stopped = False

    def play(on_rows=None):
        result = run_tournament(*args, design=design, on_rows=on_rows, on_games=bar.advance, game=spec.name)
        comparison = None
        if compare_independent:
            comparison = variance_reduction(result, run_tournament(
                *args, design=design, independent=True, on_games=bar.advance, check_identical=False,
                game=spec.name))
        return result, comparison

    with progress(total, "tournament", quiet) as bar:
        try:
            if target is not None:
                # the comparison runs inside too: --out appears only when all is done
                with parquet_output(target) as sink:
                    result, comparison = play(sink.write)
            else:
                result, comparison = play()
        except KeyboardInterrupt:   # the --out file's temporary file is already gone
            stopped = True
    if stopped:
        unwritten = f"; {target} was not written" if target is not None else ""
        exit_interrupted(f"after {bar.done:,} of {total:,} games; no results{unwritten}")
    if not quiet:
        for a, b in result.identical:
            click.echo(f"warning: {a} and {b} played identical games in every one of the "
                       f"{result.identical_deals:,} deals checked: they are one strategy here; "
                       f"their rows differ only by the seatings each drew (keep one of them)", err=True)
    if as_json:
        click.echo(json.dumps(tournament_json(result, comparison), indent=1))
        return
    _print_report(result, comparison, f"deck {deck_obj.name}" if deck_obj is not None else spec.title)


def _print_report(t, comparison, deck_name):
    import polars as pl

    n_seat, f, p = t.per_deal, len(t.entries), t.players
    if t.design == "rotations":
        q = len(t.orders)
        shares = "equal" if t.deals % q == 0 else "one deal apart"
        design = (f"each {p}-subset of the field in its {p} rotations, in one of its {q} cyclic orders "
                  f"a deal; the orders take blocks of {'..'.join(map(str, sorted(set(t.order_deals().tolist()))))} "
                  f"deals ({shares})") if q > 1 else f"each {p}-subset of the field in its {p} rotations"
    elif f == 1:
        design = "copies in every seat"
    elif f < p:
        design = f"every seating with each entry in {p // f}..{-(-p // f)} seats"
    elif f == p:
        design = "every permutation"
    else:
        design = f"every seating of every {p}-subset of the field"
    click.echo(f"Tournament: {t.players} players, field {', '.join(t.entries)}; seed {t.seed}, "
               f"{deck_name}")
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
        click.echo("95% half-widths of those shares (over deals):")
        _print_table(t.head_to_head_matrix(ci=True), precision=4)
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

    from zsim.terminal import table_formatting

    with pl.Config(tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True,
                   float_precision=precision, tbl_width_chars=200, tbl_cols=-1, tbl_rows=-1,
                   **table_formatting()):
        click.echo(str(frame))
