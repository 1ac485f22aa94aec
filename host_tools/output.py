"""What the commands share when they report and write: the one-line error, text that can be
printed whatever a record holds, files written whole or not at all. (Kept apart from cli.py,
which imports the command modules, so that they need not import it back.)"""
import os
import re
import tempfile


# a lone surrogate (a "\\ud800" escape in a record, an undecodable byte in a file name) has
# no UTF-8 form: written out it would raise UnicodeEncodeError
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def printable(text):
    """text with each lone surrogate shown as U+FFFD, so that it can be written anywhere."""
    return LONE_SURROGATE.sub("\ufffd", text)


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
