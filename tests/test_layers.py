"""The one-way layers of rulekit (rulekit.LAYERS, docs/architecture.md "Layers"): every import of
every module of rulekit/ and cli/ points to its own layer or a lower one."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import rulekit
from rulekit import LAYERS, TYPE_ONLY, layer_of

ROOT = Path(__file__).resolve().parent.parent


def _modules() -> list:
    """``(dotted name, path)`` of every module of rulekit/ and cli/ (cli as ``rulekit.cli``)."""
    out = []
    for top, name in (("rulekit", "rulekit"), ("cli", "rulekit.cli")):
        for p in sorted((ROOT / top).rglob("*.py")):
            if "__pycache__" in p.parts:
                continue
            parts = list(p.relative_to(ROOT / top).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.append((".".join([name] + parts), p))
    return out


def _imports(module: str, path: Path) -> list:
    """``(line, imported module, under TYPE_CHECKING)`` of each import in the file, at any depth
    (inside functions and classes too); relative imports resolved against ``module``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []

    def walk(node, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            guarded = typing_only
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for x in child.body:
                    walk(ast.Module(body=[x], type_ignores=[]), True)
                for x in child.orelse:
                    walk(ast.Module(body=[x], type_ignores=[]), typing_only)
                continue
            if isinstance(child, ast.Import):
                found.extend((child.lineno, a.name, guarded) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(up + ([base] if base else []))
                # ``from pkg import mod`` imports the module pkg.mod when there is one
                found.extend((child.lineno, f"{base}.{a.name}" if _is_module(f"{base}.{a.name}") else base, guarded)
                             for a in child.names)
            walk(child, guarded)
    walk(tree, False)
    return found


_MODULES = {name for name, _p in _modules()}


def _is_module(name: str) -> bool:
    return name in _MODULES


def _ours(name: str) -> str | None:
    """``name`` as a rulekit module name (``cli.render`` -> ``rulekit.cli.render``), or ``None``."""
    if name == "cli" or name.startswith("cli."):
        name = "rulekit." + name
    return name if name == "rulekit" or name.startswith("rulekit.") else None


def test_every_module_is_in_a_layer():
    """Every module of rulekit/ and cli/ belongs to a declared layer."""
    for name, _p in _modules():
        layer_of(name)


def test_imports_point_down_only():
    """No module imports a module of a higher layer, at module level, inside a function or under
    ``TYPE_CHECKING`` (except the declared type-only imports, rulekit.TYPE_ONLY)."""
    bad = []
    for name, path in _modules():
        mine = layer_of(name)
        for line, imported, typing_only in _imports(name, path):
            target = _ours(imported)
            if target is None:
                continue
            theirs = layer_of(target)
            if theirs <= mine:
                continue
            if typing_only and (LAYERS[mine][0], target) in TYPE_ONLY:
                continue
            bad.append(f"{path.relative_to(ROOT)}:{line}: {LAYERS[mine][0]} imports {target} "
                       f"({LAYERS[theirs][0]}){' under TYPE_CHECKING' if typing_only else ''}")
    assert not bad, "imports against the layers:\n" + "\n".join(dict.fromkeys(bad))


@pytest.mark.parametrize("layer", [name for name, _p in LAYERS[:-1]])
def test_a_layer_loads_nothing_above_it(layer):
    """Importing every module of a layer loads no module of a higher one (a package's
    ``__init__`` runs first: it must not pull a higher layer in)."""
    at = [n for n, _p in LAYERS].index(layer)
    names = [n for n, p in _modules() if layer_of(n) == at and p.name != "__init__.py"]
    # a module of an optional extra (numba's kernel, ...) is skipped where its package is absent;
    # a missing module of rulekit itself still fails
    code = ("import importlib, sys\n"
            f"for n in {[n for n in names if not n.startswith('rulekit.cli')]!r}:\n"
            "    try:\n        importlib.import_module(n)\n"
            "    except ModuleNotFoundError as e:\n"
            "        if (e.name or 'rulekit').split('.')[0] == 'rulekit':\n            raise\n"
            "print('\\n'.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    loaded = [m for m in out.stdout.split() if _ours(m) and _is_module(m) and
              not (ROOT / "rulekit" / Path(*m.split(".")[1:]) / "__init__.py").exists()]
    above = [m for m in loaded if layer_of(m) > at]
    assert not above, f"importing the {layer} layer loads {above}"


def _package(module: str) -> str:
    """The package a module belongs to for privacy: ``rulekit.<first part>`` (``rulekit.web.view``
    -> ``rulekit.web``, ``rulekit.bots.policies.tricks`` -> ``rulekit.bots``), ``rulekit`` for the
    top-level modules (``rulekit.records``)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or module in _PACKAGES else "rulekit"


_PACKAGES = {name for name, p in _modules() if p.name == "__init__.py"}


def _private_imports(module: str, path: Path) -> list:
    """``(line, source module, name)`` of each ``from X import _name`` of the file (any depth),
    ``X`` one of ours, relative imports resolved against ``module``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            up = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join(up + ([base] if base else []))
        source = _ours(base)
        if source is None:
            continue
        found.extend((node.lineno, source, a.name) for a in node.names
                     if a.name.startswith("_") and not a.name.startswith("__"))
    return found


def test_no_module_imports_another_packages_private_names():
    """A module imports only public names from another package (``rulekit.web`` uses the CLI's
    public drawing helpers, never ``from rulekit.cli.render import _x``): a private name is free to
    change with its own package."""
    bad = [f"{path.relative_to(ROOT)}:{line}: from {source} import {name}"
           for module, path in _modules() for line, source, name in _private_imports(module, path)
           if _package(source) != _package(module)]
    assert not bad, "private names imported across packages:\n" + "\n".join(bad)


def test_the_private_import_check_sees_a_cross_package_import(tmp_path):
    """The check above finds ``from cli.render import _x`` in a web module, relative or not, and
    lets a package use its own private names."""
    f = tmp_path / "m.py"
    f.write_text("from cli.render import _sorted\nfrom ..cli.app import _names\nfrom .tables import _seat\n")
    found = [(s, n) for _l, s, n in _private_imports("rulekit.web.m", f)]
    assert found == [("rulekit.cli.render", "_sorted"), ("rulekit.cli.app", "_names"), ("rulekit.web.tables", "_seat")]
    assert [_package(s) for s, _n in found] == ["rulekit.cli", "rulekit.cli", "rulekit.web"]
    assert _package("rulekit.web.m") == "rulekit.web"
    assert _package("rulekit.records") == "rulekit" and _package("rulekit.sheets.scorepad") == "rulekit.sheets"


def test_layers_are_declared_in_the_package_docstring():
    """The package docstring names the layers in their order."""
    assert " -> ".join(name for name, _p in LAYERS) in " ".join(rulekit.__doc__.split())
