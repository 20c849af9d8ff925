// MD5 (RFC 1321), for sqllogictest's "N values hashing to <md5>" result form.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace meridian::slt {

class Md5 {
 public:
  Md5();
  void Update(std::string_view data);
  // Finishes the digest; the object must not be updated afterwards.
  std::array<uint8_t, 16> Digest();
  // Lower-case hex of Digest().
  std::string HexDigest();

 private:
  void Transform(const uint8_t block[64]);

  uint32_t state_[4];
  uint64_t length_ = 0;  // bytes hashed so far
  uint8_t buffer_[64];
  size_t buffered_ = 0;
};

// md5 hex of data.
std::string Md5Hex(std::string_view data);

}  // namespace meridian::slt
