# Python values ↔ the API's typed Value (proto/meridian.proto), and PEP 249's type objects and
# constructors. Parameters travel as typed values with a declared pg_oid (never spliced into the
# SQL text); results are decoded by their column's pg_oid.
import datetime
import decimal
import json
import time

from ._proto import meridian_pb2 as pb

# pg_type.oid of the types Meridian sends and accepts (proto/README.md, Parameters).
BOOL, BYTEA, INT8, INT2, INT4, TEXT, OID = 16, 17, 20, 21, 23, 25, 26
FLOAT4, FLOAT8, UNKNOWN, BPCHAR, VARCHAR = 700, 701, 705, 1042, 1043
DATE, TIME, TIMESTAMP, TIMESTAMPTZ, NUMERIC = 1082, 1083, 1114, 1184, 1700
JSON, JSONB = 114, 3802
INFER = 0  # let the server infer the parameter's type from its context

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


class DBAPITypeObject:
    """A PEP 249 type object: equal to every type code (pg_oid) of its group."""

    def __init__(self, name, *oids):
        self.name = name
        self.oids = frozenset(oids)

    def __eq__(self, other):
        if isinstance(other, DBAPITypeObject):
            return self.oids == other.oids
        return other in self.oids

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.oids)

    def __repr__(self):
        return f"<meridian.{self.name}>"


STRING = DBAPITypeObject("STRING", TEXT, VARCHAR, BPCHAR, UNKNOWN, 19)
BINARY = DBAPITypeObject("BINARY", BYTEA)
NUMBER = DBAPITypeObject("NUMBER", INT2, INT4, INT8, FLOAT4, FLOAT8, NUMERIC, OID)
DATETIME = DBAPITypeObject("DATETIME", DATE, TIME, TIMESTAMP, TIMESTAMPTZ)
ROWID = DBAPITypeObject("ROWID", OID)

# PEP 249 constructors.
Date = datetime.date
Time = datetime.time
Timestamp = datetime.datetime


def DateFromTicks(ticks):
    return Date(*time.localtime(ticks)[:3])


def TimeFromTicks(ticks):
    return Time(*time.localtime(ticks)[3:6])


def TimestampFromTicks(ticks):
    return Timestamp(*time.localtime(ticks)[:6])


def Binary(data):
    return bytes(data)


def to_value(obj):
    """(pb.Value, pg_oid to declare) for one parameter. Types Python can tell apart are
    declared (int as bigint, float as double precision, Decimal as numeric, date, timestamp,
    dict as jsonb);
    str and None are left for the server to infer from context, as PostgreSQL infers an untyped
    literal. Raises TypeError for a value it cannot send."""
    if obj is None:
        return pb.Value(null_value=True), INFER
    if isinstance(obj, bool):
        return pb.Value(bool_value=obj), BOOL
    if isinstance(obj, int):
        if _INT64_MIN <= obj <= _INT64_MAX:
            return pb.Value(int_value=obj), INT8
        return pb.Value(text_value=str(obj)), NUMERIC
    if isinstance(obj, float):
        return pb.Value(double_value=obj), FLOAT8
    if isinstance(obj, decimal.Decimal):
        return pb.Value(text_value=_decimal_text(obj)), NUMERIC
    if isinstance(obj, str):
        return pb.Value(text_value=obj), INFER
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return pb.Value(bytes_value=bytes(obj)), BYTEA
    if isinstance(obj, datetime.datetime):  # before date: a datetime is a date
        if obj.tzinfo is not None:
            return pb.Value(text_value=obj.isoformat(sep=" ")), TIMESTAMPTZ
        return pb.Value(text_value=obj.isoformat(sep=" ")), TIMESTAMP
    if isinstance(obj, datetime.date):
        return pb.Value(text_value=obj.isoformat()), DATE
    if isinstance(obj, datetime.time):
        return pb.Value(text_value=obj.isoformat()), TIME
    if isinstance(obj, (list, tuple)):
        return _array_value(obj)
    if isinstance(obj, dict):  # a JSON object: jsonb
        return pb.Value(text_value=json.dumps(obj)), JSONB
    raise TypeError(f"cannot send a value of type {type(obj).__name__} as a parameter")


# A list's array type, from its first non-None element (pg_type.typarray of the element type).
_ARRAY_OF = {BOOL: 1000, INT8: 1016, FLOAT8: 1022, NUMERIC: 1231, DATE: 1182, TIMESTAMP: 1115,
             TIMESTAMPTZ: 1185}


def _array_value(items):
    """A list or tuple as a one-dimensional array in PostgreSQL's text form ('{1,2,NULL}'), so
    `x = ANY(%s)` works as with psycopg. Elements of one kind; strings and anything without an
    array type here go as text[] (INFER for an empty or all-None list)."""
    texts, oid = [], None
    for item in items:
        if item is None:
            texts.append("NULL")
            continue
        if isinstance(item, (list, tuple)):
            raise TypeError("cannot send a nested list as a parameter")
        value, elem_oid = to_value(item)
        kind = value.WhichOneof("kind")
        if kind == "bool_value":
            text = "t" if value.bool_value else "f"
        elif kind == "int_value":
            text = str(value.int_value)
        elif kind == "double_value":
            text = repr(value.double_value)
        elif kind == "text_value":
            text = value.text_value
        else:
            raise TypeError(f"cannot send a list of {type(item).__name__} as a parameter")
        array_oid = _ARRAY_OF.get(elem_oid, 1009)  # text[] otherwise
        if oid is not None and array_oid != oid:
            raise TypeError("cannot send a list of mixed types as a parameter")
        oid = array_oid
        texts.append('"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return pb.Value(text_value="{" + ",".join(texts) + "}"), (oid if oid is not None else INFER)


def _decimal_text(d):
    if d.is_nan():
        return "NaN"
    if d.is_infinite():
        return "Infinity" if d > 0 else "-Infinity"
    return format(d, "f")


def _parse_timestamp(text):
    try:
        return datetime.datetime.fromisoformat(text)
    except ValueError:
        return text  # infinity, BC dates, years beyond 9999: left as PostgreSQL's text


def _parse_date(text):
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return text


def _parse_float(text):
    return float(text)  # accepts NaN, Infinity, -Infinity as PostgreSQL prints them


def _parse_bool(text):
    return text in ("t", "true", "TRUE", "1", "on")


_TEXT_DECODERS = {
    NUMERIC: decimal.Decimal, DATE: _parse_date, TIMESTAMP: _parse_timestamp,
    TIMESTAMPTZ: _parse_timestamp, FLOAT4: _parse_float, FLOAT8: _parse_float,
    INT2: int, INT4: int, INT8: int, OID: int, BOOL: _parse_bool, JSON: json.loads,
    JSONB: json.loads,
}


def from_value(value, oid):
    """The Python value of a result cell whose column has type `oid`."""
    kind = value.WhichOneof("kind")
    if kind is None or kind == "null_value":
        return None
    if kind == "text_value":
        decode = _TEXT_DECODERS.get(oid)
        return decode(value.text_value) if decode else value.text_value
    if kind == "int_value":
        if oid == NUMERIC:
            return decimal.Decimal(value.int_value)
        if oid in (FLOAT4, FLOAT8):
            return float(value.int_value)
        return value.int_value
    if kind == "double_value":
        return value.double_value
    if kind == "bool_value":
        return value.bool_value
    return value.bytes_value
