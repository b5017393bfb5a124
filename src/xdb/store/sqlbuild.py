"""SQL both stores build and run alike: filter conditions, keyset pages, the seeded shuffle.

The SQLite and PostgreSQL stores answer every filter with the same conditions, so both
take them from here and agree by construction; a ``Dialect`` says how each driver takes
a statement (placeholders, lists, false). What really differs stays in each store:
full-text search (FTS5 against tsvector), JSON access, and joins on PostgreSQL's
distribution column.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from xdb.store.types import EpisodeFilter, TimestepFilter

CHUNK = 500  # values bound per statement: SQLite allows 32,766, and plans stay small

# Words as both stores' text filters split them; each store's index tokenizes likewise.
WORD = re.compile(r"\w+", re.UNICODE)

# A deterministic shuffle for sort=random: seq -> ((seq + offset) * multiplier) mod a prime,
# both drawn from the seed. Multiplying by a unit mod a prime is a permutation, so the same
# seed gives the same order, another seed another one, and paging by (key, seq) stays stable.
PRIME = 2_147_483_647  # 2**31 - 1; products stay inside 64-bit integers in either database


def shuffle_params(seed: int) -> list[int]:
    offset = (seed * 40_503 + 12_345) % PRIME
    multiplier = (1_103_515_245 + 7_919 * seed) % (PRIME - 1) + 1
    return [offset, multiplier]


class Cursor(Protocol):
    """What the shared statements use of a sqlite3 or psycopg cursor."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """What the shared statements use of a sqlite3 or psycopg connection."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Cursor: ...


@dataclass(frozen=True)
class Dialect:
    """How a driver takes a statement; everything else in the built SQL is the same."""

    mark: str  # a bound parameter: "?" for sqlite3, "%s" for psycopg
    arrays: bool  # whether a list binds as one array parameter (psycopg) or a mark a value
    false: str  # a condition no row meets
    modulo: str  # the % operator as written: psycopg reads a bare % as a placeholder

    def marks(self, n: int) -> str:
        return ",".join([self.mark] * n)

    def one_of(
        self, column: str, values: Sequence[Any], params: list[Any], sql_type: str = "text"
    ) -> str:
        """The condition that ``column`` equals one of ``values`` (not empty), whose params
        it appends to ``params`` (no tuple to unpack: filters are built on every search)."""
        if self.arrays:
            # One array parameter: the statement's text (and plan) does not vary with the count.
            params.append(list(values))
            return f"{column} = ANY({self.mark}::{sql_type}[])"
        params.extend(values)
        return f"{column} IN ({','.join([self.mark] * len(values))})"


SQLITE = Dialect(mark="?", arrays=False, false="0", modulo="%")
POSTGRES = Dialect(mark="%s", arrays=True, false="FALSE", modulo="%%")


def sql_where(clauses: list[str]) -> str:
    return (" WHERE " + " AND ".join(clauses)) if clauses else ""


def add_given(clauses: list[str], params: list[Any], conditions: Iterable[tuple[str, Any]]) -> None:
    """Append each condition whose value is given (not None), and that value to ``params``:
    how every filter turns its optional fields (a bound, a namespace, a type) into SQL, one
    mark each. Both lists are the caller's, in order, so their other conditions interleave."""
    for condition, value in conditions:
        if value is not None:
            clauses.append(condition)
            params.append(value)


# ---------------------------------------------------------------------- episodes


def episode_where(flt: EpisodeFilter, d: Dialect) -> tuple[list[str], list[Any]]:
    """SQL conditions on ``episodes e`` for a filter, and their params."""
    m = d.mark
    clauses: list[str] = []
    params: list[Any] = []
    add_given(
        clauses,
        params,
        (
            (f"e.namespace = {m}", flt.namespace),
            (f"e.session_id = {m}", flt.session_id),
            (f"e.start_us <= {m}", flt.end_us),
            (f"e.end_us >= {m}", flt.start_us),
        ),
    )
    if flt.kinds:
        clauses.append(d.one_of("e.kind", flt.kinds, params))
    if flt.max_seq is not None:
        clauses.append(f"e.seq <= {m}")
        params.append(flt.max_seq)
    for c in flt.concepts:
        # IN (subquery) lets the planner start from the concept's index rows (a selective
        # set) instead of testing every episode the other conditions leave. Those rows
        # carry the episode's window, so the time range applies before any join (at 1M
        # episodes a concept's ~6,700 rows each joined their episode only to test it).
        either = []
        if c.as_tag:
            on_rows = [f"concept_id = {m}", f"score >= {m}"]
            on_params: list[Any] = [c.concept_id, c.min_score]
            add_given(
                on_rows,
                on_params,
                (
                    (f"kind = {m}", c.kind or None),
                    (f"start_us <= {m}", flt.end_us),
                    (f"end_us >= {m}", flt.start_us),
                ),
            )
            either.append(
                f"e.seq IN (SELECT episode_seq FROM episode_concepts WHERE {' AND '.join(on_rows)})"
            )
            params.extend(on_params)
        if c.as_label:
            either.append(
                f"e.seq IN (SELECT episode_seq FROM episode_labels WHERE concept_id = {m}"
                f" AND label = 'positive' AND confidence >= {m})"
            )
            params.extend([c.concept_id, c.min_score])
        test = "(" + " OR ".join(either) + ")"
        clauses.append(f"NOT {test}" if c.absent else test)
    if flt.label_concept or flt.label or flt.label_min_confidence:
        conds = ["l.episode_seq = e.seq"]
        if flt.label_concept:
            conds.append(f"l.concept_id = {m}")
            params.append(flt.label_concept)
        if flt.label:
            conds.append(f"l.label = {m}")
            params.append(flt.label)
        if flt.label_min_confidence:
            conds.append(f"l.confidence >= {m}")
            params.append(flt.label_min_confidence)
        clauses.append(f"EXISTS (SELECT 1 FROM episode_labels l WHERE {' AND '.join(conds)})")
    return clauses, params


def ordered_page(
    conn: Connection,
    flt: EpisodeFilter,
    after: tuple[int, int] | None,
    limit: int,
    descending: bool,
    seed: int | None,
    d: Dialect,
) -> list[tuple[int, int]]:
    """(key, seq) of the next ``limit`` matches by time (key start_us) or by seeded shuffle."""
    clauses, params = episode_where(flt, d)
    m = d.mark
    key = "e.start_us" if seed is None else f"(((e.seq + {m}) * {m}) {d.modulo} {PRIME})"
    key_params: list[Any] = [] if seed is None else shuffle_params(seed)
    if after is not None:
        clauses.append(f"({key}, e.seq) {'<' if descending else '>'} ({m}, {m})")
        params = [*params, *key_params, *after]
    direction = "DESC" if descending else "ASC"
    sql = (
        f"SELECT {key}, e.seq FROM episodes e{sql_where(clauses)}"
        f" ORDER BY 1 {direction}, 2 {direction} LIMIT {m}"
    )
    return [(int(r[0]), int(r[1])) for r in conn.execute(sql, [*key_params, *params, limit])]


def tag_where(flt: EpisodeFilter, d: Dialect) -> tuple[list[str], list[Any]] | None:
    """``episode_where``'s conditions on the concept rows ``c`` themselves, which carry their
    episode's namespace, window and seq; None when the filter needs the episode row (kinds,
    concepts, labels, session). Joining each row to its episode cost ~10x its own read."""
    if flt.kinds or flt.concepts or flt.session_id is not None:
        return None
    if flt.label_concept or flt.label or flt.label_min_confidence:
        return None
    m = d.mark
    clauses: list[str] = []
    params: list[Any] = []
    add_given(
        clauses,
        params,
        (
            (f"c.namespace = {m}", flt.namespace),
            (f"c.start_us <= {m}", flt.end_us),
            (f"c.end_us >= {m}", flt.start_us),
            (f"c.episode_seq <= {m}", flt.max_seq),
        ),
    )
    return clauses, params


def tag_rows(flt: EpisodeFilter, d: Dialect, join: str) -> tuple[str, list[str], list[Any]]:
    """What to read concept rows ``c`` from under ``flt``, and its conditions: the rows
    alone where they carry all the filter asks (``tag_where``), else joined to episodes
    ``e`` by ``join``."""
    on_rows = tag_where(flt, d)
    if on_rows is not None:
        return "episode_concepts c", on_rows[0], on_rows[1]
    clauses, params = episode_where(flt, d)
    return f"episode_concepts c JOIN episodes e ON {join}", clauses, params


def concept_scores(
    conn: Connection,
    flt: EpisodeFilter,
    concept_ids: Sequence[str],
    limit: int,
    join: str,
    d: Dialect,
) -> list[tuple[int, float]]:
    """(seq, summed tag score) of episodes carrying any of ``concept_ids``, best first;
    ``join`` matches ``episode_concepts c`` to ``episodes e`` (PostgreSQL's includes the
    distribution column, so each shard joins its own rows)."""
    params: list[Any] = []
    clauses = [d.one_of("c.concept_id", concept_ids, params)]
    source, where, where_params = tag_rows(flt, d, join)
    clauses += where
    params += where_params
    sql = (
        f"SELECT c.episode_seq, sum(c.score) FROM {source}"
        f"{sql_where(clauses)} GROUP BY c.episode_seq"
        f" ORDER BY 2 DESC, c.episode_seq DESC LIMIT {d.mark}"
    )
    return [(int(s), float(v)) for s, v in conn.execute(sql, [*params, limit])]


def matches_sql(
    flt: EpisodeFilter,
    concept_ids: Sequence[str],
    join: str,
    d: Dialect,
    extra: str = "",
) -> tuple[str, list[Any]]:
    """The statement of ``matches_with_scores`` (``extra``: more columns of ``e`` after
    the three); no ``concept_ids`` gives every score as NULL."""
    params: list[Any] = []
    score = "NULL"
    if concept_ids:
        carried = d.one_of("c.concept_id", concept_ids, params)
        score = f"(SELECT sum(c.score) FROM episode_concepts c WHERE {join} AND {carried})"
    clauses, where_params = episode_where(flt, d)
    sql = f"SELECT e.seq, e.session_id, {score} AS score{extra} FROM episodes e{sql_where(clauses)}"
    return sql, [*params, *where_params]


def matches_with_scores(
    conn: Connection,
    flt: EpisodeFilter,
    concept_ids: Sequence[str],
    join: str,
    d: Dialect,
) -> list[tuple[int, str | None, float | None]]:
    """Every episode passing ``flt``, its session and the summed score of the
    ``concept_ids`` tags it carries (None: none of them): an allowlist, a concept ranking
    and the sessions a search boosts by from one pass over the concept's rows, where asking
    for each apart joined them twice (27 ms at 1M) and cost PostgreSQL a round trip more."""
    sql, params = matches_sql(flt, concept_ids, join, d)
    return list(conn.execute(sql, params))


def tag_matches_sql(
    flt: EpisodeFilter, concept_ids: Sequence[str], d: Dialect
) -> tuple[str, list[Any]] | None:
    """``matches_with_scores``' statement on the concept rows alone, where they carry all
    that ``flt`` asks: one condition, a present tag (of any kind or one, any score floor),
    on the one concept ranked, with the namespace, window and snapshot the rows carry
    (``tag_where``); None otherwise. Each row is (seq, NULL, score): the sessions are not
    read, since reading them joined every concept row to its episode (a 1M corpus's filtered
    search: 7.5 ms for the allowlist that way, 1 ms from the rows). One row per concept and
    episode (the primary key), so its score is the sum the joined statement gives."""
    if len(flt.concepts) != 1 or list(concept_ids) != [flt.concepts[0].concept_id]:
        return None
    c = flt.concepts[0]
    if c.absent or c.as_label or not c.as_tag:
        return None
    rows = tag_where(replace(flt, concepts=[]), d)
    if rows is None:  # kinds, a session or labels: the episode row holds them
        return None
    m = d.mark
    clauses = [f"c.concept_id = {m}", f"c.score >= {m}"]
    params: list[Any] = [c.concept_id, c.min_score]
    if c.kind:
        clauses.append(f"c.kind = {m}")
        params.append(c.kind)
    sql = "SELECT c.episode_seq, NULL, c.score FROM episode_concepts c"
    return sql + sql_where([*clauses, *rows[0]]), [*params, *rows[1]]


def matching_seqs(conn: Connection, flt: EpisodeFilter, d: Dialect) -> list[int]:
    clauses, params = episode_where(flt, d)
    # No int(): both drivers give ints already, and an allowlist may be long.
    return [r[0] for r in conn.execute(f"SELECT e.seq FROM episodes e{sql_where(clauses)}", params)]


# ---------------------------------------------------------------------- timesteps


def timestep_where(
    flt: TimestepFilter,
    d: Dialect,
    activation: str,
    text: Callable[[list[str]], tuple[str, list[Any]]],
) -> tuple[list[str], list[Any]]:
    """SQL conditions on ``timesteps t``. The store gives what its SQL says its own way:
    ``activation`` tests one concept's activation (params concept, low, high), ``text``
    makes the condition that every one of some words occurs."""
    m = d.mark
    clauses: list[str] = []
    params: list[Any] = []
    if flt.session_ids is not None:
        clauses.append(d.one_of("t.session_id", flt.session_ids, params))
    add_given(
        clauses,
        params,
        (
            (f"t.tick >= {m}", flt.tick_start),
            (f"t.tick <= {m}", flt.tick_end),
            (f"t.ts_us >= {m}", flt.time_start_us),
            (f"t.ts_us <= {m}", flt.time_end_us),
        ),
    )
    if flt.event_types:
        clauses.append(d.one_of("t.event_type", flt.event_types, params))
    for tag_id in flt.tag_ids:
        # A tag covers a timestep when it was applied to it, to its event, or to a range of
        # ticks containing it, always within the timestep's own session. The timesteps are
        # found from the tag's applications (each by the index it names), not by probing
        # the applications for every timestep of the log: a bud on 10k of 20k timesteps
        # took seconds that way.
        clauses.append(
            "t.seq IN (SELECT c.seq FROM tag_applications a JOIN timesteps c ON c.session_id"
            f" = a.session_id AND c.tick = a.tick WHERE a.tag_id = {m} AND a.target_type ="
            " 'timestep' UNION ALL SELECT c.seq FROM tag_applications a JOIN timesteps c ON"
            f" c.session_id = a.session_id AND c.event_id = a.event_id WHERE a.tag_id = {m}"
            " AND a.target_type = 'event' UNION ALL SELECT c.seq FROM tag_applications a JOIN"
            " timesteps c ON c.session_id = a.session_id AND c.tick BETWEEN a.range_start AND"
            f" a.range_end WHERE a.tag_id = {m} AND a.target_type = 'range')"
        )
        params.extend((tag_id, tag_id, tag_id))
    for concept, (lo, hi) in flt.activations.items():
        clauses.append(activation)
        params.extend((concept, lo, hi))
    if flt.text is not None:
        words = WORD.findall(flt.text)
        if not words:  # nothing to look for: as FTS5 matches an empty query, nothing
            clauses.append(d.false)
        else:
            clause, values = text(words)
            clauses.append(clause)
            params.extend(values)
    return clauses, params


def timestep_page(
    columns: str,
    where: tuple[list[str], list[Any]],
    descending: bool,
    after: tuple[int, int] | None,
    limit: int,
    d: Dialect,
) -> tuple[str, list[Any], str, list[Any]]:
    """(page SQL, page params, count SQL, count params) for conditions and a keyset position:
    one WHERE clause serves the page, the count and the cursor."""
    clauses, params = where
    m = d.mark
    count_sql = "SELECT count(*) FROM timesteps t" + sql_where(clauses)
    page_clauses = list(clauses)
    page_params = list(params)
    if after is not None:
        page_clauses.append(f"(t.ts_us, t.seq) {'<' if descending else '>'} ({m}, {m})")
        page_params.extend(after)
    direction = "DESC" if descending else "ASC"
    sql = (
        f"SELECT {columns} FROM timesteps t{sql_where(page_clauses)}"
        f" ORDER BY t.ts_us {direction}, t.seq {direction} LIMIT {m}"
    )
    page_params.append(limit)
    return sql, page_params, count_sql, params


# --------------------------------------------------------- helpers of the concept and graph SQL


@dataclass(frozen=True)
class Flavor:
    d: Dialect
    concept_join: str  # joins episode_concepts c to episodes e
    json_each: str  # a table function of a JSON object's (key, value) pairs as text
    # A timestep's columns as ``row_models.timestep`` reads them (its JSON as text), and an
    # episode's as ``row_models.episode`` does.
    timesteps: str
    episodes: str
    text_change_join: str  # joins a text change c to its episode e
    # The view that makes an episode's context (by seq), where the store keeps none (SQLite:
    # ``sqlite/episode_texts``); None where ``episodes.context`` holds it (PostgreSQL).
    context_view: str | None
    # A handle's default session (``LogQueries.latest_session``), and the insert of a new
    # empty one (its id, created_us, last_us): the sessions' tables differ (SQLite counts
    # a session's timesteps lazily, ``store/sqlite/sessions.py``).
    latest_session: str
    new_session: str
    # Whether ``concept_counts`` keeps each concept's episode count (SQLite's: its episode
    # inserts add to it, a trigger takes deletes off; on PostgreSQL concurrent writers would
    # queue on a popular concept's row).
    concept_counts: bool = False


def chunks(values: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for i in range(0, len(values), size):
        yield values[i : i + size]


def rows_in(
    conn: Connection, d: Dialect, sql: str, values: Sequence[Any], after: Sequence[Any] = ()
) -> Iterator[Sequence[Any]]:
    """Rows of ``sql`` (whose ``{marks}`` is filled with a placeholder per value) for
    ``values``, in ``chunks`` (``after``: parameters that follow the list's)."""
    for part in chunks(values):
        yield from conn.execute(sql.format(marks=d.marks(len(part))), (*part, *after))


def insert_new(
    conn: Connection, d: Dialect, table: str, columns: str, values: Sequence[Any]
) -> bool:
    """Insert one row unless its key is stored (both databases read ON CONFLICT alike)."""
    cur = conn.execute(
        f"INSERT INTO {table} ({columns}) VALUES ({d.marks(len(values))}) ON CONFLICT DO NOTHING",
        list(values),
    )
    return cur.rowcount > 0


def many(conn: Any, sql: str, rows: Sequence[Sequence[Any]]) -> None:
    if rows:
        (conn if hasattr(conn, "executemany") else conn.cursor()).executemany(sql, rows)
