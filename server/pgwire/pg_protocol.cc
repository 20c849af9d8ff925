// Encoding and decoding of PostgreSQL protocol v3 messages; see pg_protocol.h. All integers on
// the wire are big-endian; a message is a type byte, an int32 length counting itself, the body.
#include "pg_protocol.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <vector>

#include "meridian/geometry.h"

namespace meridian::server::pgwire {

uint8_t MessageReader::Byte() {
  if (!ok_ || remaining() < 1) {
    ok_ = false;
    return 0;
  }
  return static_cast<uint8_t>(body_[pos_++]);
}

int16_t MessageReader::Int16() {
  if (!ok_ || remaining() < 2) {
    ok_ = false;
    return 0;
  }
  uint16_t v = static_cast<uint16_t>((static_cast<uint8_t>(body_[pos_]) << 8) |
                                     static_cast<uint8_t>(body_[pos_ + 1]));
  pos_ += 2;
  return static_cast<int16_t>(v);
}

int32_t MessageReader::Int32() {
  if (!ok_ || remaining() < 4) {
    ok_ = false;
    return 0;
  }
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(body_[pos_ + i]);
  pos_ += 4;
  return static_cast<int32_t>(v);
}

std::string_view MessageReader::CString() {
  if (!ok_) return {};
  size_t nul = body_.find('\0', pos_);
  if (nul == std::string_view::npos) {
    ok_ = false;
    return {};
  }
  std::string_view s = body_.substr(pos_, nul - pos_);
  pos_ = nul + 1;
  return s;
}

std::string_view MessageReader::Bytes(size_t n) {
  if (!ok_ || remaining() < n) {
    ok_ = false;
    return {};
  }
  std::string_view s = body_.substr(pos_, n);
  pos_ += n;
  return s;
}

MessageWriter& MessageWriter::Begin(char type) {
  out_->push_back(type);
  start_ = out_->size();
  out_->append(4, '\0');  // length, patched by End()
  return *this;
}

MessageWriter& MessageWriter::Byte(uint8_t b) {
  out_->push_back(static_cast<char>(b));
  return *this;
}

MessageWriter& MessageWriter::Int16(int16_t v) {
  auto u = static_cast<uint16_t>(v);
  out_->push_back(static_cast<char>(u >> 8));
  out_->push_back(static_cast<char>(u & 0xFF));
  return *this;
}

MessageWriter& MessageWriter::Int32(int32_t v) {
  auto u = static_cast<uint32_t>(v);
  for (int shift = 24; shift >= 0; shift -= 8)
    out_->push_back(static_cast<char>((u >> shift) & 0xFF));
  return *this;
}

MessageWriter& MessageWriter::CString(std::string_view s) {
  out_->append(s.data(), s.size());
  out_->push_back('\0');
  return *this;
}

MessageWriter& MessageWriter::Bytes(std::string_view s) {
  out_->append(s.data(), s.size());
  return *this;
}

void MessageWriter::End() {
  auto len = static_cast<uint32_t>(out_->size() - start_);
  for (int i = 0; i < 4; ++i) (*out_)[start_ + i] = static_cast<char>((len >> (24 - 8 * i)) & 0xFF);
}

void WriteAuthenticationOk(std::string* out) { MessageWriter(out).Begin('R').Int32(0).End(); }

void WriteParameterStatus(std::string* out, std::string_view name, std::string_view value) {
  MessageWriter(out).Begin('S').CString(name).CString(value).End();
}

void WriteBackendKeyData(std::string* out, int32_t pid, int32_t secret) {
  MessageWriter(out).Begin('K').Int32(pid).Int32(secret).End();
}

void WriteReadyForQuery(std::string* out, char status) {
  MessageWriter(out).Begin('Z').Byte(static_cast<uint8_t>(status)).End();
}

int16_t PgTypeLength(const Type& type) {
  switch (type.id) {
    case TypeId::kBoolean:
      return 1;
    case TypeId::kInteger:
      return 4;
    case TypeId::kBigInt:
      return 8;
    case TypeId::kDouble:
      return 8;
    case TypeId::kSmallInt:
      return 2;
    case TypeId::kReal:
    case TypeId::kDate:
      return 4;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTime:
      return 8;
    case TypeId::kInterval:
    case TypeId::kUuid:
    case TypeId::kPoint:
      return 16;
    case TypeId::kBox:
      return 32;
    case TypeId::kUnknown:
      return -2;  // PostgreSQL's unknown is a C string
    case TypeId::kText:
    case TypeId::kVarchar:
    case TypeId::kChar:
    case TypeId::kNumeric:
    case TypeId::kArray:
    case TypeId::kBytea:
    case TypeId::kJson:
    case TypeId::kJsonb:
    case TypeId::kRecord:
      return -1;
  }
  return -1;
}

int32_t PgTypeModifier(const Type& type) { return type.PgTypmod(); }

void WriteRowDescription(std::string* out, const std::vector<ColumnInfo>& columns,
                         const std::vector<int16_t>& formats) {
  MessageWriter w(out);
  w.Begin('T').Int16(static_cast<int16_t>(columns.size()));
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnInfo& c = columns[i];
    w.CString(c.name)
        .Int32(0)  // table OID: not a plain table column as far as the client knows
        .Int16(0)  // attribute number
        .Int32(static_cast<int32_t>(c.type.PgOid()))
        .Int16(PgTypeLength(c.type))
        .Int32(PgTypeModifier(c.type))
        .Int16(i < formats.size() ? formats[i] : kTextFormat);
  }
  w.End();
}

void WriteDataRow(std::string* out, const Row& row, const std::vector<ColumnInfo>& columns,
                  const std::vector<int16_t>& formats) {
  MessageWriter w(out);
  w.Begin('D').Int16(static_cast<int16_t>(row.size()));
  std::string cell;
  for (size_t i = 0; i < row.size(); ++i) {
    const Value& v = row[i];
    if (v.IsNull()) {
      w.Int32(-1);
      continue;
    }
    cell.clear();
    if (i < formats.size() && formats[i] == kBinaryFormat && i < columns.size()) {
      AppendBinaryValue(&cell, v, columns[i].type);
    } else if (v.IsString()) {
      w.Int32(static_cast<int32_t>(v.AsString().size())).Bytes(v.AsString());
      continue;
    } else if (i < columns.size() && columns[i].type.IsVector() && v.IsArray()) {
      for (const Value& e : v.AsArray()) cell += (cell.empty() ? "" : " ") + e.ToString();
    } else {
      cell = v.ToString();
    }
    w.Int32(static_cast<int32_t>(cell.size())).Bytes(cell);
  }
  w.End();
}

Result<std::vector<int16_t>> ResolveFormats(const std::vector<int16_t>& codes, size_t n,
                                            const char* what, const char* items) {
  if (codes.size() > 1 && codes.size() != n) {
    return Status::Error(sqlstate::kProtocolViolation,
                         "bind message has " + std::to_string(codes.size()) + " " + what +
                             " but query has " + std::to_string(n) + " " + items);
  }
  for (int16_t code : codes) {
    if (code != kTextFormat && code != kBinaryFormat) {
      return Status::Error(sqlstate::kInvalidParameterValue,
                           "unsupported format code: " + std::to_string(code));
    }
  }
  if (codes.empty()) return std::vector<int16_t>(n, kTextFormat);
  if (codes.size() == 1) return std::vector<int16_t>(n, codes[0]);
  return codes;
}

Result<Type> ParamTypeFromOid(uint32_t oid) {
  if (std::optional<Type> t = Type::FromParamOid(oid)) return *t;
  return Status::NotSupported("parameter type with OID " + std::to_string(oid) +
                              " is not supported");
}

namespace {
uint64_t BigEndian(std::string_view bytes) {
  uint64_t v = 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return v;
}
void AppendBigEndian(std::string* out, uint64_t v, int bytes) {
  for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>((v >> shift) & 0xFF));
  }
}
}  // namespace

namespace {

// PostgreSQL's binary numeric: int16 ndigits, int16 weight, int16 sign (0x0000 positive,
// 0x4000 negative), int16 dscale, then ndigits base-10000 digits; value = Σ digit[i] ×
// 10000^(weight - i).
void AppendBinaryNumeric(std::string* out, const Numeric& n) {
  std::string d = numeric::Digits(n);
  if (static_cast<int>(d.size()) <= n.scale) d.insert(0, n.scale + 1 - d.size(), '0');
  std::string int_part = d.substr(0, d.size() - static_cast<size_t>(n.scale));
  std::string frac = d.substr(d.size() - static_cast<size_t>(n.scale));
  int_part.insert(0, (4 - int_part.size() % 4) % 4, '0');
  frac.append((4 - frac.size() % 4) % 4, '0');
  std::vector<int> groups;
  const std::string all = int_part + frac;
  for (size_t i = 0; i < all.size(); i += 4) groups.push_back(std::stoi(all.substr(i, 4)));
  int weight = static_cast<int>(int_part.size() / 4) - 1;
  size_t first = 0;
  while (first < groups.size() && groups[first] == 0) {
    ++first;
    --weight;
  }
  size_t last = groups.size();
  while (last > first && groups[last - 1] == 0) --last;
  if (first == last) weight = 0;
  AppendBigEndian(out, static_cast<uint16_t>(last - first), 2);
  AppendBigEndian(out, static_cast<uint16_t>(static_cast<int16_t>(weight)), 2);
  AppendBigEndian(out, n.mantissa < 0 ? 0x4000 : 0x0000, 2);
  AppendBigEndian(out, static_cast<uint16_t>(n.scale), 2);
  for (size_t i = first; i < last; ++i) AppendBigEndian(out, static_cast<uint16_t>(groups[i]), 2);
}

Result<Numeric> DecodeBinaryNumeric(std::string_view bytes) {
  if (bytes.size() < 8)
    return Status::Error(sqlstate::kInvalidBinaryRepresentation,
                         "insufficient data left in message");
  const size_t ndigits = BigEndian(bytes.substr(0, 2));
  const int weight = static_cast<int16_t>(BigEndian(bytes.substr(2, 2)));
  const uint64_t sign = BigEndian(bytes.substr(4, 2));
  const int dscale = static_cast<int16_t>(BigEndian(bytes.substr(6, 2)));
  if (bytes.size() != 8 + 2 * ndigits || (sign != 0 && sign != 0x4000) || dscale < 0) {
    return Status::Error(sqlstate::kInvalidBinaryRepresentation,
                         "invalid numeric in binary format");
  }
  if (ndigits == 0) return numeric::Round(Numeric{}, dscale);
  std::string digits;
  for (size_t i = 0; i < ndigits; ++i) {
    const uint64_t g = BigEndian(bytes.substr(8 + 2 * i, 2));
    if (g > 9999)
      return Status::Error(sqlstate::kInvalidBinaryRepresentation,
                           "invalid digit in external \"numeric\" value");
    char buf[8];
    std::snprintf(buf, sizeof(buf), "%04u", static_cast<unsigned>(g));
    digits += buf;
  }
  // 0.digits × 10^(4 * (weight + 1)).
  MERIDIAN_ASSIGN_OR_RETURN(
      Numeric n, numeric::Parse(std::string(sign == 0x4000 ? "-0." : "0.") + digits + "e" +
                                std::to_string(4 * (weight + 1))));
  return numeric::Round(n, dscale);
}

}  // namespace

namespace {

// array_recv's input (the inverse of array_send in AppendBinaryValue): ndim (0 or 1 here),
// a has-nulls flag, the element type oid (must be t's element's), the length and lower bound
// of the one dimension, then each element as a length (-1 for NULL) and its binary form.
Result<Value> DecodeBinaryArray(std::string_view bytes, const Type& t, size_t index) {
  auto bad = [index]() {
    return Status::Error(
        sqlstate::kInvalidBinaryRepresentation,
        "incorrect binary data format in bind parameter " + std::to_string(index + 1));
  };
  size_t pos = 0;
  auto read32 = [&](uint32_t* v) {
    if (bytes.size() - pos < 4) return false;
    *v = static_cast<uint32_t>(BigEndian(bytes.substr(pos, 4)));
    pos += 4;
    return true;
  };
  uint32_t ndim = 0, flags = 0, oid = 0;
  if (!read32(&ndim) || !read32(&flags) || !read32(&oid)) return bad();
  if (ndim > 1) {
    return Status::NotSupported("multidimensional arrays are not supported yet (bind parameter " +
                                std::to_string(index + 1) + ")");
  }
  const Type element = t.Element();
  if (oid != element.PgOid()) {
    return Status::Error(
        sqlstate::kDatatypeMismatch,
        "wrong element type in binary array (bind parameter " + std::to_string(index + 1) + ")");
  }
  uint32_t count = 0, lower = 1;
  if (ndim == 1 && (!read32(&count) || !read32(&lower))) return bad();
  if (lower != 1) {
    return Status::NotSupported("array lower bounds other than 1 are not supported yet");
  }
  if (count > (bytes.size() - pos) / 4) return bad();  // each element takes at least 4 bytes
  std::vector<Value> elements;
  elements.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t len = 0;
    if (!read32(&len)) return bad();
    if (len == 0xFFFFFFFFu) {
      elements.push_back(Value::Null());
      continue;
    }
    if (bytes.size() - pos < len) return bad();
    MERIDIAN_ASSIGN_OR_RETURN(Value e, DecodeBinaryValue(bytes.substr(pos, len), element, index));
    pos += len;
    elements.push_back(std::move(e));
  }
  if (pos != bytes.size()) return bad();
  return Value::Array(std::move(elements));
}

}  // namespace

Result<Value> DecodeBinaryValue(std::string_view bytes, const Type& t, size_t index) {
  const size_t n = bytes.size();
  switch (t.id) {
    case TypeId::kBoolean:
      if (n == 1) return Value::Bool(bytes[0] != 0);
      break;
    case TypeId::kSmallInt:
      if (n == 2) return Value::Int(static_cast<int16_t>(BigEndian(bytes)));
      break;
    case TypeId::kReal:
      if (n == 4) return Value::Real(std::bit_cast<float>(static_cast<uint32_t>(BigEndian(bytes))));
      break;
    case TypeId::kNumeric: {
      Result<Numeric> num = DecodeBinaryNumeric(bytes);
      if (!num.ok()) return num.status();
      return Value::Decimal(*num);
    }
    case TypeId::kDate:
      if (n == 4) return Value::DateVal(Date{static_cast<int32_t>(BigEndian(bytes))});
      break;
    case TypeId::kTimestamp:
      if (n == 8) return Value::TimestampVal(Timestamp{static_cast<int64_t>(BigEndian(bytes))});
      break;
    case TypeId::kTimestampTz:
      if (n == 8) {
        return Value::TimestampTzVal(TimestampTz{static_cast<int64_t>(BigEndian(bytes))});
      }
      break;
    case TypeId::kTime:
      if (n == 8) return Value::TimeVal(TimeOfDay{static_cast<int64_t>(BigEndian(bytes))});
      break;
    case TypeId::kInterval:  // interval_send: int64 microseconds, int32 days, int32 months
      if (n == 16) {
        return Value::IntervalVal(Interval{static_cast<int32_t>(BigEndian(bytes.substr(12, 4))),
                                           static_cast<int32_t>(BigEndian(bytes.substr(8, 4))),
                                           static_cast<int64_t>(BigEndian(bytes.substr(0, 8)))});
      }
      break;
    case TypeId::kInteger:
    case TypeId::kBigInt:
      if (n == 2) return Value::Int(static_cast<int16_t>(BigEndian(bytes)));
      if (n == 4) return Value::Int(static_cast<int32_t>(BigEndian(bytes)));
      if (n == 8) return Value::Int(static_cast<int64_t>(BigEndian(bytes)));
      break;
    case TypeId::kDouble:
      if (n == 4) {
        return Value::Double(std::bit_cast<float>(static_cast<uint32_t>(BigEndian(bytes))));
      }
      if (n == 8) return Value::Double(std::bit_cast<double>(BigEndian(bytes)));
      break;
    case TypeId::kUuid:  // uuid_send: the 16 bytes
      if (n == 16) {
        Uuid u;
        std::memcpy(u.bytes.data(), bytes.data(), 16);
        return Value::UuidVal(u);
      }
      break;
    case TypeId::kBytea:  // bytea_send: the bytes themselves
      return Value::ByteaVal(std::string(bytes));
    case TypeId::kPoint:  // point_send: x, y as float8
    case TypeId::kBox:    // box_send: high.x, high.y, low.x, low.y
      if (n == (t.id == TypeId::kPoint ? 16u : 32u)) {
        double d[4];
        for (size_t i = 0; i < n / 8; ++i) {
          d[i] = std::bit_cast<double>(BigEndian(bytes.substr(8 * i, 8)));
        }
        if (t.id == TypeId::kPoint) return Value::String(geo::FormatPoint({d[0], d[1]}));
        return Value::String(geo::FormatBox(geo::MakeBox({d[0], d[1]}, {d[2], d[3]})));
      }
      break;
    case TypeId::kJsonb:  // jsonb_send: version 1, then the text (the engine parses it)
      if (n >= 1 && bytes[0] == 1) return Value::String(std::string(bytes.substr(1)));
      if (n >= 1)
        return Status::Error(
            sqlstate::kInternalError,
            "unsupported jsonb version number " + std::to_string(static_cast<int>(bytes[0])));
      break;
    case TypeId::kJson:  // json_send: the text
    case TypeId::kText:
    case TypeId::kVarchar:
    case TypeId::kChar:
    case TypeId::kUnknown:
      return Value::String(std::string(bytes));
    case TypeId::kArray:
      return DecodeBinaryArray(bytes, t, index);
    case TypeId::kRecord:
      return Status::NotSupported(
          "binary record parameters are not supported yet (bind parameter " +
          std::to_string(index + 1) + ")");
  }
  return Status::Error(
      sqlstate::kInvalidBinaryRepresentation,
      "incorrect binary data format in bind parameter " + std::to_string(index + 1));
}

void AppendBinaryValue(std::string* out, const Value& v, const Type& t) {
  if (v.IsBool()) {
    out->push_back(v.AsBool() ? 1 : 0);
  } else if (v.IsInt() && t.id == TypeId::kSmallInt) {
    AppendBigEndian(out, static_cast<uint16_t>(static_cast<int16_t>(v.AsInt())), 2);
  } else if (v.IsInt() && t.id == TypeId::kInteger) {
    AppendBigEndian(out, static_cast<uint32_t>(static_cast<int32_t>(v.AsInt())), 4);
  } else if (v.IsInt()) {
    AppendBigEndian(out, static_cast<uint64_t>(v.AsInt()), 8);
  } else if (v.IsDouble()) {
    AppendBigEndian(out, std::bit_cast<uint64_t>(v.AsDouble()), 8);
  } else if (v.IsReal()) {
    AppendBigEndian(out, std::bit_cast<uint32_t>(v.AsReal()), 4);
  } else if (v.IsDecimal()) {
    AppendBinaryNumeric(out, v.AsDecimal());
  } else if (v.IsDate()) {
    AppendBigEndian(out, static_cast<uint32_t>(v.AsDate().days), 4);
  } else if (v.IsTimestamp()) {
    AppendBigEndian(out, static_cast<uint64_t>(v.AsTimestamp().micros), 8);
  } else if (v.IsTimestampTz()) {
    AppendBigEndian(out, static_cast<uint64_t>(v.AsTimestampTz().micros), 8);
  } else if (v.IsTime()) {
    AppendBigEndian(out, static_cast<uint64_t>(v.AsTime().micros), 8);
  } else if (v.IsInterval()) {
    const Interval i = v.AsInterval();
    AppendBigEndian(out, static_cast<uint64_t>(i.micros), 8);
    AppendBigEndian(out, static_cast<uint32_t>(i.days), 4);
    AppendBigEndian(out, static_cast<uint32_t>(i.months), 4);
  } else if (v.IsUuid()) {
    out->append(reinterpret_cast<const char*>(v.AsUuid().bytes.data()), 16);
  } else if (v.IsBytea()) {
    out->append(v.AsBytea());
  } else if (t.IsGeometric() && v.IsString()) {  // point_send / box_send: float8s
    double d[4];
    size_t count = 2;
    if (t.id == TypeId::kPoint) {
      const geo::Point p = geo::PointOf(v.AsString());
      d[0] = p.x;
      d[1] = p.y;
    } else {
      const geo::Box b = geo::BoxOf(v.AsString());
      d[0] = b.high.x;
      d[1] = b.high.y;
      d[2] = b.low.x;
      d[3] = b.low.y;
      count = 4;
    }
    for (size_t i = 0; i < count; ++i) AppendBigEndian(out, std::bit_cast<uint64_t>(d[i]), 8);
  } else if (t.id == TypeId::kJsonb && v.IsString()) {  // jsonb_send: version 1, the text
    out->push_back(1);
    out->append(v.AsString());
  } else if (v.IsArray()) {
    // array_send: ndim (0 when empty), has-nulls flag, element type oid, then per dimension
    // its length and lower bound (1), then each element as a length (-1 for NULL) and bytes.
    const std::vector<Value>& elements = v.AsArray();
    const Type element = t.Element();
    bool has_null = false;
    for (const Value& e : elements) has_null = has_null || e.IsNull();
    AppendBigEndian(out, elements.empty() ? 0u : 1u, 4);
    AppendBigEndian(out, has_null ? 1u : 0u, 4);
    AppendBigEndian(out, element.PgOid(), 4);
    if (!elements.empty()) {
      AppendBigEndian(out, static_cast<uint32_t>(elements.size()), 4);
      AppendBigEndian(out, 1u, 4);
    }
    for (const Value& e : elements) {
      if (e.IsNull()) {
        AppendBigEndian(out, 0xFFFFFFFFu, 4);
        continue;
      }
      std::string bytes;
      AppendBinaryValue(&bytes, e, element);
      AppendBigEndian(out, static_cast<uint32_t>(bytes.size()), 4);
      out->append(bytes);
    }
  } else if (v.IsRecord()) {
    // record_send: the field count, then each field's type oid, length (-1 for NULL) and bytes.
    const RecordValue& r = v.AsRecord();
    AppendBigEndian(out, static_cast<uint32_t>(r.fields.size()), 4);
    for (size_t i = 0; i < r.fields.size(); ++i) {
      const Type& ft = r.shape->types[i];
      AppendBigEndian(out, ft.PgOid(), 4);
      if (r.fields[i].IsNull()) {
        AppendBigEndian(out, 0xFFFFFFFFu, 4);
        continue;
      }
      std::string bytes;
      AppendBinaryValue(&bytes, r.fields[i], ft);
      AppendBigEndian(out, static_cast<uint32_t>(bytes.size()), 4);
      out->append(bytes);
    }
  } else {
    out->append(v.ToString());
  }
}

void WriteCommandComplete(std::string* out, std::string_view tag) {
  MessageWriter(out).Begin('C').CString(tag).End();
}

void WriteEmptyQueryResponse(std::string* out) { MessageWriter(out).Begin('I').End(); }

namespace {

void WriteCopyResponse(std::string* out, char type, size_t columns) {
  MessageWriter w(out);
  w.Begin(type).Byte(0).Int16(static_cast<int16_t>(columns));  // overall format: text
  for (size_t i = 0; i < columns; ++i) w.Int16(kTextFormat);
  w.End();
}

}  // namespace

void WriteCopyInResponse(std::string* out, size_t columns) { WriteCopyResponse(out, 'G', columns); }
void WriteCopyOutResponse(std::string* out, size_t columns) {
  WriteCopyResponse(out, 'H', columns);
}
void WriteCopyData(std::string* out, std::string_view data) {
  MessageWriter(out).Begin('d').Bytes(data).End();
}
void WriteCopyDone(std::string* out) { MessageWriter(out).Begin('c').End(); }
void WriteNoData(std::string* out) { MessageWriter(out).Begin('n').End(); }
void WriteParseComplete(std::string* out) { MessageWriter(out).Begin('1').End(); }
void WriteBindComplete(std::string* out) { MessageWriter(out).Begin('2').End(); }
void WriteCloseComplete(std::string* out) { MessageWriter(out).Begin('3').End(); }
void WritePortalSuspended(std::string* out) { MessageWriter(out).Begin('s').End(); }

void WriteParameterDescription(std::string* out, const std::vector<uint32_t>& oids) {
  MessageWriter w(out);
  w.Begin('t').Int16(static_cast<int16_t>(oids.size()));
  for (uint32_t oid : oids) w.Int32(static_cast<int32_t>(oid));
  w.End();
}

void WriteErrorResponse(std::string* out, const Status& status, const char* severity) {
  const ErrorInfo& e = status.error();
  MessageWriter w(out);
  w.Begin('E');
  w.Byte('S').CString(severity);
  w.Byte('V').CString(severity);
  w.Byte('C').CString(e.sqlstate.empty() ? sqlstate::kInternalError : e.sqlstate);
  w.Byte('M').CString(e.message);
  if (!e.detail.empty()) w.Byte('D').CString(e.detail);
  if (!e.hint.empty()) w.Byte('H').CString(e.hint);
  if (e.position != 0) w.Byte('P').CString(std::to_string(e.position));
  if (!e.context.empty()) w.Byte('W').CString(e.context);
  w.Byte(0);
  w.End();
}

void WriteNoticeResponse(std::string* out, std::string_view message, std::string_view sqlstate) {
  const char* severity = sqlstate.empty() ? "NOTICE" : "WARNING";
  MessageWriter w(out);
  w.Begin('N');
  w.Byte('S').CString(severity);
  w.Byte('V').CString(severity);
  w.Byte('C').CString(sqlstate.empty() ? std::string_view(sqlstate::kSuccessfulCompletion)
                                       : sqlstate);
  w.Byte('M').CString(message);
  w.Byte(0);
  w.End();
}

std::optional<std::vector<std::pair<std::string, std::string>>> ParseStartupParameters(
    MessageReader& reader) {
  std::vector<std::pair<std::string, std::string>> params;
  while (true) {
    std::string_view name = reader.CString();
    if (!reader.ok()) return std::nullopt;
    if (name.empty()) break;
    std::string_view value = reader.CString();
    if (!reader.ok()) return std::nullopt;
    params.emplace_back(std::string(name), std::string(value));
  }
  if (!reader.AtEnd()) return std::nullopt;
  return params;
}

// ---- Authentication requests -------------------------------------------------------------

namespace {
// AuthenticationRequest codes ('R' messages).
constexpr int32_t kAuthCleartextPassword = 3;
constexpr int32_t kAuthSasl = 10;
constexpr int32_t kAuthSaslContinue = 11;
constexpr int32_t kAuthSaslFinal = 12;
}  // namespace

void WriteAuthenticationCleartextPassword(std::string* out) {
  MessageWriter(out).Begin('R').Int32(kAuthCleartextPassword).End();
}

void WriteAuthenticationSasl(std::string* out, const std::vector<std::string>& mechanisms) {
  MessageWriter w(out);
  w.Begin('R').Int32(kAuthSasl);
  for (const auto& m : mechanisms) w.CString(m);
  w.Byte(0);
  w.End();
}

void WriteAuthenticationSaslContinue(std::string* out, std::string_view data) {
  MessageWriter(out).Begin('R').Int32(kAuthSaslContinue).Bytes(data).End();
}

void WriteAuthenticationSaslFinal(std::string* out, std::string_view data) {
  MessageWriter(out).Begin('R').Int32(kAuthSaslFinal).Bytes(data).End();
}

// ---- Decoding ----------------------------------------------------------------------------

namespace {

Status Malformed(std::string message) {
  return Status::Error(sqlstate::kProtocolViolation, std::move(message));
}

uint32_t BigEndian32(std::string_view p) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

}  // namespace

Result<Frame> DecodeFrame(std::string_view input, bool startup) {
  const size_t header = startup ? 4 : 5;
  Frame frame;
  if (input.size() < header) {
    frame.size = header;
    return frame;
  }
  uint32_t len = BigEndian32(input.substr(header - 4, 4));
  if (startup) {
    // The smallest startup-phase packet is a length and a request code.
    if (len < 8 || len > kMaxStartupLength) return Malformed("invalid length of startup packet");
  } else if (len < 4 || len > kMaxMessageLength) {
    return Malformed("invalid message length");
  }
  size_t total = header - 4 + size_t{len};
  frame.size = total;
  if (input.size() < total) return frame;
  frame.complete = true;
  frame.type = startup ? 0 : input[0];
  frame.body = input.substr(header, total - header);
  return frame;
}

Result<StartupPacket> DecodeStartupPacket(std::string_view body) {
  MessageReader reader(body);
  auto code = static_cast<uint32_t>(reader.Int32());
  if (!reader.ok()) return Malformed("invalid length of startup packet");
  StartupPacket packet;
  if (code == kSslRequestCode || code == kGssEncRequestCode) {
    if (!reader.AtEnd()) return Malformed("invalid length of SSL or GSS encryption request");
    packet.kind = code == kSslRequestCode ? StartupPacket::Kind::kSslRequest
                                          : StartupPacket::Kind::kGssEncRequest;
    return packet;
  }
  if (code == kCancelRequestCode) {
    packet.kind = StartupPacket::Kind::kCancelRequest;
    packet.cancel_pid = reader.Int32();
    packet.cancel_secret = reader.Int32();
    if (!reader.ok() || !reader.AtEnd()) return Malformed("invalid length of cancel request");
    return packet;
  }
  if (code >> 16 != 3 || (code & 0xFFFF) != 0) {
    std::string msg = "unsupported frontend protocol ";
    msg.append(std::to_string(code >> 16)).append(".").append(std::to_string(code & 0xFFFF));
    msg.append(": server supports 3.0 to 3.0");
    return Status::NotSupported(msg);
  }
  auto params = ParseStartupParameters(reader);
  if (!params) return Malformed("invalid startup packet layout: expected terminator as last byte");
  for (const auto& [name, value] : *params) {
    if (name == "user") packet.user = value;
    if (name == "database") packet.database = value;
    if (name == "application_name") packet.application_name = value;
  }
  packet.parameters = std::move(*params);
  if (packet.user.empty()) {
    return Status::Error(sqlstate::kInvalidAuthorizationSpecification,
                         "no PostgreSQL user name specified in startup packet");
  }
  if (packet.database.empty()) packet.database = packet.user;
  return packet;
}

Result<std::string_view> DecodeQuery(std::string_view body) {
  MessageReader reader(body);
  std::string_view sql = reader.CString();
  if (!reader.ok() || !reader.AtEnd()) return Malformed("invalid Query message format");
  return sql;
}

Result<std::string_view> DecodeCopyFail(std::string_view body) {
  MessageReader reader(body);
  std::string_view reason = reader.CString();
  if (!reader.ok() || !reader.AtEnd()) return Malformed("invalid CopyFail message format");
  return reason;
}

Result<ParseMessage> DecodeParse(std::string_view body) {
  MessageReader reader(body);
  ParseMessage m;
  m.statement = reader.CString();
  m.sql = reader.CString();
  int16_t n = reader.Int16();
  // Each type takes 4 bytes: a count the body cannot hold is rejected before any allocation.
  if (!reader.ok() || n < 0 || reader.remaining() != 4 * static_cast<size_t>(n)) {
    return Malformed("invalid Parse message format");
  }
  m.parameter_types.reserve(static_cast<size_t>(n));
  for (int16_t i = 0; i < n; ++i)
    m.parameter_types.push_back(static_cast<uint32_t>(reader.Int32()));
  return m;
}

Result<BindMessage> DecodeBind(std::string_view body) {
  MessageReader reader(body);
  BindMessage m;
  m.portal = reader.CString();
  m.statement = reader.CString();
  int16_t nformats = reader.Int16();
  if (!reader.ok() || nformats < 0 || reader.remaining() < 2 * static_cast<size_t>(nformats)) {
    return Malformed("invalid Bind message format");
  }
  for (int16_t i = 0; i < nformats; ++i) m.parameter_formats.push_back(reader.Int16());
  int16_t nparams = reader.Int16();
  // Each parameter takes at least its 4-byte length.
  if (!reader.ok() || nparams < 0 || reader.remaining() < 4 * static_cast<size_t>(nparams)) {
    return Malformed("invalid Bind message format");
  }
  if (nformats > 1 && nformats != nparams) {
    return Malformed("bind message has " + std::to_string(nformats) + " parameter formats but " +
                     std::to_string(nparams) + " parameters");
  }
  m.parameters.reserve(static_cast<size_t>(nparams));
  for (int16_t i = 0; i < nparams && reader.ok(); ++i) {
    int32_t len = reader.Int32();
    if (len == -1) {
      m.parameters.emplace_back(std::nullopt);
    } else if (len < -1) {
      return Malformed("invalid Bind message format");
    } else {
      m.parameters.emplace_back(reader.Bytes(static_cast<size_t>(len)));
    }
  }
  int16_t nresults = reader.Int16();
  if (!reader.ok() || nresults < 0 || reader.remaining() != 2 * static_cast<size_t>(nresults)) {
    return Malformed("invalid Bind message format");
  }
  for (int16_t i = 0; i < nresults; ++i) m.result_formats.push_back(reader.Int16());
  return m;
}

namespace {
Result<TargetMessage> DecodeTarget(std::string_view body, const char* what) {
  MessageReader reader(body);
  TargetMessage m;
  m.kind = static_cast<char>(reader.Byte());
  m.name = reader.CString();
  if (!reader.ok() || !reader.AtEnd() || (m.kind != 'S' && m.kind != 'P')) {
    return Malformed(std::string("invalid ") + what + " message format");
  }
  return m;
}
}  // namespace

Result<TargetMessage> DecodeDescribe(std::string_view body) {
  return DecodeTarget(body, "Describe");
}

Result<TargetMessage> DecodeClose(std::string_view body) { return DecodeTarget(body, "Close"); }

Result<ExecuteMessage> DecodeExecute(std::string_view body) {
  MessageReader reader(body);
  ExecuteMessage m;
  m.portal = reader.CString();
  m.max_rows = reader.Int32();
  if (!reader.ok() || !reader.AtEnd()) return Malformed("invalid Execute message format");
  return m;
}

Result<std::string_view> DecodePasswordMessage(std::string_view body) {
  MessageReader reader(body);
  std::string_view password = reader.CString();
  if (!reader.ok() || !reader.AtEnd()) return Malformed("invalid password packet size");
  return password;
}

Result<SaslInitialResponse> DecodeSaslInitialResponse(std::string_view body) {
  MessageReader reader(body);
  SaslInitialResponse m;
  m.mechanism = reader.CString();
  int32_t len = reader.Int32();
  if (!reader.ok() || len < -1) return Malformed("invalid SASLInitialResponse message format");
  if (len >= 0) m.data = reader.Bytes(static_cast<size_t>(len));
  if (!reader.ok() || !reader.AtEnd()) {
    return Malformed("invalid SASLInitialResponse message format");
  }
  return m;
}

}  // namespace meridian::server::pgwire
