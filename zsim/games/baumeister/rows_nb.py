"""The fast Baumeister engine's cities: the building rules of a row, placing,
removing, the search for a build that can still be made, and scoring."""
from __future__ import annotations

from zsim.games.baumeister import constants as K
from zsim.jit import hot, hot_flat, hot_inline, index_nb


# ------------------------------------------------------------------ rows
@hot_inline
def row_allows_nb(s, final, city):
    """The types seat ``s``'s row may still take anywhere, by what it holds: one
    corner tower (outside the final round) and one town hall at most."""
    m = K.ALL_TYPES
    if final == 0 and city[s, K.C_CORNERS] >= 1:
        m &= ~(1 << K.CORNER)
    if city[s, K.C_HALLS] >= 1:
        m &= ~(1 << K.HALL)
    return m


@hot_inline
def beside_nb(m, c, deck):
    """The types of mask ``m`` that may stand beside card ``c`` (not of its kin)."""
    return m & ~K.SAME_KIN[index_nb(deck[index_nb(c), K.D_TYPE])]


@hot
def fits_at_nb(s, p, final, rows, city, deck):
    """The building rules at row index ``p`` (OFF + position) of seat ``s``'s row:
    bit t set where a card of type t may go there now."""
    s, p = index_nb(s), index_nb(p)
    m = row_allows_nb(s, final, city)
    if city[s, K.C_COUNT] == 0:
        return m if p == K.OFF else 0        # the first card
    left, right = city[s, K.C_LEFT], city[s, K.C_RIGHT]
    if p == left - 1:
        if city[s, K.C_CLOSED_L] != 0:
            return 0
    elif p == right + 1:
        if city[s, K.C_CLOSED_R] != 0:
            return 0
    elif left < p < right and rows[s, p] == 0:
        m &= ~(1 << K.CORNER)                # a gap: anything but a corner tower
    else:
        return 0
    nb = rows[s, index_nb(p - 1)]
    if nb != 0:
        m = beside_nb(m, nb, deck)
    nb = rows[s, p + 1]
    if nb != 0:
        m = beside_nb(m, nb, deck)
    return m


@hot_inline
def hand_in_nb(t):
    """What one card of type ``t`` adds to a hand's count of each type (the engine's
    ``holds[s]``: eight bits a type, as a hand holds at most MAX_CARDS; ``constants.HELD``
    reads it against a mask of types)."""
    return 1 << (8 * t)


@hot
def hand_add_nb(s, c, st, holds, deck):
    """Card ``c`` joins seat ``s``'s hand (kept ascending) and its count of each type
    (``holds[s]``, see :func:`hand_in_nb`). The list is kept without a branch on
    the cards: each slot takes the larger of the card before it and the smaller of its
    own card and ``c`` (the slot past the hand starts as ``c``). A loop that stopped
    where ``c`` belongs was mispredicted about once a card won (docs/performance.md,
    fifteenth round)."""
    n = st[s, K.ST_HAND]
    end = index_nb(K.ST_CARDS + n)
    st[s, end] = c
    for i in range(end, K.ST_CARDS, -1):
        i = index_nb(i)
        st[s, i] = max(min(st[s, i], c), st[s, index_nb(i - 1)])
    st[s, K.ST_CARDS] = min(st[s, K.ST_CARDS], c)
    st[s, K.ST_HAND] = n + 1
    holds[s] += hand_in_nb(deck[c, K.D_TYPE])


@hot
def hand_drop_nb(s, c, st, holds, deck):
    """Card ``c`` leaves seat ``s``'s hand and its count of each type: every slot from
    ``c``'s on takes the next card, chosen without a branch (the hand is ascending, so
    those are the slots holding ``c`` or more)."""
    end = index_nb(K.ST_CARDS + st[s, K.ST_HAND] - 1)
    for i in range(K.ST_CARDS, end):
        i = index_nb(i)
        here = st[s, i]
        st[s, i] = st[s, i + 1] if here >= c else here
    st[s, end] = 0                       # the slots past the hand stay 0
    st[s, K.ST_HAND] -= 1
    holds[s] -= hand_in_nb(deck[c, K.D_TYPE])


@hot
def place_nb(s, c, p, loc, rows, city, deck):
    """Card ``c`` to row index ``p``; the hand list is the caller's (a trial
    placement leaves it and only marks the card's ``loc``)."""
    s, c, p = index_nb(s), index_nb(c), index_nb(p)
    t = deck[c, K.D_TYPE]
    if city[s, K.C_COUNT] == 0:
        city[s, K.C_LEFT] = p
        city[s, K.C_RIGHT] = p
        if t == K.CORNER:
            city[s, K.C_CLOSED_L] = p
    elif p < city[s, K.C_LEFT]:
        city[s, K.C_LEFT] = p
        if t == K.CORNER:
            city[s, K.C_CLOSED_L] = p
    elif p > city[s, K.C_RIGHT]:
        city[s, K.C_RIGHT] = p
        if t == K.CORNER:
            city[s, K.C_CLOSED_R] = p
    rows[s, p] = c
    city[s, K.C_COUNT] += 1
    city[s, K.C_SHIELDS] += deck[c, K.D_SHIELDS]
    city[s, K.C_COINS] += deck[c, K.D_COINS]
    if t == K.HALL:
        city[s, K.C_HALLS] += 1
    if t == K.CORNER:
        city[s, K.C_CORNERS] += 1
    loc[c] = K.L_CITY + s


@hot
def remove_nb(s, p, rows, city, deck):
    """Take the card at row index ``p`` out of seat ``s``'s row; returns it."""
    c = rows[s, p]
    t = deck[c, K.D_TYPE]
    rows[s, p] = 0
    city[s, K.C_COUNT] -= 1
    city[s, K.C_SHIELDS] -= deck[c, K.D_SHIELDS]
    city[s, K.C_COINS] -= deck[c, K.D_COINS]
    if t == K.HALL:
        city[s, K.C_HALLS] -= 1
    if t == K.CORNER:
        city[s, K.C_CORNERS] -= 1
    if city[s, K.C_CLOSED_L] == p:
        city[s, K.C_CLOSED_L] = 0
    if city[s, K.C_CLOSED_R] == p:
        city[s, K.C_CLOSED_R] = 0
    if city[s, K.C_COUNT] == 0:
        city[s, K.C_LEFT] = 0
        city[s, K.C_RIGHT] = 0
    else:
        if p == city[s, K.C_LEFT]:
            q = p + 1
            while rows[s, q] == 0:
                q += 1
            city[s, K.C_LEFT] = q
        if p == city[s, K.C_RIGHT]:
            q = p - 1
            while rows[s, q] == 0:
                q -= 1
            city[s, K.C_RIGHT] = q
    return c


@hot
def unplace_nb(s, c, p, saved, loc, rows, city):
    """Undo a trial :func:`place_nb` (``saved``: the row's city slots before it)."""
    s, c, p = index_nb(s), index_nb(c), index_nb(p)
    rows[s, p] = 0
    for i in range(K.N_CITY):
        city[s, i] = saved[i]
    loc[c] = K.L_HAND + s


@hot_inline
def note_spot_nb(p, m, out, n, union):
    """Row index ``p`` noted for :func:`spots_nb` with the types ``m`` it takes, if
    any (in ``out``, unless it is empty); the spots' number and the union of their
    masks so far."""
    if m == 0:
        return n, union
    if out.shape[0] != 0:
        out[index_nb(n)] = (p << K.SPOT_SHIFT) | m
    return n + 1, union | m


@hot_flat
def spots_nb(s, final, rows, city, deck, out):
    """The row indexes where a card of some type may go now, ascending, into
    ``out`` as ``p << SPOT_SHIFT | mask`` (mask: :func:`fits_at_nb`'s bits at p),
    or nowhere when ``out`` is empty; returns their number and the union of
    their masks. Only the open ends and the gaps can take a card, and a row
    without gaps (its size equal to its span) has only its ends to ask, so a
    search walks two positions where a walk over the span asked every built one.

    The ends are asked here, not through :func:`fits_at_nb`: what the row's
    corner towers and town hall rule out (:func:`row_allows_nb`) holds for
    every spot, and an open end has one neighbour, the end card itself (the
    row is empty past it).

    ``hot_flat``: a call used to push some thirty words of array arguments for
    a walk of two positions; LLVM now copies the walk into each caller."""
    s = index_nb(s)
    m = row_allows_nb(s, final, city)
    if city[s, K.C_COUNT] == 0:            # the first card
        return note_spot_nb(K.OFF, m, out, 0, 0)
    left, right = index_nb(city[s, K.C_LEFT]), index_nb(city[s, K.C_RIGHT])
    n, union = 0, 0
    if city[s, K.C_CLOSED_L] == 0:
        n, union = note_spot_nb(left - 1, beside_nb(m, rows[s, left], deck), out, n, union)
    if city[s, K.C_COUNT] < right - left + 1:
        for p in range(left + 1, right):
            if rows[s, p] == 0:
                n, union = note_spot_nb(p, fits_at_nb(s, p, final, rows, city, deck), out, n, union)
    if city[s, K.C_CLOSED_R] == 0:
        n, union = note_spot_nb(right + 1, beside_nb(m, rows[s, right], deck), out, n, union)
    return n, union


@hot
def reach_nb(s, final, rows, city, deck):
    """Bit t set where a card of type t may go somewhere in seat ``s``'s row now
    (:func:`spots_nb` with an empty ``out``: the union alone)."""
    return spots_nb(s, final, rows, city, deck, rows[s, :0])[1]


@hot_inline
def can_place_nb(s, need, final, loc, rows, city, st, deck, saved, fit, memo, holds):
    """Can ``need`` more cards of seat ``s``'s hand be placed one after
    another? (``saved``, ``fit``: scratch rows, one per level of the search;
    ``memo``: the first builds' answers, ``holds``: each hand's count of each
    type, see :func:`first_search_nb`.)
    Cards placed on trial further up the search are out of the hand by their
    ``loc``; the hand list still holds them.

    Inlined where it is asked: most of a game's questions are for one card
    (every turn after a seat's first build), which needs no search, only
    the union of the positions' masks against the types in hand; a call
    would push every array argument for that. Two or more go to
    :func:`first_search_nb`."""
    if need <= 0:
        return True
    if st[s, K.ST_HAND] < need:
        return False
    if need > 1:
        return first_search_nb(s, need, final, loc, rows, city, st, deck, saved, fit, memo, holds)
    return one_card_nb(s, final, loc, rows, city, st, deck, fit[1])[1]


@hot_flat
def first_search_nb(s, need, final, loc, rows, city, st, deck, saved, fit, memo, holds):
    """:func:`search_nb`, its answer kept in ``memo`` where it depends on the hand's
    types alone. Only a first build asks for two cards or more, so its row holds
    nothing but the build's own trial placements: empty before it (step 3's check,
    every turn until the first build) or one card at position 0 after its first
    (that card's type says which end it closed). The answer then depends on the
    final round, the row's card, the number asked and how many cards of each type
    the hand holds (more than the number asked cannot help), and the rules and the
    deck, which hold for a whole run; so each such question is searched once per
    workspace (``constants.MEMO_SIZE``) and the game reads the answer after that.
    A kept answer is the search's own, so what a thread's workspace holds (which
    games it played before) changes nothing in a game. Other questions (a first
    build of four cards or more) are searched each time.

    The hand's count of each type is the engine's (``holds[s]``, see
    :func:`hand_in_nb`) less the row's one card: that card is on trial, out of
    the hand by its ``loc`` but still in the hand and its count."""
    s = index_nb(s)
    count = city[s, K.C_COUNT]
    if need > K.MEMO_NEEDS + 1 or count > 1 or st[s, K.ST_BUILT_ONCE] != 0:
        return search_nb(s, need, final, loc, rows, city, st, deck, saved, fit)
    row = 0
    packed = holds[s]
    if count == 1:
        t = deck[index_nb(rows[s, K.OFF]), K.D_TYPE]
        row = 1 + t
        packed -= hand_in_nb(t)
    code = 0
    for t in range(K.N_TYPES):
        code |= min((packed >> (8 * t)) & 255, need) << (2 * t)
    i = index_nb((((final * (1 + K.N_TYPES) + row) * K.MEMO_NEEDS + need - 2) * K.MEMO_HANDS) | code)
    kept = memo[i]
    if kept == 0:
        kept = 2 if search_nb(s, need, final, loc, rows, city, st, deck, saved, fit) else 1
        memo[i] = kept
    return kept == 2


@hot_inline
def one_card_nb(s, final, loc, rows, city, st, deck, out):
    """Can one card of seat ``s``'s hand (by its ``loc``: not placed on trial) be
    placed now? The row's spots go into ``out`` on the way (see :func:`spots_nb`);
    returns (their number, the answer). The search's last level asks this; step 3
    reads the engine's count of each type in hand instead (no card is on trial there)."""
    s = index_nb(s)
    n_spots, anywhere = spots_nb(s, final, rows, city, deck, out)
    hand = K.L_HAND + s
    for j in range(K.ST_CARDS, K.ST_CARDS + st[s, K.ST_HAND]):
        c = index_nb(st[s, index_nb(j)])
        if loc[c] == hand and (anywhere >> deck[c, K.D_TYPE]) & 1 != 0:
            return n_spots, True
    return n_spots, False


@hot
def search_nb(s, need, final, loc, rows, city, st, deck, saved, fit):
    """:func:`can_place_nb` for ``need`` >= 1 cards of a hand that holds at
    least ``need`` (its caller checked; a trial placement leaves the hand list
    as it is), by trying each type in hand at each position it may take and
    searching on from there."""
    s, need = index_nb(s), index_nb(need)
    spots = fit[need]
    n_spots, anywhere = spots_nb(s, final, rows, city, deck, spots)
    if anywhere == 0:
        return False
    for i in range(K.N_CITY):
        saved[need, i] = city[s, i]
    hand = K.L_HAND + s
    tried = 0
    for j in range(K.ST_CARDS, K.ST_CARDS + st[s, K.ST_HAND]):
        c = index_nb(st[s, index_nb(j)])
        if loc[c] != hand:
            continue
        # whether a card may go somewhere depends on its type alone: one card of each type will do
        bit = 1 << deck[c, K.D_TYPE]
        if tried & bit:
            continue
        tried |= bit
        if anywhere & bit == 0:
            continue
        if need == 1:
            return True
        for i in range(n_spots):
            if spots[i] & bit == 0:
                continue
            p = index_nb(spots[i] >> K.SPOT_SHIFT)
            place_nb(s, c, p, loc, rows, city, deck)
            ok = search_nb(s, need - 1, final, loc, rows, city, st, deck, saved, fit)
            unplace_nb(s, c, p, saved[need], loc, rows, city)
            if ok:
                return True
    return False


@hot_flat
def score_nb(s, rows, city, st, deck, rules, seat_out):
    built = 0
    left, right, count = city[s, K.C_LEFT], city[s, K.C_RIGHT], city[s, K.C_COUNT]
    for p in range(left, right + 1):
        c = rows[s, p]
        if c != 0:
            built += deck[c, K.D_VALUE]
    complete = count > 0 and right - left + 1 == count and city[s, K.C_CLOSED_L] != 0 \
        and city[s, K.C_CLOSED_R] != 0
    middle = 0
    churches = 0
    corners = 0
    if complete:
        if city[s, K.C_HALLS] == 1:
            h = left
            while deck[rows[s, h], K.D_TYPE] != K.HALL:
                h += 1
            if count % 2 == 1 and h - left == count // 2:
                middle = rules[K.R_BONUS_MIDDLE]
            n_left = 0
            n_right = 0
            for p in range(left, right + 1):
                if deck[rows[s, p], K.D_TYPE] == K.CHURCH:
                    if p < h:
                        n_left += 1
                    else:
                        n_right += 1
            if n_left == n_right and n_left >= 1:
                churches = rules[K.R_BONUS_CHURCHES]
        if deck[rows[s, left], K.D_VALUE] == deck[rows[s, right], K.D_VALUE]:
            corners = rules[K.R_BONUS_CORNERS]
    hand = 0
    for j in range(K.ST_CARDS, K.ST_CARDS + st[s, K.ST_HAND]):
        hand += deck[st[s, index_nb(j)], K.D_VALUE]
    seat_out[s, K.S_BUILT] = built
    seat_out[s, K.S_COMPLETE] = 1 if complete else 0
    seat_out[s, K.S_MIDDLE] = middle
    seat_out[s, K.S_CHURCHES] = churches
    seat_out[s, K.S_CORNERS] = corners
    seat_out[s, K.S_HAND] = hand
    seat_out[s, K.S_TOTAL] = built + middle + churches + corners - hand
