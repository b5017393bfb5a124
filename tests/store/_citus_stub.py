"""Citus's placement functions as plain PostgreSQL stubs that check their arguments: what
``create_distributed_table``, ``create_reference_table`` and
``citus_add_local_table_to_metadata`` would refuse, they refuse, and each table placed is
recorded in ``citus_stub.placed``. Nothing is moved: the schema stays as it was.

Checked: a table is placed once; a distribution column exists and is in the primary key and
every unique key; a table co-located with another was placed after it, distributed, by a
column of the same type and collation; each foreign key names a table placed before it, and
either a reference table or (for a distributed table) one of its group, joined on the
distribution column (a local table may also name a local one).
"""

from __future__ import annotations

SCHEMA = "citus_stub"

STATEMENTS = [
    "CREATE SCHEMA citus_stub",
    """
CREATE TABLE citus_stub.placed (
    rel regclass PRIMARY KEY,
    kind text NOT NULL,
    col smallint,
    typ oid,
    coll oid,
    grp regclass
)""",
    """
CREATE FUNCTION citus_stub.check_foreign_keys(
    p_rel regclass, p_kind text, p_col smallint, p_grp regclass)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    fk record;
    target citus_stub.placed;
BEGIN
    FOR fk IN SELECT c.conname, c.confrelid::regclass AS dst, c.conkey, c.confkey
              FROM pg_constraint c WHERE c.conrelid = p_rel AND c.contype = 'f' LOOP
        SELECT * INTO target FROM citus_stub.placed p WHERE p.rel = fk.dst;
        IF NOT FOUND THEN
            RAISE EXCEPTION '%: foreign key % names %, which is not placed yet',
                p_rel, fk.conname, fk.dst;
        END IF;
        CONTINUE WHEN target.kind = 'reference';
        CONTINUE WHEN target.kind = 'local' AND p_kind = 'local';
        IF p_kind <> 'distributed' OR target.kind <> 'distributed' OR target.grp <> p_grp THEN
            RAISE EXCEPTION '%: foreign key % names %, neither co-located nor a reference table',
                p_rel, fk.conname, fk.dst;
        END IF;
        IF NOT EXISTS (SELECT 1 FROM unnest(fk.conkey, fk.confkey) AS k(a, b)
                       WHERE k.a = p_col AND k.b = target.col) THEN
            RAISE EXCEPTION '%: foreign key % does not join the distribution columns',
                p_rel, fk.conname;
        END IF;
    END LOOP;
END $$""",
    """
CREATE FUNCTION citus_stub.placed_once(p_rel regclass) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM citus_stub.placed p WHERE p.rel = p_rel) THEN
        RAISE EXCEPTION '% is placed already', p_rel;
    END IF;
END $$""",
    """
CREATE FUNCTION citus_stub.create_distributed_table(
    table_name regclass, distribution_column text, colocate_with text DEFAULT 'default')
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    v_num smallint;
    v_typ oid;
    v_coll oid;
    v_grp regclass := table_name;
    other citus_stub.placed;
BEGIN
    PERFORM citus_stub.placed_once(table_name);
    SELECT a.attnum, a.atttypid, a.attcollation INTO v_num, v_typ, v_coll FROM pg_attribute a
        WHERE a.attrelid = table_name AND a.attname = distribution_column AND a.attnum > 0
        AND NOT a.attisdropped;
    IF NOT FOUND THEN
        RAISE EXCEPTION '%: no column %', table_name, distribution_column;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = table_name AND i.indisprimary
                   AND v_num = ANY ((i.indkey::int2[])[0:i.indnkeyatts - 1])) THEN
        RAISE EXCEPTION '%: % is not in its primary key', table_name, distribution_column;
    END IF;
    IF EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = table_name AND i.indisunique
               AND NOT v_num = ANY ((i.indkey::int2[])[0:i.indnkeyatts - 1])) THEN
        RAISE EXCEPTION '%: a unique key leaves out %', table_name, distribution_column;
    END IF;
    IF colocate_with = 'default' THEN
        -- Citus's default: the group of a table distributed by the same type, if any.
        SELECT * INTO other FROM citus_stub.placed p WHERE p.kind = 'distributed'
            AND p.typ = v_typ AND p.coll = v_coll ORDER BY p.rel::oid LIMIT 1;
        IF FOUND THEN
            v_grp := other.grp;
        END IF;
    ELSIF colocate_with <> 'none' THEN
        SELECT * INTO other FROM citus_stub.placed p WHERE p.rel = colocate_with::regclass;
        IF NOT FOUND OR other.kind <> 'distributed' THEN
            RAISE EXCEPTION '%: % is not distributed (yet)', table_name, colocate_with;
        END IF;
        IF other.typ <> v_typ OR other.coll <> v_coll THEN
            RAISE EXCEPTION '%: % is %, but % is distributed by %', table_name,
                distribution_column, format_type(v_typ, NULL), colocate_with,
                format_type(other.typ, NULL);
        END IF;
        v_grp := other.grp;
    END IF;
    PERFORM citus_stub.check_foreign_keys(table_name, 'distributed', v_num, v_grp);
    INSERT INTO citus_stub.placed VALUES (table_name, 'distributed', v_num, v_typ, v_coll, v_grp);
END $$""",
    """
CREATE FUNCTION citus_stub.create_reference_table(table_name regclass)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM citus_stub.placed_once(table_name);
    PERFORM citus_stub.check_foreign_keys(table_name, 'reference', NULL, NULL);
    INSERT INTO citus_stub.placed (rel, kind) VALUES (table_name, 'reference');
END $$""",
    """
CREATE FUNCTION citus_stub.citus_add_local_table_to_metadata(
    table_name regclass, cascade_via_foreign_keys boolean DEFAULT false)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM citus_stub.placed_once(table_name);
    PERFORM citus_stub.check_foreign_keys(table_name, 'local', NULL, NULL);
    INSERT INTO citus_stub.placed (rel, kind) VALUES (table_name, 'local');
END $$""",
]
