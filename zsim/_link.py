"""Machine code for a kernel only when something runs it.

numba turns every kernel it compiles into machine code at once, and caches
that code on disk. A ``hot`` kernel (``zsim.jit``) is only ever linked into
its callers: the game kernel's batch, whose compile optimizes and emits it
again as part of its own code. Its own machine code is never run, yet
emitting it was about a tenth of a cold start (docs/performance.md).

A ``hot`` kernel's compile therefore keeps its code as optimized LLVM IR:
:class:`LinkLibrary` emits machine code only when something asks for the
address of a function it defines (nothing does in a game: the kernel has no
wrappers for Python to call, see ``zsim.jit``), and caches the IR itself, as
the one thing a later caller needs of it, under its own kind of cache entry
(``KIND``); a library read back from such an entry is again a
``LinkLibrary``. The kernel's environment (numba's per-function record for
the few operations that need the interpreter) is set when, and if, its code
is emitted.
"""
from __future__ import annotations

import weakref

import llvmlite.binding as ll
from numba.core.codegen import JITCodeLibrary, JITCPUCodegen
from numba.core.compiler import Compiler
from numba.core.environment import lookup_environment

#: the kind of cache entry holding a linked kernel's optimized IR as bitcode
KIND = "zsim-linked-bitcode"

#: whether this numba has the internals a LinkLibrary builds on (numba 0.68.1 has them); without
#: them hot kernels compile as numba compiles any kernel, and tests/test_jit.py fails to say so
SUPPORTED = (all(hasattr(JITCodeLibrary, name) for name in (
    "_finalize_dynamic_globals", "_verify_declare_only_symbols", "_finalize_specific", "_unserialize",
    "_get_compiled_object", "serialize_using_object_code", "_optimize_final_module"))
    and hasattr(JITCPUCodegen, "_add_module") and hasattr(JITCPUCodegen, "set_env"))


class LinkLibrary(JITCodeLibrary):
    """A numba code library that emits machine code only when asked for an address."""

    _emitted = False

    def _finalize_final_module(self):
        # numba's steps without the last two: handing the module to the engine, which
        # emits it at the next finalize, and emitting it now
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._final_module._CPUCodeLibrary__library = weakref.proxy(self)   # numba's object-code hook
        self._finalized = True

    def _emit(self):
        if self._emitted:
            return
        self._emitted = True
        cleanup = self._codegen._add_module(self._final_module)
        if cleanup:
            weakref.finalize(self, cleanup)
        super()._finalize_specific()
        set_linked_envs(self)       # its own environment and those of the kernels linked into it

    def _finalize_specific(self):
        pass

    def _defines(self, name: str) -> bool:
        try:
            return not self._final_module.get_function(name).is_declaration
        except NameError:
            return False

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        if not self._defines(name):
            return 0            # numba asks for the Python wrapper a linked kernel has not got
        self._emit()
        return super().get_pointer_to_function(name)

    def _get_compiled_object(self):
        self._emit()
        return super()._get_compiled_object()

    def serialize_using_object_code(self):
        self._ensure_finalized()
        return (self.name, KIND, self._final_module.as_bitcode())

    @property
    def codegen(self):
        return _EnvsLater(self)


class _EnvsLater:
    """The library's codegen, except that an environment is set only in code that exists
    (``LinkLibrary._emit`` sets them all when it emits)."""

    def __init__(self, library: LinkLibrary):
        self._library = library

    def set_env(self, name, env):
        if self._library._emitted:
            self._library._codegen.set_env(name, env)

    def __getattr__(self, attr):
        return getattr(self._library._codegen, attr)


def set_linked_envs(library) -> None:
    """Point the environments of the kernels linked into ``library``'s emitted code at theirs.

    numba sets a kernel's environment when it emits the kernel's own code, and every
    environment a kernel's code refers to when it reads the kernel back from the cache. A
    linked kernel's own code is never emitted, so a caller compiled in this process must
    set the copies in its code itself, or a linked kernel that needs its environment (a
    ``print`` in a strategy) fails with numba's "missing Environment"."""
    if isinstance(library, LinkLibrary) and not library._emitted:
        return
    engine = library._codegen._engine
    for gv in library._final_module.global_variables:
        env = lookup_environment(gv.name) if gv.name.startswith("_ZN08NumbaEnv") else None
        if env is not None and engine.get_global_value_address(gv.name):
            library._codegen.set_env(gv.name, env)


def _read_back(codegen, name: str, bitcode: bytes) -> LinkLibrary:
    library = LinkLibrary(codegen, name)
    library._final_module = ll.parse_bitcode(bitcode)
    library._finalize_final_module()
    return library


def _install_reader() -> None:
    """Let numba read back ``KIND`` cache entries (every other kind goes to numba's own reader)."""
    read = JITCodeLibrary._unserialize.__func__

    def _unserialize(cls, codegen, state):
        name, kind, data = state
        if kind == KIND:
            return _read_back(codegen, name, data)
        return read(cls, codegen, state)

    JITCodeLibrary._unserialize = classmethod(_unserialize)


class LinkCompiler(Compiler):
    """numba's compiler pipeline, lowering into a :class:`LinkLibrary`."""

    def compile_extra(self, func):
        if SUPPORTED and self.state.library is None:
            library = LinkLibrary(self.state.targetctx.codegen(), func.__qualname__)
            library.enable_object_caching()
            self.state.library = library
        return super().compile_extra(func)


if SUPPORTED:
    _install_reader()
