"""The fast Baumeister engine's saboteurs: the targets and both attacks."""
from __future__ import annotations

from zsim.games.baumeister import constants as K
from zsim.games.baumeister.rows_nb import hand_drop_nb, remove_nb
from zsim.games.baumeister.table_nb import ask_nb, put_under_nb, roll_nb
from zsim.jit import hot_flat, hot_inline
from zsim.rng import below_nb


@hot_flat
def building_target_nb(s, t, city):
    """Whether seat s may aim a building attack at seat t: a rival with a building.
    The one place this rule is written; the fewest-shields choice comes after."""
    return t != s and city[t, K.C_COUNT] > 0


@hot_flat
def hand_target_nb(s, t, st, rules):
    """Whether seat s may aim a hand attack at seat t: a rival holding at least
    the rules' hand_sabotage_min cards."""
    return t != s and st[t, K.ST_HAND] >= rules[K.R_HAND_MIN]


@hot_flat
def building_targets_nb(s, city, rules, opts):
    """The rivals a building attack may target, into opts; their number."""
    players = city.shape[0]
    least = -1
    for t in range(players):
        if building_target_nb(s, t, city) and (least < 0 or city[t, K.C_SHIELDS] < least):
            least = city[t, K.C_SHIELDS]
    n = 0
    for t in range(players):
        if building_target_nb(s, t, city) and (rules[K.R_ANY] != 0 or city[t, K.C_SHIELDS] == least):
            opts[n] = t
            n += 1
    return n


@hot_flat
def any_building_target_nb(s, city):
    """Whether a building attack has a target (:func:`building_targets_nb` lists
    them). Step 3 asks only this, every turn a seat holds a saboteur, and lists no
    targets it would then overwrite: the rival with the fewest shields is always
    listed, so any target at all means a list of at least one."""
    for t in range(city.shape[0]):
        if building_target_nb(s, t, city):
            return True
    return False


@hot_flat
def any_hand_target_nb(s, st, rules):
    """Whether a hand attack has a target (:func:`hand_targets_nb` lists them)."""
    for t in range(st.shape[0]):
        if hand_target_nb(s, t, st, rules):
            return True
    return False


@hot_flat
def hand_targets_nb(s, st, rules, opts):
    """The rivals a hand attack may target, into opts; their number."""
    n = 0
    for t in range(st.shape[0]):
        if hand_target_nb(s, t, st, rules):
            opts[n] = t
            n += 1
    return n


@hot_flat
def count_destroyed_nb(target, seat_out, game_out):
    seat_out[target, K.S_DESTROYED] += 1
    game_out[K.G_DESTROYED] += 1


@hot_inline
def destroy_nb(card, target, attacker, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng,
               stacks, seat_out, game_out):
    count_destroyed_nb(target, seat_out, game_out)
    put_under_nb(card, attacker, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks)


# the attacks, cut at their decisions into pieces: attack_building_nb and attack_hand_nb ask
# between them, the forward model (forward_nb.py) one decision at a time
@hot_flat
def attack_begin_nb(s, counter, st, pub, seat_out, game_out):
    """Seat ``s`` sends a saboteur (back to the reserve whatever comes of it);
    ``counter``: the game row's count of the attack's form."""
    st[s, K.ST_SAB] -= 1
    pub[K.PUB_RESERVE] += 1
    seat_out[s, K.S_ATTACKS] += 1
    game_out[counter] += 1
    pub[K.PUB_ATTACKER] = s


@hot_flat
def card_spots_nb(t, rows, city, opts):
    """The row indexes of seat ``t``'s built cards, ascending, into opts; their number."""
    n = 0
    for p in range(city[t, K.C_LEFT], city[t, K.C_RIGHT] + 1):
        if rows[t, p] != 0:
            opts[n] = p
            n += 1
    return n


@hot_flat
def offer_options_nb(t, st, opts):
    """Whether the defender ``t`` (saboteur=any) may offer (a purse of 1 or more);
    if so its range into opts, as an amount's low and high (0: no offer)."""
    purse = st[t, K.ST_MONEY]
    if purse >= 1:
        opts[0] = 0
        opts[1] = purse
        return True
    return False


@hot_flat
def answer_options_nb(yes, no, opts):
    """A yes/no choice (KEEP/LOSE, ACCEPT/REFUSE) into opts; their number."""
    opts[0] = yes
    opts[1] = no
    return 2


@hot_flat
def any_roll_nb(t, city, rng):
    """saboteur=any, no offer accepted: the roll; whether it destroys (S, or above the city's shields)."""
    face = roll_nb(rng)
    return face == K.SAB_FACE or face > city[t, K.C_SHIELDS]


ROLL_FAILS, ROLL_DESTROYS, ROLL_KEEP = 0, 1, 2


@hot_flat
def weakest_roll_nb(t, p, rows, st, deck, rng):
    """The printed attack's roll: ROLL_DESTROYS on S, ROLL_FAILS on 1-2; on 3-5 ROLL_KEEP
    when the owner can pay the card's value to keep it (the owner is asked), else ROLL_DESTROYS."""
    face = roll_nb(rng)
    if face == K.SAB_FACE:
        return ROLL_DESTROYS
    if face >= 3:
        if st[t, K.ST_MONEY] >= deck[rows[t, p], K.D_VALUE]:
            return ROLL_KEEP
        return ROLL_DESTROYS
    return ROLL_FAILS


@hot_flat
def settle_attack_nb(s, t, p, paid, paid_column, destroyed, rows, city, st, deck, seat_out, game_out):
    """The attack on ``t``'s card at row index ``p`` ends: ``paid`` goes from ``t`` to ``s`` (counted in
    ``t``'s ``paid_column`` when above 0); a destroyed card leaves the row. Returns the card
    destroyed, to go under a stack (0: none)."""
    if paid > 0:
        seat_out[t, paid_column] += paid
    st[t, K.ST_MONEY] -= paid
    st[s, K.ST_MONEY] += paid
    if destroyed:
        card = remove_nb(t, p, rows, city, deck)
        count_destroyed_nb(t, seat_out, game_out)
        return card
    return 0


@hot_flat
def hand_pick_nb(t, st, holds, deck, rng):
    """The hand attack's chance: one of ``t``'s cards, picked uniformly, leaves the hand; returns it."""
    index = below_nb(rng, K.TABLE_STREAM, st[t, K.ST_HAND])
    card = st[t, K.ST_CARDS + index]          # the hand is kept ascending: the index-th card by id
    hand_drop_nb(t, card, st, holds, deck)
    return card


@hot_inline
def attack_building_nb(s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks,
                       seat_out, game_out):
    attack_begin_nb(s, K.G_BUILDING_ATTACKS, st, pub, seat_out, game_out)
    n = building_targets_nb(s, city, rules, opts)
    i = 0
    if n > 1:
        i = ask_nb(s, K.D_TARGET, n, roster, ids, params, mem, deck, rules, rng)
        if i < 0:
            return
    t = opts[i]
    pub[K.PUB_TARGET] = t
    n = card_spots_nb(t, rows, city, opts)
    i = 0
    if n > 1:
        i = ask_nb(s, K.D_CARD, n, roster, ids, params, mem, deck, rules, rng)
        if i < 0:
            return
    p = opts[i]
    pub[K.PUB_ATTACK_POS] = p
    destroyed = False
    paid = 0
    column = K.S_KEPT_PAID
    if rules[K.R_ANY] != 0:
        offer = 0
        if offer_options_nb(t, st, opts):
            offer = ask_nb(t, K.D_OFFER, 2, roster, ids, params, mem, deck, rules, rng)
            if offer < 0:
                return
        accepted = False
        if offer > 0:
            pub[K.PUB_OFFER] = offer
            i = ask_nb(s, K.D_ACCEPT, answer_options_nb(K.ACCEPT, K.REFUSE, opts), roster, ids, params, mem, deck,
                       rules, rng)
            if i < 0:
                return
            accepted = opts[i] == K.ACCEPT
        if accepted:
            paid = offer
            column = K.S_OFFER_PAID
        else:
            destroyed = any_roll_nb(t, city, rng)
    else:
        roll = weakest_roll_nb(t, p, rows, st, deck, rng)
        if roll == ROLL_KEEP:
            i = ask_nb(t, K.D_KEEP, answer_options_nb(K.KEEP, K.LOSE, opts), roster, ids, params, mem, deck, rules,
                       rng)
            if i < 0:
                return
            if opts[i] == K.KEEP:
                paid = deck[rows[t, p], K.D_VALUE]
            else:
                destroyed = True
        else:
            destroyed = roll == ROLL_DESTROYS
    card = settle_attack_nb(s, t, p, paid, column, destroyed, rows, city, st, deck, seat_out, game_out)
    if destroyed:
        put_under_nb(card, s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks)


@hot_inline
def attack_hand_nb(s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks, holds,
                   seat_out, game_out):
    attack_begin_nb(s, K.G_HAND_ATTACKS, st, pub, seat_out, game_out)
    n = hand_targets_nb(s, st, rules, opts)
    i = 0
    if n > 1:
        i = ask_nb(s, K.D_TARGET, n, roster, ids, params, mem, deck, rules, rng)
        if i < 0:
            return
    t = opts[i]
    pub[K.PUB_TARGET] = t
    card = hand_pick_nb(t, st, holds, deck, rng)
    destroy_nb(card, t, s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks,
               seat_out, game_out)
