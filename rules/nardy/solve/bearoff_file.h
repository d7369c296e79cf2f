// Royal Nardy's one-sided bear-off database (bearoff.h) as a checked file, so a 15-checker
// database built once (minutes) loads in about a second.
//
// Layout, every field little-endian:
//   header (48 bytes): magic "RNBEAROF", u32 format version (1), u32 max checkers (0..15),
//     u64 boards, u32 exact rolls (24), u32 rolls (21), u64 payload crc64, u64 header crc64 (of
//     the 40 bytes before it)
//   payload: boards x f64 expected rolls, boards x 25 x u128 counts (low word first),
//     boards x 21 x u32 best-play board indexes; HomeIndex order throughout.
// Uncompressed, as the database sits in memory, so loading is one read and a checksum; the
// payload's checksum (CRC-64, crc64.h) catches any damaged byte, the header's fields a database
// of other dimensions. The payload is the in-memory arrays' bytes: the code asserts a
// little-endian machine at compile time rather than swapping bytes nobody needs swapped.
#pragma once

#include <filesystem>

#include "rules/nardy/solve/bearoff.h"

namespace nardy::bearoff {

inline constexpr std::uint32_t kBearoffFileVersion = 1;

// Writes db to `path` (through a temporary file and a rename). Refuses (TableError naming the
// file) to replace a file already there; TableWriteError if the disk fails.
void write_one_sided(const std::filesystem::path& path, const OneSided& db);

// Reads a database back. TableError naming the file for one that is missing, truncated, damaged
// (a checksum), of another format version or dimensions, or whose checker count is not
// `expected_checkers` (if given, >= 0).
OneSided read_one_sided(const std::filesystem::path& path, int expected_checkers = -1);

}  // namespace nardy::bearoff
