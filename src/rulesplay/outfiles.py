"""Files rulesplay writes (logs, saves): only paths a person named, never losing a file.

Two rules hold for every file rulesplay writes:

- A path read from a file (a save, a log) is never opened for writing: only a path the
  person typed (a command-line argument, ``save FILE`` at the prompt) or a fresh name
  rulesplay makes up next to a file the person named (:func:`fresh_name`).
- Writing loses nothing: a ruleset file (``.rules``, ``.part``), a symbolic link or a special
  file (a device, a pipe) is never replaced; any other existing file only when the caller
  says so (``--force``, or the person confirmed). Saves are written to a fresh temporary file,
  flushed to disk and renamed over the target (:func:`write_atomic`), so a save is either the
  old one or the new one, whole.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

RULESET_SUFFIXES = (".rules", ".part")


class OutputRefused(Exception):
    """Writing to a path would lose something; ``str()`` says what and how to go on.

    Attributes:
        replaceable: only because the file exists (a person may still agree to replace it);
            False for rulesets, links, folders and special files, which are never replaced.
    """

    def __init__(self, message: str, replaceable: bool = False, folder: bool = False
                 ) -> None:
        super().__init__(message)
        self.replaceable, self.folder = replaceable, folder


def folder_problem(path: str | Path) -> str | None:
    """Why no file can be made at ``path`` because of its folder (None when it can): the
    folder does not exist, is not a folder, or cannot be written. Checked before a long
    run, so that a run never plays every game and only then fails to write its output."""
    folder = Path(path).parent
    if not folder.is_dir():
        return f"the folder {folder} does not exist" if not os.path.lexists(folder) else \
            f"{folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} cannot be written"
    return None


def check_target(path: str | Path, what: str, *, overwrite: bool = False,
                 ruleset: bool = False) -> None:
    """Refuse to write ``what`` (e.g. "the log") to ``path`` when it would lose something.

    Args:
        path: the file the person named.
        what: the kind of output, for the message.
        overwrite: an existing regular file may be replaced (``--force`` or confirmed).
        ruleset: ``path`` is a ruleset rewritten in place (``fmt --write``): its ending is
            allowed; a link or a special file is still refused.

    Raises:
        OutputRefused: ``path`` is a ruleset file, a symbolic link, a folder or a special file,
            or an existing file and ``overwrite`` is false; or its folder does not exist or
            cannot be written (:func:`folder_problem`; then ``folder`` is set).
    """
    p = Path(path)
    if p.suffix.lower() in RULESET_SUFFIXES and not ruleset:
        raise OutputRefused(f"will not write {what} to {p}: it is a ruleset file")
    problem = folder_problem(p)
    if problem is not None:
        raise OutputRefused(f"cannot write {what} to {p}: {problem}", folder=True)
    try:
        info = os.lstat(p)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputRefused(f"cannot write {what} to {p}: {exc.strerror}") from None
    if stat.S_ISLNK(info.st_mode):
        raise OutputRefused(f"will not write {what} to {p}: it is a symbolic link")
    if stat.S_ISDIR(info.st_mode):
        raise OutputRefused(f"cannot write {what} to {p}: it is a folder")
    if not stat.S_ISREG(info.st_mode):
        raise OutputRefused(f"will not write {what} to {p}: it is not a regular file")
    if not overwrite:
        raise OutputRefused(f"{p} already exists; give --force to replace it with {what}",
                            replaceable=True)


def claim(path: str | Path, what: str, overwrite: bool,
          confirm: Callable[[str], bool] | None = None) -> None:
    """:func:`check_target`, asking ``confirm`` (a yes/no question to the person; None when
    nobody can be asked, e.g. standard input is not a terminal) before replacing an existing
    file.

    Raises:
        OutputRefused: refused, or the person said no.
    """
    try:
        check_target(path, what, overwrite=overwrite)
    except OutputRefused as exc:
        if not (exc.replaceable and confirm is not None
                and confirm(f"{path} already exists. Replace it with {what}?")):
            raise


def fresh_name(beside: str | Path, suffix: str) -> Path:
    """A path that does not exist yet, next to ``beside``: its name without the last suffixes
    plus ``suffix`` (``game.save.json`` -> ``game.log.jsonl``), numbered when taken
    (``game-2.log.jsonl``).

    Args:
        beside: a file the person named (its folder is where the new file goes).
        suffix: the ending of the new file, with its dot.
    """
    p = Path(beside)
    stem = p.name.split(".", 1)[0] or "game"
    for k in range(1, 10_000):
        candidate = p.with_name(f"{stem}{'' if k == 1 else f'-{k}'}{suffix}")
        if not os.path.lexists(candidate):
            return candidate
    raise OutputRefused(f"no free file name like {stem}{suffix} in {p.parent}")


def write_atomic(path: str | Path, text: str, what: str = "the game",
                 ruleset: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all: a fresh temporary file in the
    same folder, flushed to disk, then renamed over ``path`` (a ruleset keeps its mode; a
    save stays readable by its owner only: it holds every hand).

    Args:
        path: the file to write.
        what: the kind of output, for a refusal's message.
        ruleset: ``path`` is a ruleset rewritten in place (see :func:`check_target`).

    Raises:
        OutputRefused: ``path`` is a link, a folder or a special file, or a ruleset file
            and ``ruleset`` is false.
        OSError: the folder cannot be written (the old file, if any, is untouched).
    """
    target = Path(path)
    check_target(target, what, overwrite=True, ruleset=ruleset)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                               dir=target.parent if str(target.parent) else ".")
    try:
        if ruleset and target.exists():  # keeps who may read it (mkstemp makes 0600)
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
