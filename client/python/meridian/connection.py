# Connection: one Meridian session over gRPC. OpenSession, then the Attach stream held open by a
# background thread for the session's life (the server ends the session, rolling back its
# transaction, when that stream ends); requests one at a time on the session's ExecuteSession
# stream (opened at the first request, again after it broke), or one ExecuteStream call each
# when the server lacks that RPC; transactions as PEP 249 wants them (an implicit BEGIN before
# the first statement unless autocommit); Cancel from any thread; CloseSession on close().
import itertools
import queue
import threading
import time

import grpc

from . import errors
from ._proto import meridian_pb2 as pb
from ._proto import meridian_pb2_grpc as pb_grpc
from .cursor import Cursor

_ISOLATION_LEVELS = ("READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE")
_SSLMODES = ("disable", "require", "verify-ca", "verify-full")
_MAX_RECEIVE = 64 * 1024 * 1024
# After a call ended on the client's side (deadline, cancel) the server may still be finishing
# it for a moment and refuse the next request with 55000; it is retried for up to this long.
_BUSY_RETRY_S = 5.0
# A request on the session stream that the server has not ended this long after cancel() or
# after its statement_timeout (it answers 57014 in-band at once as a rule) is ended by dropping
# the stream.
_CANCEL_GRACE_S = 5.0
# How long close() waits for the server to end the half-closed session stream.
_STREAM_CLOSE_S = 2.0
# Command tags that open or end a transaction block typed by the user. ROLLBACK TO SAVEPOINT
# also answers "ROLLBACK" (as in PostgreSQL) but keeps the transaction: the cursor tells such a
# request apart by its text (cursor.ROLLBACK_TO).
_TX_BEGIN_TAGS = ("BEGIN", "START TRANSACTION")
_TX_END_TAGS = ("COMMIT", "ROLLBACK")
# The call metadata that carries OpenSessionResponse.session_secret (proto/README.md).
_SESSION_SECRET_METADATA = "x-meridian-session-secret"


def _read_file(path):
    with open(path, "rb") as f:
        return f.read()


def _channel(target, sslmode, sslrootcert, sslcert, sslkey, ssl_server_name):
    options = [
        ("grpc.keepalive_time_ms", 30000),
        ("grpc.keepalive_timeout_ms", 10000),
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.max_receive_message_length", _MAX_RECEIVE),
        # Every connection its own TCP connection, so sessions fail independently.
        ("grpc.use_local_subchannel_pool", 1),
    ]
    if sslmode == "disable":
        return grpc.insecure_channel(target, options=options)
    if ssl_server_name:
        options.append(("grpc.ssl_target_name_override", ssl_server_name))
    creds = grpc.ssl_channel_credentials(
        root_certificates=_read_file(sslrootcert) if sslrootcert else None,
        private_key=_read_file(sslkey) if sslkey else None,
        certificate_chain=_read_file(sslcert) if sslcert else None)
    return grpc.secure_channel(target, creds, options=options)


class _NoSessionRpc(Exception):
    """The server answered UNIMPLEMENTED for ExecuteSession before any chunk: nothing ran."""


class _SessionStream:
    """One ExecuteSession call: requests go into a queue that feeds the call's request
    iterator (None half-closes it); the chunks of each request come back in order."""

    def __init__(self, stub, metadata):
        self._requests = queue.SimpleQueue()
        self.answered = False  # a chunk came (so the server has the RPC)
        self.call = stub.ExecuteSession(iter(self._requests.get, None), metadata=metadata)

    def send(self, request):
        self._requests.put(request)

    def close(self):
        """Half-closes: the server ends the stream after the requests sent; then dropped."""
        ended = threading.Event()
        self.call.add_done_callback(lambda _: ended.set())
        self._requests.put(None)
        ended.wait(_STREAM_CLOSE_S)
        self.call.cancel()

    def drop(self):
        """Ends the call now (a request running on it fails with CANCELLED)."""
        self._requests.put(None)  # also ends gRPC's thread reading the request iterator
        self.call.cancel()


class Connection:
    """A session. Not safe to share between threads, except cancel() (PEP 249 threadsafety 1).
    Use as a context manager: commit on success, rollback on an exception, then close."""

    # PEP 249's optional extension: the exception classes as attributes.
    Warning = errors.Warning
    Error = errors.Error
    InterfaceError = errors.InterfaceError
    DatabaseError = errors.DatabaseError
    DataError = errors.DataError
    OperationalError = errors.OperationalError
    IntegrityError = errors.IntegrityError
    InternalError = errors.InternalError
    ProgrammingError = errors.ProgrammingError
    NotSupportedError = errors.NotSupportedError

    def __init__(self, host="127.0.0.1", port=7432, user="meridian", password=None,
                 dbname="meridian", sslmode="disable", sslrootcert=None, sslcert=None,
                 sslkey=None, ssl_server_name=None, timeout=10.0, statement_timeout=None,
                 application_name="meridian-python", autocommit=False, isolation_level=None):
        if sslmode not in _SSLMODES:
            raise errors.InterfaceError(f"sslmode must be one of {', '.join(_SSLMODES)}")
        self._closed = True  # until the session is open
        self._lost = False
        self._closing = False
        self._autocommit = bool(autocommit)
        self._in_transaction = False
        self.isolation_level = isolation_level
        self.statement_timeout = statement_timeout  # seconds per statement; None: no limit
        self.notices = []  # server notices, oldest first (as psycopg2's connection.notices)
        self._query_ids = itertools.count(1)
        self._lock = threading.Condition()  # guards _running_*, _drop_at, _watchdog*
        self._running_call = None  # the call of the running request (ExecuteStream or session)
        self._running_query_id = ""
        self._running_session = None  # its _SessionStream, when it runs on one
        self._session = None  # the ExecuteSession stream, opened by the first request
        self._no_session = False  # the server lacks ExecuteSession: ExecuteStream calls
        # When the running request is still on the session stream at _drop_at (monotonic), the
        # watchdog thread drops the stream; the thread starts with the first request that needs
        # it and is woken only from its idle wait (so a request costs it nothing as a rule).
        self._drop_at = None
        self._watchdog = None
        self._watchdog_idle = False
        self._active_stream = None  # the stream that holds the session (one at a time)
        self._abandoned = False  # the last call ended by deadline or cancel

        host_part = f"[{host}]" if ":" in host else host
        self._target = f"{host_part}:{port}"
        self._channel = _channel(self._target, sslmode, sslrootcert, sslcert, sslkey,
                                 ssl_server_name)
        self._stub = pb_grpc.SqlStub(self._channel)
        request = pb.OpenSessionRequest(user=user, database=dbname or "",
                                        application_name=application_name or "",
                                        password=password or "")
        # OpenSession is the first call: refused at once fails at once (08001), a host that
        # does not answer times out after `timeout`.
        try:
            response = self._stub.OpenSession(request, timeout=timeout)
        except grpc.RpcError as e:
            self._channel.close()
            code = e.code()
            if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                why = (f"timeout after {timeout} s" if code == grpc.StatusCode.DEADLINE_EXCEEDED
                       else e.details())
                raise errors.make_error(
                    "08001", f"could not connect to server at {self._target}: {why}",
                    grpc_code=code) from None
            raise errors.from_rpc_error(e) from None
        self.session_id = response.session_id
        self.server_version = response.server_version
        # Every later call proves it belongs to the session with its secret (proto/README.md).
        self._auth = ((_SESSION_SECRET_METADATA, response.session_secret),)
        self._attached = threading.Event()
        self._attach_call = self._stub.Attach(pb.AttachRequest(session_id=self.session_id),
                                              metadata=self._auth)
        self._attach_thread = threading.Thread(target=self._run_attach, daemon=True,
                                               name=f"meridian-attach-{self.session_id}")
        self._attach_thread.start()
        if not self._attached.wait(timeout) or self._lost:
            self._attach_call.cancel()
            self._channel.close()
            raise errors.make_error("08006", "could not attach the session "
                                    f"{self.session_id} at {self._target}")
        self._closed = False

    # --- the Attach stream -------------------------------------------------------------
    def _run_attach(self):
        try:
            for event in self._attach_call:
                if event.kind == pb.SessionEvent.ATTACHED:
                    self._attached.set()
        except grpc.RpcError:
            pass
        if not self._closing:
            # Server shut down, session expired or network gone: the session is over.
            self._lost = True
            self._attached.set()
            with self._lock:
                if self._running_call is not None:
                    self._running_call.cancel()

    # --- PEP 249 ------------------------------------------------------------------------
    @property
    def closed(self):
        return self._closed

    @property
    def autocommit(self):
        return self._autocommit

    @autocommit.setter
    def autocommit(self, value):
        self._check_open()
        if value and self._in_transaction:
            raise errors.ProgrammingError(
                "a transaction is open: commit() or rollback() before setting autocommit")
        self._autocommit = bool(value)

    @property
    def isolation_level(self):
        """Isolation of the transactions the driver begins: None (the server's default, READ
        COMMITTED unless --default-isolation says otherwise), "READ COMMITTED",
        "REPEATABLE READ" or "SERIALIZABLE" (run as REPEATABLE READ by Meridian)."""
        return self._isolation_level

    @isolation_level.setter
    def isolation_level(self, value):
        if value is not None:
            value = " ".join(str(value).upper().replace("_", " ").split())
            if value not in _ISOLATION_LEVELS:
                raise errors.ProgrammingError(
                    f"isolation_level must be None or one of {', '.join(_ISOLATION_LEVELS)}")
        self._isolation_level = value

    @property
    def in_transaction(self):
        """True between the first statement of a transaction and commit()/rollback()."""
        return self._in_transaction

    def cursor(self):
        self._check_open()
        return Cursor(self)

    def commit(self):
        self._check_usable()
        if self._in_transaction:
            self._run_simple("COMMIT")

    def rollback(self):
        self._check_usable()
        if self._in_transaction:
            self._run_simple("ROLLBACK")

    def close(self):
        """Ends the session (an open transaction is rolled back). A second close() raises
        InterfaceError, as the dbapi20 suite expects."""
        if self._closed:
            raise errors.InterfaceError("connection already closed")
        self._closed = True
        self._closing = True
        with self._lock:
            if self._running_call is not None:
                self._running_call.cancel()
            self._lock.notify()  # the watchdog ends
        if self._session is not None:
            if self._lost:
                self._session.drop()
            else:
                self._session.close()
            self._session = None
        if not self._lost:
            try:
                self._stub.CloseSession(pb.CloseSessionRequest(session_id=self.session_id),
                                        timeout=5, metadata=self._auth)
            except grpc.RpcError:
                pass  # the session ends with the Attach stream anyway
        self._attach_call.cancel()
        self._attach_thread.join(timeout=5)
        self._channel.close()

    def cancel(self):
        """Cancels the statement running on this connection (SQLSTATE 57014 for it); safe from
        any thread; does nothing when none runs."""
        with self._lock:
            query_id, call = self._running_query_id, self._running_call
            session = self._running_session
            if call is None or self._closed:
                return
            if session is not None:
                # The server answers 57014 in-band and the stream goes on; a request still
                # running after the grace period loses the stream.
                grace_end = time.monotonic() + _CANCEL_GRACE_S
                self._drop_stream_at(min(grace_end, self._drop_at or grace_end))
        try:
            cancelled = self._stub.Cancel(
                pb.CancelRequest(session_id=self.session_id, query_id=query_id), timeout=5,
                metadata=self._auth).cancelled
        except grpc.RpcError:
            cancelled = False
        if session is None and not cancelled:
            call.cancel()

    def _drop_stream_at(self, when):
        """Caller holds _lock: the watchdog drops the session stream at `when` (monotonic) if
        the running request has not ended by then (the next request opens a new stream)."""
        self._drop_at = when
        if self._watchdog is None:
            self._watchdog = threading.Thread(target=self._watch, daemon=True,
                                              name=f"meridian-watchdog-{self.session_id}")
            self._watchdog.start()
        elif self._watchdog_idle:
            self._lock.notify()

    def _watch(self):
        """The watchdog thread: sleeps until _drop_at (or, idle, until one is set), then
        drops the stream of the request still running; ends with the connection."""
        while True:
            with self._lock:
                while not self._closed and (self._drop_at is None
                                            or self._drop_at > time.monotonic()):
                    self._watchdog_idle = self._drop_at is None
                    self._lock.wait(None if self._watchdog_idle
                                    else max(0.0, self._drop_at - time.monotonic()))
                self._watchdog_idle = False
                if self._closed:
                    return
                self._drop_at = None
                session = self._running_session
            if session is not None:
                session.drop()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if self._closed:
            return
        try:
            if not self._lost:
                if exc_type is None:
                    self.commit()
                else:
                    self.rollback()
        finally:
            self.close()

    def __del__(self):
        if not getattr(self, "_closed", True):
            try:
                self.close()
            except Exception:
                pass

    # --- used by Cursor -------------------------------------------------------------------
    def _check_open(self):
        if self._closed:
            raise errors.InterfaceError("connection already closed")

    def _check_usable(self):
        self._check_open()
        if self._lost:
            raise errors.make_error("08006", "connection lost")

    def _start(self, sql="", params=(), param_types=()):
        """Starts one request; returns (call, iterator, first chunk or None). Whatever stream
        held the session is read to its end into its cursor's memory first (one request at a
        time per session); in a transaction block an implicit BEGIN goes first."""
        self._check_usable()
        self._release_session()
        if not self._autocommit and not self._in_transaction:
            level = self._isolation_level
            self._run_simple(f"BEGIN ISOLATION LEVEL {level}" if level else "BEGIN")
        return self._open(pb.ExecuteRequest(
            session_id=self.session_id, sql=sql, params=params,
            param_types=[pb.ColumnType(pg_oid=t) for t in param_types]))

    def _open(self, request):
        """Sends a request; returns (query id, chunk iterator, first chunk or None). A 55000
        refusal right after a request this side abandoned (the server still finishing it) is
        retried for a few seconds."""
        deadline = time.monotonic() + _BUSY_RETRY_S
        while True:
            request.query_id = str(next(self._query_ids))
            try:
                iterator = self._send(request)
                first = next(iterator, None)
            except _NoSessionRpc:
                self._no_session = True  # nothing ran: the same request as ExecuteStream
                continue
            except grpc.RpcError as e:
                err = self._map_error(e)
            except errors.Error as e:
                err = e
            else:
                self._abandoned = False
                if first is None:
                    self._call_ended(request.query_id)
                return request.query_id, iterator, first
            self._call_ended(request.query_id)
            if err.sqlstate == "55000" and self._abandoned and time.monotonic() < deadline:
                time.sleep(0.02)
                continue
            raise err from None

    def _send(self, request):
        """Starts the request on the session stream (statement_timeout as timeout_ms), or as
        an ExecuteStream call (statement_timeout as its deadline) when the server lacks
        ExecuteSession, and registers it for cancel(). Returns its chunk iterator."""
        timeout = self.statement_timeout
        if self._no_session:
            request.timeout_ms = 0
            call = self._stub.ExecuteStream(request, timeout=timeout, metadata=self._auth)
            self._register(request.query_id, call, None)
            return call
        if self._session is None:
            self._session = _SessionStream(self._stub, self._auth)
        session = self._session
        request.timeout_ms = max(1, round(timeout * 1000)) if timeout else 0
        self._register(request.query_id, session.call, session,
                       timeout + _CANCEL_GRACE_S if timeout else None)
        session.send(request)
        return self._session_chunks(session)

    def _session_chunks(self, session):
        """One request's chunks from the session stream, up to the one marked request_done;
        its in-band SqlError is raised as the driver's error (the stream goes on). A broken
        stream (gRPC error) is dropped, so the next request opens a new one."""
        while True:
            try:
                chunk = next(session.call)
            except (grpc.RpcError, StopIteration) as e:
                if self._session is session:
                    self._session = None
                session.drop()
                if isinstance(e, StopIteration):
                    raise errors.make_error("08006", "the session stream ended") from None
                if e.code() == grpc.StatusCode.UNIMPLEMENTED and not session.answered:
                    raise _NoSessionRpc() from None
                raise
            session.answered = True
            if not chunk.request_done:
                yield chunk
                continue
            if not chunk.HasField("error"):
                yield chunk
                return
            if chunk.notice:
                self.notices.append(chunk.notice)
            err = errors.from_sql_error(chunk.error)
            if err.sqlstate.startswith("08"):
                self._lost = True
            raise err

    def _register(self, query_id, call, session, drop_after=None):
        """Makes the request the running one (for cancel()); on the session stream a server
        that has not ended it drop_after seconds from now loses the stream."""
        with self._lock:
            self._running_call = call
            self._running_query_id = query_id
            self._running_session = session
            self._drop_at = None
            if drop_after is not None:
                self._drop_stream_at(time.monotonic() + drop_after)
        # The Attach thread may have seen the session end before the registration.
        if self._lost:
            call.cancel()

    def _call_ended(self, query_id):
        with self._lock:
            if self._running_query_id == query_id:
                self._running_call = None
                self._running_query_id = ""
                self._running_session = None
                self._drop_at = None

    def _release_session(self):
        stream = self._active_stream
        if stream is not None:
            stream.buffer_rest()
            self._active_stream = None

    def _run_simple(self, sql):
        """Runs a statement without results (BEGIN, COMMIT, ROLLBACK) and reads its end."""
        self._release_session()
        query_id, iterator, chunk = self._open(pb.ExecuteRequest(session_id=self.session_id,
                                                                 sql=sql))
        try:
            while chunk is not None:
                if chunk.HasField("stats"):
                    self._saw_command(chunk.stats.command_tag)
                chunk = next(iterator, None)
        except grpc.RpcError as e:
            raise self._map_error(e) from None
        finally:
            self._call_ended(query_id)

    def _saw_command(self, tag, has_rollback_to=False):
        """Follows the transaction state from each statement's command tag."""
        if tag in _TX_BEGIN_TAGS:
            self._in_transaction = True
        elif tag in _TX_END_TAGS and not (tag == "ROLLBACK" and has_rollback_to):
            self._in_transaction = False

    def _map_error(self, rpc_error):
        err = errors.from_rpc_error(rpc_error)
        if rpc_error.code() in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED):
            self._abandoned = True
        if self._lost and rpc_error.code() in (grpc.StatusCode.CANCELLED,
                                               grpc.StatusCode.UNAVAILABLE):
            err = errors.make_error("08006", "connection lost", grpc_code=rpc_error.code())
        if err.sqlstate.startswith("08"):
            self._lost = True
        return err


def connect(host="127.0.0.1", port=7432, user="meridian", password=None, dbname="meridian",
            sslmode="disable", sslrootcert=None, sslcert=None, sslkey=None,
            ssl_server_name=None, timeout=10.0, statement_timeout=None,
            application_name="meridian-python", autocommit=False, isolation_level=None):
    """Opens a session on meridiand's gRPC listener (default 127.0.0.1:7432).

    timeout: seconds allowed to connect and open the session. statement_timeout: seconds per
    request (sent as its timeout_ms; 57014 when it passes, the session stays usable), None for
    no limit. sslmode: "disable" (default, plaintext) or "require" / "verify-ca" / "verify-full"
    (TLS; gRPC always verifies the server's chain, against sslrootcert or the system's roots,
    and its name, which ssl_server_name overrides); sslcert/sslkey give a client certificate.
    autocommit: False (PEP 249: a transaction begins before the first statement and lasts until
    commit() or rollback()) or True. isolation_level: see Connection.isolation_level."""
    return Connection(host=host, port=port, user=user, password=password, dbname=dbname,
                      sslmode=sslmode, sslrootcert=sslrootcert, sslcert=sslcert, sslkey=sslkey,
                      ssl_server_name=ssl_server_name, timeout=timeout,
                      statement_timeout=statement_timeout, application_name=application_name,
                      autocommit=autocommit, isolation_level=isolation_level)
