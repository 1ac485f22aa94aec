"""What the commands share when they report and write: the one-line error, text that can be
printed whatever a record holds, files written whole or not at all. (Kept apart from cli.py,
which imports the command modules, so that they need not import it back.)"""
import os
import re
import tempfile


# a lone surrogate (a "\\ud800" escape in a record, an undecodable byte in a file name) has
# no UTF-8 form: written out it would raise UnicodeEncodeError
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# characters a terminal or an editor acts on instead of showing: C0 and C1 controls and DEL
# (ESC]0;...BEL sets a terminal's title, ESC[2J clears it), and the bidirectional controls,
# which reorder the text around them
CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m):
    c = ord(m.group())
    return "\\x%02x" % c if c < 0x100 else "\\u%04x" % c


def printable(text):
    """text as it can be shown and written anywhere: each control or bidirectional character
    as its escape ("\\x1b", "\\u202e"), each lone surrogate as U+FFFD."""
    return CONTROLS.sub(_escape, LONE_SURROGATE.sub("\ufffd", text))


def write_atomically(path, text):
    """Write text (UTF-8) to path through a temporary file in the same folder, renamed over
    path once complete: a failed write leaves path as it was and no temporary file behind.
    A path that is not a regular file (/dev/stdout, a pipe) is written in place."""
    if os.path.exists(path) and not os.path.isfile(path):
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".%s." % os.path.basename(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as open() would have made it (mkstemp makes 0600)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class CliError(Exception):
    """An error to report as one line."""


def not_replacing(path, force):
    """CliError where path is a file already (an --out never replaces one unless --force: a
    mistyped name must not eat a spreadsheet); a pipe or a device (/dev/stdout) is written."""
    if not force and os.path.isfile(path):
        raise CliError("%s exists: give --force to replace it" % printable(path))
