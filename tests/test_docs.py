"""docs/ stays true: it fails when the docs drift from the code, the schema or the variants.

* the generated files (docs/reference.md, docs/variants/*.md and the generated blocks of
  docs/authoring.md and docs/dsl.md) equal what ``python tools/gen_docs.py`` writes now;
* every installed variant has a page; every schema property, enum value and description is in
  docs/reference.md;
* every command, argument and option of docs/cli.md exists in the typer app, and vice versa;
* docs/dsl.md lists every grammar form and scoring variable, and its examples compile;
* docs/architecture.md names every module;
* docs/examples/tiny.yaml loads and plays full matches with random bots;
* relative links between the docs resolve.

When a test here fails after a change elsewhere: run ``python tools/gen_docs.py`` (generated
parts), or update the hand-written page the message names.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
import rich.markup
import typer.main
import yaml
from typer.testing import CliRunner

from rulekit.bots import RandomBot
from rulekit.dsl import compile_deal, compile_expr, compile_ranking
from rulekit.engine import State
from rulekit.variant import builtin_ids, check_file, load_variant, resolve
from rulekit.variant import model

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TINY = "docs/examples/tiny.yaml"
REGEN = "run `python tools/gen_docs.py`"
# one worker of a parallel run builds the generated pages once (the module's ``gen`` fixtures)
pytestmark = pytest.mark.xdist_group("gen_docs")


@functools.lru_cache(maxsize=1)
def gen_docs():
    """tools/gen_docs.py as a module."""
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "tools" / "gen_docs.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("gen_docs", mod)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def gen():
    return gen_docs()


@pytest.fixture(scope="module")
def generated(gen):
    return gen.build()


def read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a whole heading line) up to the next heading of its level or above."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text.splitlines()
    start = lines.index(heading)
    out = []
    for line in lines[start + 1:]:
        m = re.match(r"(#+) ", line)
        if m and len(m.group(1)) <= level:
            break
        out.append(line)
    return "\n".join(out)


def first_cells(text: str) -> list:
    """The backticked text of the first cell of each table row."""
    return re.findall(r"^\| `([^`]+)`", text, re.M)


# ---------------------------------------------------------------------- generated files
def test_generated_files_are_up_to_date(gen, generated):
    stale = [str(p.relative_to(ROOT)) for p, text in generated.items()
             if not p.exists() or p.read_text(encoding="utf-8") != text]
    assert not stale, f"out of date: {stale}; {REGEN}"
    assert not gen.stale(generated), f"pages of variants that no longer exist: {gen.stale(generated)}; {REGEN}"


def test_every_variant_has_a_page():
    index = read("variants/README.md")
    for vid in builtin_ids():
        assert (DOCS / "variants" / f"{vid}.md").is_file(), f"no page for {vid}; {REGEN}"
        assert f"({vid}.md)" in index, f"{vid} missing from docs/variants/README.md; {REGEN}"


def test_the_readme_lists_every_shipped_variant():
    """README.md's list of shipped variants names every installed id (a house rule too), in
    backticks as `rulekit list` prints it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shipped = readme[readme.index("Shipped variants"):readme.index("## Set up")]
    missing = [vid for vid in builtin_ids() if f"`{vid}`" not in shipped]
    assert not missing, f"README.md's list of shipped variants leaves out {missing}"


def test_house_rule_pages_show_their_changes():
    for vid in builtin_ids():
        own = yaml.safe_load((ROOT / "variants" / f"{vid}.yaml").read_text(encoding="utf-8"))
        if own.get("extends"):
            assert "## Changes from the base" in read(f"variants/{vid}.md"), f"{vid}; {REGEN}"


# ---------------------------------------------------------------------- reference.md
def schema() -> dict:
    return json.loads((ROOT / "rulekit" / "schemas" / "variant.schema.json").read_text(encoding="utf-8"))


def walk(node):
    """Every dict inside the schema (not the ``if`` parts of conditionals: they only test a kind)."""
    if isinstance(node, dict):
        yield node
        for k, v in node.items():
            if k != "if":
                yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)


def test_every_schema_property_is_in_reference():
    ref = read("reference.md")
    paths = set(first_cells(ref))
    last = {re.sub(r"\[\]$", "", p.split(".")[-1]) for p in paths}
    props = {k for d in walk(schema()) for k, v in d.get("properties", {}).items() if v is not True}
    missing = sorted(props - last)
    assert not missing, f"schema properties without a row in docs/reference.md: {missing}; {REGEN}"
    top = set(schema()["properties"])
    assert top <= paths, f"top-level fields missing: {sorted(top - paths)}; {REGEN}"


def test_every_enum_value_and_description_is_in_reference():
    """Each field's description is its only text, and the reference shows it."""
    ref = read("reference.md")
    flat = " ".join(ref.split()).replace("\\|", "|")
    sc = schema()
    for d in walk(sc):
        for v in d.get("enum", []):
            assert f"`{v}`" in ref, f"enum value {v!r} missing from docs/reference.md; {REGEN}"
        for v in d.get("properties", {}).values():
            desc = deref(sc, v).get("description") if v is not True else None
            if desc:
                assert " ".join(desc.split()) in flat, f"description missing from docs/reference.md: {desc!r}; {REGEN}"


def deref(sc, n):
    while isinstance(n, dict) and "$ref" in n:
        target = sc
        for part in n["$ref"][2:].split("/"):
            target = target[part]
        n = {**target, **{k: v for k, v in n.items() if k != "$ref"}}
    return n


#: Schema fields that have no description yet (every new field must have one).
KNOWN_UNDESCRIBED = {"default", "choices"}


def test_schema_fields_have_descriptions():
    sc = schema()
    undescribed = {k for d in walk(sc) for k, v in d.get("properties", {}).items()
                   if v is not True and not deref(sc, v).get("description")}
    assert undescribed <= KNOWN_UNDESCRIBED, \
        f"schema fields without a description (the docs reuse it): {sorted(undescribed - KNOWN_UNDESCRIBED)}"


# ---------------------------------------------------------------------- cli.md
def cli_app():
    from rulekit.cli.app import app
    return typer.main.get_command(app)


def documented_cli() -> dict:
    """command -> {"params": set of `--option` / ARGUMENT, "text": the section text}."""
    text = read("cli.md")
    out = {}
    for m in re.finditer(r"^## `rulekit (\w[\w-]*)`$", text, re.M):
        body = section(text, m.group(0))
        out[m.group(1)] = {"params": set(re.findall(r"^\| `(--[\w-]+|[A-Z][A-Z_]*)(?:\.\.\.)?`", body, re.M)),
                           "text": body}
    return out


def app_params(cmd) -> dict:
    """`--option` or ARGUMENT -> help text of each parameter of a click command (no --help)."""
    out = {}
    for p in cmd.params:
        if p.param_type_name == "argument":
            out[p.name.upper()] = getattr(p, "help", "") or ""
        else:
            for opt in list(p.opts) + list(getattr(p, "secondary_opts", [])):
                if opt.startswith("--") and opt != "--help":
                    out[opt] = p.help or ""
    return out


def shown(help_text: str) -> str:
    """A help text as `--help` shows it: rich markup rendered (``\\[web]`` reads ``[web]``)."""
    return rich.markup.render(help_text).plain


def test_cli_doc_lists_exactly_the_commands():
    app = cli_app()
    assert set(documented_cli()) == set(app.commands), \
        "docs/cli.md sections `## `rulekit CMD`` must match the commands of cli/app.py"


NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                "fifteen sixteen").split()


def test_cli_doc_counts_the_commands():
    """The opening of docs/cli.md says how many commands the app has, and the number is right."""
    m = re.search(r"It has (\w+) commands\.", read("cli.md"))
    assert m, "docs/cli.md no longer says `It has N commands.`"
    assert m.group(1) == NUMBER_WORDS[len(cli_app().commands)]


@pytest.mark.parametrize("name", sorted(cli_app().commands))
def test_cli_doc_lists_exactly_the_options(name):
    cmd = cli_app().commands[name]
    doc = documented_cli().get(name)
    assert doc is not None, f"docs/cli.md has no section for `rulekit {name}`"
    params = app_params(cmd)
    assert doc["params"] == set(params), \
        f"rulekit {name}: documented {sorted(doc['params'])} but the app has {sorted(params)}"
    flat = " ".join(doc["text"].split()).replace("\\|", "|")
    for p, help_text in params.items():
        assert " ".join(shown(help_text).split()) in flat, f"rulekit {name} {p}: the help text is not quoted in docs/cli.md"
    summary = shown(cmd.help or "").strip().split("\n\n")[0]
    assert " ".join(summary.split()) in flat, f"rulekit {name}: its help summary is not quoted in docs/cli.md"


def test_cli_doc_options_are_accepted():
    """Every documented option is accepted by `rulekit CMD --help`-level parsing (no usage error)."""
    from rulekit.cli.app import app
    runner = CliRunner()
    for name, doc in documented_cli().items():
        r = runner.invoke(app, [name, "--help"])
        assert r.exit_code == 0, r.output
        for p in doc["params"]:
            if p.startswith("--"):
                assert p in r.output, f"rulekit {name} --help does not show {p}"


# ---------------------------------------------------------------------- dsl.md
def test_dsl_doc_lists_every_grammar_form():
    grammar = (ROOT / "grammar" / "rulekit.lark").read_text(encoding="utf-8")
    aliases = set(re.findall(r"->\s*(\w+)", grammar))
    doc = section(read("dsl.md"), "## Grammar forms")
    listed = set(first_cells(doc))
    assert aliases == listed, f"grammar aliases {sorted(aliases ^ listed)} differ from docs/dsl.md's table"
    words = set()
    for term in ("ZONE", "FACING", "SUITREF"):
        m = re.search(rf"^{term}\b[^:]*:(.*)$", grammar, re.M)
        words |= set(re.findall(r'"(\w+)"', m.group(1)))
    text = read("dsl.md")
    for w in words:
        assert f"`{w}`" in text or re.search(rf"\b{w}\b", text), f"{w} is not explained in docs/dsl.md"


def test_dsl_doc_lists_every_variable():
    doc = section(read("dsl.md"), "### Scoring variables")
    listed = set(first_cells(doc))
    names = set(model.CONTRACT_NAMES) | set(model.BASE_NAMES)
    assert listed == names, f"docs/dsl.md variables differ from model.py: {sorted(listed ^ names)}"
    base = set(first_cells(doc.split("Defined only in games with an auction")[0]))
    assert base == set(model.BASE_NAMES), "the first table of docs/dsl.md must be BASE_NAMES"


def test_dsl_doc_lists_every_dsl_field():
    doc = section(read("dsl.md"), "## Where DSL strings appear")
    for path, _start in getattr(model, "DSL_PATHS", ()):
        words = []
        for i, k in enumerate(path):
            words.append(k if k != "*" else ("N" if i and path[i - 1] == "pattern" else "NAME"))
        assert "`" + ".".join(words) + "`" in doc, f"{'.'.join(words)} is not in docs/dsl.md's table of DSL fields"


def code_blocks(text: str, info: str) -> list:
    return re.findall(rf"^```{re.escape(info)}\n(.*?)^```", text, re.M | re.S)


def test_dsl_doc_examples_compile():
    text = read("dsl.md")
    names = {n: getattr(model, "NAME_TYPES", {}).get(n, "any") for n in model.CONTRACT_NAMES}
    consts = ("S", "H", "D", "C", "NT")
    blocks = {k: code_blocks(text, f"rulekit-{k}") for k in ("expr", "ranking", "deal")}
    assert all(blocks.values()), "docs/dsl.md lost its example blocks"
    for b in blocks["expr"]:
        for line in filter(None, b.splitlines()):
            compile_expr(line, names, consts)
    for b in blocks["ranking"]:
        for line in filter(None, b.splitlines()):
            assert compile_ranking(line)
    for b in blocks["deal"]:
        for line in filter(None, b.splitlines()):
            assert compile_deal(line)


# ---------------------------------------------------------------------- architecture.md
def test_architecture_names_every_module():
    text = read("architecture.md")
    modules = [p for d in ("rulekit", "cli") for p in sorted((ROOT / d).rglob("*.py"))
               if p.name != "__init__.py" and "__pycache__" not in p.parts]
    missing = [str(p.relative_to(ROOT)) for p in modules if str(p.relative_to(ROOT)) not in text]
    assert not missing, f"docs/architecture.md does not mention {missing}"
    for path in re.findall(r"`((?:rulekit|cli|grammar|variants|tools|tests)/[\w./-]*)`", text):
        assert (ROOT / path).exists(), f"docs/architecture.md names {path}, which does not exist"
    from rulekit.engine.phases import REGISTRY
    for kind in REGISTRY:
        assert f"`{kind}`" in text, f"phase kind {kind} is not in docs/architecture.md"


# ---------------------------------------------------------------------- examples
def play_out(v, seed: int, limit: int = 100_000) -> State:
    s = State(v, seed=seed)
    bots = [RandomBot(seed * 31 + i) for i in range(v.players)]
    steps = 0
    while not s.is_over:
        seat = s.to_move
        who = s.controller(seat) if hasattr(s, "controller") else seat
        s.apply(bots[who].act(s.observation(who)))
        steps += 1
        assert steps < limit, "the match does not end"
    return s


def test_tiny_example_is_valid(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert check_file(TINY) == []


@pytest.mark.parametrize("seed", range(5))
def test_tiny_example_plays_a_full_match_with_random_bots(seed):
    v = load_variant(str(ROOT / TINY))
    assert (v.players, v.deck.size, v.hand_size) == (3, 24, 8)
    s = play_out(v, seed)
    assert s.hands_played == 2 * v.players
    assert len(s.sheet.rows) == 2 * v.players
    for row in s.sheet.rows:
        assert sum(row.entries) >= v.hand_size + 2  # every trick scores 1; the most tricks 2 more
    assert s.winners


def test_tiny_example_plays_from_the_command_line(monkeypatch):
    from rulekit.cli.app import app
    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(app, ["play", TINY, "--auto", "--seed", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "win" in r.output


def test_house_rule_example(monkeypatch):
    monkeypatch.chdir(ROOT)
    path = "docs/examples/fivehundred-short.yaml"
    assert check_file(path) == []
    house, base = resolve(path).data, resolve("fivehundred").data
    changed = {k for k in set(base["match"]) | set(house["match"]) if base["match"].get(k) != house["match"].get(k)}
    assert changed == {"target", "immediate_win", "ties"}
    assert "immediate_win" not in house["match"]
    v = load_variant(str(ROOT / path))
    assert v.match.target == 300 and v.match.immediate_win is None


def test_broken_example_is_broken(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert len(check_file("docs/examples/broken.yaml")) >= 3


# ---------------------------------------------------------------------- the test command
def test_ci_runs_the_readmes_test_command():
    """The README's set-up line ends with the test command that .ci/run runs (in parallel, -n auto)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Set up and run the tests\n\n```sh\n(.*?)\n```", readme, re.S)
    assert block, "README.md lost its section 'Set up and run the tests'"
    command = block.group(1).split(" && ")[-1]
    assert command.startswith(".venv/bin/pytest -n auto"), command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert [line for line in ci if line.startswith(".venv/bin/pytest")] == [command]


# ---------------------------------------------------------------------- links
def headings(path: Path) -> set:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {gen_docs().slug(m) for m in re.findall(r"^#+ (.*)$", text, re.M)}


#: Pages written by others (not checked here).
NOT_OURS = {"rules-status.md"}


def test_relative_links_resolve():
    pages = sorted(p for p in DOCS.rglob("*.md") if p.name not in NOT_OURS)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, anchor = target.partition("#")
            dest = (page.parent / file).resolve() if file else page
            assert dest.exists(), f"{page.relative_to(ROOT)}: broken link {target}"
            if anchor and dest.suffix == ".md":
                assert anchor in headings(dest), f"{page.relative_to(ROOT)}: no heading #{anchor} in {file or page.name}"


def test_every_schema_field_has_a_description(gen):
    """Every field of the variant schema (the shipped file and every phase kind's block) has a
    description: it is the field's only text in docs/reference.md."""
    sc = gen.Schema(gen.schema())
    missing = [path for section in gen.field_sections(sc) for path, _t, _a, _r, desc in section.rows if not desc]
    assert missing == [], f"fields without a description in the schema: {', '.join(missing)}"
