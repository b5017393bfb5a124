"""Tags, tag applications and comments: the statements both stores run alike.

The log's annotations have the same tables and columns in both stores, so checking a
target, applying a tag and adding a comment are one piece of code; only inserting a tag
that may exist is said differently (``INSERT OR IGNORE`` against ``ON CONFLICT DO
NOTHING``), so each store passes its own statement.
"""

from __future__ import annotations

from typing import Any

from xdb.errors import NotFound, StoreError
from xdb.ids import timestep_id
from xdb.models.log_objects import Comment, Tag, TagApplication
from xdb.store import access, row_models
from xdb.store.sqlbuild import Connection, Dialect, add_given, chunks, sql_where
from xdb.store.types import ResolvedTarget
from xdb.timeutil import to_us


def insert_tag(
    conn: Connection, tag: Tag, statement: str, d: Dialect, access_policy_id: str | None = None
) -> tuple[Tag, bool]:
    """Insert ``tag`` by ``statement`` (the store's insert that skips an existing one), a new
    one under ``access_policy_id``; (the tag stored under its type and name, whether it was
    created)."""
    if conn.execute(statement, row_models.tag_values(tag, to_us(tag.created_at))).rowcount == 1:
        if access_policy_id is not None:
            access.assign(conn, d, "tag", [(tag.id,)], access_policy_id)
        return tag, True
    row = conn.execute(
        f"SELECT {row_models.TAG_COLUMNS} FROM tags WHERE tag_type = {d.mark} AND name = {d.mark}",
        (tag.tag_type.value, tag.name),
    ).fetchone()
    if row is None:  # the id collided, not the name: ids are unique, so this is a bug
        raise StoreError(f"tag id {tag.id!r} already exists")
    return row_models.tag(row), False


def missing_target(target: ResolvedTarget) -> NotFound:
    """The error for a target that names no timestep (of those the caller reads)."""
    if target.target_type == "timestep":
        return NotFound(
            f"unknown timestep_id {timestep_id(target.session_id, target.tick or 0)!r}",
            field="timestep_id",
        )
    if target.target_type == "event":
        return NotFound(
            f"unknown event_id {target.event_id!r} in session {target.session_id!r}",
            field="event_id",
        )
    return NotFound(f"unknown session {target.session_id!r}", field="session_id")


def check_target(conn: Connection, target: ResolvedTarget, d: Dialect) -> int:
    """How many timesteps the target covers; NotFound if it names nothing that exists."""
    m = d.mark
    if target.target_type == "timestep":
        row = conn.execute(
            f"SELECT 1 FROM timesteps WHERE session_id = {m} AND tick = {m}",
            (target.session_id, target.tick),
        ).fetchone()
        if row is None:
            raise missing_target(target)
        return 1
    if not conn.execute(
        f"SELECT 1 FROM sessions WHERE session_id = {m}", (target.session_id,)
    ).fetchone():
        raise NotFound(f"unknown session {target.session_id!r}", field="session_id")
    if target.target_type == "event":
        count = int(
            conn.execute(
                f"SELECT count(*) FROM timesteps WHERE session_id = {m} AND event_id = {m}",
                (target.session_id, target.event_id),
            ).fetchone()[0]
        )
        if count == 0:
            raise missing_target(target)
        return count
    return int(
        conn.execute(
            f"SELECT count(*) FROM timesteps WHERE session_id = {m} AND tick BETWEEN {m} AND {m}",
            (target.session_id, target.range_start, target.range_end),
        ).fetchone()[0]
    )


def apply_tag(
    conn: Connection,
    application: TagApplication,
    target: ResolvedTarget,
    new_tag: Tag | None,
    insert_tag_sql: str,
    d: Dialect,
) -> tuple[Tag, bool, int]:
    """The protocol's ``apply_tag``, inside the caller's write transaction."""
    count = check_target(conn, target, d)
    if new_tag is not None:
        tag, made = insert_tag(conn, new_tag, insert_tag_sql, d)
    else:
        row = conn.execute(
            f"SELECT {row_models.TAG_COLUMNS} FROM tags WHERE id = {d.mark}", (application.tag_id,)
        ).fetchone()
        if row is None:
            raise NotFound(f"unknown tag id {application.tag_id!r}", field="tag_name_or_id")
        tag, made = row_models.tag(row), False
    # The application is a first: the target did not carry the tag (a tag just made, never).
    created = made or not _carries(conn, tag.id, target, d)
    conn.execute(
        "INSERT INTO tag_applications (id, tag_id, target_type, session_id, tick,"
        " event_id, range_start, range_end, confidence, source, note, created_us,"
        f" created_by) VALUES ({d.marks(13)})",
        (
            application.id,
            tag.id,
            target.target_type,
            target.session_id,
            target.tick,
            target.event_id,
            target.range_start,
            target.range_end,
            application.confidence,
            application.source.value,
            application.note,
            to_us(application.created_at),
            application.created_by,
        ),
    )
    return tag, created, count


def _carries(conn: Connection, tag_id: str, target: ResolvedTarget, d: Dialect) -> bool:
    """Whether ``target`` (the same timestep, event or tick range) already has the tag."""
    m = d.mark
    params: list[Any]
    if target.target_type == "timestep":
        where, params = f"tick = {m}", [target.tick]
    elif target.target_type == "event":
        where, params = f"event_id = {m}", [target.event_id]
    else:
        where, params = (
            f"range_start = {m} AND range_end = {m}",
            [target.range_start, target.range_end],
        )
    row = conn.execute(
        f"SELECT 1 FROM tag_applications WHERE tag_id = {m} AND session_id = {m}"
        f" AND target_type = {m} AND {where} LIMIT 1",
        (tag_id, target.session_id, target.target_type, *params),
    ).fetchone()
    return row is not None


def add_comment(
    conn: Connection,
    comment: Comment,
    target: ResolvedTarget | None,
    d: Dialect,
    access_policy_id: str | None = None,
) -> None:
    """The protocol's ``add_comment``, inside the caller's write transaction."""
    tgt = target or ResolvedTarget("session", comment.session_id)
    if target is not None:
        check_target(conn, target, d)
    elif not conn.execute(
        f"SELECT 1 FROM sessions WHERE session_id = {d.mark}", (tgt.session_id,)
    ).fetchone():
        raise NotFound(f"unknown session {tgt.session_id!r}", field="session_id")
    conn.execute(
        "INSERT INTO comments (id, session_id, target_type, tick, event_id, range_start,"
        f" range_end, content, created_us, updated_us, created_by) VALUES ({d.marks(11)})",
        (
            comment.id,
            tgt.session_id,
            tgt.target_type,
            tgt.tick,
            tgt.event_id,
            tgt.range_start,
            tgt.range_end,
            comment.content,
            to_us(comment.created_at),
            to_us(comment.updated_at),
            comment.created_by,
        ),
    )
    if access_policy_id is not None:
        access.assign(conn, d, "comment", [(comment.id,)], access_policy_id)


def find_tags_sql(name: str, tag_type: str | None, d: Dialect) -> tuple[str, list[Any]]:
    """Tags named ``name`` (of ``tag_type`` when given), by type."""
    sql = f"SELECT {row_models.TAG_COLUMNS} FROM tags WHERE name = {d.mark}"
    params: list[Any] = [name]
    if tag_type is not None:
        sql += f" AND tag_type = {d.mark}"
        params.append(tag_type)
    return sql + " ORDER BY tag_type", params


def list_tags_sql(
    tag_type: str | None, bud_status: str | None, d: Dialect
) -> tuple[str, list[Any]]:
    """Tags (of ``tag_type``, with ``bud_status``, when given) in order of creation, each
    with its count of applications as an 11th column."""
    clauses: list[str] = []
    params: list[Any] = []
    add_given(
        clauses,
        params,
        ((f"tag_type = {d.mark}", tag_type), (f"bud_status = {d.mark}", bud_status)),
    )
    sql = (
        f"SELECT {row_models.TAG_COLUMNS}, (SELECT count(*) FROM tag_applications a"
        f" WHERE a.tag_id = tags.id) FROM tags{sql_where(clauses)} ORDER BY created_us, id"
    )
    return sql, params


def session_annotations(
    conn: Connection, d: Dialect, session_id: str, ticks: tuple[int, int] | None, limit: int
) -> tuple[list[tuple[TagApplication, Tag]], list[Comment]]:
    """The tag applications (each with its tag) and comments on ``session_id``'s timesteps
    and tick ranges overlapping ``ticks`` (every one when None), its events and itself, by
    tick (a range by its first; events and the session first), then by time: up to
    ``limit`` + 1 of each, so that the caller can tell there are more."""
    m = d.mark
    where = f"session_id = {m}"
    params: list[Any] = [session_id]
    if ticks is not None:
        where += (
            f" AND ((tick IS NULL AND range_start IS NULL) OR tick BETWEEN {m} AND {m}"
            f" OR (range_start <= {m} AND range_end >= {m}))"
        )
        params += [ticks[0], ticks[1], ticks[1], ticks[0]]
    order = f" ORDER BY coalesce(tick, range_start, -1), created_us, id LIMIT {m}"
    applied = conn.execute(
        f"SELECT {row_models.APPLICATION_COLUMNS} FROM tag_applications WHERE {where}{order}",
        [*params, limit + 1],
    ).fetchall()
    said = conn.execute(
        f"SELECT {row_models.COMMENT_COLUMNS} FROM comments WHERE {where}{order}",
        [*params, limit + 1],
    ).fetchall()
    found = [row_models.application(r) for r in applied]
    tags: dict[str, Tag] = {}
    for chunk in chunks(sorted({a.tag_id for a in found})):
        chosen: list[Any] = []
        cond = d.one_of("id", chunk, chosen)
        for row in conn.execute(f"SELECT {row_models.TAG_COLUMNS} FROM tags WHERE {cond}", chosen):
            tags[row[0]] = row_models.tag(row)
    pairs = [(a, tags[a.tag_id]) for a in found if a.tag_id in tags]
    return pairs, [row_models.comment(r) for r in said]
