// Key codec: tag byte per column, then a payload whose memcmp order matches SQL order.
// Integers: big-endian with the sign bit flipped. Doubles: -0 folded to 0, NaN canonical, then
// positive values get the sign bit set and negative values all bits inverted. Strings: 0x00 is
// escaped as 00 FF and the value ends with 00 00, so a prefix sorts before its extensions.
#include "storage/key_codec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace meridian::storage {
namespace {

constexpr uint64_t kSignBit = uint64_t{1} << 63;

void PutByte(uint8_t b, bool desc, std::string* out) {
  out->push_back(static_cast<char>(desc ? static_cast<uint8_t>(~b) : b));
}

void PutBig64(uint64_t v, bool desc, std::string* out) {
  for (int shift = 56; shift >= 0; shift -= 8) PutByte(static_cast<uint8_t>(v >> shift), desc, out);
}

uint64_t DoubleToKey(double d) {
  if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
  if (d == 0.0) d = 0.0;  // folds -0.0 into +0.0
  uint64_t bits = std::bit_cast<uint64_t>(d);
  if (std::isnan(d)) bits &= ~kSignBit;  // canonical positive NaN sorts above +Infinity
  return (bits & kSignBit) ? ~bits : (bits | kSignBit);
}

double KeyToDouble(uint64_t k) {
  uint64_t bits = (k & kSignBit) ? (k & ~kSignBit) : ~k;
  return std::bit_cast<double>(bits);
}

// Reads bytes of one key, undoing the DESC inversion.
class KeyReader {
 public:
  KeyReader(std::string_view key, bool desc) : key_(key), desc_(desc) {}
  bool AtEnd() const { return pos_ >= key_.size(); }
  size_t pos() const { return pos_; }
  bool Byte(uint8_t* b) {
    if (pos_ >= key_.size()) return false;
    uint8_t raw = static_cast<uint8_t>(key_[pos_++]);
    *b = desc_ ? static_cast<uint8_t>(~raw) : raw;
    return true;
  }
  bool Big64(uint64_t* v) {
    *v = 0;
    for (int i = 0; i < 8; ++i) {
      uint8_t b;
      if (!Byte(&b)) return false;
      *v = (*v << 8) | b;
    }
    return true;
  }
  void set_desc(bool desc) { desc_ = desc; }

 private:
  std::string_view key_;
  bool desc_;
  size_t pos_ = 0;
};

// NUMERIC: a class byte (0x7F negative, 0x80 zero, 0x81 positive); for non-zero values the
// decimal exponent E of 0.d1d2... × 10^E as a byte E + 128, then the significant digits
// (trailing zeros dropped) in pairs, each pair p as byte p + 1, then a 0x00 terminator.
// Negative values invert the exponent and digit bytes and end with 0xFF, so larger magnitudes
// sort first. Equal values (1.5, 1.50) encode equally.
constexpr uint8_t kNumNegative = 0x7F, kNumZero = 0x80, kNumPositive = 0x81;

void PutNumeric(const Numeric& n, bool desc, std::string* out) {
  const int sign = numeric::Sign(n);
  if (sign == 0) {
    PutByte(kNumZero, desc, out);
    return;
  }
  std::string d = numeric::Digits(n);
  const int exponent = static_cast<int>(d.size()) - n.scale;
  while (d.back() == '0') d.pop_back();
  if (d.size() % 2 != 0) d.push_back('0');
  const bool neg = sign < 0;
  auto put = [&](uint8_t b) { PutByte(neg ? static_cast<uint8_t>(~b) : b, desc, out); };
  PutByte(neg ? kNumNegative : kNumPositive, desc, out);
  put(static_cast<uint8_t>(exponent + 128));
  for (size_t i = 0; i < d.size(); i += 2) {
    put(static_cast<uint8_t>((d[i] - '0') * 10 + (d[i + 1] - '0') + 1));
  }
  put(0x00);
}

Status Malformed(size_t pos) {
  std::string msg = "malformed index key at byte ";
  msg.append(std::to_string(pos));
  return Status::Corruption(std::move(msg));
}

}  // namespace

void AppendKeyValue(const Value& value, bool descending, std::string* out) {
  if (value.IsNull()) {
    PutByte(kKeyTagNull, descending, out);
  } else if (value.IsBool()) {
    PutByte(kKeyTagBool, descending, out);
    PutByte(value.AsBool() ? 1 : 0, descending, out);
  } else if (value.IsInt()) {
    PutByte(kKeyTagInt, descending, out);
    PutBig64(static_cast<uint64_t>(value.AsInt()) ^ kSignBit, descending, out);
  } else if (value.IsDouble()) {
    PutByte(kKeyTagDouble, descending, out);
    PutBig64(DoubleToKey(value.AsDouble()), descending, out);
  } else if (value.IsReal()) {
    PutByte(kKeyTagReal, descending, out);
    PutBig64(DoubleToKey(static_cast<double>(value.AsReal())), descending, out);
  } else if (value.IsDecimal()) {
    PutByte(kKeyTagNumeric, descending, out);
    PutNumeric(value.AsDecimal(), descending, out);
  } else if (value.IsDate()) {
    PutByte(kKeyTagDate, descending, out);
    const uint32_t v = static_cast<uint32_t>(value.AsDate().days) ^ 0x80000000u;
    for (int shift = 24; shift >= 0; shift -= 8) {
      PutByte(static_cast<uint8_t>(v >> shift), descending, out);
    }
  } else if (value.IsTimestamp()) {
    PutByte(kKeyTagTimestamp, descending, out);
    PutBig64(static_cast<uint64_t>(value.AsTimestamp().micros) ^ kSignBit, descending, out);
  } else if (value.IsTimestampTz()) {
    PutByte(kKeyTagTimestampTz, descending, out);
    PutBig64(static_cast<uint64_t>(value.AsTimestampTz().micros) ^ kSignBit, descending, out);
  } else if (value.IsTime()) {
    PutByte(kKeyTagTime, descending, out);
    PutBig64(static_cast<uint64_t>(value.AsTime().micros) ^ kSignBit, descending, out);
  } else if (value.IsInterval()) {
    const Interval i = value.AsInterval();
    const auto span = static_cast<unsigned __int128>(datetime::IntervalSpan(i));
    PutByte(kKeyTagInterval, descending, out);
    PutBig64(static_cast<uint64_t>(span >> 64) ^ kSignBit, descending, out);
    PutBig64(static_cast<uint64_t>(span), descending, out);
    PutBig64(static_cast<uint64_t>(i.micros) ^ kSignBit, descending, out);
    PutBig64(static_cast<uint64_t>(static_cast<int64_t>(i.days)) ^ kSignBit, descending, out);
    PutBig64(static_cast<uint64_t>(static_cast<int64_t>(i.months)) ^ kSignBit, descending, out);
  } else if (value.IsUuid()) {
    PutByte(kKeyTagUuid, descending, out);
    for (uint8_t b : value.AsUuid().bytes) PutByte(b, descending, out);
  } else if (value.IsArray()) {
    // array_cmp's order: element by element (a NULL element above every value), then the
    // shorter first. Element keys are self-delimiting, so the byte after one decides.
    PutByte(kKeyTagArray, descending, out);
    for (const Value& e : value.AsArray()) {
      if (e.IsNull()) {
        PutByte(kKeyArrayNull, descending, out);
        continue;
      }
      PutByte(kKeyArrayElement, descending, out);
      AppendKeyValue(e, descending, out);
    }
    PutByte(kKeyArrayEnd, descending, out);
  } else {
    const bool bytea = value.IsBytea();
    PutByte(bytea ? kKeyTagBytea : kKeyTagString, descending, out);
    for (char c : bytea ? value.AsBytea() : value.AsString()) {
      PutByte(static_cast<uint8_t>(c), descending, out);
      if (c == '\0') PutByte(0xFF, descending, out);
    }
    PutByte(0x00, descending, out);
    PutByte(0x00, descending, out);
  }
}

std::string EncodeKey(const std::vector<Value>& values, const std::vector<bool>& descending) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    AppendKeyValue(values[i], i < descending.size() && descending[i], &out);
  }
  return out;
}

namespace {

// Decodes values from in until the key ends or *values holds limit of them. nested: the
// elements of an array, read in the array column's direction (already set on in).
Status DecodeValues(KeyReader& in, const std::vector<bool>& descending, size_t limit, bool nested,
                    std::vector<Value>* values) {
  while (!in.AtEnd() && values->size() < limit) {
    size_t column = values->size();
    if (!nested) in.set_desc(column < descending.size() && descending[column]);
    size_t start = in.pos();
    uint8_t tag;
    if (!in.Byte(&tag)) return Malformed(start);
    switch (tag) {
      case kKeyTagNull:
        values->push_back(Value::Null());
        break;
      case kKeyTagBool: {
        uint8_t b;
        if (!in.Byte(&b) || b > 1) return Malformed(start);
        values->push_back(Value::Bool(b == 1));
        break;
      }
      case kKeyTagInt: {
        uint64_t v;
        if (!in.Big64(&v)) return Malformed(start);
        values->push_back(Value::Int(static_cast<int64_t>(v ^ kSignBit)));
        break;
      }
      case kKeyTagDouble: {
        uint64_t v;
        if (!in.Big64(&v)) return Malformed(start);
        values->push_back(Value::Double(KeyToDouble(v)));
        break;
      }
      case kKeyTagReal: {
        uint64_t v;
        if (!in.Big64(&v)) return Malformed(start);
        values->push_back(Value::Real(static_cast<float>(KeyToDouble(v))));
        break;
      }
      case kKeyTagDate: {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
          uint8_t b;
          if (!in.Byte(&b)) return Malformed(start);
          v = (v << 8) | b;
        }
        values->push_back(Value::DateVal(Date{static_cast<int32_t>(v ^ 0x80000000u)}));
        break;
      }
      case kKeyTagTimestamp: {
        uint64_t v;
        if (!in.Big64(&v)) return Malformed(start);
        values->push_back(Value::TimestampVal(Timestamp{static_cast<int64_t>(v ^ kSignBit)}));
        break;
      }
      case kKeyTagTimestampTz: {
        uint64_t v;
        if (!in.Big64(&v)) return Malformed(start);
        values->push_back(Value::TimestampTzVal(TimestampTz{static_cast<int64_t>(v ^ kSignBit)}));
        break;
      }
      case kKeyTagTime: {
        uint64_t v;
        if (!in.Big64(&v)) return Malformed(start);
        values->push_back(Value::TimeVal(TimeOfDay{static_cast<int64_t>(v ^ kSignBit)}));
        break;
      }
      case kKeyTagInterval: {
        uint64_t hi, lo, micros, days, months;
        if (!in.Big64(&hi) || !in.Big64(&lo) || !in.Big64(&micros) || !in.Big64(&days) ||
            !in.Big64(&months)) {
          return Malformed(start);
        }
        values->push_back(Value::IntervalVal(
            Interval{static_cast<int32_t>(static_cast<int64_t>(months ^ kSignBit)),
                     static_cast<int32_t>(static_cast<int64_t>(days ^ kSignBit)),
                     static_cast<int64_t>(micros ^ kSignBit)}));
        break;
      }
      case kKeyTagNumeric: {
        uint8_t cls;
        if (!in.Byte(&cls)) return Malformed(start);
        if (cls == kNumZero) {
          values->push_back(Value::Decimal(Numeric{}));
          break;
        }
        if (cls != kNumNegative && cls != kNumPositive) return Malformed(start);
        const bool neg = cls == kNumNegative;
        auto get = [&](uint8_t* b) {
          if (!in.Byte(b)) return false;
          if (neg) *b = static_cast<uint8_t>(~*b);
          return true;
        };
        uint8_t e;
        if (!get(&e)) return Malformed(start);
        const int exponent = static_cast<int>(e) - 128;
        std::string digits;
        while (true) {
          uint8_t b;
          if (!get(&b)) return Malformed(start);
          if (b == 0) break;
          if (b > 100 || digits.size() >= 2 * kNumericMaxDigits) return Malformed(start);
          digits.push_back(static_cast<char>('0' + (b - 1) / 10));
          digits.push_back(static_cast<char>('0' + (b - 1) % 10));
        }
        while (!digits.empty() && digits.back() == '0') digits.pop_back();
        if (digits.empty()) return Malformed(start);
        // 0.digits × 10^exponent, read back with its smallest scale.
        Result<Numeric> n =
            numeric::Parse((neg ? "-0." : "0.") + digits + "e" + std::to_string(exponent));
        if (!n.ok()) return Malformed(start);
        values->push_back(Value::Decimal(*n));
        break;
      }
      case kKeyTagUuid: {
        Uuid u;
        for (uint8_t& b : u.bytes) {
          if (!in.Byte(&b)) return Malformed(start);
        }
        values->push_back(Value::UuidVal(u));
        break;
      }
      case kKeyTagString:
      case kKeyTagBytea: {
        std::string s;
        while (true) {
          uint8_t b;
          if (!in.Byte(&b)) return Malformed(start);
          if (b != 0) {
            s.push_back(static_cast<char>(b));
            continue;
          }
          uint8_t next;
          if (!in.Byte(&next)) return Malformed(start);
          if (next == 0x00) break;  // terminator
          if (next != 0xFF) return Malformed(start);
          s.push_back('\0');
        }
        values->push_back(tag == kKeyTagBytea ? Value::ByteaVal(std::move(s))
                                              : Value::String(std::move(s)));
        break;
      }
      case kKeyTagArray: {
        std::vector<Value> elements;
        while (true) {
          uint8_t marker;
          if (!in.Byte(&marker)) return Malformed(start);
          if (marker == kKeyArrayEnd) break;
          if (marker == kKeyArrayNull) {
            elements.push_back(Value::Null());
            continue;
          }
          if (marker != kKeyArrayElement) return Malformed(start);
          const size_t before = elements.size();
          MERIDIAN_RETURN_IF_ERROR(DecodeValues(in, descending, before + 1, true, &elements));
          if (elements.size() != before + 1) return Malformed(start);
        }
        values->push_back(Value::Array(std::move(elements)));
        break;
      }
      default:
        return Malformed(start);
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<Value>> DecodeKey(std::string_view key, const std::vector<bool>& descending) {
  std::vector<Value> values;
  KeyReader in(key, false);
  MERIDIAN_RETURN_IF_ERROR(DecodeValues(in, descending, SIZE_MAX, false, &values));
  return values;
}

std::string PrefixSuccessor(std::string_view prefix) {
  std::string s(prefix);
  while (!s.empty() && static_cast<uint8_t>(s.back()) == 0xFF) s.pop_back();
  if (!s.empty()) s.back() = static_cast<char>(static_cast<uint8_t>(s.back()) + 1);
  return s;
}

}  // namespace meridian::storage
