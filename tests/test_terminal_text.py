"""Text from a file reaches the terminal safe: every command that prints a variant's or a
record's words shows control characters (C0, C1, ESC, OSC) and bidirectional formatting
characters (U+202A-U+202E, U+2066-U+2069, U+200E/F) visibly (``^[``, ``\\u202e``), never raw,
so a file cannot clear the screen, write the clipboard (OSC 52), open a hyperlink (OSC 8) or
reverse a line."""
from __future__ import annotations

import io
import json

import pytest
from typer.testing import CliRunner

import rulekit.cli.app as cli_app
from rulekit.cli.app import app
from rulekit.text import visible

runner = CliRunner()

RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\u2066", "\u200f")
#: a variant name and source as YAML escapes: OSC 52 (clipboard), OSC 8 (hyperlink), RLO, RLI, RLM
#: (a seat name may hold none: validate refuses it)
HOSTILE = ('extends: fivehundred\nname: "Five \\e]52;c;b3duZWQ=\\a\\u202eevil\\u2066x\\u2069"\n'
           'source: "\\e]8;;http://x.test\\e\\\\link\\e]8;;\\e\\\\ \\x9b2J \\u200f"\n'
           'seats: [North, East, West]\n')


@pytest.fixture
def hostile(tmp_path):
    f = tmp_path / "hostile.yaml"
    f.write_text(HOSTILE)
    return f


def _clean(out: str) -> None:
    for c in RAW:
        assert c not in out, f"{c!r} reached the output raw"


def test_visible_shows_each_unsafe_character_and_keeps_the_rest():
    """ESC as ^[, BEL as ^G, a C1 control as \\x9b, each bidi character as \\uNNNN; newlines,
    accents and suit symbols stay."""
    assert visible("a\x1b]0;t\x07\nb") == "a^[]0;t^G\nb"
    assert visible("\x9b\u202a\u202e\u2066\u2069\u200e\u200f\u061c") == \
        "\\x9b\\u202a\\u202e\\u2066\\u2069\\u200e\\u200f\\u061c"
    assert visible("Sans atout ♠ é") == "Sans atout ♠ é"


def test_visible_shows_every_format_character_as_the_exports_do():
    """One escaping for the terminal and the pad exports: a zero-width space or joiner, a soft
    hyphen, a byte-order mark and a tag character (format characters, like the bidi ones) are
    shown; an export cell shows its newline too (one line), the terminal keeps it."""
    from rulekit.sheets.padfile import escape
    assert visible("a\u200bb\u200dc\u00add\ufeffe\U000e0041") == "a\\u200bb\\u200dc\\xadd\\ufeffe\\U000e0041"
    assert visible("a\x1b\nb") == "a^[\nb" and visible("a\x1b\nb", newlines=False) == "a^[^Jb"
    assert escape("P\x1b[2J\u202e\n") == visible("P\x1b[2J\u202e\n", newlines=False) == "P^[[2J\\u202e^J"


def test_explain_plain_shows_the_files_controls_visibly(hostile):
    r = runner.invoke(app, ["explain", str(hostile), "--plain"])
    assert r.exit_code == 0, r.output
    _clean(r.output)
    assert "# Five ^[]52;c;b3duZWQ=^G\\u202eevil\\u2066x\\u2069" in r.output
    # the file's own backslash (after the ESC that ends its OSC 8) is escaped for Markdown, which
    # renders it as one
    assert "^[]8;;http://x.test^[\\\\link" in r.output and "\\x9b2J \\u200f" in r.output


def test_explain_rendered_on_a_terminal_shows_them_visibly_and_opens_no_link(hostile, monkeypatch):
    """The rendered Markdown (rich, on a terminal) writes its own colours, never the file's codes,
    and a [text](url) of the file stays text (no OSC 8 hyperlink)."""
    buf = io.StringIO()
    term = cli_app._Console(file=buf, force_terminal=True, width=100)
    monkeypatch.setattr(cli_app, "console", term)
    f = hostile.parent / "link.yaml"
    f.write_text(HOSTILE + 'omitted: ["[click](http://x.test/)"]\n')
    r = runner.invoke(app, ["explain", str(f)])
    assert r.exit_code == 0, r.output
    out = buf.getvalue()
    assert "\x1b[" in out          # rich's own styles
    assert "\x1b]" not in out and "\x07" not in out and "\u202e" not in out and "\u2066" not in out
    assert "^[]52;c;b3duZWQ=^G" in out and "\\u202eevil" in out and "http://x.test/" in out


def test_validate_shows_a_quoted_line_visibly_in_text_and_escapes_it_in_json(tmp_path):
    """A formula error quotes the file: the message names the character, the excerpt of the line
    shows it as U+FFFD (one column each, so the caret stays under it).  YAML allows bidi
    characters raw in a file (an escape character it refuses)."""
    f = tmp_path / "bad.yaml"
    f.write_text('extends: fivehundred\nscoring:\n  each: "tricks + \u202eevil\u2066"\n')
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 1
    _clean(r.output)
    assert "unexpected character '\\u202e'" in r.output and 'each: "tricks + \ufffdevil\ufffd"' in r.output
    r = runner.invoke(app, ["validate", "--format", "json", str(f)])
    _clean(r.output)
    found = json.loads(r.output.split("\n]")[0] + "\n]")
    assert found[0]["message"].startswith("unexpected character '\\u202e'")


def test_play_and_replay_show_names_visibly(hostile, tmp_path):
    """The variant's name in play and replay; a player name of a record holding a control
    character is refused, and the refusal shows it visibly."""
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["play", str(hostile), "--auto", "--seed", "1", "--max-hands", "1", "--save", str(rec)])
    assert r.exit_code == 0, r.output
    _clean(r.output)
    assert "Five ^[]52;c;b3duZWQ=" in r.output and "\\u202eevil" in r.output
    data = json.loads(rec.read_text())
    data["names"][0] = data["sheet"]["columns"][0] = "\x1b[2JNo\u202erth"
    rec.write_text(json.dumps(data))
    r = runner.invoke(app, ["replay", str(rec)])
    assert r.exit_code == 1, r.output
    _clean(r.output)
    assert "names[0] holds a control character (^[[2JNo\\u202erth)" in r.output
    data["names"][0] = data["sheet"]["columns"][0] = "North"
    rec.write_text(json.dumps(data))
    r = runner.invoke(app, ["replay", str(rec)])
    assert r.exit_code == 0, r.output
    _clean(r.output)
    assert "\\u202eevil" in r.output


def test_a_pbn_export_to_the_terminal_shows_the_records_name_visibly(tmp_path):
    """PBN written to standard output names the record file: its controls shown visibly."""
    rec = tmp_path / "g.json"
    r = runner.invoke(app, ["play", "bridge", "--auto", "--seed", "3", "--max-hands", "2", "--save", str(rec)])
    assert r.exit_code == 0, r.output
    named = rec.rename(tmp_path / "g\x1b]0;x\x07\u202e.json")
    r = runner.invoke(app, ["replay", str(named), "--pbn"])
    assert r.exit_code == 0, r.output
    _clean(r.output)
    assert "% exported by rulekit from g^[]0;x^G\\u202e.json" in r.output


def test_score_shows_the_variant_name_visibly_and_exports_escaped(hostile, tmp_path):
    """The scorepad's header and questions name the variant and seats: shown visibly; a pad's
    exports write control and bidi characters as escapes."""
    pad = tmp_path / "pad.json"
    r = runner.invoke(app, ["score", str(hostile), "--dealer", "0", "--file", str(pad)],
                      input="\n".join(["8H", "East", "1 8", "quit"]) + "\n")
    assert r.exit_code == 0, r.output
    _clean(r.output)
    assert "Five ^[]52;c;b3duZWQ=" in r.output and "\\u202eevil" in r.output
    for suffix in (".csv", ".txt", ".json"):
        out = tmp_path / f"sheet{suffix}"
        r = runner.invoke(app, ["score", str(hostile), "--file", str(pad), "--export", str(out)])
        assert r.exit_code == 0, r.output
        _clean(r.output + out.read_text())
        assert "North" in out.read_text()
