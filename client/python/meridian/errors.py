# PEP 249's exception hierarchy, and the mapping from a server error (a SqlError: in the gRPC
# status details of a failed call, proto/README.md invariant 5, or in-band in the last chunk of a
# request on the ExecuteSession stream) or a bare gRPC status to one of its classes.
import grpc

from ._proto import meridian_pb2 as pb

_DETAILS_KEY = "grpc-status-details-bin"


class Warning(Exception):  # noqa: A001 - the name PEP 249 requires
    """Important warnings (PEP 249). Meridian does not raise it today."""


class Error(Exception):
    """Base of every driver error. Server errors carry PostgreSQL's fields."""

    def __init__(self, message, sqlstate="", detail="", hint="", position=0, severity="",
                 statement_index=0, grpc_code=None):
        super().__init__(message)
        self.message = message
        self.sqlstate = sqlstate
        self.detail = detail
        self.hint = hint
        self.position = position  # 1-based character in the statement; 0 when none
        self.severity = severity
        self.statement_index = statement_index
        self.grpc_code = grpc_code

    # psycopg's spelling, for code moving over.
    @property
    def pgcode(self):
        return self.sqlstate

    def __str__(self):
        text = f"{self.sqlstate}: {self.message}" if self.sqlstate else self.message
        if self.detail:
            text += f"\nDETAIL:  {self.detail}"
        if self.hint:
            text += f"\nHINT:  {self.hint}"
        return text


class InterfaceError(Error):
    """Misuse of the driver (closed connection or cursor, bad parameters)."""


class DatabaseError(Error):
    pass


class DataError(DatabaseError):
    """SQLSTATE classes 21, 22: bad values (22P02, 22003, 22012, ...)."""


class OperationalError(DatabaseError):
    """Connection problems (08xxx), cancel and timeout (57014), resources, shutdown."""


class IntegrityError(DatabaseError):
    """SQLSTATE class 23: unique (23505), not null (23502), check (23514) violations."""


class InternalError(DatabaseError):
    """SQLSTATE class XX and aborted-transaction states."""


class ProgrammingError(DatabaseError):
    """SQLSTATE class 42 (syntax, undefined table/column, types), 26, 34 and friends."""


class NotSupportedError(DatabaseError):
    """SQLSTATE 0A000: a feature Meridian does not have."""


class TransactionRollbackError(OperationalError):
    """SQLSTATE class 40: the transaction was rolled back by the server and may succeed when
    run again from its start. `retryable` is True."""

    retryable = True


class SerializationFailure(TransactionRollbackError):
    """40001: a concurrent transaction changed a row this one wrote (or read at REPEATABLE
    READ). Roll back and run the transaction again."""


class DeadlockDetected(TransactionRollbackError):
    """40P01: this transaction was chosen to break a deadlock. Roll back and retry."""


class QueryCanceled(OperationalError):
    """57014: cancelled by Connection.cancel() or by the statement timeout."""


# First two characters of the SQLSTATE → class (psycopg's choices, PostgreSQL's classes).
_BY_CLASS = {
    "08": OperationalError, "0A": NotSupportedError, "21": DataError, "22": DataError,
    "23": IntegrityError, "24": InternalError, "25": InternalError, "26": ProgrammingError,
    "28": OperationalError, "2D": InternalError, "34": ProgrammingError,
    "3D": ProgrammingError, "3F": ProgrammingError, "40": TransactionRollbackError,
    "42": ProgrammingError, "53": OperationalError, "54": OperationalError,
    "55": OperationalError, "57": OperationalError, "58": OperationalError, "XX": InternalError,
}
_BY_STATE = {"40001": SerializationFailure, "40P01": DeadlockDetected, "57014": QueryCanceled}


def error_class(sqlstate):
    return _BY_STATE.get(sqlstate) or _BY_CLASS.get(sqlstate[:2], DatabaseError)


def make_error(sqlstate, message, **fields):
    return error_class(sqlstate)(message, sqlstate=sqlstate, **fields)


def _sql_error_of(rpc_error):
    """The SqlError in the call's status details, or None."""
    try:
        metadata = rpc_error.trailing_metadata() or ()
    except Exception:  # a local error (cancelled before start) has no metadata
        return None
    for key, value in metadata:
        if key == _DETAILS_KEY:
            status = pb.ErrorStatus()
            status.ParseFromString(value)
            for any_detail in status.details:
                sql_error = pb.SqlError()
                if any_detail.Unpack(sql_error):
                    return sql_error
    return None


def from_sql_error(sql_error, grpc_code=None):
    """The driver error for the server's SqlError, field for field."""
    return make_error(sql_error.sqlstate, sql_error.message, detail=sql_error.detail,
                      hint=sql_error.hint, position=sql_error.position,
                      severity=sql_error.severity, statement_index=sql_error.statement_index,
                      grpc_code=grpc_code)


def from_rpc_error(rpc_error):
    """The driver error for a failed gRPC call: the server's SqlError field for field when it
    sent one, else an error chosen from the gRPC code (as the C++ client does)."""
    code = rpc_error.code() if hasattr(rpc_error, "code") else None
    sql_error = _sql_error_of(rpc_error)
    if sql_error is not None:
        return from_sql_error(sql_error, grpc_code=code)
    details = rpc_error.details() if hasattr(rpc_error, "details") else str(rpc_error)
    if code == grpc.StatusCode.UNAVAILABLE:
        return make_error("08006", f"connection lost: {details}", grpc_code=code)
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return make_error("57014", "canceling statement due to statement timeout",
                          grpc_code=code)
    if code == grpc.StatusCode.CANCELLED:
        return make_error("57014", "canceling statement due to user request", grpc_code=code)
    if code == grpc.StatusCode.UNIMPLEMENTED:
        return make_error("0A000", details or "not supported", grpc_code=code)
    if code == grpc.StatusCode.UNAUTHENTICATED:
        return make_error("28000", details or "authentication failed", grpc_code=code)
    return make_error("XX000", details or str(code), grpc_code=code)
