#!/usr/bin/env python3
"""The #39 scaling database kept in git as a base and steps.

    python3 bench/scaling/snapshot.py restore DB   # the base, then every step, into DB (a new file)
    python3 bench/scaling/snapshot.py write DB     # what DB has beyond them, as the next step

The base, bench/scaling/scaling.db.gz, is a whole database. A step,
bench/scaling/steps/NNNN.db.gz, is a small SQLite file with what one
stretch of play changed: for each table that changed, a table of the same name
with the rows that are new or changed (their whole rows) and a table
NAME__gone with the primary keys of the rows that went. A stretch of about
a thousand games is a step of one or two megabytes, where a whole snapshot
is 60 MB: every version of a committed file stays in the repository's
history, which a clone downloads.

`write` rebuilds the database from the base and the steps, writes what
DB has changed since as a step, applies that step to the rebuilt copy and
compares every table with DB; only a step that reproduces DB exactly is
kept. Where DB's schema differs from the rebuilt one (a newer arena
migrated it), DB becomes the new base and the steps go.

A compressed step or base larger than PART_BYTES (4 MB, under the
repository's 5 MB limit on a file) is kept as numbered parts,
NNNN.db.gz.part01, .part02, …, whose bytes in order are the gzip file.

A step names rows by their primary key (every table of arena's database
has one) and replays a changed row as a delete and an insert, step by step,
one transaction each; a database with triggers, which would fire on the
replay, is kept whole as a base instead.
"""
import gzip
import os
import pathlib
import shutil
import sqlite3
import sys
import tempfile

# The folder of the base and the steps; SCALING_SNAPSHOT_DIR names another
# (the tests keep a snapshot of their own).
FOLDER = pathlib.Path(os.environ.get("SCALING_SNAPSHOT_DIR") or pathlib.Path(__file__).resolve().parent)
BASE = FOLDER / "scaling.db.gz"
STEPS = FOLDER / "steps"
# The largest file written; a larger one is cut into parts of this size.
# SCALING_SNAPSHOT_PART_BYTES names another (the tests cut small files).
PART_BYTES = int(os.environ.get("SCALING_SNAPSHOT_PART_BYTES") or 4_000_000)


def shown(path):
    """A path as the user would type it: from the current folder where it is below it."""
    try:
        return str(path.resolve().relative_to(pathlib.Path.cwd()))
    except ValueError:
        return str(path)


def quote(name):
    return '"' + name.replace('"', '""') + '"'


def tables(con, schema="main"):
    rows = con.execute(f"SELECT name FROM {schema}.sqlite_master WHERE type = 'table' "
                       "AND name NOT LIKE 'sqlite_%' ORDER BY name")
    return [r[0] for r in rows]


def schema_of(con, schema="main"):
    """The database's tables, indexes, views and triggers, as their SQL."""
    rows = con.execute(f"SELECT type, name, sql FROM {schema}.sqlite_master "
                       "WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
    return [tuple(r) for r in rows]


def columns(con, schema, table):
    """All columns, and the primary key's in key order."""
    info = con.execute(f"PRAGMA {schema}.table_info({quote(table)})").fetchall()
    names = [c[1] for c in info]
    key = [c[1] for c in sorted((c for c in info if c[5] > 0), key=lambda c: c[5])]
    if not key:
        sys.exit(f"table {table} has no primary key: a step cannot name its rows")
    return names, key


def listing(names):
    return ", ".join(quote(n) for n in names)


def parts(whole):
    """The files that hold `whole`: itself, or its parts in order."""
    if whole.exists():
        return [whole]
    return sorted(whole.parent.glob(whole.name + ".part[0-9][0-9]"))


def exists(whole):
    return bool(parts(whole))


def size(whole):
    return sum(p.stat().st_size for p in parts(whole))


def remove(whole):
    for p in parts(whole):
        p.unlink()


def steps():
    """The steps, in the order they were written: 0001.db.gz, 0002.db.gz, …
    (each whole or in parts)."""
    names = {p.name.split(".")[0] for p in [*STEPS.glob("*.db.gz"), *STEPS.glob("*.db.gz.part[0-9][0-9]")]}
    numbers = sorted(int(n) for n in names if n.isdigit())
    return [STEPS / f"{n:04}.db.gz" for n in numbers]


class Joined:
    """The parts of a file read as one stream."""

    def __init__(self, paths):
        self.paths, self.current = list(paths), None

    def read(self, n=-1):
        out = b""
        while n < 0 or len(out) < n:
            if self.current is None:
                if not self.paths:
                    break
                self.current = open(self.paths.pop(0), "rb")
            chunk = self.current.read(-1 if n < 0 else n - len(out))
            if not chunk:
                self.current.close()
                self.current = None
                continue
            out += chunk
        return out

    def close(self):
        if self.current is not None:
            self.current.close()


def gunzip(source, target):
    held = parts(source)
    if not held:
        raise OSError(f"no {shown(source)}")
    joined = Joined(held)
    try:
        with gzip.open(joined, "rb") as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst)
    finally:
        joined.close()


def gzip_to(source, target):
    """`source` compressed into `target`, whole or not at all; in parts of
    PART_BYTES where it is larger."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".writing")
    with open(source, "rb") as src, gzip.open(partial, "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    remove(target)
    if partial.stat().st_size <= PART_BYTES:
        os.replace(partial, target)
        return
    with open(partial, "rb") as whole:
        number = 1
        while chunk := whole.read(PART_BYTES):
            cut = target.with_name(f"{target.name}.part{number:02}.writing")
            cut.write_bytes(chunk)
            number += 1
    partial.unlink()
    for cut in sorted(target.parent.glob(target.name + ".part[0-9][0-9].writing")):
        os.replace(cut, cut.with_name(cut.name[: -len(".writing")]))


def apply(con, step_file):
    """Applies one step (an uncompressed file) to the database of `con`."""
    con.execute("ATTACH DATABASE ? AS step", (str(step_file),))
    present = set(tables(con, "step"))
    with con:
        for table in tables(con):
            names, key = columns(con, "main", table)
            for part in (table, table + "__gone"):
                if part in present:
                    con.execute(f"DELETE FROM main.{quote(table)} WHERE ({listing(key)}) IN "
                                f"(SELECT {listing(key)} FROM step.{quote(part)})")
        for table in tables(con):
            names, _ = columns(con, "main", table)
            if table in present:
                con.execute(f"INSERT INTO main.{quote(table)} ({listing(names)}) "
                            f"SELECT {listing(names)} FROM step.{quote(table)}")
    con.execute("DETACH DATABASE step")


def rebuild(target, scratch):
    """The base and every step, into the new file `target`."""
    if not exists(BASE):
        sys.exit(f"no {shown(BASE)}: nothing to restore")
    gunzip(BASE, target)
    con = sqlite3.connect(target)
    for path in steps():
        unpacked = scratch / "step.db"
        gunzip(path, unpacked)
        apply(con, unpacked)
        unpacked.unlink()
    con.close()


def differences(con, a, b):
    """The tables whose rows differ between schemas a and b (both with the same tables)."""
    differ = []
    for table in tables(con, a):
        names, _ = columns(con, a, table)
        cols = listing(names)
        one = f"SELECT {cols} FROM {a}.{quote(table)} EXCEPT SELECT {cols} FROM {b}.{quote(table)}"
        other = f"SELECT {cols} FROM {b}.{quote(table)} EXCEPT SELECT {cols} FROM {a}.{quote(table)}"
        if con.execute(f"SELECT EXISTS ({one}) OR EXISTS ({other})").fetchone()[0]:
            differ.append(table)
    return differ


def diff_into(step_file, old, new):
    """Writes into `step_file` what turns database `old` into `new`; returns the tables changed."""
    con = sqlite3.connect(step_file)
    con.execute("ATTACH DATABASE ? AS old", (str(old),))
    con.execute("ATTACH DATABASE ? AS new", (str(new),))
    changed = differences(con, "old", "new")
    with con:
        for table in changed:
            names, key = columns(con, "new", table)
            cols, keys = listing(names), listing(key)
            # Untyped columns: every value is kept as it is, with its type.
            con.execute(f"CREATE TABLE main.{quote(table)} ({cols})")
            con.execute(f"INSERT INTO main.{quote(table)} SELECT {cols} FROM new.{quote(table)} "
                        f"EXCEPT SELECT {cols} FROM old.{quote(table)}")
            con.execute(f"CREATE TABLE main.{quote(table + '__gone')} ({keys})")
            con.execute(f"INSERT INTO main.{quote(table + '__gone')} SELECT {keys} FROM old.{quote(table)} "
                        f"EXCEPT SELECT {keys} FROM new.{quote(table)}")
    con.close()
    return changed


def write_base(db, scratch):
    # Through SQLite's backup, not the file's bytes: what the database's
    # write-ahead log holds is in the copy too.
    copy = scratch / "base.db"
    source, target = sqlite3.connect(db), sqlite3.connect(copy)
    source.backup(target)
    source.close()
    target.close()
    gzip_to(copy, BASE)
    for path in steps():
        remove(path)
    print(f"snapshot: {shown(BASE)}, a new base ({size(BASE) / 1e6:.1f} MB in {len(parts(BASE))} file(s)); "
          "commit it, and the steps' removal")


def write(db):
    scratch = pathlib.Path(tempfile.mkdtemp())
    try:
        rebuilt = scratch / "rebuilt.db"
        if not exists(BASE):
            return write_base(db, scratch)
        rebuild(rebuilt, scratch)
        con = sqlite3.connect(rebuilt)
        con.execute("ATTACH DATABASE ? AS live", (str(db),))
        schema = schema_of(con, "live")
        same = schema_of(con, "main") == schema
        con.close()
        if not same:
            print("the database's schema is not the snapshot's (migrated by a newer arena)")
            return write_base(db, scratch)
        if any(kind == "trigger" for kind, _, _ in schema):
            print("the database has triggers, which a step's replay would fire")
            return write_base(db, scratch)
        step = scratch / "step.db"
        changed = diff_into(step, rebuilt, db)
        if not changed:
            print("snapshot: nothing new since the last step")
            return
        check = sqlite3.connect(rebuilt)
        apply(check, step)
        check.execute("ATTACH DATABASE ? AS live", (str(db),))
        left = differences(check, "main", "live")
        check.close()
        if left:
            sys.exit(f"snapshot: the step does not reproduce {db} (tables {', '.join(left)}); nothing written")
        number = max((int(p.name.split(".")[0]) for p in steps()), default=0) + 1
        target = STEPS / f"{number:04}.db.gz"
        gzip_to(step, target)
        print(f"snapshot: {shown(target)} ({size(target) / 1e6:.1f} MB in {len(parts(target))} file(s), "
              f"tables {', '.join(changed)}); commit it to keep the games")
    finally:
        shutil.rmtree(scratch)


def restore(db):
    target = pathlib.Path(db)
    if target.exists():
        sys.exit(f"{db} exists; restore writes a new file (move it away first)")
    scratch = pathlib.Path(tempfile.mkdtemp())
    try:
        partial = scratch / "restored.db"
        rebuild(partial, scratch)
        moving = target.with_name(target.name + ".partial")
        shutil.copyfile(partial, moving)
        os.replace(moving, target)
        print(f"restored {db} from {shown(BASE)} and {len(steps())} step(s)")
    finally:
        shutil.rmtree(scratch)


def main():
    args = sys.argv[1:]
    if len(args) != 2 or args[0] not in ("restore", "write"):
        sys.exit("usage: snapshot.py restore DB | snapshot.py write DB")
    if args[0] == "write" and not pathlib.Path(args[1]).is_file():
        sys.exit(f"no database {args[1]}")
    try:
        (restore if args[0] == "restore" else write)(args[1])
    except (OSError, EOFError, sqlite3.Error) as e:
        # A damaged file (a step cut short, a database that is not one):
        # one line; restore leaves no database, write no step.
        sys.exit(f"snapshot.py {args[0]} {args[1]}: {e}")


if __name__ == "__main__":
    main()
