"""Power-on: the current record resumed as the game in play, or set aside (app.records' rule:
the session holds only what is on flash). Only App.resume runs it, once; it is dropped then."""
import gc

import paths
from app.records import lines_text


def resume(records):
    """(session or None, message or None). Never raises: a record that will not resume (not
    UTF-8, the wrong shape, too big for the heap, unreadable) is renamed to
    data/damaged-N.jsonl untouched, with one line in the log; a torn last line is cut."""
    st = records.storage
    try:
        st.settle(paths.CURRENT)
        lines, torn = st.recover_lines(paths.CURRENT)
        if not lines:
            if st.exists(paths.CURRENT):
                st.remove(paths.CURRENT)  # no complete header: nothing to keep
            return None, None
        from app.current import ReadBack
        from rules_core.session import replay
        session = replay(lines_text(lines), ReadBack, records.current_lines)[0]
        return session, "last entry lost" if torn else None
    except Exception as e:  # MemoryError and OSError too: boot must reach the menu
        err = e  # (CPython unbinds e after the except clause)
        lines = None  # what was read: freed before the record is set aside
        gc.collect()
    n = 1  # set aside as the first free data/damaged-N.jsonl
    try:
        while st.exists(paths.DAMAGED % n):
            n += 1
        st.move(paths.CURRENT, paths.DAMAGED % n)
    except Exception as e2:
        records.log("current record does not resume (%s: %s) and stays: %s" % (type(err).__name__, err, e2))
        return None, "record damaged"
    name = paths.DAMAGED % n
    records.log("%s does not resume, kept as %s: %s: %s" % (paths.CURRENT, name, type(err).__name__, err))
    return None, "bad record kept as " + name[len(paths.DATA_DIR) + 1:-len(".jsonl")]
