"""Private files made durably: a peer's identity key, a log's secrets (mode 0600, never replacing
a file, on disk before the call returns)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_new_file(path: Path, data: bytes) -> bool:
    """Create ``path`` holding ``data`` (mode 0600), durably and without replacing a file.

    Returns False, writing nothing, when ``path`` already exists.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_BINARY", 0), 0o600)
    try:
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, 0o600)  # exactly 0600, whatever the umask
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # fails rather than replace a file that appeared meanwhile
        except FileExistsError:
            return False
        except OSError:
            # No hard links here (some non-POSIX file systems): rename, which on those systems
            # refuses to replace an existing file as well.
            try:
                os.rename(tmp, path)
            except FileExistsError:
                return False
    finally:
        tmp.unlink(missing_ok=True)
    fsync_directory(path.parent)
    return True


def fsync_directory(directory: Path) -> None:
    """Make a new directory entry durable (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def create_private(path: Path, data: bytes) -> None:
    """:func:`write_new_file`, for a file that must not exist yet.

    Raises:
        FileExistsError: ``path`` exists (nothing is written).
    """
    if not write_new_file(path, data):
        raise FileExistsError(f"{path} exists")
