// Fixed-width values in native (little-endian on every supported machine) byte order, for the
// small binary files of the storage layer (doublewrite area, page journal): PutFixed appends,
// GetFixed reads at *pos and advances it, false when fewer than sizeof(T) bytes remain.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

namespace meridian::storage {

template <typename T>
void PutFixed(std::string* out, T v) {
  char buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  out->append(buf, sizeof(T));
}

template <typename T>
bool GetFixed(std::string_view in, size_t* pos, T* v) {
  if (*pos > in.size() || in.size() - *pos < sizeof(T)) return false;
  std::memcpy(v, in.data() + *pos, sizeof(T));
  *pos += sizeof(T);
  return true;
}

}  // namespace meridian::storage
