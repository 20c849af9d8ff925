// Registered functions of the uuid and bytea types (binder/function_registry.h):
// gen_random_uuid, encode, decode, and md5/sha224..sha512/octet_length/bit_length/get_byte/
// substring/substr/position of bytea — PostgreSQL 15's results and errors.
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <string>

#include "binder/function_registry.h"
#include "function/builtin.h"
#include "meridian/binary.h"

namespace meridian::exec {

namespace {

using Args = std::span<const Value>;

// A version 4 (random) UUID, as PostgreSQL's gen_random_uuid: 122 random bits, the version
// nibble 4 and the variant bits 10.
Result<Value> GenRandomUuid(Args, ExecContext*) {
  Uuid u;
  if (RAND_bytes(u.bytes.data(), static_cast<int>(u.bytes.size())) != 1) {
    return Status::Internal("could not generate random values");
  }
  u.bytes[6] = static_cast<uint8_t>((u.bytes[6] & 0x0F) | 0x40);
  u.bytes[8] = static_cast<uint8_t>((u.bytes[8] & 0x3F) | 0x80);
  return Value::UuidVal(u);
}

// The format name of encode/decode, lowercased as PostgreSQL compares it (pg_strcasecmp).
Result<std::string> Format(const Value& v) {
  std::string f = v.AsString();
  for (char& c : f) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  if (f == "hex" || f == "base64" || f == "escape") return f;
  return Status::Error(sqlstate::kInvalidParameterValue,
                       "unrecognized encoding: \"" + v.AsString() + "\"");
}

Result<Value> Encode(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(std::string f, Format(a[1]));
  const std::string& b = a[0].AsBytea();
  if (f == "hex") return Value::String(binary::EncodeHex(b));
  if (f == "base64") return Value::String(binary::EncodeBase64(b));
  return Value::String(binary::EncodeEscape(b));
}

Result<Value> Decode(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(std::string f, Format(a[1]));
  const std::string& s = a[0].AsString();
  Result<std::string> b = f == "hex"      ? binary::DecodeHex(s)
                          : f == "base64" ? binary::DecodeBase64(s)
                                          : binary::DecodeEscape(s);
  if (!b.ok()) return b.status();
  return Value::ByteaVal(std::move(b).value());
}

// md5 as lowercase hex text; the sha-2 family as bytea.
Result<std::string> Digest(const std::string& bytes, const EVP_MD* md) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &len, md, nullptr) != 1) {
    return Status::Internal("could not compute a digest");
  }
  return std::string(reinterpret_cast<const char*>(digest), len);
}

Result<Value> Md5(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(std::string d, Digest(a[0].AsBytea(), EVP_md5()));
  return Value::String(binary::EncodeHex(d));
}

template <const EVP_MD* (*kMd)()>
Result<Value> Sha(Args a, ExecContext*) {
  MERIDIAN_ASSIGN_OR_RETURN(std::string d, Digest(a[0].AsBytea(), kMd()));
  return Value::ByteaVal(std::move(d));
}

Result<Value> OctetLength(Args a, ExecContext*) {
  return Value::Int(static_cast<int64_t>(a[0].AsBytea().size()));
}

Result<Value> BitLength(Args a, ExecContext*) {
  return Value::Int(static_cast<int64_t>(a[0].AsBytea().size()) * 8);
}

// substring(bytea FROM start [FOR count]) and substr: bytes from the 1-based start (which may
// be before the first byte), count of them from there.
Result<Value> Substring(Args a, ExecContext*) {
  const std::string& b = a[0].AsBytea();
  const int64_t start = a[1].AsInt();
  int64_t end = static_cast<int64_t>(b.size()) + 1;  // exclusive, 1-based
  if (a.size() > 2) {
    const int64_t count = a[2].AsInt();
    if (count < 0) {
      return Status::Error(sqlstate::kSubstringError, "negative substring length not allowed");
    }
    end = std::min(end, start + count);  // both within int32, no overflow in int64
  }
  const int64_t from = std::max<int64_t>(start, 1);
  if (end <= from) return Value::ByteaVal("");
  return Value::ByteaVal(b.substr(static_cast<size_t>(from - 1), static_cast<size_t>(end - from)));
}

// position(needle IN haystack) arrives as position(haystack, needle): the 1-based place of the
// first match, 0 when there is none (1 for an empty needle).
Result<Value> Position(Args a, ExecContext*) {
  const size_t at = a[0].AsBytea().find(a[1].AsBytea());
  return Value::Int(at == std::string::npos ? 0 : static_cast<int64_t>(at) + 1);
}

Result<Value> GetByte(Args a, ExecContext*) {
  const std::string& b = a[0].AsBytea();
  const int64_t n = a[1].AsInt();
  if (n < 0 || static_cast<uint64_t>(n) >= b.size()) {
    return Status::Error(sqlstate::kArraySubscriptError,
                         "index " + std::to_string(n) + " out of valid range, 0.." +
                             std::to_string(static_cast<int64_t>(b.size()) - 1));
  }
  return Value::Int(static_cast<unsigned char>(b[static_cast<size_t>(n)]));
}

// Entries of names that also have text versions (md5, octet_length, bit_length) register
// after those (string_functions.cc): an untyped literal argument picks the text one, as in
// PostgreSQL.
constexpr ScalarFunction kBinaryFunctions[] = {
    {"gen_random_uuid", "", 0, 'u', &GenRandomUuid, false, true, /*is_volatile=*/true},
    {"encode", "yt", 2, 't', &Encode},
    {"decode", "tt", 2, 'y', &Decode},
    {"md5", "y", 1, 't', &Md5},
    {"sha224", "y", 1, 'y', &Sha<EVP_sha224>},
    {"sha256", "y", 1, 'y', &Sha<EVP_sha256>},
    {"sha384", "y", 1, 'y', &Sha<EVP_sha384>},
    {"sha512", "y", 1, 'y', &Sha<EVP_sha512>},
    {"octet_length", "y", 1, 'i', &OctetLength},
    {"bit_length", "y", 1, 'i', &BitLength},
    {"get_byte", "yi", 2, 'i', &GetByte},
    // The text versions of these are bound before the registry (bind_function.cc's system
    // table); these entries are tried when no text one fits.
    {"substring", "yii", 2, 'y', &Substring},
    {"substr", "yii", 2, 'y', &Substring},
    {"position", "yy", 2, 'i', &Position},
};

}  // namespace

void RegisterBinaryFunctions() { RegisterScalarFunctions(kBinaryFunctions); }

}  // namespace meridian::exec
