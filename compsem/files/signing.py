"""Signatures a forger cannot make: compsem's manifests carry an HMAC of a per-user secret.

compsem deletes or overwrites a path only when a manifest it wrote lists it (:mod:`compsem.files.ownership`).
A manifest's format alone proves nothing (anyone can write JSON), so each one carries
``signature``: an HMAC-SHA256, keyed by a secret only this user's compsem reads, of the
manifest's whole content and of the resolved path of the folder it governs. A manifest that was
edited, copied to another folder or machine, written by an older compsem (no signature) or signed
with another key does not verify, and compsem treats every path it lists as the user's. Loading
never needs a signature: only deleting and replacing do.

The key is 32 random bytes, written as hex to :data:`KEY_NAME` in compsem's config folder
(``$COMPSEM_CONFIG``, else ``$XDG_CONFIG_HOME/compsem``, else ``~/.config/compsem``), created on
first use with mode 0600 in a 0700 folder. As ssh does with a private key, compsem refuses a key
file that is not a regular file, not the user's own, or open to the group or others.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import secrets
import stat
import time
from pathlib import Path

KEY_NAME = "ownership.key"
FIELD = "signature"
SCHEME = "hmac-sha256:"
_keys: dict[str, bytes] = {}  # key file path: its key, read once per process


class SigningKeyError(ValueError):
    """compsem's signing key cannot be used: the message says how to fix it."""


def config_folder() -> Path:
    """``$COMPSEM_CONFIG``, else ``$XDG_CONFIG_HOME/compsem``, else ``~/.config/compsem``."""
    if os.environ.get("COMPSEM_CONFIG"):
        return Path(os.environ["COMPSEM_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "compsem"


def key_path() -> Path:
    return config_folder().absolute() / KEY_NAME


def secret_key() -> bytes:
    """This user's key: read from :func:`key_path`, made there on first use."""
    path = key_path()
    if str(path) not in _keys:
        _keys[str(path)] = _read_key(path) if os.path.lexists(path) else _create_key(path)
    return _keys[str(path)]


def _create_key(path: Path) -> bytes:
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:  # another compsem made it meanwhile
        return _read_key(path)
    except OSError as error:
        raise SigningKeyError(
            f"Cannot create compsem's signing key {path} ({error.strerror}); set COMPSEM_CONFIG "
            "to a folder you can write to."
        ) from None
    key = secrets.token_bytes(32)
    try:
        os.write(handle, key.hex().encode() + b"\n")
        os.fsync(handle)
    finally:
        os.close(handle)
    return key


def _read_key(path: Path) -> bytes:
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as error:
        why = "a symbolic link" if error.errno == errno.ELOOP else error.strerror
        raise SigningKeyError(
            f"compsem's signing key {path} cannot be read ({why}); remove it (compsem makes a "
            "new one, and folders it wrote before then count as yours) or set COMPSEM_CONFIG to "
            "another folder."
        ) from None
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            raise SigningKeyError(
                f"compsem's signing key {path} is not a regular file; remove it (compsem makes a "
                "new one) or set COMPSEM_CONFIG to another folder."
            )
        if status.st_uid != os.geteuid() or status.st_mode & 0o077:
            raise SigningKeyError(
                f"compsem's signing key {path} is open to other users (mode "
                f"{stat.S_IMODE(status.st_mode):04o}, owner uid {status.st_uid}); anyone who "
                f"reads it can forge compsem's manifests: run chmod 600 {path} as its owner, or "
                "delete it (compsem makes a new one)."
            )
        content = b""
        for _ in range(100):  # a compsem that just created it writes it within a moment
            content = os.pread(handle, 200, 0).strip()
            if content:
                break
            time.sleep(0.01)
    finally:
        os.close(handle)
    try:
        key = bytes.fromhex(content.decode("ascii"))
    except ValueError:
        key = b""
    if len(key) != 32:
        raise SigningKeyError(
            f"compsem's signing key {path} is damaged (not 64 hexadecimal digits); delete it "
            "(compsem makes a new one, and folders it wrote before then count as yours)."
        )
    return key


def digest(payload: dict, folder: Path) -> str:
    """The signature of ``payload`` (without its own ``signature``) governing ``folder``."""
    content = {key: value for key, value in payload.items() if key != FIELD}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    message = text.encode() + b"\0" + os.fsencode(str(Path(folder).resolve()))
    return SCHEME + hmac.new(secret_key(), message, hashlib.sha256).hexdigest()


def sign(payload: dict, folder: Path) -> dict:
    """``payload`` with its ``signature`` for ``folder`` (set in place, and returned)."""
    payload[FIELD] = digest(payload, folder)
    return payload


def verdict(payload: dict, folder: Path) -> str | None:
    """None when compsem here signed ``payload`` for ``folder``; else why not: "unsigned"
    (an older compsem, or hand-written) or "forged" (edited, copied or another key's)."""
    signature = payload.get(FIELD)
    if not isinstance(signature, str):
        return "unsigned"
    return None if hmac.compare_digest(signature, digest(payload, folder)) else "forged"
