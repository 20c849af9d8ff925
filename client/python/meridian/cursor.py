# Cursor: runs statements on its connection's session and streams their results. A request's
# chunks (proto/README.md: metadata first, rows in bounded chunks, stats last, per statement;
# from the session stream or an ExecuteStream call, Connection._open) are read lazily:
# execute() reads until the first statement's rows start (so its errors and a small result's
# rowcount are known at once), fetch*() read further chunks as they need them, so a large
# result is never held whole.
import collections
import re

import grpc

from . import errors, params as paramstyle, types

# Parameter sets per request in executemany (each set becomes one statement of the request).
EXECUTEMANY_BATCH = 100
# ROLLBACK TO SAVEPOINT answers the command tag "ROLLBACK" but keeps the transaction open.
ROLLBACK_TO = re.compile(r"\bROLLBACK\s+((WORK|TRANSACTION)\s+)?TO\b", re.IGNORECASE)
# Command tags whose row count is meaningful as rowcount.
_COUNTED_TAGS = ("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "COPY", "FETCH", "MOVE")


class _ResultSet:
    """The result of one statement of a request."""

    def __init__(self):
        self.columns = None  # list of ColumnMetadata once the metadata chunk came
        self.oids = ()
        self.rows = collections.deque()
        self.done = False
        self.command_tag = ""
        self.rowcount = -1

    def add(self, chunk):
        if chunk.HasField("metadata") and self.columns is None:
            self.columns = list(chunk.metadata.columns)
            self.oids = [c.type.pg_oid for c in self.columns]
        oids = self.oids
        for row in chunk.rows:
            self.rows.append(tuple(types.from_value(v, oid) for v, oid in zip(row.values, oids)))
        if chunk.HasField("stats"):
            self.done = True
            self.command_tag = chunk.stats.command_tag
            verb = self.command_tag.split(" ", 1)[0]
            self.rowcount = chunk.stats.rows if verb in _COUNTED_TAGS else -1


class _Stream:
    """One request's chunks and the result sets they have delivered so far."""

    def __init__(self, conn, query_id, iterator, first_chunk, has_rollback_to=False):
        self.conn = conn
        self.has_rollback_to = has_rollback_to  # the request holds a ROLLBACK TO SAVEPOINT
        self.query_id = query_id
        self.iterator = iterator
        self.sets = []
        self.finished = False
        self.error = None  # an error met while buffering for another cursor, raised later
        self.first_chunk = first_chunk  # read by Connection._open; handed out by pull()
        if first_chunk is None:
            self._end()

    def pull(self):
        """Reads one chunk. Returns True when it carried rows of a statement not yet done
        (the point where execute() stops reading ahead). Raises the mapped server error."""
        if self.finished:
            return False
        try:
            if self.first_chunk is not None:
                chunk, self.first_chunk = self.first_chunk, None
            else:
                chunk = next(self.iterator)
        except StopIteration:
            self._end()
            return False
        except grpc.RpcError as e:
            self._end()
            raise self.conn._map_error(e) from None
        except errors.Error:  # the request's in-band error (session stream)
            self._end()
            raise
        if chunk.notice:
            self.conn.notices.append(chunk.notice)
        while len(self.sets) <= chunk.statement_index:
            self.sets.append(_ResultSet())
        result = self.sets[chunk.statement_index]
        result.add(chunk)
        if result.done:
            self.conn._saw_command(result.command_tag, self.has_rollback_to)
        return len(chunk.rows) > 0 and not result.done

    def _end(self):
        self.finished = True
        self.conn._call_ended(self.query_id)
        if self.conn._active_stream is self:
            self.conn._active_stream = None

    def buffer_rest(self):
        """Reads the rest into memory so the session is free for another request; an error is
        kept for the owning cursor."""
        try:
            while not self.finished:
                self.pull()
        except errors.Error as e:
            self.error = e

    def discard_rest(self):
        try:
            while not self.finished:
                self.pull()
                for s in self.sets:
                    s.rows.clear()
        except errors.Error:
            pass


class Cursor:
    """PEP 249 cursor. paramstyle "pyformat": %s or %(name)s, sent as server-side parameters."""

    def __init__(self, conn):
        self.connection = conn
        self.arraysize = 1
        self._closed = False
        self._stream = None
        self._set_index = 0
        self._rowcount = -1
        self.lastrowid = None  # Meridian has no row ids

    # --- attributes -----------------------------------------------------------------------
    @property
    def description(self):
        """(name, type_code, display_size, internal_size, precision, scale, null_ok) per column
        of the current result; type_code is the pg_type oid (compare with meridian.NUMBER,
        STRING, ...); None when the statement returns no rows."""
        result = self._current()
        if result is None or result.columns is None or not result.columns:
            return None
        return [_describe(c) for c in result.columns]

    @property
    def rowcount(self):
        """Rows returned or affected by the last execute (summed over executemany); -1 while a
        large result is still streaming and for statements without a count (DDL)."""
        result = self._current()
        if result is not None and result.done:
            return result.rowcount
        return self._rowcount

    @property
    def closed(self):
        return self._closed

    @property
    def rownumber(self):
        return None

    # --- running ----------------------------------------------------------------------------
    def execute(self, operation, parameters=None):
        """Runs `operation` (one statement, or several separated by ';': see nextset()) with
        `parameters` (a sequence for %s, a mapping for %(name)s) sent as typed values."""
        self._check_open()
        self._reset()
        sql, values, oids = _bind(operation, parameters)
        self._run(sql, values, oids)
        return self

    def executemany(self, operation, seq_of_parameters):
        """Runs `operation` once per parameter set, EXECUTEMANY_BATCH sets per request (one
        round trip: the statement repeated with its placeholders renumbered). rowcount is
        the total of affected rows. Results of row-returning statements are discarded."""
        self._check_open()
        self._reset()
        template = paramstyle.parse(operation)
        body = template.parts[-1].rstrip().rstrip(";")
        template.parts[-1] = body
        per_set = len(template.keys)
        total = 0
        batch = []
        for params in seq_of_parameters:
            batch.append(params)
            if len(batch) == EXECUTEMANY_BATCH:
                total += self._run_batch(template, per_set, batch)
                batch = []
        if batch:
            total += self._run_batch(template, per_set, batch)
        self._rowcount = total
        return self

    def _run_batch(self, template, per_set, batch):
        statements, values, oids = [], [], []
        for i, params in enumerate(batch):
            statements.append(template.render(offset=i * per_set))
            for v in template.values(params):
                value, oid = _to_value(v)
                values.append(value)
                oids.append(oid)
        self._run("\n;\n".join(statements), values, oids)
        stream = self._stream
        while not stream.finished:
            stream.pull()
            for s in stream.sets:
                s.rows.clear()
        count = sum(max(s.rowcount, 0) for s in stream.sets)
        self._stream = None
        return count

    def callproc(self, procname, parameters=()):
        """Calls a function: SELECT procname($1, ...); its result is the current result set.
        Returns the parameters unchanged (Meridian has no OUT parameters)."""
        self._check_open()
        self._reset()
        placeholders = ", ".join(f"${i + 1}" for i in range(len(parameters)))
        values, oids = zip(*map(_to_value, parameters)) if parameters else ((), ())
        self._run(f"SELECT {procname}({placeholders})", list(values), list(oids))
        return parameters

    def _run(self, sql, values, oids):
        conn = self.connection
        has_rollback_to = ROLLBACK_TO.search(sql) is not None
        stream = _Stream(conn, *conn._start(sql=sql, params=values, param_types=oids),
                         has_rollback_to=has_rollback_to)
        if not stream.finished:
            conn._active_stream = stream
        self._stream = stream
        self._set_index = 0
        while not stream.finished:
            if stream.pull():
                break

    def nextset(self):
        """Moves to the next statement's result of a multi-statement execute(); True when there
        is one, None when there is no more (rows left in the current one are skipped)."""
        self._check_open()
        stream = self._stream
        if stream is None:
            raise errors.ProgrammingError("no results: execute() first")
        current = self._current()
        self._raise_pending()
        while current is not None and not current.done and not stream.finished:
            self._pull()
        if current is not None:
            current.rows.clear()
        self._set_index += 1
        while len(stream.sets) <= self._set_index and not stream.finished:
            self._pull()
        if len(stream.sets) <= self._set_index:
            return None
        return True

    # --- fetching -----------------------------------------------------------------------------
    def fetchone(self):
        result = self._readable()
        while not result.rows and not result.done and not self._stream.finished:
            self._pull()
        self._raise_pending()
        return result.rows.popleft() if result.rows else None

    def fetchmany(self, size=None):
        size = self.arraysize if size is None else size
        out = []
        result = self._readable()
        while len(out) < size:
            if not result.rows:
                if result.done or self._stream.finished:
                    break
                self._pull()
                continue
            out.append(result.rows.popleft())
        self._raise_pending()
        return out

    def fetchall(self):
        result = self._readable()
        out = []
        while True:
            out.extend(result.rows)
            result.rows.clear()
            if result.done or self._stream.finished:
                break
            self._pull()
        self._raise_pending()
        return out

    def __iter__(self):
        return self

    def __next__(self):
        row = self.fetchone()
        if row is None:
            raise StopIteration
        return row

    def setinputsizes(self, sizes):
        pass  # parameters are typed by their Python values

    def setoutputsize(self, size, column=None):
        pass  # results are streamed in bounded chunks anyway

    def close(self):
        """Closes the cursor; a result still streaming is read to its end and dropped (use
        Connection.cancel() first to stop a long one)."""
        if self._closed:
            return
        self._reset()
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- helpers --------------------------------------------------------------------------------
    def _check_open(self):
        if self._closed:
            raise errors.InterfaceError("cursor already closed")
        self.connection._check_open()

    def _reset(self):
        stream = self._stream
        if stream is not None and not stream.finished:
            stream.discard_rest()
        self._stream = None
        self._set_index = 0
        self._rowcount = -1

    def _current(self):
        stream = self._stream
        if stream is None or self._set_index >= len(stream.sets):
            return None
        return stream.sets[self._set_index]

    def _readable(self):
        self._check_open()
        self._raise_pending()
        result = self._current()
        if result is None or not result.columns:
            raise errors.ProgrammingError("no results to fetch: the last statement returned "
                                          "no rows")
        return result

    def _pull(self):
        self._stream.pull()

    def _raise_pending(self):
        stream = self._stream
        if stream is not None and stream.error is not None:
            err, stream.error = stream.error, None
            raise err


def _describe(column):
    oid = column.type.pg_oid
    mod = column.type.type_mod
    internal_size = precision = scale = None
    # The API's type_mod is the plain modifier (proto: "n of VARCHAR(n)"), without
    # PostgreSQL's VARHDRSZ: numeric(p,s) is (p << 16) | s.
    if oid == types.NUMERIC and mod >= 0:
        precision, scale = (mod >> 16) & 0xFFFF, mod & 0xFFFF
    elif oid in (types.VARCHAR, types.BPCHAR) and mod >= 0:
        internal_size = mod
    return (column.name, oid, None, internal_size, precision, scale, column.nullable)


def _to_value(obj):
    try:
        return types.to_value(obj)
    except TypeError as e:
        raise errors.ProgrammingError(str(e)) from None


def _bind(operation, parameters):
    """(sql with $n, values, declared oids) for execute()."""
    if parameters is None:
        return operation, [], []
    template = paramstyle.parse(operation)
    values, oids = [], []
    for v in template.values(parameters):
        value, oid = _to_value(v)
        values.append(value)
        oids.append(oid)
    return template.render(), values, oids
