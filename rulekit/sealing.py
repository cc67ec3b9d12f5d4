"""Sealing the secret part of a game record while the match is in progress.

A record saved during play (``rulekit play --save``, Ctrl-C, the end of the input) must not show
the cards still hidden: the seed gives every deal, explicit deals are the cards themselves, and
the actions of the hand in progress may name hidden cards (a bot's discard).  So the record of a
game in progress keeps in plain text only what every player at the table has seen (the finished
hands' actions, the sheet, the variant, the players), and seals the rest — ``seed``, ``deals``,
the actions of the hand in progress, ``undone`` and ``chance`` — in ``"sealed"``: that JSON
encrypted and authenticated with a random 256-bit key kept in a key file beside the record
(``NAME.json.key``, created with mode 0600).  When the match is over the record is written in
plain text and the key file removed.

The cipher is BLAKE2b (:mod:`hashlib`, no other dependency): a keystream of
``BLAKE2b(key=k_enc, nonce || block counter)`` blocks XORed with the text (a fresh 128-bit nonce
each save), then a ``BLAKE2b(key=k_mac)`` tag over the nonce, the ciphertext and the record's
public fields it belongs with (encrypt-then-MAC); ``k_enc`` and ``k_mac`` are derived from the key
file's key.  A record read back with another game's key, or whose sealed part or public actions
were changed, is refused.  This keeps a record's text from showing hidden cards (a glance, a
record mailed or shown); it is not a lock against its own player, who can read the key file.
"""
from __future__ import annotations

import base64
import hmac
import json
import os
import secrets
from hashlib import blake2b
from pathlib import Path

from rulekit.errors import RecordError

#: The sealing scheme a sealed record names.
SCHEME = "blake2b-ctr-mac/1"
#: The suffix of the key file beside a sealed record.
KEY_SUFFIX = ".key"
#: The fields of a record a seal hides (the hand in progress's actions are hidden too).
SECRET = ("seed", "deals", "undone", "chance")


def key_path(record_path: str | Path) -> Path:
    """The key file of the record at ``record_path`` (beside it: ``NAME.json.key``; a symbolic
    link is followed, as saving does)."""
    p = Path(os.path.realpath(record_path))
    return p.with_name(p.name + KEY_SUFFIX)


def seal(record: dict, key: bytes, played: int) -> dict:
    """``record`` with its secret part sealed: :data:`SECRET` fields and ``actions[played:]`` (the
    hand in progress) moved into ``"sealed"`` (``seed`` left ``None``).

    :param played: the actions of the finished hands, which stay in plain text."""
    hidden = {k: record[k] for k in SECRET if k in record}
    hidden["actions"] = record["actions"][played:]
    out = {k: v for k, v in record.items() if k not in SECRET}
    out["seed"] = None
    out["actions"] = record["actions"][:played]
    nonce = secrets.token_bytes(16)
    data = _xor(json.dumps(hidden, ensure_ascii=False).encode("utf-8"), _stream(key, nonce))
    out["sealed"] = {"scheme": SCHEME, "nonce": nonce.hex(), "data": base64.b64encode(data).decode("ascii"),
                     "tag": _tag(key, nonce, data, out).hex()}
    return out


def unseal(record: dict, key: bytes, where: str) -> dict:
    """The plain record of a sealed one (the inverse of :func:`seal`).

    :raises RecordError: a sealed part of the wrong shape, or one that does not match ``key``
        and the record's public fields (another game's key, a changed record)."""
    s = record.get("sealed")
    try:
        if not isinstance(s, dict) or s.get("scheme") != SCHEME:
            raise ValueError(f"expected \"sealed\": {{\"scheme\": \"{SCHEME}\", ...}}")
        nonce = bytes.fromhex(s["nonce"])
        data = base64.b64decode(s["data"], validate=True)
        tag = bytes.fromhex(s["tag"])
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError(f"{where}: the sealed part of the record is broken ({e})") from None
    public = {k: v for k, v in record.items() if k != "sealed"}
    if not hmac.compare_digest(tag, _tag(key, nonce, data, public)):
        raise RecordError(f"{where}: the sealed part of the record does not match its key file "
                          f"{key_path(where).name} (another game's key, or a changed record)")
    try:
        hidden = json.loads(_xor(data, _stream(key, nonce)).decode("utf-8"))
        actions = list(record.get("actions") or []) + list(hidden.pop("actions"))
    except (ValueError, KeyError, TypeError, AttributeError) as e:   # (authentic, so written by a broken rulekit)
        raise RecordError(f"{where}: the sealed part of the record cannot be read ({e})") from None
    out = {k: v for k, v in record.items() if k != "sealed"}
    out.update(hidden)
    out["actions"] = actions
    return out


def new_key() -> bytes:
    """A fresh random key (32 bytes)."""
    return secrets.token_bytes(32)


def write_key(path: Path, key: bytes, exclusive: bool = False) -> None:
    """Write ``key`` (hex) to the key file ``path`` with mode 0600, atomically (a temporary file
    created 0600 beside it, complete, then moved into place).

    :param exclusive: create the key file: fail if ``path`` exists, even if another process
        created it a moment ago (:func:`create_new`).
    :raises FileExistsError: ``exclusive`` and ``path`` exists (it is left as it is).
    :raises OSError: the folder cannot be written."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key.hex() + "\n")
            f.flush()
            os.fsync(f.fileno())
        if exclusive:
            create_new(tmp, path)
        else:
            os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def create_new(tmp: str | Path, path: Path) -> None:
    """Give the finished file ``tmp`` the name ``path`` unless that name exists, in one atomic
    step: a hard link, which fails on a taken name (where the file system has none, the name is
    claimed with ``O_EXCL``, then the file renamed onto it).

    :raises FileExistsError: ``path`` exists (``tmp`` is left for the caller to remove)."""
    try:
        os.link(tmp, path)             # fails with FileExistsError when the name is taken
    except FileExistsError:
        raise
    except OSError:                    # a file system without hard links: claim the name, then fill it
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def key_for(path: Path, where: str) -> bytes:
    """The key of the key file ``path``, which is made with a fresh key when there is none.  Two
    processes making the same key file at once both get the one that was made first (the
    creation is exclusive), so a record sealed by either opens with the file that stays.  A file
    there that is not a key is replaced by a new one.

    :raises OSError: the folder cannot be written, or ``path`` is there but no file (a folder)."""
    if not path.is_file():
        key = new_key()
        try:
            write_key(path, key, exclusive=True)
            return key
        except FileExistsError:      # made by another process since the check, or no file
            if not path.is_file():
                raise
    try:
        return read_key(path, where)
    except RecordError:
        key = new_key()
        write_key(path, key)
        return key


def read_key(path: Path, where: str) -> bytes:
    """The key in the key file ``path``.

    :raises RecordError: the file is missing, not a regular file, or not a key."""
    try:
        if not path.is_file():
            raise FileNotFoundError
        with open(path, encoding="ascii") as f:
            text = f.read(200)
        key = bytes.fromhex(text.strip())
        if len(key) != 32:
            raise ValueError
    except FileNotFoundError:
        raise RecordError(f"{where}: a game in progress whose seed and hidden cards are sealed; its key file "
                          f"{path.name} is missing (expected beside the record, where rulekit play wrote it)") from None
    except (OSError, ValueError, UnicodeDecodeError):
        raise RecordError(f"{where}: {path.name} is not the key file of a sealed record (expected 64 hex digits)") \
            from None
    return key


def _keys(key: bytes) -> tuple[bytes, bytes]:
    return (blake2b(b"rulekit-seal:enc", key=key, digest_size=32).digest(),
            blake2b(b"rulekit-seal:mac", key=key, digest_size=32).digest())


def _stream(key: bytes, nonce: bytes):
    enc = _keys(key)[0]
    k = 0
    while True:
        yield blake2b(nonce + k.to_bytes(8, "little"), key=enc, digest_size=64).digest()
        k += 1


def _xor(data: bytes, stream) -> bytes:
    n = len(data)
    pad = bytearray()
    while len(pad) < n:
        pad += next(stream)
    return (int.from_bytes(data, "little") ^ int.from_bytes(bytes(pad[:n]), "little")).to_bytes(n, "little")


def _tag(key: bytes, nonce: bytes, data: bytes, public: dict) -> bytes:
    """The tag of the ciphertext together with the record's public fields it belongs with."""
    bound = json.dumps(public, sort_keys=True, ensure_ascii=False).encode("utf-8")
    mac = blake2b(key=_keys(key)[1], digest_size=32)
    for part in (SCHEME.encode(), nonce, data, bound):
        mac.update(len(part).to_bytes(8, "little"))
        mac.update(part)
    return mac.digest()


__all__ = ["KEY_SUFFIX", "SCHEME", "SECRET", "create_new", "key_for", "key_path", "new_key", "read_key", "seal", "unseal", "write_key"]
