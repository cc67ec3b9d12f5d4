"""The SensibleBot of another git revision, for ``bots.py --vs-old REV``: no frozen copy of an
old bot is kept in the repository; it is built from the revision itself.

:func:`checkout` extracts ``rulekit/``, ``variants/``, ``grammar/`` and ``cli/`` of the revision
(``git archive``) into a temporary folder.  :class:`RevisionBot` runs that code in a subprocess
(``python revision_bot.py --serve FOLDER``), which keeps its own :class:`State` of the same
deal in step with the game played here: every action applied here is applied there too, and
when the revision's bot is to act it answers from its own observation, with the CPU time its
``act`` took.  Both sides play the same seeded deal by the same rules (a rule change between
the revisions shows as a seat or an action out of step, and stops the run).

Protocol: one JSON object per line each way.  ``{"deal": [variant, seed, [bot seeds]]}``
starts a deal (a new ``State(load_variant(variant), seed=seed)`` and one bot per seat);
``{"apply": [seat, text]}`` applies an action; ``{"act": seat}`` answers
``{"action": text, "cpu": seconds}``; errors answer ``{"error": message}``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def checkout(rev: str, repo: Path = HERE.parent) -> Path:
    """A temporary folder holding the code of revision ``rev`` (a commit, tag or branch) of
    ``repo``; remove it with :func:`shutil.rmtree` when done.

    :raises RuntimeError: ``rev`` is unknown, or ``git`` failed.
    """
    out = Path(tempfile.mkdtemp(prefix="rulekit-rev-"))
    archive = subprocess.run(["git", "-C", str(repo), "archive", "--format=tar", rev,
                              "rulekit", "variants", "grammar", "cli"], capture_output=True)
    if archive.returncode != 0:
        raise RuntimeError(f"git archive {rev}: {archive.stderr.decode(errors='replace').strip()}")
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive.stdout, check=True)
    return out


class RevisionBot:
    """The revision's SensibleBot at the seats it plays, behind one subprocess per instance.

    :param tree: a folder from :func:`checkout`.
    :param kernel: ``RULEKIT_KERNEL`` for the revision's process (``"0"``: its pure-Python bot,
        ``"1"``: its compiled kernel from the first decision); empty: this process's setting.
    """

    def __init__(self, tree: Path, kernel: str = "") -> None:
        env = {**os.environ, "PYTHONPATH": ""}
        if kernel:
            env["RULEKIT_KERNEL"] = kernel
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve", str(tree)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                                     env=env)

    def _ask(self, msg: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the revision's bot process ended")
        out = json.loads(line)
        if "error" in out:
            raise RuntimeError(f"the revision's bot: {out['error']}")
        return out

    def deal(self, variant: str, seed: int, bot_seeds: list[int]) -> None:
        """Start the deal ``State(variant, seed=seed)`` there, a bot per seat seeded so."""
        self._ask({"deal": [variant, seed, bot_seeds]})

    def applied(self, seat: int, text: str) -> None:
        """The action ``text`` of ``seat`` was applied here: apply it there too."""
        self._ask({"apply": [seat, text]})

    def act(self, seat: int) -> tuple[str, float]:
        """The revision's bot's action text for ``seat`` now, and the CPU seconds it took."""
        out = self._ask({"act": seat})
        return out["action"], out["cpu"]

    def close(self) -> None:
        """End the subprocess."""
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


def _use_tree(tree: Path) -> None:
    """Import ``rulekit`` (and its ``variants``, ``grammar`` and ``cli`` packages, laid out as
    the wheel installs them) from ``tree`` only, whatever is installed."""
    import importlib.abc
    import importlib.machinery

    where = {"rulekit": tree / "rulekit", "rulekit.variants": tree / "variants",
             "rulekit.grammar": tree / "grammar", "rulekit.cli": tree / "cli"}

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):  # noqa: D102 - the import protocol
            if name in where:
                return importlib.machinery.PathFinder.find_spec(name.rpartition(".")[2], [str(where[name].parent)]) \
                    if name == "rulekit" else importlib.util.spec_from_file_location(
                        name, where[name] / "__init__.py", submodule_search_locations=[str(where[name])])
            return None
    import importlib.util
    for name in [m for m in sys.modules if m == "rulekit" or m.startswith("rulekit.")]:
        del sys.modules[name]
    sys.meta_path.insert(0, Finder())


def serve(tree: Path) -> None:
    """Answer the protocol on stdin/stdout with the code of ``tree``."""
    _use_tree(tree)
    import time

    from rulekit.bots.sensible import SensibleBot
    from rulekit.engine import State
    from rulekit.variant import load_variant
    from importlib.resources import files
    # the revision's own code, variant files and grammar (never those of the editable install)
    assert Path(sys.modules["rulekit"].__file__).parent == tree / "rulekit"
    assert (Path(str(files("rulekit.variants"))), Path(str(files("rulekit.grammar")))) == \
        (tree / "variants", tree / "grammar")
    try:   # the revision's kernel loaded now when RULEKIT_KERNEL turns it on, not in a timed decision
        from rulekit.engine import kernel
        kernel.enabled(0)
    except ImportError:   # (a revision without the kernel)
        pass
    state, bots, variants = None, [], {}
    for line in sys.stdin:
        msg = json.loads(line)
        try:
            if "deal" in msg:
                vid, seed, seeds = msg["deal"]
                v = variants.get(vid) or variants.setdefault(vid, load_variant(vid))
                state = State(v, seed=seed)
                bots = [SensibleBot(seed=s) for s in seeds]
                out: dict = {}
            elif "apply" in msg:
                seat, text = msg["apply"]
                if state.controller(state.to_move) != seat:
                    raise RuntimeError(f"out of step: seat {seat} acts here, {state.to_move} is to move there")
                state.apply(text)
                out = {}
            else:
                seat = msg["act"]
                if state.controller(state.to_move) != seat:
                    raise RuntimeError(f"out of step: seat {seat} is to act here, {state.to_move} there")
                obs = state.observation(seat)
                t0 = time.process_time()
                a = bots[seat].act(obs)
                out = {"action": a.text, "cpu": time.process_time() - t0}
        except Exception as e:  # noqa: BLE001 - reported to the caller, which stops
            out = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(Path(sys.argv[2]))
    else:
        sys.exit("usage: revision_bot.py --serve FOLDER (run by bots.py --vs-old REV)")
