"""The views a restricted caller reads through (``xdb.store.access`` says why and when):
each covered table, and each table derived from one, shadowed by a view of the same name
and columns that holds only the rows whose access policy the caller reads.

- SQLite: TEMP views on a reader connection of its own (``sqlite_views``), over a temp
  table of the readable ids;
- PostgreSQL: views in a schema of their own (``pg_views``, ``pg_schema``), first on the
  search path of a second pool's connections, over the session setting ``PG_SETTING``.

Both are rendered from one set of bodies (``views``); they are SQL text only, so this
module touches no connection.
"""

from __future__ import annotations

from xdb.store.access import COVERED

# A reply record (as h) that overlaps an exemplar's range (as {e}).
_OVERLAPS = "h.level = 'reply' AND h.tick_start <= {e}.tick_end AND h.tick_end >= {e}.tick_start"


def views(ok: str, base: str, citus: bool = False) -> dict[str, str]:
    """Each shadowed table's view body. ``ok`` is a condition template on ``{col}`` that
    holds when that policy column is readable; ``base`` qualifies the real tables
    (``main.`` or a schema's name and a dot).

    Three tests cross from a row to rows placed elsewhere on Citus (``docs/scaling.md``): a
    compacted tick to the reply record that replaced it (ticks by session, records by
    namespace), an exemplar (the coordinator's) to the ticks and records of its range, an
    edge (a reference row) to its episodes. Each is written two ways that hold the same
    rows:

    - correlated (the default; SQLite and plain PostgreSQL): a subquery per row, which an
      index answers in a few probes;
    - ``citus``: Citus plans a subquery that refers to the outer row only where it reads
      the outer row's co-location group, joined on its distribution column, or reference
      tables, so these tests become uncorrelated ``IN`` sets, which Citus evaluates once
      per statement and ships where they are needed. Each set holds the outer table's own
      keys for which the test holds, keyed by exactly what the test reads of the outer row
      (its tick, its range, its end) and drawn from the outer table itself, so a row's key
      is in the set exactly when the test holds for that row; keys are not null where they
      are compared, so ``IN`` and ``NOT IN`` take the two values ``EXISTS`` and ``NOT
      EXISTS`` did. The price: each set is worked out over the whole table, once per
      statement, where the correlated test looks at the rows read (one session's
      comments out of 5,000: 0.4-0.7 ms correlated, 34-39 ms as a set, on either store;
      ``docs/scaling.md``).

    ``tests/store/test_placement_views.py`` holds the two to the same rows on both stores
    and the ``citus`` bodies to the shapes Citus plans."""

    def readable(col: str) -> str:
        return ok.format(col=col)

    b = base
    out = {t: f"SELECT * FROM {b}{t} WHERE {readable('access_policy_id')}" for t in COVERED}

    def compacted(table: str, row: str) -> str:
        """A tick compacted away (no timestep left) is read with a readable reply record
        that covers it. ``row`` names the outer row of ``table``; its tick is not null."""
        gone = (
            f"NOT EXISTS (SELECT 1 FROM {b}timesteps t WHERE t.session_id = {row}.session_id"
            f" AND t.tick = {row}.tick)"
        )
        if not citus:
            return (
                f"({gone} AND EXISTS (SELECT 1 FROM {b}memory_records r WHERE"
                f" r.level = 'reply' AND r.session_id = {row}.session_id AND {row}.tick"
                f" BETWEEN r.tick_start AND r.tick_end AND {readable('r.access_policy_id')}))"
            )
        # The (session, tick) pairs of the table that such a record covers; the records
        # read in a subquery of their own, which Citus ships to the ticks' shards.
        return (
            f"({gone} AND ({row}.session_id, {row}.tick) IN (SELECT k.session_id, k.tick FROM"
            f" {b}{table} k JOIN (SELECT r.session_id, r.tick_start, r.tick_end FROM"
            f" {b}memory_records r WHERE r.level = 'reply' AND"
            f" {readable('r.access_policy_id')}) c ON c.session_id = k.session_id AND k.tick"
            " BETWEEN c.tick_start AND c.tick_end))"
        )

    # A comment on a tick is read with its tick.
    out["comments"] += (
        f" AND (tick IS NULL OR EXISTS (SELECT 1 FROM {b}timesteps t WHERE t.session_id ="
        f" {b}comments.session_id AND t.tick = {b}comments.tick AND"
        f" {readable('t.access_policy_id')}) OR {compacted('comments', f'{b}comments')})"
    )
    # A stored edge is read with its ends: a hidden node or episode hides its edges.
    out["graph_edges"] = (
        f"SELECT g.* FROM {b}graph_edges g WHERE {readable('g.access_policy_id')}"
        f" AND NOT EXISTS (SELECT 1 FROM {b}graph_nodes n WHERE n.id IN (g.src, g.dst)"
        f" AND NOT {readable('n.access_policy_id')}) AND "
    )
    if not citus:
        out["graph_edges"] += (
            f"NOT EXISTS (SELECT 1 FROM {b}episodes x WHERE x.id IN (g.src, g.dst) AND NOT"
            f" {readable('x.access_policy_id')})"
        )
    else:
        # The hidden episodes that are some edge's src (dst): one set for every edge.
        # ``src`` and ``dst`` are not null.
        hidden = {
            end: f"SELECT x.id FROM {b}episodes x JOIN {b}graph_edges e ON x.id = e.{end}"
            f" WHERE NOT {readable('x.access_policy_id')}"
            for end in ("src", "dst")
        }
        out["graph_edges"] += f"g.src NOT IN ({hidden['src']}) AND g.dst NOT IN ({hidden['dst']})"
    visible_episode = (
        f"episode_seq IN (SELECT seq FROM {b}episodes WHERE {readable('access_policy_id')})"
    )
    for derived in ("episode_concepts", "episode_labels", "episode_vectors"):
        out[derived] = f"SELECT * FROM {b}{derived} WHERE {visible_episode}"
    out["tag_applications"] = (
        f"SELECT a.* FROM {b}tag_applications a WHERE a.tag_id IN (SELECT id FROM {b}tags g"
        f" WHERE {readable('g.access_policy_id')}) AND (a.tick IS NULL OR EXISTS (SELECT 1"
        f" FROM {b}timesteps t WHERE t.session_id = a.session_id AND t.tick = a.tick AND"
        f" {readable('t.access_policy_id')}) OR {compacted('tag_applications', 'a')})"
    )

    # An exemplar's range against a hidden row of ``table`` (as h) in its session that
    # ``overlaps`` it.
    def clear(table: str, overlaps: str) -> str:
        if not citus:
            return (
                f"NOT EXISTS (SELECT 1 FROM {b}{table} h WHERE h.session_id = x.session_id AND"
                f" {overlaps.format(e='x')} AND NOT {readable('h.access_policy_id')})"
            )
        # The ranges some hidden row overlaps: one set for every exemplar, keyed by
        # (session, start, end), none null here (exemplars are the coordinator's, ticks
        # and records distributed: Citus ships the exemplars to the shards).
        return (
            f"(x.session_id, x.tick_start, x.tick_end) NOT IN (SELECT e.session_id,"
            f" e.tick_start, e.tick_end FROM {b}exemplars e JOIN {b}{table} h ON"
            f" h.session_id = e.session_id AND {overlaps.format(e='e')} AND NOT"
            f" {readable('h.access_policy_id')})"
        )

    # The learning harness's: an exemplar goes with its episode or every tick of its range,
    # a bud's details with its tag, a dataset's member with the dataset and the policy its
    # episode had when the dataset was built (a frozen copy stays as private as it was).
    # A range short of an end covers no tick (``citus`` says so; the correlated tests find
    # no row for it).
    ends = " OR x.tick_start IS NULL OR x.tick_end IS NULL" if citus else ""
    out["exemplars"] = (
        f"SELECT x.* FROM {b}exemplars x WHERE {readable('x.access_policy_id')} AND"
        f" (x.episode_id IS NULL OR x.episode_id IN (SELECT id FROM {b}episodes WHERE"
        f" {readable('access_policy_id')})) AND (x.session_id IS NULL{ends} OR"
        f" ({clear('timesteps', 'h.tick BETWEEN {e}.tick_start AND {e}.tick_end')} AND"
        f" {clear('memory_records', _OVERLAPS)}))"
    )
    out["learning_objects"] = (
        f"SELECT o.* FROM {b}learning_objects o WHERE {readable('o.access_policy_id')} AND"
        f" (o.kind <> 'bud' OR o.id IN (SELECT id FROM {b}tags g WHERE"
        f" {readable('g.access_policy_id')}))"
    )
    # Fidelity's: a record under its own policy, a hold with its tick.
    out["memory_records"] = f"SELECT * FROM {b}memory_records WHERE {readable('access_policy_id')}"
    out["timestep_holds"] = (
        f"SELECT h.* FROM {b}timestep_holds h WHERE EXISTS (SELECT 1 FROM {b}timesteps t"
        f" WHERE t.session_id = h.session_id AND t.tick = h.tick AND"
        f" {readable('t.access_policy_id')})"
    )
    out["dataset_members"] = (
        f"SELECT m.* FROM {b}dataset_members m WHERE {readable('m.access_policy_id')} AND"
        f" m.dataset_id IN (SELECT id FROM {b}learning_objects o WHERE o.kind = 'dataset' AND"
        f" {readable('o.access_policy_id')})"
    )
    return out


# ``views``'s condition on each store: the policy column is among the readable ids.
SQLITE_OK = "coalesce({col}, '') IN (SELECT id FROM temp.xdb_readable)"
PG_SETTING = "xdb.readable"
PG_OK = (
    "coalesce({col}, '') = ANY(coalesce(nullif(current_setting('"
    + PG_SETTING
    + "', true), ''), '{{}}')::text[])"
)

ROWID_ORDERED = ("tags", "tag_applications", "comments")
_ROWID = (
    ("SELECT a.* FROM", "SELECT a.rowid AS rowid, a.* FROM"),
    ("SELECT * FROM", "SELECT rowid AS rowid, * FROM"),
)


def sqlite_views() -> list[str]:
    """Statements that make a SQLite connection read as ``temp.xdb_readable`` allows."""
    out = ["CREATE TEMP TABLE xdb_readable (id TEXT PRIMARY KEY)"]
    for name, body in views(SQLITE_OK, "main.").items():
        if name in ROWID_ORDERED:  # the export lists them by rowid, which a view lacks
            for plain, with_rowid in _ROWID:
                if body.startswith(plain):  # the outer query's list, not a subquery's
                    body = with_rowid + body[len(plain) :]
        out.append(f"CREATE TEMP VIEW {name} AS {body}")
    # The sessions' totals, counted from the visible timesteps (the table's own counters
    # count every one, and its start may be a hidden timestep's); a session with none
    # visible is not listed.
    counted = (
        "FROM main.sessions s JOIN (SELECT session_id, count(*) AS n, max(tick) + 1 AS"
        " next_tick, min(ts_us) AS first_us, max(ts_us) AS last_us FROM timesteps"
        " GROUP BY session_id) v"
        " ON v.session_id = s.session_id"
    )
    out.append(
        "CREATE TEMP VIEW sessions AS SELECT s.session_id AS session_id, v.next_tick AS"
        " next_tick, v.first_us AS created_us, v.last_us AS last_us, v.n AS timesteps,"
        f" 0 AS pending {counted}"
    )
    # Each concept's episodes, counted from the visible rows (the table counts them all).
    out.append(
        "CREATE TEMP VIEW concept_counts AS SELECT concept_id, count(*) AS episodes"
        " FROM episode_concepts GROUP BY concept_id"
    )
    out.append(
        "CREATE TEMP VIEW session_totals AS SELECT s.rowid AS made, s.session_id AS session_id,"
        " v.n AS timesteps, v.next_tick AS next_tick, v.first_us AS created_us,"
        f" v.last_us AS last_us {counted}"
    )
    return out


def pg_schema(base: str) -> str:
    """The schema of the restricted views for tables in schema ``base``."""
    return f"{base}_xdb_restricted"


# Where a function of this name exists, the views are made in the shape Citus plans
# (``views``'s ``citus``): Citus installs it, and a database xdb makes after ``CREATE
# EXTENSION citus`` is one Citus will distribute.
CITUS = "SELECT 1 FROM pg_proc WHERE proname = 'create_distributed_table'"


def pg_views(base: str) -> list[str]:
    """Statements that (re)create the restricted views of the tables in schema ``base``.
    Run again by any migration that changes a shadowed table's columns (views keep the
    columns they were made with). The views take the shape Citus plans where Citus is
    installed (``CITUS``), and their plain correlated shape elsewhere."""
    schema = pg_schema(base)
    qualified = f'"{base}".'

    def made(citus: bool) -> str:
        quote = "$xdb_view$"
        creates = [
            f'CREATE VIEW "{schema}".{name} AS {body}'
            for name, body in views(PG_OK, qualified, citus).items()
        ]
        if any(quote in c for c in creates):
            raise ValueError(f"a view's text holds {quote}, which quotes it")
        return " ".join(f"EXECUTE {quote}{c}{quote};" for c in creates)

    out = [f'DROP SCHEMA IF EXISTS "{schema}" CASCADE', f'CREATE SCHEMA "{schema}"']
    out.append(
        f"DO $xdb$ BEGIN IF EXISTS ({CITUS}) THEN {made(True)} ELSE {made(False)} END IF; END $xdb$"
    )
    out.append(
        f'CREATE VIEW "{schema}".sessions AS SELECT s.session_id, v.next_tick,'
        f" v.first_us AS created_us, v.last_us, v.n AS timesteps, s.pos FROM {qualified}sessions"
        " s JOIN (SELECT session_id, count(*) AS n, max(tick) + 1 AS next_tick, min(ts_us) AS"
        " first_us, max(ts_us) AS last_us FROM"
        f' "{schema}".timesteps GROUP BY session_id) v ON v.session_id = s.session_id'
    )
    return out


def pg_array(ids: list[str]) -> str:
    """A text[] literal of ``ids`` (what ``xdb.readable`` holds)."""
    quoted = ('"' + i.replace("\\", "\\\\").replace('"', '\\"') + '"' for i in ids)
    return "{" + ",".join(quoted) + "}"
