"""Search over a game's forward model, written once for every game (numba).

``search_nb`` answers one decision of one seat. Three modes share the code:

``ISMCTS`` (fair)
    Single-observer information-set MCTS (Cowling, Powley and Whitehouse,
    2012). Every iteration draws a fresh position from the deciding seat's
    information set (``determinize_nb``), walks the one tree down through the
    options that position offers, choosing among them by UCB with
    availability counts (an option's exploration term counts the visits in
    which it could have been chosen, not all of its parent's) and
    progressive widening (a node visited N times offers at most
    max(32, sqrt(N)) of its options, those around the rollout bot's answer),
    adds one node,
    plays the game out with the rollout bot (or, with a ``horizon``, that
    many decisions of it, the position then scored by the game's value
    estimate), and backs up each seat's share of first place to the nodes
    that seat chose.
``PIMC`` (fair)
    Perfect-information Monte Carlo: ``worlds`` positions drawn from the
    seat's information set, each searched by plain UCT as if it were the
    truth, the root's visits summed over them.
``SEER`` (not fair: an upper bound)
    UCT on the true position itself, deck order and every hand included.

Sealed decisions (``sealed_nb`` > 0: the bids of one round, revealed
together) never see each other: a seat's statistics for a sealed decision
sit under the node where the round began, keyed by the seat, so they are the
same whatever the seats before it chose in that round (decoupled UCT); the
walk itself still records every choice, since the round's outcome is public
once it is revealed. The determinisation hides the others' answers already
given in the round, so the deciding seat answers first.

The tree lives in preallocated arrays (``new_tree``), cleared for every
decision; a full tree stops growing and goes on with the nodes it has.
The budget is a count of iterations, never a clock, and every draw comes
from the ``seed`` the caller passes, so a search is a pure function of the
seat's information set and the seed.
"""
from __future__ import annotations

import numpy as np

from zsim.harness.forward import (fm_apply_nb, fm_bot_nb, fm_decider_nb, fm_determinize_nb, fm_options_nb,
                                  fm_reward_nb, fm_sealed_nb, fm_value_nb)
from zsim.jit import hot, hot_flat
from zsim.rng import below_nb
from zsim.search_specs import ISMCTS, PIMC


# a node's tag: how its key reads
T_OPTION = 0        # chosen option ``key`` (its statistics are its chooser's)
T_SEAL = 1          # the statistics of seat ``key``'s sealed answer in the round begun at the parent
T_AFTER = 2         # the walk after sealed answer ``key`` (no statistics of its own)

# node fields (int64 rows of ``tree[0]``)
N_FIRST, N_NEXT, N_TAG, N_KEY, N_MOVER, N_VISITS, N_AVAIL = range(7)
N_FIELDS = 7

#: progressive widening: a node visited N times offers at most
#: max(widen, sqrt(N)) options, a window of the listed ones around the
#: rollout bot's answer, tried first; a decision with at most ``widen``
#: options is never cut. ``widen`` is a search parameter whose default each
#: game's contract gives (``StrategyContract.widen``), this one unless it
#: says otherwise: Zahltag's largest decision has 21 options, Zahlemann's 5,
#: Geier's 15, so none of them is cut, while a Baumeister bid may be any
#: amount up to 200
WIDEN_FROM = 32
#: ``first`` of a node whose options are not cut: none is tried before the others
NO_OPTION = -(1 << 62) + 1


def tree_capacity(iterations: int) -> int:
    """The nodes a search of ``iterations`` may add: one an iteration, and in a
    sealed round a few more (the statistics of each seat and the walk after it)."""
    return 8 * iterations + 64


def new_tree(capacity: int, position_words: int, max_options: int, players: int) -> tuple:
    """The arrays one search thread reuses: node rows, node values, the walk's
    path, the working position, the options, rewards, the search's stream,
    the root's summed visits (PIMC), the position a PIMC world starts from
    and each option's node at the one being walked."""
    return (np.zeros((capacity, N_FIELDS), np.int64), np.zeros(capacity, np.float64),
            np.zeros(capacity, np.int64), np.zeros(position_words, np.int64), np.zeros(max_options, np.int64),
            np.zeros(players, np.float64), np.zeros(1, np.uint64), np.zeros((max_options, 3), np.float64),
            np.zeros(position_words, np.int64), np.zeros(max_options, np.int64))


@hot_flat
def _clear(nodes, values):
    nodes[0, N_FIRST] = -1
    nodes[0, N_NEXT] = -1
    nodes[0, N_TAG] = T_OPTION
    nodes[0, N_KEY] = -1
    nodes[0, N_MOVER] = -1
    nodes[0, N_VISITS] = 0
    nodes[0, N_AVAIL] = 0
    values[0] = 0.0
    return 1


@hot_flat
def _child(nodes, parent, tag, key):
    """The child of ``parent`` with ``tag`` and ``key``, or -1."""
    c = nodes[parent, N_FIRST]
    while c >= 0:
        if nodes[c, N_KEY] == key and nodes[c, N_TAG] == tag:
            return c
        c = nodes[c, N_NEXT]
    return -1


@hot_flat
def _add(nodes, values, used, parent, tag, key, mover):
    """A new child of ``parent``, or -1 when the tree is full; returns (node, used)."""
    if used >= nodes.shape[0]:
        return -1, used
    nodes[used, N_FIRST] = -1
    nodes[used, N_NEXT] = nodes[parent, N_FIRST]
    nodes[used, N_TAG] = tag
    nodes[used, N_KEY] = key
    nodes[used, N_MOVER] = mover
    nodes[used, N_VISITS] = 0
    nodes[used, N_AVAIL] = 0
    values[used] = 0.0
    nodes[parent, N_FIRST] = used
    return used, used + 1


@hot_flat
def _pick(nodes, values, used, parent, seat, opts, n, c, rng, kids, first):
    """Choose among ``opts[:n]`` at ``parent``: an option never tried there
    first (``first`` if it is one, else uniformly among them; a node is
    added for it), else the best
    UCB score with availability counts. ``kids``: room for each option's
    node, found once. Returns (option, its node or -1 when the tree is full,
    whether it is new, used)."""
    untried = 0
    for i in range(n):
        ch = _child(nodes, parent, T_OPTION, opts[i])
        kids[i] = ch
        if ch < 0:
            untried += 1
        else:
            nodes[ch, N_AVAIL] += 1
    if untried > 0 and first != NO_OPTION:
        for i in range(n):
            if kids[i] < 0 and opts[i] == first:
                node, used = _add(nodes, values, used, parent, T_OPTION, opts[i], seat)
                return opts[i], node, True, used
    if untried > 0:
        k = below_nb(rng, 0, untried)
        for i in range(n):
            if kids[i] < 0:
                if k == 0:
                    node, used = _add(nodes, values, used, parent, T_OPTION, opts[i], seat)
                    return opts[i], node, True, used
                k -= 1
    best = -1
    best_score = -1.0
    for i in range(n):
        ch = kids[i]
        v = nodes[ch, N_VISITS]
        score = values[ch] / v + c * np.sqrt(np.log(nodes[ch, N_AVAIL]) / v)
        if score > best_score:
            best_score = score
            best = ch
    return nodes[best, N_KEY], best, False, used


@hot
def _widen(roster, det, opts, n, widen, visits, rollout_ids, rollout_params, consts):
    """Progressive widening: keep in ``opts`` the max(widen, sqrt(visits))
    listed options around the rollout bot's answer (a bid's amounts near the
    bot's bid, say); returns (how many, the bot's answer, which the node
    tries first, or NO_OPTION where nothing is cut). Without it a decision
    of a hundred bid amounts spreads a budget of a thousand iterations over
    all of them, and a rival's reply, tried once each, is a random one."""
    limit = max(widen, np.int64(np.sqrt(visits)))
    if limit >= n:
        return n, NO_OPTION
    answer = fm_bot_nb(roster, rollout_ids, rollout_params, det, consts)
    anchor = 0
    for i in range(n):
        if opts[i] == answer:
            anchor = i
            break
    lo = min(max(anchor - limit // 2, 0), n - limit)
    for i in range(limit):
        opts[i] = opts[lo + i]
    return limit, answer


@hot
def _iterate(roster, det, observer, used, c, horizon, widen, rollout_ids, rollout_params, consts, ws, tree):
    """One iteration from the root (node 0) on the position ``det``; returns the nodes used."""
    nodes, values, path, _, opts, rewards, rng, _, _, kids = tree
    node = 0
    depth = 0
    round_id = 0
    round_node = 0
    grown = False
    while not grown:
        seat = fm_decider_nb(roster, det)
        if seat < 0:
            break
        n = fm_options_nb(roster, det, consts, opts)
        sealed = fm_sealed_nb(roster, det)
        parent = node
        if sealed > 0:
            if sealed != round_id:
                round_id = sealed
                round_node = node
            parent = _child(nodes, round_node, T_SEAL, seat)
            if parent < 0:
                parent, used = _add(nodes, values, used, round_node, T_SEAL, seat, seat)
            if parent >= 0:
                nodes[parent, N_VISITS] += 1     # a seat's sealed statistics count their walks
        else:
            round_id = 0
        if parent < 0:                       # the tree is full: play on without it
            break
        first = NO_OPTION
        if n > widen:
            n, first = _widen(roster, det, opts, n, widen, nodes[parent, N_VISITS], rollout_ids, rollout_params,
                              consts)
        option, chosen, grown, used = _pick(nodes, values, used, parent, seat, opts, n, c, rng, kids, first)
        fm_apply_nb(roster, det, option, consts, ws)
        if chosen < 0:
            break
        path[depth] = chosen
        depth += 1
        if sealed > 0:
            after = _child(nodes, node, T_AFTER, option)
            if after < 0:
                after, used = _add(nodes, values, used, node, T_AFTER, option, seat)
            if after < 0:
                break
            node = after
        else:
            node = chosen
    steps = 0
    while fm_decider_nb(roster, det) >= 0 and (horizon <= 0 or steps < horizon):
        fm_apply_nb(roster, det, fm_bot_nb(roster, rollout_ids, rollout_params, det, consts), consts, ws)
        steps += 1
    if fm_decider_nb(roster, det) >= 0:
        fm_value_nb(roster, det, consts, rewards)
    else:
        fm_reward_nb(roster, det, rewards)
    nodes[0, N_VISITS] += 1
    for i in range(depth):
        ch = path[i]
        nodes[ch, N_VISITS] += 1
        values[ch] += rewards[nodes[ch, N_MOVER]]
    return used


@hot_flat
def _root_parent(nodes, roster, root, observer):
    """The node whose children hold the root decision's statistics."""
    if fm_sealed_nb(roster, root) > 0:
        return _child(nodes, 0, T_SEAL, observer)
    return 0


@hot
def search_nb(roster, root, seed, mode, iterations, worlds, c, horizon, widen, rollout_ids, rollout_params, consts, ws,
              tree, stats):
    """The answer of the seat to decide at ``root``; ``stats[:k]`` gets the
    root options' (option, visits, mean share of first place) rows, in the
    order ``options_nb`` lists them; returns (option, k)."""
    nodes, values, _, det, opts, _, rng, summed, world, _ = tree
    observer = fm_decider_nb(roster, root)
    rng[0] = seed
    n_root = fm_options_nb(roster, root, consts, opts)
    for i in range(n_root):
        summed[i, 0] = opts[i]
        summed[i, 1] = 0.0
        summed[i, 2] = 0.0
    rounds = worlds if mode == PIMC else 1
    per_round = iterations // rounds if mode == PIMC else iterations
    for w in range(rounds):
        used = _clear(nodes, values)
        if mode == PIMC:
            fm_determinize_nb(roster, root, observer, rng, world, consts, ws)
        for it in range(per_round + (1 if mode == PIMC and w < iterations % rounds else 0)):
            if mode == ISMCTS:
                fm_determinize_nb(roster, root, observer, rng, det, consts, ws)
            elif mode == PIMC:
                for i in range(world.shape[0]):
                    det[i] = world[i]
            else:
                for i in range(root.shape[0]):
                    det[i] = root[i]
            used = _iterate(roster, det, observer, used, c, horizon, widen, rollout_ids, rollout_params, consts, ws,
                            tree)
        parent = _root_parent(nodes, roster, root, observer)
        if parent >= 0:
            for i in range(n_root):
                ch = _child(nodes, parent, T_OPTION, summed[i, 0])
                if ch >= 0:
                    summed[i, 1] += nodes[ch, N_VISITS]
                    summed[i, 2] += values[ch]
    best = 0
    for i in range(n_root):
        stats[i, 0] = summed[i, 0]
        stats[i, 1] = summed[i, 1]
        stats[i, 2] = summed[i, 2] / summed[i, 1] if summed[i, 1] > 0 else 0.0
        if (stats[i, 1] > stats[best, 1]) or (stats[i, 1] == stats[best, 1] and stats[i, 2] > stats[best, 2]):
            best = i
    return np.int64(stats[best, 0]), n_root
