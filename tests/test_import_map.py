"""The import map of zsim's tree: no new import circle, no new import that names a game
outside that game's folders.

Every ``.py`` file under zsim/, analyses/ and strategies/ is read with :mod:`ast` (nothing
is imported) and every import in it is collected: ``import`` and ``from ... import``
statements, relative ones, those inside functions and ``if TYPE_CHECKING:`` blocks, and
``importlib.import_module("literal")`` calls. Each is resolved to a module of the tree: a
package means its ``__init__.py``, ``from pkg import name`` means the submodule
``pkg.name`` when there is one and ``pkg`` otherwise; imports of anything outside the tree
(numpy, click, ...) are dropped. An import built from a variable or an f-string is not
seen.

Two rules, each held as a ratchet against the allowlists below:

* circles: the edges ``a -> b`` ("a imports b") whose two ends lie in the same strongly
  connected component of the map, i.e. every edge that sits on some import circle;
* game-naming imports: ``a -> b`` where ``b`` is ``zsim.games.<g>``, ``strategies.<g>`` or
  ``analyses.<g>`` (or a module under one of them) and ``a`` lives under none of game
  ``<g>``'s own folders. The games are the packages of zsim/games/ with a ``game.py``;
  ``zsim.game_registry`` (the one list of built-in games) may name them.

A third rule has no allowlist: no string in the code of a module outside a game's folders
(docstrings aside) is a game's name or one of its modules' paths (``"zahltag"``,
``"analyses.zahltag.specs"``), so that no default, branch or lazy import names a game
either; the harness asks the game object, and ``zsim.game_registry.DEFAULT_GAME`` is the default.

Run ``python tests/test_import_map.py`` for a summary of the map (modules, edges, circles
and their sizes, game-naming imports per file).
"""
from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOPS = ("zsim", "analyses", "strategies")
#: the module that holds the one list of built-in games; it may name every game
GAME_LIST = "zsim.game_registry"

# The two allowlists below are today's offenders. They must only shrink: a step that
# removes an import deletes its entries here, and nothing is ever added (the test fails
# on an entry that no longer applies, so the lists cannot go stale). Moving Zahltag's
# analyses into analyses/zahltag/ traded seven of GAME_IMPORTS for six of the kind left:
# zsim/_api_analyses.py importing each game's analyses, which the analyses' registry ends.

#: "a -> b": a imports b and both lie on one import circle
CIRCLE_EDGES: tuple[str, ...] = (
)

#: "a -> b": a imports b, a module of a game whose folders do not hold a
GAME_IMPORTS: tuple[str, ...] = (
)


# --- reading the tree --------------------------------------------------------------------


class ImportMap:
    """The modules of a tree and the imports between them (with file and first line)."""

    def __init__(self, root: Path, tops=TOPS):
        self.root = Path(root)
        self.files: dict[str, Path] = {}          # module -> file
        self.packages: set[str] = set()           # modules that are packages (__init__.py)
        for top in tops:
            for path in sorted((self.root / top).rglob("*.py")):
                parts = path.relative_to(self.root).with_suffix("").parts
                if "__pycache__" in parts:
                    continue
                if parts[-1] == "__init__":
                    parts = parts[:-1]
                    self.packages.add(".".join(parts))
                self.files[".".join(parts)] = path
        #: (a, b) -> line of a's first import of b
        self.edges: dict[tuple[str, str], int] = {}
        for module, path in self.files.items():
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for target, line in self._imports(module, tree):
                if target != module and (module, target) not in self.edges:
                    self.edges[(module, target)] = line
        games_dir = self.root / "zsim" / "games"
        self.games = sorted(p.parent.name for p in games_dir.glob("*/game.py"))
        #: module -> [(line, text)] of its strings (docstrings aside) that name a game
        self.words: dict[str, list[tuple[int, str]]] = {}
        for module, path in self.files.items():
            found = list(self._game_words(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))))
            if found:
                self.words[module] = found

    # resolving names

    def _package_of(self, module: str) -> str:
        return module if module in self.packages else module.rpartition(".")[0]

    def _absolute(self, module: str, name: str | None, level: int) -> str | None:
        if level == 0:
            return name
        base = self._package_of(module).split(".")
        if level - 1 > len(base) - 1:
            return None
        base = base[:len(base) - (level - 1)]
        return ".".join(base + ([name] if name else []))

    def _resolve(self, name: str) -> str | None:
        """The deepest module of the tree that ``name`` or one of its parents names."""
        parts = name.split(".")
        while parts:
            candidate = ".".join(parts)
            if candidate in self.files:
                return candidate
            parts.pop()
        return None

    def _imports(self, module: str, tree: ast.AST):
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = self._resolve(alias.name)
                    if target:
                        yield target, node.lineno
            elif isinstance(node, ast.ImportFrom):
                base = self._absolute(module, node.module, node.level)
                if base is None:
                    continue
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    target = sub if sub in self.files else self._resolve(base)
                    if target:
                        yield target, node.lineno
            elif isinstance(node, ast.Call) and _is_import_module(node.func) and node.args:
                name, package = _literal(node.args[0]), None
                if len(node.args) > 1:
                    package = _literal(node.args[1])
                for kw in node.keywords:
                    if kw.arg == "package":
                        package = _literal(kw.value)
                if name is None:
                    continue
                if name.startswith("."):
                    if package is None:
                        continue
                    level = len(name) - len(name.lstrip("."))
                    name = self._absolute(package + ".__init__", name.lstrip(".") or None, level)
                    if name is None:
                        continue
                target = self._resolve(name)
                if target:
                    yield target, node.lineno

    def _game_words(self, tree: ast.AST):
        docs = {id(body[0].value) for node in ast.walk(tree)
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                and (body := node.body) and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                text = node.value.strip()
                for game in self.games:
                    paths = (f"zsim.games.{game}", f"strategies.{game}", f"analyses.{game}")
                    if text == game or any(text == p or text.startswith((p + ".", p + ":")) for p in paths):
                        yield node.lineno, node.value

    # the rules

    def circles(self) -> list[list[str]]:
        """The strongly connected components with more than one module, largest first."""
        return [c for c in _components(self.files, self.edges) if len(c) > 1]

    def circle_edges(self) -> dict[str, tuple[str, str]]:
        """"a -> b" for every edge inside a circle, mapped to (a, b)."""
        where = {m: i for i, comp in enumerate(self.circles()) for m in comp}
        return {f"{a} -> {b}": (a, b) for (a, b) in self.edges
                if a in where and where.get(b) == where[a]}

    def game_of(self, module: str) -> str | None:
        """The game whose folders hold ``module``, if any."""
        for game in self.games:
            for top in (f"zsim.games.{game}", f"strategies.{game}", f"analyses.{game}"):
                if module == top or module.startswith(top + "."):
                    return game
        return None

    def game_imports(self) -> dict[str, tuple[str, str]]:
        """"a -> b" for every import of a game's module from outside that game's folders."""
        out = {}
        for (a, b) in self.edges:
            game = self.game_of(b)
            if game is not None and a != GAME_LIST and self.game_of(a) != game:
                out[f"{a} -> {b}"] = (a, b)
        return out

    def where(self, a: str, b: str) -> str:
        """``file:line`` of a's first import of b."""
        return f"{self.files[a].relative_to(self.root)}:{self.edges[(a, b)]}"

    def path(self, start: str, goal: str) -> list[str]:
        """A shortest import chain from ``start`` to ``goal`` (both in one circle)."""
        succ = defaultdict(list)
        for (a, b) in sorted(self.edges):
            succ[a].append(b)
        before = {start: None}
        todo = [start]
        for node in todo:
            if node == goal:
                break
            for nxt in succ[node]:
                if nxt not in before:
                    before[nxt] = node
                    todo.append(nxt)
        chain = [goal]
        while before[chain[-1]] is not None:
            chain.append(before[chain[-1]])
        return chain[::-1]


def _is_import_module(func: ast.AST) -> bool:
    if isinstance(func, ast.Attribute):
        return func.attr == "import_module"
    return isinstance(func, ast.Name) and func.id in ("import_module", "__import__")


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _components(nodes, edges) -> list[list[str]]:
    """Tarjan's strongly connected components, without recursion; largest first."""
    succ = defaultdict(list)
    for (a, b) in sorted(edges):
        succ[a].append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(succ[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ[nxt])))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        comp.append(member)
                        if member == node:
                            break
                    out.append(sorted(comp))
    return sorted(out, key=lambda c: (-len(c), c))


# --- checking against the allowlists -----------------------------------------------------


def circle_problems(imap: ImportMap, allowed=CIRCLE_EDGES) -> list[str]:
    """One paragraph per circle edge not in ``allowed`` and per entry of ``allowed`` that
    is no longer an edge inside a circle."""
    found = imap.circle_edges()
    problems = []
    for key in sorted(set(found) - set(allowed)):
        a, b = found[key]
        back = " -> ".join(imap.path(b, a))
        problems.append(
            f"import {key} ({imap.where(a, b)}) lies on an import circle and is not in "
            f"CIRCLE_EDGES: {a} imports {b}, and {b} leads back to {a} through {back}. "
            f"Break the circle (move the shared code into a module neither imports, or pass "
            f"it in) rather than listing the edge.")
    if len(problems) > 1:
        problems.insert(0, "Usually one of the imports below is new and the others are older "
                           "ones it drew into a circle: the import that appears in every "
                           "chain is the one that closes them.")
    for key in sorted(set(allowed) - set(found)):
        a, _, b = key.partition(" -> ")
        why = (f"{a} still imports {b} ({imap.where(a, b)}) but no longer on a circle"
               if (a, b) in imap.edges else "that import is gone")
        problems.append(f"stale entry {key!r} in CIRCLE_EDGES: {why}; delete the line "
                        f"from tests/test_import_map.py.")
    return problems


def game_problems(imap: ImportMap, allowed=GAME_IMPORTS) -> list[str]:
    """One paragraph per game-naming import not in ``allowed`` and per stale entry."""
    found = imap.game_imports()
    problems = []
    for key in sorted(set(found) - set(allowed)):
        a, b = found[key]
        problems.append(
            f"new game-naming import {key} ({imap.where(a, b)}): {a} lives outside the "
            f"folders of game {imap.game_of(b)!r} (zsim/games/<g>/, strategies/<g>/, "
            f"analyses/<g>/) yet imports its module {b}. Reach the game through its game "
            f"object (zsim.game_registry.get_game), or move the code into that game's folders, rather "
            f"than listing the import.")
    for key in sorted(set(allowed) - set(found)):
        problems.append(
            f"stale entry {key!r} in GAME_IMPORTS: that import is gone; delete the line "
            f"from tests/test_import_map.py.")
    return problems


def word_problems(imap: ImportMap) -> list[str]:
    """One line per string naming a game in a module outside that game's folders."""
    return [f"{imap.files[m].relative_to(imap.root)}:{line} names a game in the string {text!r}: "
            f"ask the game object (zsim.game_registry.get_game), use zsim.game_registry.DEFAULT_GAME for the default, "
            f"or move the code into the game's folders"
            for m, found in sorted(imap.words.items()) if m != GAME_LIST and imap.game_of(m) is None
            for line, text in found]


@functools.lru_cache(maxsize=None)
def tree_map() -> ImportMap:
    return ImportMap(ROOT)


# --- tests -------------------------------------------------------------------------------


def test_allowlists_are_sorted_and_unique():
    for name, entries in (("CIRCLE_EDGES", CIRCLE_EDGES), ("GAME_IMPORTS", GAME_IMPORTS)):
        assert list(entries) == sorted(set(entries)), f"{name} must be sorted, without repeats"


def test_the_games_are_the_built_in_ones():
    from zsim.games import BUILTIN_GAMES

    assert tree_map().games == sorted(BUILTIN_GAMES)


def test_no_new_import_circle():
    problems = circle_problems(tree_map())
    assert not problems, "\n\n".join(problems)


def test_no_new_game_naming_import():
    problems = game_problems(tree_map())
    assert not problems, "\n\n".join(problems)


def test_only_the_command_line_imports_the_package_face():
    """The face (``zsim``, ``zsim.api``) sits on top: the harness, the games, the strategies
    and the analyses never import it (the command line's modules are above it)."""
    imap = tree_map()
    face = {"zsim", "zsim.api"}
    above = [a for (a, b) in imap.edges if b in face and a not in face
             and not a.startswith("zsim.cli")]
    assert not above, f"modules below the package face import it: {sorted(above)}"


def test_no_string_outside_a_game_names_it():
    problems = word_problems(tree_map())
    assert not problems, "\n".join(problems)


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


SYNTHETIC = {
    "zsim/__init__.py": "",
    "zsim/a.py": "from zsim import b\n",
    "zsim/b.py": "def f():\n    from . import c\n",                     # local, relative
    "zsim/c.py": "import importlib\nimportlib.import_module('zsim.a')\n",   # literal call
    "zsim/d.py": "import zsim.a\nimport numpy\n",                          # into it, not on it
    "zsim/game_registry.py": "import zsim.games.foo.game\n",               # the list: allowed
    "zsim/games/__init__.py": "",
    "zsim/games/foo/__init__.py": "",
    "zsim/games/foo/game.py": "from .rules import X\nfrom zsim.games.bar import game\n",
    "zsim/games/foo/rules.py": "X = 1\n",
    "zsim/games/bar/__init__.py": "",
    "zsim/games/bar/game.py": "",
    "strategies/__init__.py": "",
    "strategies/foo/__init__.py": "from zsim.games.foo.rules import X\n",  # own game: fine
    "analyses/__init__.py": "",
    "analyses/deck.py": "if True:\n    import strategies.foo\n",
    "analyses/words.py": '"""foo is documented here"""\nGAME = "foo"\nWHERE = "analyses.foo.specs"\n'
                         'def f():\n    """bar"""\n    return "foobar", f"{GAME}"\n',
    "analyses/foo/__init__.py": 'NAME = "foo"\n',
}


def test_a_synthetic_tree_shows_its_circle_and_game_imports(tmp_path):
    _write(tmp_path, SYNTHETIC)
    imap = ImportMap(tmp_path)
    assert imap.games == ["bar", "foo"]
    assert imap.circles() == [["zsim.a", "zsim.b", "zsim.c"]]
    assert sorted(imap.circle_edges()) == ["zsim.a -> zsim.b", "zsim.b -> zsim.c", "zsim.c -> zsim.a"]
    assert sorted(imap.game_imports()) == ["analyses.deck -> strategies.foo",
                                           "zsim.games.foo.game -> zsim.games.bar.game"]

    problems = circle_problems(imap, allowed=("zsim.a -> zsim.b", "zsim.c -> zsim.a", "zsim.d -> zsim.a"))
    assert problems[0].startswith("import zsim.b -> zsim.c (zsim/b.py:2) lies on an import circle ")
    assert "through zsim.c -> zsim.a -> zsim.b" in problems[0]
    assert problems[1].startswith("stale entry 'zsim.d -> zsim.a' in CIRCLE_EDGES: zsim.d still "
                                  "imports zsim.a (zsim/d.py:1) but no longer on a circle")
    assert len(problems) == 2
    problems = circle_problems(imap, allowed=("zsim.a -> zsim.b", "zsim.a -> zsim.c"))
    assert problems[0].startswith("Usually one of the imports below is new")
    assert problems[1].startswith("import zsim.b -> zsim.c (zsim/b.py:2)")
    assert problems[2].startswith("import zsim.c -> zsim.a (zsim/c.py:2)")
    assert problems[3].startswith("stale entry 'zsim.a -> zsim.c' in CIRCLE_EDGES: that import is gone")
    assert len(problems) == 4

    problems = game_problems(imap, allowed=("analyses.deck -> strategies.foo",
                                            "zsim.cli -> zsim.games.foo.rules"))
    assert problems[0].startswith("new game-naming import zsim.games.foo.game -> zsim.games.bar.game "
                                  "(zsim/games/foo/game.py:2): ")
    assert problems[1].startswith("stale entry 'zsim.cli -> zsim.games.foo.rules' in GAME_IMPORTS")
    assert len(problems) == 2
    assert imap.words == {"analyses.foo": [(1, "foo")], "analyses.words": [(2, "foo"), (3, "analyses.foo.specs")]}
    problems = word_problems(imap)
    assert [p.split(" names")[0] for p in problems] == ["analyses/words.py:2", "analyses/words.py:3"]
    assert circle_problems(imap, allowed=tuple(sorted(imap.circle_edges()))) == []
    assert game_problems(imap, allowed=tuple(sorted(imap.game_imports()))) == []


# --- summary -----------------------------------------------------------------------------


def summary(imap: ImportMap) -> str:
    circles = imap.circles()
    lines = [f"{len(imap.files)} modules, {len(imap.edges)} import edges, "
             f"{len(circles)} circle(s) of size {', '.join(str(len(c)) for c in circles) or '-'}, "
             f"{len(imap.circle_edges())} edge(s) inside circles"]
    for i, comp in enumerate(circles, 1):
        lines.append(f"circle {i} ({len(comp)} modules): {', '.join(comp)}")
    per_file = defaultdict(list)
    for key, (a, b) in sorted(imap.game_imports().items()):
        per_file[a].append(b)
    total = sum(len(v) for v in per_file.values())
    lines.append(f"{total} game-naming import(s) in {len(per_file)} module(s):")
    for a, targets in sorted(per_file.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"  {len(targets):3d}  {imap.files[a].relative_to(imap.root)}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(tree_map()))
