"""Meridian's Python driver: PEP 249 (DB-API 2.0) over Meridian's gRPC API.

    import meridian
    with meridian.connect(host="127.0.0.1", port=7432, user="meridian") as conn:
        cur = conn.cursor()
        cur.execute("SELECT name FROM city WHERE id = %s", (1,))
        print(cur.fetchone())

paramstyle is "pyformat" (%s, %(name)s; %% for a literal %); values travel as typed
server-side parameters, never spliced into the SQL text.
"""
from .connection import Connection, connect
from .cursor import Cursor
from .errors import (DatabaseError, DataError, DeadlockDetected, Error, IntegrityError,
                     InterfaceError, InternalError, NotSupportedError, OperationalError,
                     ProgrammingError, QueryCanceled, SerializationFailure,
                     TransactionRollbackError, Warning)
from .types import (BINARY, DATETIME, NUMBER, ROWID, STRING, Binary, Date, DateFromTicks, Time,
                    TimeFromTicks, Timestamp, TimestampFromTicks)

apilevel = "2.0"
threadsafety = 1  # threads may share the module, not connections
paramstyle = "pyformat"

__version__ = "0.1.0"

__all__ = [
    "connect", "Connection", "Cursor", "apilevel", "threadsafety", "paramstyle",
    "Warning", "Error", "InterfaceError", "DatabaseError", "DataError", "OperationalError",
    "IntegrityError", "InternalError", "ProgrammingError", "NotSupportedError",
    "TransactionRollbackError", "SerializationFailure", "DeadlockDetected", "QueryCanceled",
    "Date", "Time", "Timestamp", "DateFromTicks", "TimeFromTicks", "TimestampFromTicks",
    "Binary", "STRING", "BINARY", "NUMBER", "DATETIME", "ROWID",
]
