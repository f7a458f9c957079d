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


@hot_inline
def destroy_nb(card, target, attacker, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng,
               stacks, seat_out, game_out):
    seat_out[target, K.S_DESTROYED] += 1
    game_out[K.G_DESTROYED] += 1
    put_under_nb(card, attacker, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks)


@hot_inline
def attack_building_nb(s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks,
                       seat_out, game_out):
    st[s, K.ST_SAB] -= 1
    pub[K.PUB_RESERVE] += 1
    seat_out[s, K.S_ATTACKS] += 1
    game_out[K.G_BUILDING_ATTACKS] += 1
    pub[K.PUB_ATTACKER] = s
    n = building_targets_nb(s, city, rules, opts)
    i = 0
    if n > 1:
        i = ask_nb(s, K.D_TARGET, n, roster, ids, params, mem, deck, rules, rng)
        if i < 0:
            return
    t = opts[i]
    pub[K.PUB_TARGET] = t
    n = 0
    for p in range(city[t, K.C_LEFT], city[t, K.C_RIGHT] + 1):
        if rows[t, p] != 0:
            opts[n] = p
            n += 1
    i = 0
    if n > 1:
        i = ask_nb(s, K.D_CARD, n, roster, ids, params, mem, deck, rules, rng)
        if i < 0:
            return
    p = opts[i]
    pub[K.PUB_ATTACK_POS] = p
    card = rows[t, p]
    value = deck[card, K.D_VALUE]
    destroyed = False
    paid = 0
    if rules[K.R_ANY] != 0:
        offer = 0
        purse = st[t, K.ST_MONEY]
        if purse >= 1:
            opts[0] = 0
            opts[1] = purse
            offer = ask_nb(t, K.D_OFFER, 2, roster, ids, params, mem, deck, rules, rng)
            if offer < 0:
                return
        accepted = False
        if offer > 0:
            pub[K.PUB_OFFER] = offer
            opts[0] = K.ACCEPT
            opts[1] = K.REFUSE
            i = ask_nb(s, K.D_ACCEPT, 2, roster, ids, params, mem, deck, rules, rng)
            if i < 0:
                return
            accepted = opts[i] == K.ACCEPT
        if accepted:
            paid = offer
            seat_out[t, K.S_OFFER_PAID] += offer
        else:
            face = roll_nb(rng)
            destroyed = face == K.SAB_FACE or face > city[t, K.C_SHIELDS]
    else:
        face = roll_nb(rng)
        if face == K.SAB_FACE:
            destroyed = True
        elif face >= 3:
            keep = False
            if st[t, K.ST_MONEY] >= value:
                opts[0] = K.KEEP
                opts[1] = K.LOSE
                i = ask_nb(t, K.D_KEEP, 2, roster, ids, params, mem, deck, rules, rng)
                if i < 0:
                    return
                keep = opts[i] == K.KEEP
            if keep:
                paid = value
                seat_out[t, K.S_KEPT_PAID] += value
            else:
                destroyed = True
    st[t, K.ST_MONEY] -= paid
    st[s, K.ST_MONEY] += paid
    if destroyed:
        remove_nb(t, p, rows, city, deck)
        destroy_nb(card, t, s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks,
                   seat_out, game_out)


@hot_inline
def attack_hand_nb(s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks, holds,
                   seat_out, game_out):
    st[s, K.ST_SAB] -= 1
    pub[K.PUB_RESERVE] += 1
    seat_out[s, K.S_ATTACKS] += 1
    game_out[K.G_HAND_ATTACKS] += 1
    pub[K.PUB_ATTACKER] = s
    n = hand_targets_nb(s, st, rules, opts)
    i = 0
    if n > 1:
        i = ask_nb(s, K.D_TARGET, n, roster, ids, params, mem, deck, rules, rng)
        if i < 0:
            return
    t = opts[i]
    pub[K.PUB_TARGET] = t
    index = below_nb(rng, K.TABLE_STREAM, st[t, K.ST_HAND])
    card = st[t, K.ST_CARDS + index]          # the hand is kept ascending: the index-th card by id
    hand_drop_nb(t, card, st, holds, deck)
    destroy_nb(card, t, s, roster, ids, params, mem, loc, known, rows, city, st, pub, deck, rules, opts, rng, stacks,
               seat_out, game_out)
