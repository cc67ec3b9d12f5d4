"""The editor schema (``rulekit schema``): a variant file as written, as an editor sees it.

An editor applies the schema to the file as written, before ``extends:`` is merged; the
file must get the verdict that ``rulekit validate``'s schema step gives the merged variant.
Checked with jsonschema on every shipped file, every ``tests/broken`` file and made-up
override files, and, when Node.js and yaml-language-server are there, with the language
server itself over stdio (diagnostics and completion).
"""
from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from rulekit.cli.app import app
from rulekit.engine.phases import PhaseKind, register, unregister
from rulekit.schemas import composed_schema, editor_schema
from rulekit.variant.loader import REQUIRED_KEYS, resolve, schema_problems
from rulekit.variant.yamlpos import load_yaml

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "variants").glob("*.yaml"))
BROKEN = sorted((ROOT / "tests" / "broken").glob("*.yaml"))

# Files whose verdicts differ for a reason the file alone cannot settle, each with it.
FLOAT_INTEGERS = {"float-players.yaml", "float-seat.yaml"}  # 4.0 is an integer in JSON Schema, not in rulekit
NO_SCHEMA_STEP = {"base-missing.yaml", "cycle-a.yaml", "cycle-b.yaml"}  # validate stops at extends:
NO_DOCUMENT = {"yaml-syntax.yaml", "yaml-tab.yaml", "yaml-unclosed-quote.yaml", "yaml-unclosed-quote-end.yaml",
               "not-utf8.yaml"}  # no YAML document to apply a schema to


def validate_verdict(path: Path) -> str | None:
    """``valid`` or ``invalid`` at validate's schema step (the merged document against the
    schema, the required keys; a file that is no mapping is refused there too), or ``None``
    when validate stops before it (no document, a broken ``extends:`` chain)."""
    r = resolve(str(path))
    if r.data is None:
        if any("must be a YAML mapping" in d.message for d in r.diagnostics):
            return "invalid"
        return None
    missing = [k for k in REQUIRED_KEYS if k not in r.data]
    return "invalid" if schema_problems(r) or missing else "valid"


_EDITOR = Draft202012Validator(editor_schema())


def editor_verdict(path: Path) -> str | None:
    """``valid`` or ``invalid`` from the editor schema applied to the file as written (standard
    Draft 2020-12, as a language server applies it), or ``None`` when it is no YAML document."""
    try:
        data = load_yaml(str(path), path.read_text("utf-8")).data
    except (UnicodeDecodeError, yaml.YAMLError):
        return None
    return "invalid" if any(True for _ in _EDITOR.iter_errors(data)) else "valid"


def test_editor_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(editor_schema())


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_file_is_valid_as_written(path):
    """Every shipped variant, house rules with extends: and null removals included, is valid
    for the editor as it is for validate."""
    assert validate_verdict(path) == "valid"
    assert editor_verdict(path) == "valid"


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.name)
def test_every_broken_file_gets_validates_schema_verdict(path):
    """A broken file is refused by the editor exactly when validate's schema step refuses it;
    files broken only in meaning or DSL pass both.  Exceptions, each for a stated reason: a
    whole number written 4.0 (JSON Schema's integer takes it), a broken extends: chain (validate
    never reaches the schema), no YAML document at all."""
    v, e = validate_verdict(path), editor_verdict(path)
    if path.name in FLOAT_INTEGERS:
        assert (v, e) == ("invalid", "valid")
    elif path.name in NO_SCHEMA_STEP:
        assert v is None and e == "valid"
    elif path.name in NO_DOCUMENT:
        assert v is None and e is None
    else:
        assert v is not None and e == v


def test_verdict_table_of_the_broken_files():
    """The counts: broken files refused at the schema step by both, passed by both (broken in
    meaning), and the exceptions above."""
    table: dict[tuple, int] = {}
    for p in BROKEN:
        key = (validate_verdict(p), editor_verdict(p))
        table[key] = table.get(key, 0) + 1
    assert table == {("invalid", "invalid"): 10, ("valid", "valid"): 29, ("invalid", "valid"): 2,
                     (None, "valid"): 3, (None, None): 5}


# Made-up files: (name, text, verdict of both).  Bases are installed variants.
OVERRIDES = [
    ("partial-phase", "extends: fivehundred\nphases:\n  auction:\n    levels: [6, 7, 8, 9]\n", "valid"),
    ("partial-phase-with-kind", "extends: fivehundred\nphases:\n  play:\n    kind: tricks\n"
                                "    must_trump: true\n", "valid"),
    ("null-removes-keys", "extends: fivehundred\nphases:\n  play:\n    must_trump: null\n"
                          "match:\n  ties: null\nscoring:\n  no_contract:\n", "valid"),
    ("null-in-another-base", "extends: bridge\nphases:\n  play:\n    dummy: null\n", "valid"),
    ("null-removes-a-phase", "extends: fivehundred\nphases:\n  trump: null\n", "valid"),
    ("new-phase", "extends: fivehundred\nphases:\n  widow:\n    kind: widow_exchange\n", "valid"),
    ("null-on-required-key", "extends: fivehundred\ndeck:\n  suits: null\n", "invalid"),
    ("null-on-phases", "extends: fivehundred\nphases: null\n", "invalid"),
    ("null-on-kind", "extends: fivehundred\nphases:\n  play:\n    kind: null\n", "invalid"),
    ("wrong-type-in-phase", "extends: fivehundred\nphases:\n  play:\n    must_trump: 3\n", "invalid"),
    ("wrong-type-in-match", "extends: fivehundred\nmatch:\n  target: five hundred\n", "invalid"),
    ("wrong-type-in-list", "extends: fivehundred\nphases:\n  auction:\n    levels: [6, seven]\n", "invalid"),
    ("bad-enum-in-phase", "extends: fivehundred\nphases:\n  play:\n    lead: dealer\n", "invalid"),
    ("unknown-key-in-kind", "extends: fivehundred\nphases:\n  play:\n    kind: tricks\n"
                            "    must_trumpp: true\n", "invalid"),
    ("other-kinds-key-in-kind", "extends: fivehundred\nphases:\n  play:\n    kind: tricks\n"
                                "    discard: 3\n", "invalid"),
    ("unknown-key-in-phase", "extends: fivehundred\nphases:\n  play:\n    must_trumpp: true\n", "invalid"),
    ("unknown-kind", "extends: fivehundred\nphases:\n  play:\n    kind: trick\n", "invalid"),
    ("list-replaced-whole", "extends: fivehundred\nphases:\n  auction:\n    extra_bids:\n"
                            "      - {call: 10T, level: 10}\n", "invalid"),
    ("extends-not-text", "extends: 5\nname: x\n", "invalid"),
    ("complete-file-null", "id: x\ndeck: {suits: [S], ranks: [A]}\nranking: {suit: A}\nphases:\n"
                           "  play: {kind: tricks, must_trump: null}\n", "invalid"),
    ("complete-file-without-kind", "id: x\ndeck: {suits: [S], ranks: [A]}\nranking: {suit: A}\nphases:\n"
                                   "  play: {must_trump: true}\n", "invalid"),
    ("complete-file-missing-phases", "id: x\ndeck: {suits: [S], ranks: [A]}\nranking: {suit: A}\n",
     "invalid"),
    # null at a key that is unknown there removes nothing: a typo, refused as any unknown key
    ("null-at-unknown-key", "extends: fivehundred\nphases:\n  play:\n    must_trumpp: null\n", "invalid"),
    ("null-at-unknown-top-key", "extends: fivehundred\ntypo: null\n", "invalid"),
]

# What the file alone cannot settle: (name, text, editor's verdict, validate's verdict).
LIMITS = [
    # the base's play phase is of kind tricks, which has no discard; written without kind:
    ("key-of-another-kind", "extends: fivehundred\nphases:\n  play:\n    discard: 3\n", "valid", "invalid"),
    # a mapping replaces the base's number whole, so it must be complete there
    ("partial-mapping-over-a-number", "extends: fivehundred\nplayers:\n  default: 3\n", "valid", "invalid"),
]


def _verdicts(folder: Path, name: str, text: str) -> tuple:
    """(validate's, the editor's) verdict on ``text`` written as ``folder/name.yaml``."""
    f = folder / f"{name}.yaml"
    f.write_text(text)
    return validate_verdict(f), editor_verdict(f)


@pytest.mark.parametrize("name,text,verdict", OVERRIDES, ids=[c[0] for c in OVERRIDES])
def test_made_up_override_gets_the_same_verdict(tmp_path, name, text, verdict):
    """Partial overrides at every depth pass; null passes where the merged variant may lack the
    key; types, enums, unknown keys and a phase's keys by its kind are checked as in validate."""
    assert _verdicts(tmp_path, name, text) == (verdict, verdict)


@pytest.mark.parametrize("name,text,editor,validate", LIMITS, ids=[c[0] for c in LIMITS])
def test_what_the_file_alone_cannot_settle(tmp_path, name, text, editor, validate):
    """Known differences: the editor does not see the base variant (its phase kinds, which of its
    values are mappings)."""
    assert _verdicts(tmp_path, name, text) == (validate, editor)


def test_a_phase_entry_has_only_its_kinds_keys():
    """Each phase entry is narrowed by its kind: the tricks block lists the tricks keys only."""
    s = editor_schema()["$defs"]
    rules = [a for a in s["phase"]["allOf"] if a["if"]["properties"]["kind"].get("const") == "tricks"]
    assert [r["then"] for r in rules] == [{"$ref": "#/$defs/phase_tricks"}]
    assert rules[0]["if"]["required"] == ["kind"]
    keys = set(s["phase_tricks"]["properties"])
    assert "must_trump" in keys and "discard" not in keys and "pattern" not in keys
    assert set(s["phase"]["properties"]) == {"kind"}


def test_a_kinds_former_word_is_accepted_as_the_kind():
    """A phase written with a kind's former word (``kind: layout`` for ``domino``), which the loader
    reads as the kind, is valid in the editor schema with that kind's keys, and only those."""
    from tests.kinds.test_domino import DOMINO
    doc = yaml.safe_load(DOMINO)
    lay = doc.pop("rounds")[0]["phases"]["lay"]            # the round's phase as the file's own
    doc["phases"] = {"deal": doc["phases"]["deal"], "lay": lay}
    assert _EDITOR.is_valid(doc)
    lay["kind"] = "layout"
    assert _EDITOR.is_valid(doc)
    lay["must_trump"] = True                                 # a key of tricks, not of domino
    assert not _EDITOR.is_valid(doc)
    assert _EDITOR.is_valid({"extends": "x", "phases": {"lay": {"kind": "layout", "end_when_out": 2}}})
    assert not _EDITOR.is_valid({"extends": "x", "phases": {"lay": {"kind": "layout", "pattern": "13"}}})
    assert not _EDITOR.is_valid({"extends": "x", "phases": {"lay": {"kind": "layouts"}}})


class _Toy(PhaseKind):
    """A kind registered after import: each player says a colour."""

    name = "say_colour"
    schema = {"description": "Each player says a colour.", "type": "object", "additionalProperties": False,
              "required": ["kind", "colours"],
              "properties": {"kind": True, "colours": {"type": "array", "items": {"type": "string"}},
                             "loud": {"type": "boolean"}}}


def test_a_kind_registered_later_is_in_the_editor_schema():
    """The editor schema is built from the registry on each call: a new kind's keys are checked,
    complete in a file without extends:, partial (its required keys optional) in an override."""
    register(_Toy())
    try:
        v = Draft202012Validator(editor_schema())
        base = {"deck": {"suits": ["S"], "ranks": ["A"]}, "ranking": {"suit": "A"}}
        assert v.is_valid({**base, "phases": {"talk": {"kind": "say_colour", "colours": ["red"]}}})
        assert not v.is_valid({**base, "phases": {"talk": {"kind": "say_colour"}}})
        assert v.is_valid({"extends": "x", "phases": {"talk": {"kind": "say_colour", "loud": True}}})
        assert v.is_valid({"extends": "x", "phases": {"talk": {"loud": None}}})
        assert not v.is_valid({"extends": "x", "phases": {"talk": {"kind": "say_colour", "loud": 1}}})
        assert not v.is_valid({"extends": "x", "phases": {"talk": {"kind": "say_colour", "pattern": "13"}}})
    finally:
        unregister(_Toy.name)
    assert "phase_say_colour" not in editor_schema()["$defs"]


def test_schema_command_prints_the_editor_schema_and_the_merged_one_on_request(tmp_path):
    """`rulekit schema` prints the editor schema; `--merged` the schema of a merged variant."""
    runner = CliRunner()
    r = runner.invoke(app, ["schema"])
    assert r.exit_code == 0 and json.loads(r.output) == editor_schema()
    r = runner.invoke(app, ["schema", "--merged"])
    assert r.exit_code == 0 and json.loads(r.output) == composed_schema()
    out = tmp_path / "s.json"
    r = runner.invoke(app, ["schema", "-o", str(out)])
    assert r.exit_code == 0 and json.loads(out.read_text()) == editor_schema()


# ---------------------------------------------------------------- yaml-language-server

def _server() -> list[str] | None:
    """The command that starts yaml-language-server, or None: the script named by
    ``YAML_LANGUAGE_SERVER``, else the one ``.ci/run`` installs under ``.ci/node``, run by node;
    else a ``yaml-language-server`` on the PATH."""
    node = shutil.which("node")
    local = ROOT / ".ci" / "node" / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
    for script in (os.environ.get("YAML_LANGUAGE_SERVER"), str(local)):
        if node and script and Path(script).is_file():
            return [node, script, "--stdio"]
    found = shutil.which("yaml-language-server")
    return [found, "--stdio"] if node and found else None


class LanguageServer:
    """A language server over stdio (the LSP's JSON-RPC with Content-Length framing)."""

    def __init__(self, cmd: list[str], root: Path, settings: dict):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.settings = settings
        self.inbox: queue.Queue = queue.Queue()
        self.diagnostics: dict[str, list] = {}
        self.responses: dict[int, dict] = {}
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                    "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                                    "capabilities": {"workspace": {"configuration": True},
                                                     "textDocument": {"publishDiagnostics": {},
                                                                      "completion": {}}}})
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": settings})

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is not None:
                self.inbox.put(json.loads(out.read(length)))

    def _send(self, message: dict) -> None:
        data = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(data), data))
        self.proc.stdin.flush()

    def notify(self, method: str, params) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params, timeout: float = 60):
        self.next_id += 1
        rid = self.next_id
        self._send({"id": rid, "method": method, "params": params})
        self._wait(lambda: rid in self.responses, timeout)
        return self.responses.pop(rid).get("result")

    def _wait(self, done, timeout: float) -> None:
        end = time.monotonic() + timeout
        while not done():
            try:
                m = self.inbox.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise TimeoutError("yaml-language-server did not answer") from None
            if m is None:
                raise EOFError("yaml-language-server exited")
            if "method" in m and "id" in m:  # the server asks: configuration, registrations
                items = m.get("params", {}).get("items", []) if m["method"] == "workspace/configuration" else None
                self._send({"id": m["id"], "result": [self.settings.get(i.get("section"), None) for i in items]
                            if items is not None else None})
            elif "id" in m:
                self.responses[m["id"]] = m
            elif m.get("method") == "textDocument/publishDiagnostics":
                self.diagnostics[m["params"]["uri"]] = m["params"]["diagnostics"]

    def open(self, path: Path, text: str, keep: bool = False) -> list:
        """Open a document; its diagnostics once the server has checked it.  Closed again
        unless ``keep``."""
        return self.check({path: text}, keep)[path]

    def check(self, docs: dict[Path, str], keep: bool = False) -> dict[Path, list]:
        """Open documents together (the server waits 200 ms after each change before it checks
        one); the diagnostics of each."""
        uris = {p: p.as_uri() for p in docs}
        for p, text in docs.items():
            self.diagnostics.pop(uris[p], None)
            self.notify("textDocument/didOpen", {"textDocument": {"uri": uris[p], "languageId": "yaml",
                                                                  "version": 1, "text": text}})
        self._wait(lambda: all(u in self.diagnostics for u in uris.values()), 120)
        if not keep:
            for u in uris.values():
                self.notify("textDocument/didClose", {"textDocument": {"uri": u}})
        return {p: self.diagnostics[u] for p, u in uris.items()}

    def completion(self, path: Path, text: str, line: int, character: int) -> list[str]:
        """The labels offered at a 0-based position of a document."""
        self.open(path, text, keep=True)
        uri = path.as_uri()
        res = self.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                        "position": {"line": line, "character": character}})
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        items = res.get("items", []) if isinstance(res, dict) else (res or [])
        return sorted(i["label"] for i in items)

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except (TimeoutError, EOFError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def _schema_diagnostics(diags: list) -> list:
    return [d for d in diags if str(d.get("source", "")).startswith("yaml-schema")]


#: the tests of the one language server of this module run on one worker of a parallel run
#: (pytest -n, --dist loadgroup), which starts it once
one_server = pytest.mark.xdist_group("yaml-language-server")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    cmd = _server()
    if cmd is None:
        pytest.skip("yaml-language-server is not installed (needs node; .ci/run installs it with npm "
                    "into .ci/node, or set YAML_LANGUAGE_SERVER)")
    schema_file = tmp_path_factory.mktemp("schema") / "rulekit.schema.json"
    schema_file.write_text(json.dumps(editor_schema(), indent=1))
    # the server's default YAML 1.2 (its 1.1 reads the seat names N and Y as booleans; PyYAML's
    # does not); no download of the schema catalogue
    settings = {"yaml": {"validate": True, "completion": True, "hover": True, "schemaStore": {"enable": False},
                         "schemas": {schema_file.as_uri(): ["**/*.yaml"]}}}
    s = LanguageServer(cmd, ROOT, settings)
    s.schema_file = schema_file  # type: ignore[attr-defined]
    yield s
    s.close()


@one_server
def test_language_server_reports_nothing_on_shipped_files(server):
    """yaml-language-server with the editor schema underlines nothing in any shipped file."""
    found = server.check({p: p.read_text("utf-8") for p in SHIPPED})
    assert {p.name: d for p, d in found.items() if d} == {}
    assert len(found) == len(SHIPPED) > 0   # every shipped file was checked


@one_server
def test_language_server_flags_the_broken_files_validate_refuses_at_the_schema_step(server):
    """A schema diagnostic exactly for the broken files the editor schema refuses (those validate's
    schema step refuses, less the float integers); yaml-language-server checks no empty document;
    a file that is not YAML gets its syntax error."""
    flagged, expected = set(), set()
    found = server.check({p: p.read_text("utf-8") for p in BROKEN if p.name != "not-utf8.yaml"})
    for p, diags in found.items():
        if p.name in NO_DOCUMENT:  # the YAML error, whatever the schema says of what was recovered
            assert [d for d in diags if d["severity"] == 1 and d not in _schema_diagnostics(diags)]
        elif _schema_diagnostics(diags):
            flagged.add(p.name)
        if editor_verdict(p) == "invalid" and p.name != "empty.yaml":
            expected.add(p.name)
    assert flagged == expected
    assert {"unknown-key.yaml", "missing-required.yaml", "missing-ranking.yaml", "bad-enum.yaml",
            "wrong-type.yaml"} <= flagged


@one_server
def test_language_server_agrees_on_made_up_overrides(server, tmp_path):
    """The server's verdict on each made-up file is the editor schema's (jsonschema's) verdict."""
    cases = [(n, t, v) for n, t, v in OVERRIDES] + [(n, t, e) for n, t, e, _ in LIMITS]
    found = server.check({tmp_path / f"{name}.yaml": text for name, text, _ in cases})
    for name, text, verdict in cases:
        diags = _schema_diagnostics(found[tmp_path / f"{name}.yaml"])
        assert bool(diags) == (verdict == "invalid"), (name, diags)


@one_server
def test_language_server_completes_a_phase_with_its_kinds_keys(server, tmp_path):
    """Completion inside a phase offers its kind's keys only (if/then on kind is honoured), in a
    complete file and in an override; an override phase without kind, the keys of the kinds
    that fit what it already holds."""
    # before/after (where a house rule's new phase runs) are every kind's keys, accepted by the
    # schema but not offered by the server's completion, which lists the kind's own keys
    tricks = set(editor_schema()["$defs"]["phase_tricks"]["properties"]) - {"before", "after"}
    complete = "id: x\ndeck: {suits: [S], ranks: [A]}\nranking: {suit: A}\nphases:\n  play:\n    kind: tricks\n    \n"
    assert set(server.completion(tmp_path / "c.yaml", complete, 6, 4)) == tricks - {"kind"}
    override = "extends: fivehundred\nphases:\n  play:\n    kind: tricks\n    lead: eldest\n    \n"
    assert set(server.completion(tmp_path / "o.yaml", override, 5, 4)) == tricks - {"kind", "lead"}
    kinds = server.completion(tmp_path / "k.yaml", "extends: fivehundred\nphases:\n  play:\n    kind: \n", 3, 10)
    assert "tricks" in kinds and "widow_exchange" in kinds and "must_trump" not in kinds


@one_server
def test_language_server_reads_yes_as_text(server, tmp_path):
    """The server reads YAML 1.2, where `yes` is text; rulekit reads YAML 1.1, where it is a
    boolean (docs/authoring.md says to write true and false)."""
    base = "extends: fivehundred\nphases:\n  play:\n    must_trump: "
    found = server.check({tmp_path / "yes.yaml": base + "yes\n", tmp_path / "true.yaml": base + "true\n"})
    assert [d["message"] for d in found[tmp_path / "yes.yaml"]] == ['Incorrect type. Expected "boolean | null".']
    assert found[tmp_path / "true.yaml"] == []
    assert _verdicts(tmp_path, "yes", base + "yes\n") == ("valid", "valid")


@one_server
def test_modeline_names_the_schema(server, tmp_path):
    """The `# yaml-language-server: $schema=...` modeline on a file's first line selects the schema
    (a file outside the folders the settings map)."""
    shutil.copy(server.schema_file, tmp_path / "rulekit.schema.json")
    line = "# yaml-language-server: $schema=rulekit.schema.json\n"
    assert server.open(tmp_path / "ok.yml", line + "extends: fivehundred\nphases:\n  play:\n    must_trump: true\n") == []
    diags = server.open(tmp_path / "bad.yml", line + "extends: fivehundred\nphases:\n  play:\n    must_trumpp: true\n")
    assert [d["message"] for d in _schema_diagnostics(diags)] == ["Property must_trumpp is not allowed."]
