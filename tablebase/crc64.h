// CRC-64/XZ (the ECMA-182 polynomial, reflected, as used by xz and Go's crc64.ECMA): the checksum
// of table headers, block indexes and compressed blocks. A CRC rather than a hash because it
// detects every burst error up to 64 bits (so any single damaged byte, certainly) and has a
// published check value to test against. Slicing-by-8 tables make it ~1.5 cycles per byte, so
// checking one compressed block costs a few microseconds of a cold probe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace tablebase {

namespace detail {

inline constexpr std::uint64_t kCrc64Poly = 0xC96C5795D7870F42;  // 0x42F0E1EBA9EA3693 reflected

// kCrc64Table[k][b]: the CRC state change of byte b followed by k zero bytes.
inline constexpr auto kCrc64Table = [] {
  std::array<std::array<std::uint64_t, 256>, 8> table{};
  for (std::uint64_t b = 0; b < 256; ++b) {
    std::uint64_t crc = b;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (crc & 1 ? kCrc64Poly : 0);
    table[0][b] = crc;
  }
  for (int k = 1; k < 8; ++k) {
    for (int b = 0; b < 256; ++b) {
      const std::uint64_t prev = table[k - 1][b];
      table[k][b] = (prev >> 8) ^ table[0][prev & 0xFF];
    }
  }
  return table;
}();

}  // namespace detail

// Extends `crc` (the CRC of earlier bytes, 0 for none) over `data`; crc64(span of "123456789") is
// 0x995DC9BBDF1939FA.
inline std::uint64_t crc64(std::span<const std::byte> data, std::uint64_t crc = 0) {
  const auto& t = detail::kCrc64Table;
  crc = ~crc;
  const std::byte* p = data.data();
  std::size_t n = data.size();
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t x = crc;
    for (int i = 0; i < 8; ++i) x ^= std::uint64_t(p[i]) << (8 * i);  // little-endian load
    crc = t[7][x & 0xFF] ^ t[6][(x >> 8) & 0xFF] ^ t[5][(x >> 16) & 0xFF] ^ t[4][(x >> 24) & 0xFF] ^
          t[3][(x >> 32) & 0xFF] ^ t[2][(x >> 40) & 0xFF] ^ t[1][(x >> 48) & 0xFF] ^ t[0][x >> 56];
  }
  for (; n > 0; --n, ++p) crc = (crc >> 8) ^ t[0][(crc ^ std::uint64_t(*p)) & 0xFF];
  return ~crc;
}

}  // namespace tablebase
