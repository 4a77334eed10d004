"""Reading ruleset files: text from disk, ``extends`` resolved, then checked as a whole.

A *variant* is a ruleset file that starts from another one::

    extends "../base_game.rules"        # path relative to this file
    option open_hands = true            # a new default for an option of the base
    replace phase hand "...":           # this phase replaces the base's phase of that name
        ...
    phase bonus: ...                    # a new phase (or option, card, zone, var, enum)
    remove phase draft                  # drop a declaration of the base
    score: ...                          # replaces the base's score (tiebreak/winners alike)

Merge rules (:func:`merge`): declarations keep the base's order; a replaced one keeps its
place, a new one comes after the base's. A new declaration whose name the base already uses
is an error (say ``replace``), and ``replace``/``remove``/``option NAME = ...`` of a name the
base lacks is an error with "did you mean". ``game``, ``players``, ``author``, ``about``,
``start``, ``score:``, ``winners:`` and ``teams:`` replace the base's when given;
``tiebreak:`` lines replace the base's list when the variant has any; a ``limit NAME N``
replaces the base's limit of that name. Each node keeps the span of the file it came from,
so diagnostics point into the variant or the base as the case may be.

Where ``extends`` and ``include`` may reach (docs/files.md): a path is relative to the file
that writes it and must stay inside the folder tree rooted at the nearest folder named
``rulesets`` that holds the top-level file, or, when there is none, the top-level file's own
folder (a shipped game's own lines stay inside the shipped games' folder); ``extends NAME``
(no ``.rules`` ending, as ``extends "hearts"``) names a game that comes with rulesplay
(:mod:`rulesplay.shipped`); chains may not form a cycle. What they may read: ruleset files
only, by name (:data:`READABLE`): ``extends`` a ``.rules`` file, ``include`` a ``.part`` or
``.rules`` file. Any other file is refused before it is opened, so its content is never shown.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictStr

from . import ir
from .errors import (
    Diagnostic,
    RulesError,
    RulesValidationError,
    Span,
    did_you_mean,
    did_you_mean_file,
)
from .filekinds import kind_of, wrong_kind
from .parse import MAX_SOURCE_CHARS, parse_text
from .shipped import SUFFIX, find_shipped, is_name, locate, shipped_root
from .validate import Checked, check

# Ruleset list field -> the word a variant uses for it (``replace card ...``).
CATEGORIES = (("options", "option"), ("enums", "enum"), ("kinds", "card"),
              ("zones", "zone"), ("vars", "var"), ("phases", "phase"),
              ("abilities", "ability"), ("rules", "rule"), ("defines", "define"))
# What each file-naming line may read, by file name suffix (the name written and, through
# symlinks, the file it resolves to): ruleset text only, never a stray file of the folder tree.
READABLE = {"extends": (".rules",), "include": (".part", ".rules")}
_WHAT_NAMES = {"option": "option", "enum": "enum", "card": "card kind", "zone": "zone",
               "var": "variable", "phase": "phase", "ability": "ability", "rule": "rule",
               "define": "define"}


def read_source(path: str) -> str:
    """The text of a ruleset file.

    Raises:
        RulesError: the file is missing, a folder, unreadable (:class:`Unreadable`: any
            error of the operating system, said in words), larger than
            :data:`~rulesplay.parse.MAX_SOURCE_CHARS` bytes, or not UTF-8 text.
    """
    p = Path(path)
    try:
        if not p.exists():
            folder = p.parent
            near = [q.name for q in folder.glob("*.rules")] if folder.is_dir() else []
            raise RulesError("no such file" + did_you_mean_file(p.name, near),
                             Span(file=path, line=1, col=1))
        if p.is_dir():
            raise Unreadable(f"'{_short(p.name)}' is a folder, not a ruleset file",
                             Span(file=path, line=1, col=1))
        with p.open("rb") as f:  # no more than the largest ruleset (a device never ends)
            data = f.read(MAX_SOURCE_CHARS + 1)
        if len(data) > MAX_SOURCE_CHARS:
            raise RulesError(f"the file '{_short(p.name)}' is too large for a ruleset file (more "
                             f"than {MAX_SOURCE_CHARS:,} bytes)", Span(file=path, line=1, col=1))
    except OSError as exc:
        raise Unreadable(f"the file '{_short(p.name)}' cannot be read ({os_error_words(exc)})",
                         Span(file=path, line=1, col=1)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if b"\x00" in data:
            at = data.index(b"\x00")
            raise RulesError("the file is binary, not a ruleset (it contains NUL bytes)",
                             Span(file=path, line=data.count(b"\n", 0, at) + 1,
                                  col=at - data.rfind(b"\n", 0, at))) from None
        line = data.count(b"\n", 0, exc.start) + 1
        before = data[data.rfind(b"\n", 0, exc.start) + 1:exc.start]
        span = Span(file=path, line=line, col=len(before.decode("utf-8", "replace")) + 1)
        msg = f"not UTF-8 text (byte {exc.start} is 0x{data[exc.start]:02x}); save it as UTF-8"
        shown = data.decode("utf-8", "replace")  # the line and caret, bad bytes as U+FFFD
        raise RulesError(msg, span, [Diagnostic(msg, span, source=shown)]) from None
    kind = kind_of(path, text)
    if kind in ("save", "log"):  # another rulesplay file: say which command reads it
        raise RulesError(wrong_kind(path, kind, "ruleset"))  # (no line of it to show)
    return text


class Unreadable(RulesError):
    """A ruleset file the operating system would not give (a folder, a name too long, no
    permission...); an ``include`` or ``extends`` of it is reported at that line."""


# How some of the operating system's errors read in a message (others: its own words).
_OS_WORDS = {errno.ENAMETOOLONG: "its name is too long for the file system",
             errno.EACCES: "permission denied", errno.EPERM: "permission denied",
             errno.ELOOP: "a loop of symbolic links", errno.EISDIR: "it is a folder",
             errno.ENOTDIR: "a part of its path is not a folder",
             errno.EIO: "the disk could not read it"}


def os_error_words(exc: OSError) -> str:
    """An operating system's error (``OSError``), in words for a message: what went wrong,
    without the errno or the (possibly very long) file name."""
    if exc.errno in _OS_WORDS:
        return _OS_WORDS[exc.errno]
    return (exc.strerror or type(exc).__name__).lower()


def load_ruleset(path: str) -> tuple[ir.Ruleset, Checked]:
    """Parse the ruleset at ``path``, merge the files it extends, and check the result.

    Returns:
        The merged :class:`ir.Ruleset` (no ``overrides`` left) and its :class:`Checked`
        (whose ``sources`` hold the text of every file read, for :func:`bundle_of`).

    Raises:
        RulesError: unreadable file, syntax errors, a bad ``extends`` (missing base, outside
            the allowed tree, cycle), an override of something the base lacks, or validation
            errors of the merged ruleset; sources of every file involved are attached so
            every diagnostic prints its line and caret; a path holding a NUL character
            (no file system takes one).
    """
    if "\x00" in str(path):
        raise RulesError("a file name cannot hold the character U+0000 (NUL)",
                         Span(file=str(path).replace("\x00", "\\0"), line=1, col=1))
    path = ruleset_file(path)
    return _load(path, _Disk(allowed_root(path)))


def ruleset_file(path: str) -> str:
    """The file a ruleset argument names: a path as given, or the shipped game of that name
    (:func:`rulesplay.shipped.locate`).

    Raises:
        RulesError: written as a name, with no such file and no shipped game of that name
            (with "did you mean" over the shipped games' names).
    """
    try:
        return locate(path)
    except LookupError as exc:
        raise RulesError(f"no such file, and {exc.args[0]}",
                         Span(file=path, line=1, col=1)) from None


def load_bundle(bundle: Bundle) -> tuple[ir.Ruleset, Checked]:
    """Like :func:`load_ruleset` for the files of a :class:`Bundle`, held in memory: no
    file is opened, and ``extends``/``include`` reach only the bundle's own files.

    Raises:
        RulesError: as :func:`load_ruleset`; a file the bundle lacks is "no such file".
    """
    return _load(bundle.top, _Memory(bundle))


def load_edited(path: str, edited: dict[str, str]) -> tuple[ir.Ruleset, Checked]:
    """Like :func:`load_ruleset`, reading the files an editor holds unsaved from its buffers.

    Args:
        path: the top-level file (absolute, as the editor names it).
        edited: resolved absolute path -> the buffer's text; every other file is read from
            disk, with the same reach as :func:`load_ruleset`.

    Raises:
        RulesError: as :func:`load_ruleset`.
    """
    return _load(path, _Edited(allowed_root(path), edited))


def parse_edited(path: str, edited: dict[str, str], sources: dict[str, str]) -> ir.Ruleset:
    """The merged but unchecked ruleset of :func:`load_edited` (names and spans of every
    declaration, for an editor's hover and go-to-definition); ``sources`` is filled with the
    text of every file read.

    Raises:
        RulesError: a file does not parse or cannot be read, or a bad ``extends``/``include``.
    """
    return load_merged(path, sources, _Edited(allowed_root(path), edited))


def _load(path: str, reader: _Reader) -> tuple[ir.Ruleset, Checked]:
    sources: dict[str, str] = {}
    removed: list[ir.Override] = []
    try:
        ruleset = load_merged(path, sources, reader=reader, removed=removed)
        return ruleset, check(ruleset, sources)
    except RulesError as exc:
        for diag in exc.diagnostics:  # say why a name the base still uses is gone
            for o in removed:
                if diag.message.startswith(("unknown", "undefined")) and \
                        f" '{o.name}'" in diag.message:
                    diag.message += f" (removed by 'remove {o.what} {o.name}' at {o.span})"
        raise exc.attach_source(sources) from None


class Bundle(BaseModel):
    """The text of every file a ruleset was composed from (``extends``, ``include``), so a
    save or a log rebuilds the very game it was made with, wherever it is opened, without
    reading any file it names.

    Attributes:
        name: the ruleset as the person named it (shown, never opened).
        top: the top-level file, as a key of ``files``.
        files: path relative to the bundle's root (``/``-separated) -> text.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: StrictStr
    top: StrictStr
    files: dict[StrictStr, StrictStr]


def bundle_of(path: str, sources: dict[str, str]) -> Bundle:
    """The :class:`Bundle` of a ruleset loaded from disk by :func:`load_ruleset`.

    Args:
        path: the top-level file as the person named it.
        sources: file -> text of every file read (``Checked.sources``).
    """
    root = allowed_root(path)
    shipped = shipped_root()

    def key(file: str) -> str:
        real = Path(file).resolve()
        if shipped is not None and root != shipped and not real.is_relative_to(root) \
                and real.is_relative_to(shipped):  # a shipped game named by a variant
            return SHIPPED_KEY + real.relative_to(shipped).as_posix()
        return Path(os.path.relpath(real, root)).as_posix()

    return Bundle(name=path, top=key(path), files={key(f): t for f, t in sources.items()})


SHIPPED_KEY = "<rulesplay>/"  # a bundle's key prefix for the shipped games' files
MAX_RULESET_BYTES = 4_000_000  # a ruleset file larger than this is not checked for changes


def changed_since(bundle: Bundle) -> bool | None:
    """Whether the ruleset file a bundle was made from reads differently on disk now (it, or
    a file it extends or includes, was edited): True or False, or None when there is no such
    ruleset file here to compare with (the name is shown, so it is only compared when it is
    a regular ``.rules`` file of a sensible size: never a device, a pipe or anything else)."""
    p = Path(bundle.name)
    try:
        info = p.stat()
    except (OSError, ValueError):
        return None
    if p.suffix != ".rules" or not stat.S_ISREG(info.st_mode) or \
            info.st_size > MAX_RULESET_BYTES:
        return None
    try:
        _, checked = load_ruleset(bundle.name)
    except RulesError:
        return True  # it no longer loads as it did
    return bundle_of(bundle.name, checked.sources).files != bundle.files


def allowed_root(path: str | Path) -> Path:
    """The folder tree ``extends`` may reach from the top-level file ``path``: the nearest
    enclosing folder named ``rulesets``, else the file's own folder."""
    real = Path(path).resolve()
    for folder in real.parents:
        if folder.name == "rulesets":
            return folder
    return real.parent


def _show(p: Path) -> str:
    try:
        return os.path.relpath(p)
    except ValueError:  # another drive (Windows)
        return str(p)


def load_merged(path: str, sources: dict[str, str], reader: _Reader | None = None,
                chain: tuple[str, ...] = (),
                removed: list[ir.Override] | None = None,
                via: tuple[str, Any] | None = None) -> ir.Ruleset:
    """Parse ``path`` and, when it ``extends`` a base, load the base (recursively) and merge.

    Args:
        path: the ruleset file, as the user wrote it (used in spans).
        sources: filled with file -> text of every file read (for carets).
        reader: where files come from (default: the disk, inside :func:`allowed_root`).
        chain: the files already being loaded (to report cycles).
        removed: filled with the ``remove`` statements of every variant in the chain.
        via: for a base, the name its variant's ``extends`` line gives and that line's span
            (where a base the system will not give is reported).

    Raises:
        RulesError: see :func:`load_ruleset`.
    """
    reader = reader or _Disk(allowed_root(path))
    text = reader.read(path) if via is None else read_named(reader, path, *via, "extends")
    sources[path] = text
    _not_too_large(sources, path, None)
    variant = parse_text(text, path)
    seen = (*chain, reader.key(path))
    if variant.includes:
        variant = _with_includes(variant, path, sources, reader, seen)
    if variant.extends is None:
        return variant
    base_path = reader.resolve(path, variant.extends, variant.extends_span, seen, "extends")
    base = load_merged(base_path, sources, reader, seen, removed,
                       (variant.extends, variant.extends_span))
    if removed is not None:
        removed.extend(o for o in variant.overrides if o.action == "remove")
    return merge(base, variant)


class _Reader:
    """Where ruleset files come from: :class:`_Disk` or :class:`_Memory`."""

    def read(self, path: str) -> str:
        raise NotImplementedError

    def key(self, path: str) -> str:
        """What identifies the file (for cycles)."""
        raise NotImplementedError

    def resolve(self, path: str, target: str, span: Any, chain: tuple[str, ...],
                verb: str) -> str:
        """The file ``target`` names (``extends`` or ``include``), relative to ``path``; it
        must stay inside the reader's tree, be a ruleset file (:data:`READABLE`), exist, and
        not be in ``chain``.

        Raises:
            RulesValidationError: at ``span`` (the ``extends``/``include`` line): outside the
                tree, a cycle, another kind of file, or no such file.
        """
        raise NotImplementedError


class _Disk(_Reader):
    """Files on disk, inside the folder tree ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def read(self, path: str) -> str:
        return read_source(path)

    def key(self, path: str) -> str:
        return str(Path(path).resolve())

    def resolve(self, path: str, target: str, span: Any, chain: tuple[str, ...],
                verb: str) -> str:
        _plain_path(verb, target, span)
        if verb == "extends" and is_name(target):
            try:
                found = str(find_shipped(target))
            except LookupError as exc:
                raise RulesValidationError(f"'extends': {exc.args[0]}", span) from None
            _no_cycle(self.key(found), chain, verb, span, lambda k: _show(Path(k)))
            return found
        joined = os.path.normpath(os.path.join(os.path.dirname(path), target))
        try:
            return self._resolve(path, joined, target, span, chain, verb)
        except OSError as exc:  # a name too long, a loop of links...: said at the line
            raise RulesValidationError(f"'{verb}': '{_short(target)}' cannot be read "
                                       f"({os_error_words(exc)})", span) from None

    def _resolve(self, path: str, joined: str, target: str, span: Any,
                 chain: tuple[str, ...], verb: str) -> str:
        real = Path(joined).resolve()
        shipped = shipped_root()
        root = shipped if shipped is not None and Path(path).resolve().is_relative_to(
            shipped) else self.root
        if not real.is_relative_to(root):
            raise RulesValidationError(
                f"'{verb}' cannot reach outside the ruleset folder tree '{_show(root)}': "
                f"'{target}' resolves to {_show(real)}", span)
        _no_cycle(str(real), chain, verb, span, lambda k: _show(Path(k)))
        _readable(verb, target, span, joined, real)
        if real.exists() and not real.is_file() and not real.is_dir():
            raise RulesValidationError(f"'{verb}': '{target}' is not a regular file (a pipe "
                                       "or a device)", span)
        if real.is_dir():
            raise RulesValidationError(f"'{verb}': '{target}' is a folder, not a ruleset file",
                                       span)
        if not real.is_file():
            folder = real.parent
            near = [p.name for suffix in READABLE[verb] for p in folder.glob(f"*{suffix}")] \
                if folder.is_dir() else []
            raise RulesValidationError(
                f"'{verb}': no such file '{target}' in {_show(folder)}"
                + did_you_mean_file(real.name, near), span)
        size = real.stat().st_size
        if size > MAX_SOURCE_CHARS:  # (said here, at the line that names it)
            raise RulesValidationError(
                f"'{verb}': '{target}' is too large for a ruleset file ({size:,} bytes; at "
                f"most {MAX_SOURCE_CHARS:,})", span)
        return joined


def _short(name: str) -> str:
    """A file name for a message, cut short when very long."""
    return name if len(name) <= 60 else f"{name[:28]}...{name[-28:]}"


def read_named(reader: _Reader, file: str, target: str, span: Any, verb: str) -> str:
    """The text of ``file``, which an ``include``/``extends`` line (at ``span``) names as
    ``target``; a file the system will not give is reported at that line.

    Raises:
        RulesError: as :func:`read_source`; :class:`Unreadable` ones at ``span``.
    """
    try:
        return reader.read(file)
    except Unreadable as exc:
        raise RulesValidationError(f"'{verb}': '{_short(target)}': {exc.message}", span) \
            from None


class _Edited(_Disk):
    """Files on disk, except those an editor holds open: their unsaved text."""

    def __init__(self, root: Path, edited: dict[str, str]) -> None:
        super().__init__(root)
        self.edited = edited

    def read(self, path: str) -> str:
        key = self.key(path)
        return self.edited[key] if key in self.edited else read_source(path)


class _Memory(_Reader):
    """The files of a :class:`Bundle`; paths are ``/``-separated and relative to its root."""

    def __init__(self, bundle: Bundle) -> None:
        self.files = bundle.files

    def read(self, path: str) -> str:
        if path not in self.files:
            raise RulesError("no such file in the saved ruleset", Span(file=path, line=1, col=1))
        return self.files[path]

    def key(self, path: str) -> str:
        return path

    def resolve(self, path: str, target: str, span: Any, chain: tuple[str, ...],
                verb: str) -> str:
        _plain_path(verb, target, span)
        if verb == "extends" and is_name(target):  # as keyed by bundle_of
            file = target + SUFFIX  # a full name, or a last part (find_shipped)
            named = sorted((k for k in self.files if k == SHIPPED_KEY + file or k == file
                            or k.endswith("/" + file)), key=lambda k: k.count("/"))
            if not named:
                raise RulesValidationError(f"'extends': the saved ruleset lacks the shipped "
                                           f"game '{target}'", span)
            _no_cycle(named[0], chain, verb, span, str)
            return named[0]
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        if joined.startswith(("../", "/")) or joined == "..":
            raise RulesValidationError(
                f"'{verb}' cannot reach outside the saved ruleset's files: '{target}'", span)
        _no_cycle(joined, chain, verb, span, str)
        _readable(verb, target, span, joined)
        if joined not in self.files:
            raise RulesValidationError(f"'{verb}': no such file '{target}' in the saved "
                                       "ruleset" + did_you_mean_file(joined, self.files), span)
        return joined


def _plain_path(verb: str, target: str, span: Any) -> None:
    """Refuse a file name no file system takes (a NUL or another control character, as
    ``"\\u0000"`` in the quoted name) before the name reaches one.

    Raises:
        RulesValidationError: at ``span``, naming the character.
    """
    odd = next((ch for ch in target if ord(ch) < 0x20 or ord(ch) == 0x7F), None)
    if odd is not None:
        raise RulesValidationError(f"'{verb}': a file name cannot hold the control character "
                                   f"U+{ord(odd):04X}", span)


def _no_cycle(key: str, chain: tuple[str, ...], verb: str, span: Any,
              show: Callable[[str], str]) -> None:
    if key in chain:
        loop = " -> ".join(show(k) for k in (*chain[chain.index(key):], key))
        raise RulesValidationError(f"'{verb}' forms a cycle: {loop}", span)


def _readable(verb: str, target: str, span: Any, joined: str, real: Path | None = None) -> None:
    """Refuse, before it is read, a file whose name (``joined``, or the file ``real`` it links
    to) does not end in one of ``READABLE[verb]``, so no other file's text is ever shown.

    Raises:
        RulesValidationError: at ``span``, naming the allowed extensions.
    """
    allowed = READABLE[verb]
    if Path(joined).suffix in allowed and (real is None or real.suffix in allowed):
        return
    kinds = " or ".join(f"a '{suffix}' file" for suffix in allowed)
    shown = f"'{target}'" if Path(joined).suffix not in allowed or real is None else \
        f"'{target}' (a link to {_show(real)})"
    raise RulesValidationError(f"'{verb}' reads ruleset files only ({kinds}), not {shown}",
                               span)


def _with_includes(ruleset: ir.Ruleset, path: str, sources: dict[str, str], reader: _Reader,
                   chain: tuple[str, ...]) -> ir.Ruleset:
    """``include "file"``: the declarations of each included file come first, in order.

    Included files hold declarations only (enums, cards, zones, variables, abilities, rules,
    phases, options); their own ``include`` lines are followed too. Only ruleset parts may be
    included: a ``.part`` file (the usual name for a piece of a ruleset), or a ``.rules``
    file (a user sharing, say, the cards of another game would expect that to work).

    Raises:
        RulesValidationError: a missing file, a cycle, a path outside the folder tree, a file
            whose name ends otherwise, an included file that says ``extends``, or one whose
            lines would be dropped (:func:`_declarations_only`).
    """
    lists = ("options", "enums", "kinds", "zones", "vars", "abilities", "rules", "phases",
             "defines")
    merged: dict[str, list[Any]] = {name: [] for name in lists}
    for target, span in ruleset.includes:
        file = reader.resolve(path, target, span, chain, "include")
        text = read_named(reader, file, target, span, "include")
        sources[file] = text
        _not_too_large(sources, file, span)
        part = parse_text(text, file)
        if part.extends is not None:
            raise RulesValidationError("an included file cannot 'extends' another",
                                       part.extends_span)
        _declarations_only(part, file, span)
        if part.includes:
            part = _with_includes(part, file, sources, reader, (*chain, reader.key(file)))
        for name in lists:
            merged[name].extend(getattr(part, name))
    return ruleset.model_copy(update={
        name: [*merged[name], *getattr(ruleset, name)] for name in lists} | {"includes": []})


# The lines a ruleset has once, by the field each sets.
_ONCE_LINES = {"title": "game", "min_players": "players", "author": "author",
               "about": "about", "start": "start", "score": "score:", "tiebreaks": "tiebreak:",
               "winners": "winners:", "teams": "teams:", "limits": "limit"}


def _declarations_only(part: ir.Ruleset, file: str, span: Span) -> None:
    """Refuse what an included file says that including it would silently drop: a
    ``replace``/``remove``/``option NAME = ...`` (it changes no base), and, in a ``.part``
    file, a line a ruleset has once (``players``, ``score:`` ...; an included ``.rules`` file
    is a whole game whose declarations are borrowed, so its own lines are left out).

    Raises:
        RulesValidationError: at the dropped line, or at the ``include`` line (``span``).
    """
    if part.overrides:
        raise RulesValidationError("an included file adds declarations only; 'replace', "
                                   "'remove' and 'option NAME = ...' belong in a file that "
                                   "says 'extends'", part.overrides[0].span)
    given = [word for name, word in _ONCE_LINES.items()
             if name in part.model_fields_set and getattr(part, name)]
    if given and file.endswith(".part"):
        raise RulesValidationError(
            f"'include': {posixpath.basename(file)} has a '{given[0]}' line, which an "
            "included part cannot set (it adds declarations only): write it in the "
            "including file", span)


def _not_too_large(sources: dict[str, str], file: str, span: Any) -> None:
    """The files of one ruleset together are no larger than one file may be (a chain of
    includes each just under the limit took minutes to check).

    Raises:
        RulesError: at the line that read the file going past the limit.
    """
    total = sum(len(t) for t in sources.values())
    if total > MAX_SOURCE_CHARS:
        where = span if isinstance(span, Span) and span.line else Span(file=file, line=1, col=1)
        raise RulesError(f"the ruleset's files come to {total:,} characters with '{file}'; "
                         f"together they may hold at most {MAX_SOURCE_CHARS:,}", where)


def _index(items: list[Any]) -> dict[str, int]:
    return {item.name: i for i, item in enumerate(items)}


def merge(base: ir.Ruleset, variant: ir.Ruleset) -> ir.Ruleset:
    """The ruleset ``variant`` describes on top of ``base`` (see the module docstring).

    Raises:
        RulesValidationError: every override of a missing name (with "did you mean"), every
            new declaration whose name the base already uses, every name a variant declares
            twice.
    """
    diags: list[Diagnostic] = []
    overrides: dict[tuple[str, str], ir.Override] = {}
    for o in variant.overrides:
        key = (o.what, o.name)
        if key in overrides:
            diags.append(Diagnostic(f"{_WHAT_NAMES[o.what]} '{o.name}' is changed twice in "
                                    f"this file (also line {overrides[key].span.line})", o.span))
        overrides[key] = o
    update: dict[str, Any] = {}
    for field, what in CATEGORIES:
        items: list[Any] = list(getattr(base, field))
        base_names = _index(items)
        word = _WHAT_NAMES[what]
        seen: dict[str, Span] = {}
        for decl in getattr(variant, field):
            if decl.name in seen:
                diags.append(Diagnostic(f"{word} '{decl.name}' is declared twice in this file "
                                        f"(line {seen[decl.name].line})", decl.span))
                continue
            seen[decl.name] = decl.span
            marker = overrides.get((what, decl.name))
            if marker is not None and marker.action == "replace":
                if decl.name in base_names:
                    items[_index(items)[decl.name]] = decl
                else:
                    diags.append(Diagnostic(
                        f"'replace {what} {decl.name}': the base has no {word} '{decl.name}'"
                        + did_you_mean(decl.name, base_names) + f"; to add one, write "
                        f"'{what} {decl.name}' without 'replace'", decl.span))
            elif decl.name in base_names:
                first = items[base_names[decl.name]].span
                diags.append(Diagnostic(
                    f"{word} '{decl.name}' is already declared in the base ({first}); write "
                    f"'replace {what} {decl.name}' to change it", decl.span))
            else:
                items.append(decl)
        for o in variant.overrides:
            if o.what != what or o.action == "replace":
                continue
            where = _index(items)
            if o.name not in where or o.name not in base_names:
                said = f"option {o.name} = ..." if o.action == "default" else \
                    f"remove {what} {o.name}"
                diags.append(Diagnostic(f"'{said}': the base has no {word} '{o.name}'"
                                        + did_you_mean(o.name, base_names), o.span))
                continue
            if o.action == "remove":
                del items[where[o.name]]
            else:
                # The validator checks the new default for every player count.
                decl = items[where[o.name]]
                items[where[o.name]] = decl.model_copy(update={
                    "default": o.value, "doc": o.doc or decl.doc, "span": o.span})
        update[field] = items
    if diags:
        diags.sort(key=lambda d: (d.span.file, d.span.line, d.span.col))
        raise RulesValidationError(diags[0].message, diags[0].span, diags)
    given = variant.model_fields_set
    for name in ("title", "author", "about"):
        if name in given:
            update[name] = getattr(variant, name)
    if "min_players" in given:
        update["min_players"], update["max_players"] = variant.min_players, variant.max_players
        update["usual_players"] = variant.usual_players
        update["players_span"] = variant.players_span
    for name in ("start", "score", "winners", "teams"):
        if getattr(variant, name) is not None:
            update[name] = getattr(variant, name)
    if variant.start is not None:
        update["start_span"] = variant.start_span
    if variant.tiebreaks:
        update["tiebreaks"] = variant.tiebreaks
    if variant.limits:  # a variant's limit replaces the base's of that name
        named = {lim.name: lim for lim in [*base.limits, *variant.limits]}
        update["limits"] = list(named.values())
    update.update(span=variant.span, extends=variant.extends,
                  extends_span=variant.extends_span, overrides=[],
                  duplicates=[*base.duplicates, *variant.duplicates])
    return base.model_copy(update=update)

