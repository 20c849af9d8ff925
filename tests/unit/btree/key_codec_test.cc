// Key codec: memcmp order of encoded tuples equals a reference SQL comparator (NULLS LAST
// ascending / FIRST descending, NaN greatest, -0 == 0, bytewise strings, DESC columns) on
// randomized tuples; round trips; prefix property; malformed input.
#include "storage/key_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace meridian::storage {
namespace {

int Sign(int c) { return (c > 0) - (c < 0); }

int MemCompare(const std::string& a, const std::string& b) {
  size_t n = std::min(a.size(), b.size());
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return Sign(c);
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// Reference order of two non-NULL values of the same kind.
int CompareValues(const Value& a, const Value& b) {
  if (a.IsBool()) return Sign(int{a.AsBool()} - int{b.AsBool()});
  if (a.IsInt()) return a.AsInt() < b.AsInt() ? -1 : (a.AsInt() > b.AsInt() ? 1 : 0);
  if (a.IsDouble()) {
    double x = a.AsDouble(), y = b.AsDouble();
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) - std::isnan(y);  // NaN greatest
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  return MemCompare(a.AsString(), b.AsString());
}

int CompareTuples(const Row& a, const Row& b, const std::vector<bool>& desc) {
  for (size_t i = 0; i < a.size(); ++i) {
    int c;
    if (a[i].IsNull() || b[i].IsNull()) {
      c = int{a[i].IsNull()} - int{b[i].IsNull()};  // NULLS LAST in ascending order
    } else {
      c = CompareValues(a[i], b[i]);
    }
    if (desc[i]) c = -c;
    if (c != 0) return c;
  }
  return 0;
}

enum class Kind { kBool, kInt, kDouble, kString };

Value RandomValue(Kind kind, std::mt19937_64& rng) {
  if (rng() % 8 == 0) return Value::Null();
  switch (kind) {
    case Kind::kBool:
      return Value::Bool(rng() % 2 == 0);
    case Kind::kInt: {
      static const int64_t kEdges[] = {
          0,   1,   -1,  std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
          255, 256, -256};
      if (rng() % 4 == 0) return Value::Int(kEdges[rng() % 8]);
      return Value::Int(static_cast<int64_t>(rng()) >> (rng() % 64));
    }
    case Kind::kDouble: {
      static const double kEdges[] = {0.0,
                                      -0.0,
                                      1.0,
                                      -1.0,
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(),
                                      std::numeric_limits<double>::quiet_NaN(),
                                      -std::numeric_limits<double>::quiet_NaN(),
                                      std::numeric_limits<double>::denorm_min(),
                                      -std::numeric_limits<double>::denorm_min()};
      if (rng() % 3 == 0) return Value::Double(kEdges[rng() % 10]);
      return Value::Double(
          std::ldexp(static_cast<double>(static_cast<int64_t>(rng() % 2001) - 1000),
                     static_cast<int>(rng() % 40) - 20));
    }
    case Kind::kString: {
      std::string s;
      size_t len = rng() % 5;
      static const char kAlphabet[] = {'\0', '\x01', 'a', 'b', '\xff', '\xfe'};
      for (size_t i = 0; i < len; ++i) s.push_back(kAlphabet[rng() % 6]);
      return Value::String(s);
    }
  }
  return Value::Null();
}

bool SameValue(const Value& a, const Value& b) {
  if (a.IsDouble() && b.IsDouble()) {
    if (std::isnan(a.AsDouble())) return std::isnan(b.AsDouble());
    return a.AsDouble() == b.AsDouble();  // -0.0 decodes as 0.0
  }
  return a == b;
}

TEST(KeyCodecTest, RandomTuplesOrderLikeReference) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 200; ++round) {
    size_t ncols = 1 + rng() % 3;
    std::vector<Kind> kinds;
    std::vector<bool> desc;
    for (size_t i = 0; i < ncols; ++i) {
      kinds.push_back(static_cast<Kind>(rng() % 4));
      desc.push_back(rng() % 3 == 0);
    }
    std::vector<Row> rows;
    std::vector<std::string> keys;
    for (int i = 0; i < 60; ++i) {
      Row row;
      for (Kind k : kinds) row.push_back(RandomValue(k, rng));
      keys.push_back(EncodeKey(row, desc));
      rows.push_back(std::move(row));
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      auto decoded = DecodeKey(keys[i], desc);
      ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
      ASSERT_EQ(decoded->size(), rows[i].size());
      for (size_t c = 0; c < ncols; ++c) ASSERT_TRUE(SameValue((*decoded)[c], rows[i][c]));
      for (size_t j = 0; j < rows.size(); ++j) {
        ASSERT_EQ(MemCompare(keys[i], keys[j]), CompareTuples(rows[i], rows[j], desc))
            << "round " << round << " rows " << i << ", " << j;
      }
    }
  }
}

TEST(KeyCodecTest, StringPrefixesAndZeroBytes) {
  std::vector<std::string> ordered = {"",
                                      std::string("\0", 1),
                                      std::string("\0\0", 2),
                                      std::string("\0\x01", 2),
                                      "a",
                                      std::string("a\0", 2),
                                      "ab",
                                      "b",
                                      "\xff"};
  for (bool desc : {false, true}) {
    for (size_t i = 0; i + 1 < ordered.size(); ++i) {
      std::string a = EncodeKey({Value::String(ordered[i])}, {desc});
      std::string b = EncodeKey({Value::String(ordered[i + 1])}, {desc});
      EXPECT_EQ(MemCompare(a, b), desc ? 1 : -1) << i;
    }
  }
}

TEST(KeyCodecTest, NullsLastAscendingFirstDescending) {
  std::string null_asc = EncodeKey({Value::Null()});
  std::string max_asc = EncodeKey({Value::Int(std::numeric_limits<int64_t>::max())});
  EXPECT_GT(MemCompare(null_asc, max_asc), 0);
  std::string null_desc = EncodeKey({Value::Null()}, {true});
  std::string max_desc = EncodeKey({Value::Int(std::numeric_limits<int64_t>::max())}, {true});
  EXPECT_LT(MemCompare(null_desc, max_desc), 0);
}

TEST(KeyCodecTest, DoublesSpecialValues) {
  EXPECT_EQ(EncodeKey({Value::Double(-0.0)}), EncodeKey({Value::Double(0.0)}));
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(EncodeKey({Value::Double(-nan)}), EncodeKey({Value::Double(nan)}));
  EXPECT_GT(MemCompare(EncodeKey({Value::Double(nan)}),
                       EncodeKey({Value::Double(std::numeric_limits<double>::infinity())})),
            0);
}

TEST(KeyCodecTest, LeadingColumnsArePrefixes) {
  Row row = {Value::Int(7), Value::String("abc"), Value::Null(), Value::Double(2.5)};
  std::vector<bool> desc = {false, true, false, true};
  std::string full = EncodeKey(row, desc);
  for (size_t n = 0; n <= row.size(); ++n) {
    Row lead(row.begin(), row.begin() + static_cast<ptrdiff_t>(n));
    std::string prefix = EncodeKey(lead, desc);
    EXPECT_EQ(full.compare(0, prefix.size(), prefix), 0) << n;
  }
}

TEST(KeyCodecTest, PrefixSuccessor) {
  EXPECT_EQ(PrefixSuccessor("ab"), "ac");
  EXPECT_EQ(PrefixSuccessor(std::string("a\xff\xff", 3)), "b");
  EXPECT_EQ(PrefixSuccessor(std::string("\xff", 1)), "");
}

// Arrays (index keys and ANALYZE's histograms of array columns): array_cmp's order, ascending
// and descending: element by element, a NULL element above every value, a prefix first; keys
// decode back to the arrays, also beside other columns and descending.
TEST(KeyCodecTest, ArraysOrderElementByElement) {
  auto arr = [](std::vector<Value> v) { return Value::Array(std::move(v)); };
  const std::vector<Value> ordered = {
      arr({}),
      arr({Value::Int(-5)}),
      arr({Value::Int(1)}),
      arr({Value::Int(1), Value::Int(2)}),
      arr({Value::Int(1), Value::Int(2), Value::Int(0)}),
      arr({Value::Int(1), Value::Null()}),
      arr({Value::Int(2)}),
      arr({Value::Null()}),
      arr({Value::Null(), Value::Int(1)}),
  };
  for (bool desc : {false, true}) {
    for (size_t i = 0; i + 1 < ordered.size(); ++i) {
      std::string a, b;
      AppendKeyValue(ordered[i], desc, &a);
      AppendKeyValue(ordered[i + 1], desc, &b);
      EXPECT_EQ(MemCompare(a, b), desc ? 1 : -1) << i;
    }
  }
  const std::vector<Value> strings = {
      arr({Value::String("a")}), arr({Value::String("a"), Value::String("")}),
      arr({Value::String(std::string("a\0", 2))}), arr({Value::String("ab")})};
  for (size_t i = 0; i + 1 < strings.size(); ++i) {
    EXPECT_EQ(MemCompare(EncodeKey({strings[i]}), EncodeKey({strings[i + 1]})), -1) << i;
  }
  for (bool desc : {false, true}) {
    for (const Value& a : ordered) {
      const std::vector<Value> row = {a, Value::String("tail"), Value::Int(7)};
      Result<std::vector<Value>> back = DecodeKey(EncodeKey(row, {desc}), {desc});
      ASSERT_TRUE(back.ok()) << back.status().ToString();
      EXPECT_EQ(*back, row);
    }
  }
  for (const Value& a : strings) {
    Result<std::vector<Value>> back = DecodeKey(EncodeKey({a}));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, std::vector<Value>{a});
  }
  // A cut array key is malformed, not a shorter array.
  const std::string key = EncodeKey({ordered[4]});
  for (size_t cut = 1; cut < key.size(); ++cut) {
    EXPECT_EQ(DecodeKey(key.substr(0, cut)).status().sqlstate(), "XX001") << cut;
  }
}

TEST(KeyCodecTest, MalformedKeysAreRejected) {
  std::string key = EncodeKey({Value::String("abc")});
  for (size_t cut = 1; cut < key.size(); ++cut) {
    auto r = DecodeKey(key.substr(0, cut));
    ASSERT_FALSE(r.ok()) << cut;
    EXPECT_EQ(r.status().sqlstate(), "XX001");
  }
  EXPECT_FALSE(DecodeKey(std::string("\x77", 1)).ok());
  EXPECT_FALSE(DecodeKey(std::string("\x10\x05", 2)).ok());  // boolean byte not 0/1
}

}  // namespace
}  // namespace meridian::storage

namespace meridian::storage {
namespace {

Numeric Num(const char* text) { return *numeric::Parse(text); }

// NUMERIC keys: memcmp order is numeric order (both directions), equal values of different
// scales encode equally, and a key decodes to the value with its smallest scale.
TEST(KeyCodecTest, NumericOrderAndNormalization) {
  std::mt19937_64 rng(42);
  std::vector<Numeric> values = {Num("0"),
                                 Num("-0.00"),
                                 Num("1.5"),
                                 Num("1.50"),
                                 Num("-1.5"),
                                 Num("0.1"),
                                 Num("0.10000001"),
                                 Num("-0.10000001"),
                                 Num("-0.1"),
                                 Num("99999999999999999999999999999999999999"),
                                 Num("-99999999999999999999999999999999999999"),
                                 Num("0.00000000000000000000000000000000000001"),
                                 Num("100"),
                                 Num("1e20"),
                                 Num("12.345")};
  for (int i = 0; i < 2000; ++i) {
    const int64_t m = static_cast<int64_t>(rng() % 2000001) - 1000000;
    values.push_back(Numeric{m, static_cast<int32_t>(rng() % 8)});
  }
  for (bool desc : {false, true}) {
    for (size_t i = 0; i < values.size(); ++i) {
      const Numeric& a = values[i];
      const Numeric& b = values[(i * 7919 + 13) % values.size()];
      std::string ka, kb;
      AppendKeyValue(Value::Decimal(a), desc, &ka);
      AppendKeyValue(Value::Decimal(b), desc, &kb);
      const int want = numeric::Compare(a, b) * (desc ? -1 : 1);
      ASSERT_EQ(MemCompare(ka, kb), want) << numeric::ToString(a) << " vs " << numeric::ToString(b);
      auto decoded = DecodeKey(ka, {desc});
      ASSERT_TRUE(decoded.ok());
      ASSERT_EQ(numeric::Compare((*decoded)[0].AsDecimal(), a), 0);
    }
  }
  auto d = DecodeKey(EncodeKey({Value::Decimal(Num("1.500"))}));
  EXPECT_EQ(numeric::ToString((*d)[0].AsDecimal()), "1.5");
}

TEST(KeyCodecTest, DateTimestampRealOrder) {
  const std::vector<Value> dates = {Value::DateVal(Date{datetime::kDateNegInfinity}),
                                    Value::DateVal(Date{-2451545}),
                                    Value::DateVal(Date{-1}),
                                    Value::DateVal(Date{0}),
                                    Value::DateVal(Date{9000}),
                                    Value::DateVal(Date{datetime::kDatePosInfinity})};
  const std::vector<Value> stamps = {
      Value::TimestampVal(Timestamp{datetime::kTsNegInfinity}), Value::TimestampVal(Timestamp{-5}),
      Value::TimestampVal(Timestamp{0}), Value::TimestampVal(Timestamp{7}),
      Value::TimestampVal(Timestamp{datetime::kTsPosInfinity})};
  const std::vector<Value> reals = {Value::Real(-1e30f), Value::Real(-0.5f), Value::Real(0.0f),
                                    Value::Real(0.1f), Value::Real(3e38f)};
  for (const auto* list : {&dates, &stamps, &reals}) {
    for (size_t i = 0; i + 1 < list->size(); ++i) {
      const std::string a = EncodeKey({(*list)[i]}), b = EncodeKey({(*list)[i + 1]});
      EXPECT_LT(MemCompare(a, b), 0) << i;
      auto back = DecodeKey(a);
      ASSERT_TRUE(back.ok());
      EXPECT_EQ((*back)[0], (*list)[i]);
    }
  }
}

// UUID keys order as memcmp of the 16 bytes (unsigned); BYTEA keys as byteacmp (memcmp, a
// prefix first, zero bytes inside), ascending and descending, and both decode to themselves.
TEST(KeyCodecTest, UuidAndByteaOrder) {
  auto uuid = [](uint8_t first, uint8_t last) {
    Uuid u;
    u.bytes[0] = first;
    u.bytes[15] = last;
    return Value::UuidVal(u);
  };
  const std::vector<Value> uuids = {uuid(0, 0),    uuid(0, 1),       uuid(0x7F, 0xFF),
                                    uuid(0x80, 0), uuid(0xFF, 0xFE), uuid(0xFF, 0xFF)};
  const std::vector<Value> byteas = {Value::ByteaVal(""),
                                     Value::ByteaVal(std::string("\0", 1)),
                                     Value::ByteaVal(std::string("\0\0", 2)),
                                     Value::ByteaVal(std::string("\0\x01", 2)),
                                     Value::ByteaVal("\x01"),
                                     Value::ByteaVal("\x01\xFF"),
                                     Value::ByteaVal("\x7F"),
                                     Value::ByteaVal("\x80"),
                                     Value::ByteaVal("\xFF"),
                                     Value::ByteaVal("\xFF\xFF")};
  for (const auto* list : {&uuids, &byteas}) {
    for (size_t i = 0; i + 1 < list->size(); ++i) {
      const std::string a = EncodeKey({(*list)[i]}), b = EncodeKey({(*list)[i + 1]});
      EXPECT_LT(MemCompare(a, b), 0) << i;
      EXPECT_GT(MemCompare(EncodeKey({(*list)[i]}, {true}), EncodeKey({(*list)[i + 1]}, {true})), 0)
          << i;
      auto back = DecodeKey(a);
      ASSERT_TRUE(back.ok());
      EXPECT_EQ((*back)[0], (*list)[i]);
      auto back_desc = DecodeKey(EncodeKey({(*list)[i], Value::Int(3)}, {true}), {true});
      ASSERT_TRUE(back_desc.ok());
      EXPECT_EQ((*back_desc)[0], (*list)[i]);
      EXPECT_EQ((*back_desc)[1], Value::Int(3));
    }
  }
  // A bytea key is not a text key: the same bytes decode to their own kinds.
  auto text = DecodeKey(EncodeKey({Value::String("ab")}));
  auto bytes = DecodeKey(EncodeKey({Value::ByteaVal("ab")}));
  ASSERT_TRUE(text.ok() && bytes.ok());
  EXPECT_TRUE((*text)[0].IsString());
  EXPECT_TRUE((*bytes)[0].IsBytea());
  // A truncated uuid key is rejected.
  const std::string key = EncodeKey({uuids[2]});
  EXPECT_FALSE(DecodeKey(key.substr(0, key.size() - 1)).ok());
}

}  // namespace
}  // namespace meridian::storage
