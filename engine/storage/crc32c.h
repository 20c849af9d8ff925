// CRC32C (Castagnoli, reflected polynomial 0x82F63B78): the SSE4.2 crc32 instruction when the
// CPU has it, else portable software (slicing-by-8); both give the same value. Used for page
// checksums; the same function must be used by every reader and writer of pages.
#pragma once

#include <cstddef>
#include <cstdint>

namespace meridian::storage {

// Extends crc (0 for a fresh checksum) over data[0, n).
uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t n);
// The software path of Crc32cExtend, whatever the CPU (tests compare the two).
uint32_t Crc32cExtendPortable(uint32_t crc, const void* data, size_t n);
inline uint32_t Crc32c(const void* data, size_t n) { return Crc32cExtend(0, data, n); }

}  // namespace meridian::storage
