"""Episodes' indexed texts in SQLite, contexts computed rather than stored (schema 23).

An episode's context (``xdb.store.context``: its date words and its neighbours' words) is a
function of the episodes in its place, which never change once written: so SQLite keeps no
copy of it. At 1M episodes a stored copy cost ~400 bytes an episode, a sixth of the file.

``episode_texts`` is the view FTS5 reads as its content table ('rebuild', 'integrity-check'):
each episode's summary, content and context, the context made in SQL exactly as
``context.context`` makes it in Python. Where an episode's entry is taken out of FTS5, the
store gives FTS5 the context it was indexed with, made from the neighbours it had
(``context.plan_inserts`` for an import's stored neighbours, this view before a delete), and
'integrity-check' compares the index against this view.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from xdb.store.context import CONTEXT_CHARS, DAY_US, MONTHS, SESSION_GAP_US
from xdb.store.sqlbuild import SQLITE, rows_in

# The day's first second (floored, also before 1970), as SQLite's date functions take it.
_DAY = f"((e.start_us - ((e.start_us % {DAY_US}) + {DAY_US}) % {DAY_US}) / 1000000)"
_MONTH_NAMES = "".join(f"{m:<9}" for m in MONTHS)
_DATE_WORDS = (
    f"CAST(strftime('%d', {_DAY}, 'unixepoch') AS INTEGER) || ' ' ||"
    f" rtrim(substr('{_MONTH_NAMES}', strftime('%m', {_DAY}, 'unixepoch') * 9 - 8, 9))"
    f" || ' ' || CAST(strftime('%Y', {_DAY}, 'unixepoch') AS INTEGER)"
)


def _neighbour(cmp: str, order: str) -> str:
    """The neighbour's content on one side: in a session, the next episode by (start, seq);
    without one, the next sessionless one of the namespace within ``SESSION_GAP_US``."""
    pick = (
        f"SELECT substr(n.content, 1, {CONTEXT_CHARS}) FROM episodes n WHERE {{match}}"
        f" AND (n.start_us, n.seq) {cmp} (e.start_us, e.seq)"
        f" ORDER BY n.start_us {order}, n.seq {order} LIMIT 1"
    )
    gap = f"n.start_us {'>=' if cmp == '<' else '<='} e.start_us {'-' if cmp == '<' else '+'}"
    in_session = pick.format(match="n.session_id = e.session_id")
    sessionless = pick.format(
        match=f"n.session_id IS NULL AND n.namespace = e.namespace AND {gap} {SESSION_GAP_US}"
    )
    return f"CASE WHEN e.session_id IS NULL THEN ({sessionless}) ELSE ({in_session}) END"


VIEW_NAME = "episode_texts"
VIEW = (
    f"CREATE VIEW {VIEW_NAME} AS SELECT e.seq AS seq, e.summary AS summary,"
    f" e.content AS content, {_DATE_WORDS} || coalesce(' ' || ({_neighbour('<', 'DESC')}), '')"
    f" || coalesce(' ' || ({_neighbour('>', 'ASC')}), '') AS context FROM episodes e"
)
FTS = (
    "CREATE VIRTUAL TABLE episodes_fts USING fts5 (\n    summary, content, context,"
    f" content='{VIEW_NAME}', content_rowid='seq',\n"
    "    tokenize='porter unicode61 remove_diacritics 2'\n)"
)
_CONTEXT_OF = f"(SELECT t.context FROM {VIEW_NAME} t WHERE t.seq = e.seq)"


def texts(conn: sqlite3.Connection, seqs: Iterable[int]) -> dict[int, tuple[str, str, str]]:
    """(summary, content, context) of each stored episode of ``seqs``, by seq."""
    return {
        int(r[0]): (r[1], r[2], r[3])
        for r in rows_in(
            conn,
            SQLITE,
            f"SELECT seq, summary, content, context FROM {VIEW_NAME} WHERE seq IN ({{marks}})",
            list(seqs),
        )
    }


def migrate(conn: sqlite3.Connection) -> None:
    """Schema 23: the view, FTS5 reading it, and no stored context. An episode whose stored
    context is not the one its neighbours make now (one beside a content holding a NUL:
    contexts are cut there now) is logged for the tantivy index; FTS5 is built again from
    the view (9.8 s for a file of 200k episodes here, once)."""
    conn.execute(VIEW)
    columns = {r[1] for r in conn.execute("PRAGMA table_info(episodes)")}
    if "context" in columns:
        conn.execute(
            "INSERT INTO episode_text_changes (seq) SELECT e.seq FROM episodes e"
            f" WHERE e.context IS NOT {_CONTEXT_OF} ORDER BY e.seq"
        )
    conn.execute("DROP TABLE episodes_fts")
    conn.execute(FTS)
    conn.execute("INSERT INTO episodes_fts (episodes_fts) VALUES ('rebuild')")
    # DROP COLUMN came with SQLite 3.35; an older library leaves the column, which nothing
    # reads or writes any more (new rows take its default, '').
    if "context" in columns and sqlite3.sqlite_version_info >= (3, 35):
        conn.execute("ALTER TABLE episodes DROP COLUMN context")
