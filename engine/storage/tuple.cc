// Tuple codec (format in README.md "Tuple format"): fixed 20-byte header with reserved MVCC
// timestamps, a null bitmap, then each non-NULL value in column order. Decoding checks every
// length against the remaining bytes and reports XX001, never reading past the input.
#include "storage/tuple.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <limits>

#include "storage/byte_codec.h"

namespace meridian::storage {
namespace {

constexpr size_t kTupleBeginTsOffset = 0;                   // u64 creator: commit ts or txn id
constexpr size_t kTupleEndTsOffset = 8;                     // u64 deleter / locker, 0 = none
constexpr size_t kTupleVersionOffset = 16;                  // u8 kTupleFormatVersion
constexpr size_t kTupleFlagsOffset = 17;                    // u8 kTupleFlag* bits
constexpr size_t kTupleColumnsOffset = 18;                  // u16 column count
constexpr size_t kTupleHeaderSize = kTupleFixedHeaderSize;  // null bitmap follows
constexpr uint8_t kTupleFormatVersion = 1;

// A stored numeric's mantissa is below 10^38 in magnitude (numeric.h); the arithmetic relies on
// it (negating the most negative __int128 overflows).
constexpr __int128 kNumericLimit = [] {
  __int128 v = 1;
  for (int i = 0; i < kNumericMaxDigits; ++i) v *= 10;
  return v;
}();

template <typename T>
T Load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

Status Malformed(const std::string& what) { return Status::Corruption("malformed tuple: " + what); }

// Appends the encoding of non-NULL v as a value of type t (README "Tuple format").
void EncodeValue(const Value& v, const Type& t, std::string* out);

// An array: u32 byte length of the rest, u32 element count, the elements' null bitmap, then
// each non-NULL element as a value of the element type.
void EncodeArray(const Value& v, const Type& t, std::string* out) {
  const size_t length_at = out->size();
  PutFixed<uint32_t>(out, 0);
  assert(v.IsArray());  // the binder casts every value to its column's array type
  static const std::vector<Value> kNone;
  const std::vector<Value>* elements = v.IsArray() ? &v.AsArray() : &kNone;
  const size_t n = elements->size();
  PutFixed<uint32_t>(out, static_cast<uint32_t>(n));
  const size_t bitmap_at = out->size();
  out->append((n + 7) / 8, '\0');
  const Type element = t.Element();
  for (size_t i = 0; i < n; ++i) {
    const Value& e = (*elements)[i];
    if (e.IsNull()) {
      (*out)[bitmap_at + i / 8] = static_cast<char>((*out)[bitmap_at + i / 8] | (1 << (i % 8)));
      continue;
    }
    EncodeValue(e, element, out);
  }
  const auto length = static_cast<uint32_t>(out->size() - length_at - 4);
  std::memcpy(out->data() + length_at, &length, 4);
}

void EncodeValue(const Value& v, const Type& t, std::string* out) {
  switch (t.id) {
    case TypeId::kBoolean:
      out->push_back(v.IsBool() ? static_cast<char>(v.AsBool()) : 1);
      break;
    case TypeId::kInteger: {
      int64_t x = v.IsInt() ? v.AsInt() : static_cast<int64_t>(v.AsNumber());
      assert(x >= std::numeric_limits<int32_t>::min() && x <= std::numeric_limits<int32_t>::max());
      PutFixed<int32_t>(out, static_cast<int32_t>(x));
      break;
    }
    case TypeId::kBigInt:
      PutFixed<int64_t>(out, v.IsInt() ? v.AsInt() : static_cast<int64_t>(v.AsNumber()));
      break;
    case TypeId::kDouble:
      PutFixed<double>(out, v.IsNumber() ? v.AsNumber() : 0.0);
      break;
    case TypeId::kSmallInt:
      PutFixed<int16_t>(out, static_cast<int16_t>(v.IsInt() ? v.AsInt() : 0));
      break;
    case TypeId::kReal:
      PutFixed<float>(out, v.IsReal() ? v.AsReal() : static_cast<float>(v.AsNumber()));
      break;
    case TypeId::kNumeric: {
      const Numeric n = v.IsDecimal() ? v.AsDecimal() : Numeric{};
      out->push_back(static_cast<char>(n.scale));
      PutFixed<__int128>(out, n.mantissa);
      break;
    }
    case TypeId::kDate:
      PutFixed<int32_t>(out, v.IsDate() ? v.AsDate().days : 0);
      break;
    case TypeId::kTimestamp:
      PutFixed<int64_t>(out, v.IsTimestamp() ? v.AsTimestamp().micros : 0);
      break;
    case TypeId::kTimestampTz:
      PutFixed<int64_t>(out, v.IsTimestampTz() ? v.AsTimestampTz().micros : 0);
      break;
    case TypeId::kTime:
      PutFixed<int64_t>(out, v.IsTime() ? v.AsTime().micros : 0);
      break;
    case TypeId::kInterval: {
      const Interval i = v.IsInterval() ? v.AsInterval() : Interval{};
      PutFixed<int64_t>(out, i.micros);
      PutFixed<int32_t>(out, i.days);
      PutFixed<int32_t>(out, i.months);
      break;
    }
    case TypeId::kUuid:
      if (v.IsUuid()) {
        out->append(reinterpret_cast<const char*>(v.AsUuid().bytes.data()), 16);
      } else {
        out->append(16, '\0');
      }
      break;
    case TypeId::kBytea: {
      const std::string& b = v.IsBytea() ? v.AsBytea() : v.AsString();
      PutFixed<uint32_t>(out, static_cast<uint32_t>(b.size()));
      out->append(b);
      break;
    }
    case TypeId::kArray:
      EncodeArray(v, t, out);
      break;
    case TypeId::kText:
    case TypeId::kVarchar:
    case TypeId::kChar:
    case TypeId::kJson:
    case TypeId::kJsonb:
    case TypeId::kPoint:
    case TypeId::kBox:
    case TypeId::kRecord:  // never a column type (catalog::CheckColumnType); kept as text
    case TypeId::kUnknown: {
      std::string s = v.IsString() ? v.AsString() : v.ToString();
      PutFixed<uint32_t>(out, static_cast<uint32_t>(s.size()));
      out->append(s);
      break;
    }
  }
}

}  // namespace

TupleHeader ReadTupleHeader(std::string_view bytes) {
  assert(bytes.size() >= kTupleHeaderSize);
  TupleHeader h;
  h.begin = Load<uint64_t>(bytes.data() + kTupleBeginTsOffset);
  h.end = Load<uint64_t>(bytes.data() + kTupleEndTsOffset);
  h.flags = static_cast<uint8_t>(bytes[kTupleFlagsOffset]);
  return h;
}

void WriteTupleHeader(char* tuple, const TupleHeader& header) {
  std::memcpy(tuple + kTupleBeginTsOffset, &header.begin, 8);
  std::memcpy(tuple + kTupleEndTsOffset, &header.end, 8);
  tuple[kTupleFlagsOffset] = static_cast<char>(header.flags);
}

std::string EncodeTuple(const Row& row, const std::vector<Type>& types) {
  assert(row.size() == types.size());
  const size_t n = std::min(row.size(), types.size());
  std::string out;
  out.reserve(kTupleHeaderSize + (n + 7) / 8 + n * 8);
  PutFixed<uint64_t>(&out, 0);  // begin timestamp
  PutFixed<uint64_t>(&out, 0);  // end timestamp
  out.push_back(static_cast<char>(kTupleFormatVersion));
  out.push_back(0);  // flags
  PutFixed<uint16_t>(&out, static_cast<uint16_t>(n));
  const size_t bitmap_at = out.size();
  out.append((n + 7) / 8, '\0');
  for (size_t i = 0; i < n; ++i) {
    const Value& v = row[i];
    if (v.IsNull()) {
      out[bitmap_at + i / 8] = static_cast<char>(out[bitmap_at + i / 8] | (1 << (i % 8)));
      continue;
    }
    EncodeValue(v, types[i], &out);
  }
  return out;
}

namespace {

// Decodes one non-NULL value of type t at bytes[*pos] and advances *pos past it (into *out
// when want); nullptr on success, else what is wrong (" truncated", ...). Never reads past
// bytes.
const char* DecodeValue(std::string_view bytes, size_t* pos, const Type& t, bool want, Value* out);

// An array (EncodeArray): its bytes must hold exactly its count's elements.
const char* DecodeArray(std::string_view bytes, size_t* pos, const Type& t, bool want, Value* out) {
  if (bytes.size() - *pos < 8) return " truncated";
  const uint32_t length = Load<uint32_t>(bytes.data() + *pos);
  if (length < 4 || bytes.size() - *pos - 4 < length) return " array length exceeds the tuple";
  const std::string_view body = bytes.substr(*pos + 4, length);
  *pos += 4 + static_cast<size_t>(length);
  if (!want) return nullptr;  // a skipped column: its length checked only
  const uint32_t n = Load<uint32_t>(body.data());
  const size_t bitmap_size = (static_cast<size_t>(n) + 7) / 8;
  if (body.size() - 4 < bitmap_size) return " array null bitmap truncated";
  const Type element = t.Element();
  if (element.id == TypeId::kArray || element.id == TypeId::kRecord ||
      element.id == TypeId::kUnknown) {
    return " has an array of an unstorable element type";
  }
  const char* bitmap = body.data() + 4;
  size_t at = 4 + bitmap_size;
  std::vector<Value> elements(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (bitmap[i / 8] & (1 << (i % 8))) continue;
    if (const char* error = DecodeValue(body, &at, element, true, &elements[i])) return error;
  }
  if (at != body.size()) return " array has trailing bytes";
  *out = Value::Array(std::move(elements));
  return nullptr;
}

const char* DecodeValue(std::string_view bytes, size_t* pos, const Type& t, bool want, Value* out) {
  const char* p = bytes.data();
  auto need = [&](size_t k) { return bytes.size() - *pos >= k; };
  switch (t.id) {
    case TypeId::kBoolean: {
      if (!need(1)) return " truncated";
      uint8_t b = static_cast<uint8_t>(p[*pos]);
      if (b > 1) return " has an invalid boolean";
      if (want) *out = Value::Bool(b == 1);
      *pos += 1;
      break;
    }
    case TypeId::kInteger:
      if (!need(4)) return " truncated";
      if (want) *out = Value::Int(Load<int32_t>(p + *pos));
      *pos += 4;
      break;
    case TypeId::kBigInt:
      if (!need(8)) return " truncated";
      if (want) *out = Value::Int(Load<int64_t>(p + *pos));
      *pos += 8;
      break;
    case TypeId::kDouble:
      if (!need(8)) return " truncated";
      if (want) *out = Value::Double(Load<double>(p + *pos));
      *pos += 8;
      break;
    case TypeId::kSmallInt:
      if (!need(2)) return " truncated";
      if (want) *out = Value::Int(Load<int16_t>(p + *pos));
      *pos += 2;
      break;
    case TypeId::kReal:
      if (!need(4)) return " truncated";
      if (want) *out = Value::Real(Load<float>(p + *pos));
      *pos += 4;
      break;
    case TypeId::kNumeric: {
      if (!need(17)) return " truncated";
      const int scale = static_cast<uint8_t>(p[*pos]);
      const __int128 m = Load<__int128>(p + *pos + 1);
      if (scale > kNumericMaxScale) return " has an invalid numeric scale";
      if (m >= kNumericLimit || m <= -kNumericLimit) return " has an out-of-range numeric";
      if (want) *out = Value::Decimal(Numeric{m, scale});
      *pos += 17;
      break;
    }
    case TypeId::kDate:
      if (!need(4)) return " truncated";
      if (want) *out = Value::DateVal(Date{Load<int32_t>(p + *pos)});
      *pos += 4;
      break;
    // A stored timestamp is finite and in PostgreSQL's range or one of the infinities, a time
    // of day within [00:00, 24:00]: other bytes are corruption, not a value the date/time
    // arithmetic could overflow on (tests/fuzz, fuzz_storage).
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      if (!need(8)) return " truncated";
      const auto micros = Load<int64_t>(p + *pos);
      if (datetime::IsFinite(Timestamp{micros}) && !datetime::CheckTimestampRange(micros).ok()) {
        return " has an out-of-range timestamp";
      }
      if (want) {
        *out = t.id == TypeId::kTimestamp ? Value::TimestampVal(Timestamp{micros})
                                          : Value::TimestampTzVal(TimestampTz{micros});
      }
      *pos += 8;
      break;
    }
    case TypeId::kTime: {
      if (!need(8)) return " truncated";
      const auto micros = Load<int64_t>(p + *pos);
      if (micros < 0 || micros > datetime::kMicrosPerDay) return " has an out-of-range time";
      if (want) *out = Value::TimeVal(TimeOfDay{micros});
      *pos += 8;
      break;
    }
    case TypeId::kInterval:
      if (!need(16)) return " truncated";
      if (want) {
        *out = Value::IntervalVal(Interval{Load<int32_t>(p + *pos + 12),
                                           Load<int32_t>(p + *pos + 8), Load<int64_t>(p + *pos)});
      }
      *pos += 16;
      break;
    case TypeId::kUuid:
      if (!need(16)) return " truncated";
      if (want) {
        Uuid u;
        std::memcpy(u.bytes.data(), p + *pos, 16);
        *out = Value::UuidVal(u);
      }
      *pos += 16;
      break;
    case TypeId::kArray:
      return DecodeArray(bytes, pos, t, want, out);
    case TypeId::kRecord:
      return " is a record (records are never stored)";
    case TypeId::kText:
    case TypeId::kVarchar:
    case TypeId::kChar:
    case TypeId::kBytea:
    case TypeId::kJson:
    case TypeId::kJsonb:
    case TypeId::kPoint:
    case TypeId::kBox:
    case TypeId::kUnknown: {
      if (!need(4)) return " truncated";
      const uint32_t len = Load<uint32_t>(p + *pos);
      *pos += 4;
      if (!need(len)) return " string length exceeds the tuple";
      if (want) {
        std::string s(p + *pos, len);
        *out = t.id == TypeId::kBytea ? Value::ByteaVal(std::move(s)) : Value::String(std::move(s));
      }
      *pos += len;
      break;
    }
  }
  return nullptr;
}

// allow_fewer: the tuple may hold a prefix of types (DecodeStoredTuple). needed (null = every
// column): columns outside it come out NULL, those before the last needed one checked for
// length only, those after it not read at all (nor the trailing bytes). Decodes in place:
// *row keeps its capacity (and, on an error, holds some of the columns).
Status Decode(std::string_view bytes, const std::vector<Type>& types, bool allow_fewer,
              const std::vector<bool>* needed, Row* row) {
  if (bytes.size() < kTupleHeaderSize) return Malformed("shorter than its header");
  const char* p = bytes.data();
  if (static_cast<uint8_t>(p[kTupleVersionOffset]) != kTupleFormatVersion) {
    return Malformed("unknown format version " +
                     std::to_string(static_cast<uint8_t>(p[kTupleVersionOffset])));
  }
  const size_t n = Load<uint16_t>(p + kTupleColumnsOffset);
  if (n > types.size() || (n < types.size() && !allow_fewer)) {
    return Malformed("has " + std::to_string(n) + " columns, expected " +
                     std::to_string(types.size()));
  }
  const size_t bitmap_size = (n + 7) / 8;
  if (bytes.size() - kTupleHeaderSize < bitmap_size) return Malformed("null bitmap truncated");
  const char* bitmap = p + kTupleHeaderSize;
  size_t pos = kTupleHeaderSize + bitmap_size;
  row->resize(n);
  size_t end = n;  // columns [end, n) are neither needed nor read
  if (needed != nullptr) {
    end = std::min(n, needed->size());
    while (end > 0 && !(*needed)[end - 1]) --end;
    for (size_t i = end; i < n; ++i) (*row)[i] = Value::Null();
  }
  for (size_t i = 0; i < end; ++i) {
    Value& out = (*row)[i];
    if (bitmap[i / 8] & (1 << (i % 8))) {
      out = Value::Null();
      continue;
    }
    auto bad = [i](const char* what) {
      return Malformed("column " + std::to_string(i + 1) + what);
    };
    const bool want = needed == nullptr || (*needed)[i];  // i < end <= needed->size()
    if (!want) out = Value::Null();
    if (const char* error = DecodeValue(bytes, &pos, types[i], want, &out)) return bad(error);
  }
  if (end == n && pos != bytes.size()) {
    return Malformed(std::to_string(bytes.size() - pos) + " trailing bytes");
  }
  return Status::Ok();
}

}  // namespace

Status DecodeTuple(std::string_view bytes, const std::vector<Type>& types, Row* row) {
  return Decode(bytes, types, false, nullptr, row);
}

Status DecodeStoredTuple(std::string_view bytes, const std::vector<Type>& types, Row* row,
                         const std::vector<bool>* needed) {
  return Decode(bytes, types, true, needed, row);
}

}  // namespace meridian::storage
