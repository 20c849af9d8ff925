// UUID and BYTEA text forms and the encode()/decode() formats (meridian/binary.h): PostgreSQL
// 15's accepted uuid spellings and its errors, bytea hex/escape input, and round trips of
// random bytes through hex, base64 and escape.
#include "meridian/binary.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace meridian::binary {
namespace {

std::string U(std::string_view text) {
  Result<Uuid> u = ParseUuid(text);
  return u.ok() ? UuidToString(*u) : "ERROR " + u.status().sqlstate();
}

std::string B(std::string_view text) {
  Result<std::string> b = ParseBytea(text);
  return b.ok() ? ByteaToText(*b) : "ERROR " + b.status().sqlstate();
}

TEST(BinaryTest, UuidForms) {
  const std::string want = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";
  EXPECT_EQ(U("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), want);
  EXPECT_EQ(U("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"), want);
  EXPECT_EQ(U("{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}"), want);
  EXPECT_EQ(U("a0eebc999c0b4ef8bb6d6bb9bd380a11"), want);
  EXPECT_EQ(U("a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11"), want);
  EXPECT_EQ(U("{a0eebc99-9c0b4ef8-bb6d6bb9bd380a11}"), want);
  for (const char* bad : {"", "{}", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1",
                          "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-",
                          "-a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc9-99c0b-4ef8-bb6d-6bb9bd380a11",
                          "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",
                          " a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11",
                          "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}) {
    EXPECT_EQ(U(bad), "ERROR 22P02") << bad;
  }
  Result<Uuid> err = ParseUuid("x");
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.status().message(), "invalid input syntax for type uuid: \"x\"");
}

TEST(BinaryTest, ByteaInput) {
  EXPECT_EQ(B("\\x0102ff"), "\\x0102ff");
  EXPECT_EQ(B("\\xDEADbeef"), "\\xdeadbeef");
  EXPECT_EQ(B("\\x 01\t02\n"), "\\x0102");
  EXPECT_EQ(B("\\x"), "\\x");
  EXPECT_EQ(B(""), "\\x");
  EXPECT_EQ(B("abc"), "\\x616263");
  EXPECT_EQ(B("a\\\\b\\000\\377"), "\\x615c6200ff");
  EXPECT_EQ(B("\\x1"), "ERROR 22023");
  EXPECT_EQ(B("\\x0 1"), "ERROR 22023");
  EXPECT_EQ(B("\\xzz"), "ERROR 22023");
  EXPECT_EQ(B("\\X01"), "ERROR 22P02");
  EXPECT_EQ(B("\\400"), "ERROR 22P02");
  EXPECT_EQ(B("\\12"), "ERROR 22P02");
  EXPECT_EQ(B("abc\\"), "ERROR 22P02");
  Result<std::string> err = DecodeHex("0\xC3\xA9");
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.status().message(), "invalid hexadecimal digit: \"\xC3\xA9\"");
}

TEST(BinaryTest, EncodingsOfKnownValues) {
  EXPECT_EQ(EncodeHex(std::string("\0\xFF\\A", 4)), "00ff5c41");
  EXPECT_EQ(EncodeEscape(std::string("\0\xFF\\A", 4)), "\\000\\377\\\\A");
  EXPECT_EQ(EncodeBase64(std::string("\0\xFF\\A", 4)), "AP9cQQ==");
  EXPECT_EQ(EncodeBase64("ab"), "YWI=");
  EXPECT_EQ(EncodeBase64(std::string(57, 'x')).size(), 77u);  // 76 characters and '\n'
  EXPECT_EQ(EncodeBase64(std::string(58, 'x')).size(), 81u);
  Result<std::string> d = DecodeBase64("YW=j");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d, "a");
  EXPECT_FALSE(DecodeBase64("YWJ").ok());
  EXPECT_FALSE(DecodeBase64("=WJj").ok());
  EXPECT_FALSE(DecodeBase64("Y*Jj").ok());
  EXPECT_FALSE(DecodeEscape("a\\").ok());
  EXPECT_FALSE(DecodeEscape("\\x01").ok());
}

TEST(BinaryTest, RandomBytesRoundTrip) {
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    std::string bytes(rng() % 200, '\0');
    for (char& c : bytes) c = static_cast<char>(rng() & 0xFF);
    Result<std::string> hex = DecodeHex(EncodeHex(bytes));
    Result<std::string> b64 = DecodeBase64(EncodeBase64(bytes));
    Result<std::string> esc = DecodeEscape(EncodeEscape(bytes));
    Result<std::string> in = ParseBytea(ByteaToText(bytes));
    ASSERT_TRUE(hex.ok() && b64.ok() && esc.ok() && in.ok());
    EXPECT_EQ(*hex, bytes);
    EXPECT_EQ(*b64, bytes);
    EXPECT_EQ(*esc, bytes);
    EXPECT_EQ(*in, bytes);
    Uuid u;
    for (uint8_t& b : u.bytes) b = static_cast<uint8_t>(rng() & 0xFF);
    Result<Uuid> back = ParseUuid(UuidToString(u));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, u);
  }
}

}  // namespace
}  // namespace meridian::binary
