"""Rosters: the strategies a game's engine kernels are compiled for.

A game's engine asks every decision through the strategy dispatch, which
branches on the seat's strategy id and runs that strategy's kernel inline.
With every installed strategy in it, each decision site carries the code of
all of them: most of a cold start's compile, and a real cost in the game
loop even when every seat plays the same bot (the code beside the one bot
in use still crowds the loop's registers and keeps the dispatch a call).

A :class:`Roster` names the strategies a run can meet. The engines take it
as their first strategy argument, and numba sees it as a type of its own
(``Roster(baumeister:1)``), so a kernel is compiled, and cached on disk, once
per roster: the dispatch inside holds only the roster's strategies. A plain
``zsim simulate`` of one bot compiles that bot alone; a tournament or a
mixed field compiles one kernel for all of its strategies, not one per
pairing.

A game may also compile a roster for its number of players
(:meth:`Roster.for_seats`; Zahltag does, and Baumeister unless its roster
holds bots of both kinds): the engine reads the count with :func:`seats_nb`, a
constant in the machine code, so its loops over the seats are unrolled and a
bot's loop over ``hand.shape[0]`` (Baumeister's views of the table, made with
that count) knows its length too. Each table size is then a compile of its
own, cached like any other.

A game may also split a roster (:func:`roster_parts`): the strategies
whose modules say ``INLINE = True``, a decision of a few instructions, which
it copies into every site that asks one, and the rest, which it calls as one
kernel of their own. Baumeister does, so that ``first`` beside the heuristic
bots does not pay for their size at each decision.

Which roster plays a game never changes the game: the same ids reach the
same strategy code. :func:`roster_of` refuses ids outside the roster, since
the dispatch's last branch would otherwise play them as its last strategy.
"""
from __future__ import annotations

import os
from typing import Iterable

from llvmlite import ir
from numba import types
from numba.extending import NativeValue, intrinsic, models, register_model, typeof_impl, unbox

from zsim.errors import ZsimError
from zsim.tape import TAPE_SID, is_tape


class Roster:
    """The strategy ids (of one game) a kernel is compiled for, ascending and
    distinct. ``calls``: the dispatch over them is a kernel of its own that
    each decision calls, instead of a branch copied into every kernel that
    asks one (``$ZSIM_ROSTER=all``, see :func:`everyone`). ``seats``: the
    number of players the kernel is compiled for, or 0 for any number
    (:meth:`for_seats`)."""

    __slots__ = ("game", "sids", "calls", "seats")

    def __init__(self, game: str, sids: Iterable[int], calls: bool = False, seats: int = 0):
        self.game = game
        self.sids = tuple(sorted({int(s) for s in sids}))
        self.calls = bool(calls)
        self.seats = int(seats)
        if not self.sids:
            raise ValueError("a roster needs at least one strategy")
        if self.seats < 0:
            raise ValueError("a roster's seats must be 0 (any number) or a number of players")

    @property
    def key(self) -> tuple[str, tuple[int, ...], bool, int]:
        """What tells rosters apart (its numba type's key)."""
        return self.game, self.sids, self.calls, self.seats

    def for_seats(self, players: int) -> "Roster":
        """The same strategies compiled for a table of ``players``: the engine
        reads its number of players from the roster's type (:func:`seats_nb`),
        a constant to LLVM, so every loop over the seats is unrolled. One
        compile per number of players a machine plays, cached as any other.
        The fast-compiling roster of every strategy (``calls``) stays for any
        number."""
        if self.calls or self.seats == players:
            return self
        return _roster((self.game, self.sids, self.calls, int(players)))

    def covers(self, ids) -> bool:
        return {int(s) for s in ids} <= set(self.sids)

    def __eq__(self, other):
        return isinstance(other, Roster) and self.key == other.key

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return (f"Roster({self.game!r}, {self.sids}{', calls=True' if self.calls else ''}"
                f"{f', seats={self.seats}' if self.seats else ''})")


class RosterType(types.Type):
    """numba's type of a :class:`Roster`: the roster itself, so each roster is its own compile."""

    def __init__(self, game: str, sids: tuple[int, ...], calls: bool = False, seats: int = 0):
        self.game, self.sids, self.calls, self.seats = game, tuple(sids), bool(calls), int(seats)
        super().__init__(name=f"Roster({game}:{','.join(map(str, self.sids))}{';calls' if calls else ''}"
                              f"{f';{seats} seats' if seats else ''})")

    @property
    def key(self):
        return self.game, self.sids, self.calls, self.seats


@typeof_impl.register(Roster)
def _typeof_roster(value, context):
    return RosterType(value.game, value.sids, value.calls, value.seats)


# a roster carries no data at run time: its strategies are in the code
register_model(RosterType)(models.OpaqueModel)


@unbox(RosterType)
def _unbox_roster(typ, obj, c):
    return NativeValue(c.context.get_constant_null(types.voidptr))


@intrinsic
def seats_nb(typingctx, roster, players):
    """The number of players: the roster's own when it is compiled for one (a
    constant in the machine code), else ``players``, the count the caller
    reads from its state."""
    if not isinstance(roster, RosterType) or not isinstance(players, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        count = context.cast(builder, args[1], players, types.int64)
        if not roster.seats:
            return count
        # told to LLVM as a fact, so that code reading the count from the state
        # itself (a bot's loop over hand.shape[0]) gets the constant too
        seats = context.get_constant(types.int64, roster.seats)
        assume = builder.module.declare_intrinsic("llvm.assume", fnty=ir.FunctionType(ir.VoidType(), [ir.IntType(1)]))
        builder.call(assume, [builder.icmp_signed("==", count, seats)])
        return seats

    return types.int64(roster, players), codegen


def roster_parts(roster: RosterType) -> tuple[RosterType | None, RosterType | None]:
    """A roster type split into the strategies its kernels may copy into every
    site that asks a decision (a strategy module's ``INLINE = True``: a
    decision of a few instructions) and the rest, which a game that asks for
    the split calls as a kernel of their own (Baumeister: ``table_nb.ask_nb``);
    None for an empty part. A roster whose dispatch is a call already
    (``calls``) has no part to copy in."""
    from zsim.strategy_registry import registry

    if roster.calls:
        return None, roster
    inline = {info.sid for info in registry(roster.game).values() if info.inline}
    parts = ([s for s in roster.sids if s in inline], [s for s in roster.sids if s not in inline])
    return tuple(RosterType(roster.game, part, False, roster.seats) if part else None for part in parts)


def _part_nb(inline: bool):
    @intrinsic
    def part_nb(typingctx, roster):
        if not isinstance(roster, RosterType):
            return None
        part = roster_parts(roster)[0 if inline else 1]
        if part is None:
            return None

        def codegen(context, builder, sig, args):
            return context.get_constant_null(types.voidptr)

        return part(roster), codegen

    return part_nb


#: the roster of the strategies of ``roster`` that are copied in (see :func:`roster_parts`)
inline_part_nb = _part_nb(True)
#: the roster of those that are called
called_part_nb = _part_nb(False)


@intrinsic
def in_inline_part_nb(typingctx, roster, sid):
    """Whether strategy id ``sid`` is in ``roster``'s inline part: a comparison
    with each of its ids, constants in the code."""
    if not isinstance(roster, RosterType) or not isinstance(sid, types.Integer):
        return None
    part = roster_parts(roster)[0]
    ids = part.sids if part is not None else ()

    def codegen(context, builder, sig, args):
        value = context.cast(builder, args[1], sid, types.int64)
        found = ir.Constant(ir.IntType(1), 0)
        for s in ids:
            found = builder.or_(found, builder.icmp_signed("==", value, value.type(s)))
        return found

    return types.boolean(roster, sid), codegen


def everyone() -> bool:
    """Whether ``$ZSIM_ROSTER`` asks for one kernel of every installed strategy
    (``all``) instead of one per set of strategies played (``exact``, the
    default): for a session that plays many different fields once each, such
    as zsim's own test suite, where one long compile beats many short ones.
    That kernel is built to compile fast: its dispatch is a kernel of its own,
    called at each decision (``Roster.calls``), not every strategy's code
    copied into each kernel that asks one. It compiles in about half the
    time and plays a mixed field at about 0.6x the speed of a roster's
    kernel (docs/performance.md)."""
    value = os.environ.get("ZSIM_ROSTER", "exact")
    if value not in ("exact", "all"):
        raise ZsimError(f"ZSIM_ROSTER must be exact or all, not {value!r}")
    return value == "all"


_rosters: dict[tuple[str, tuple[int, ...], bool, int], Roster] = {}


def _roster(key: tuple[str, tuple[int, ...], bool, int]) -> Roster:
    """The one Roster of ``key`` in this process (made on first use)."""
    found = _rosters.get(key)
    if found is None:
        found = _rosters[key] = Roster(*key)
    return found


def roster_of(game: str, ids, among: Roster | None = None) -> Roster:
    """The roster for a call playing strategy ids ``ids``: every installed
    strategy of the game when ``$ZSIM_ROSTER`` is ``all``; else ``among`` when
    given (it must hold every id), else exactly the ids' strategies."""
    if among is not None and TAPE_SID in {int(i) for i in ids} and TAPE_SID not in among.sids:
        # a record of a searched game replays its searching seats from tapes (zsim.tape)
        among = _roster((among.game, tuple(sorted(among.sids + (TAPE_SID,))), among.calls, among.seats))
    if among is not None and (among.game != game or not among.covers(ids)):
        raise ValueError(f"strategy ids {sorted({int(s) for s in ids})} of {game} are not all in {among}")
    calls = everyone()
    if calls:
        from zsim.strategy_registry import bots
        ids = [s.sid for s in bots(game)] + ([TAPE_SID] if TAPE_SID in {int(i) for i in ids} else [])
    elif among is not None:
        return among
    return _roster((game, tuple(sorted({int(s) for s in ids})), calls, 0))


def roster_for(game: str, specs=None) -> Roster:
    """The :class:`Roster` of ``game``'s strategies named in
    ``specs`` (strategy specs or names; all installed strategies when None)."""
    from zsim.strategy_registry import bots, parse_one, rollouts_of

    if specs is None:
        return roster_of(game, [s.sid for s in bots(game)])
    return roster_of(game, rollouts_of(game, [s if is_tape(s) else parse_one(s, game) for s in specs]))
