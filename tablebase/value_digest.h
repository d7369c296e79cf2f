// A digest of a tier's value bits, for comparing two solves of a variant without their files: the
// CRC-64 (crc64.h) of the bits in stored-entry order, packed LSB first into ceil(entries / 8)
// bytes, the bits past the last entry zero. It depends on the values alone, not on the files'
// compression level or block size, nor on whether the tables hold DTEs, so runs of other
// binaries, thread counts or machines agree byte for byte exactly when their digests do.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "tablebase/crc64.h"
#include "tablebase/table_file.h"

namespace tablebase {

// The digest of `entries` value bits packed 64 to a word, LSB first (words past them ignored).
std::uint64_t value_bits_digest(std::span<const std::uint64_t> words, std::uint64_t entries);

// The digest of a .value file (one bit a record), read block by block and checked as it is read;
// throws TableError on damage, std::invalid_argument for a file of wider records.
std::uint64_t value_file_digest(TableReader& value_file);

// The digest of a finished tier's value bits, from its .value file (tier_files.h).
std::uint64_t tier_value_digest(const std::filesystem::path& dir, const std::string& variant,
                                const std::string& tier);

// The digest of a file's records in record order, each mapped to a code by `code_of(record)` (an
// unsigned integer type of one or two bytes): the CRC-64 of the codes' little-endian bytes. The
// map makes it the values' alone, the same for files of other record widths, encodings or
// compression that mean the same (the loopy and coalition tier tables' digests).
template <typename CodeOf>
std::uint64_t records_digest(TableReader& file, CodeOf&& code_of) {
  const std::uint32_t bits = file.header().bits_per_record;
  const std::uint64_t per_block = file.records_per_block(), records = file.header().record_count;
  std::uint64_t crc = 0;
  std::vector<unsigned char> bytes;
  for (std::uint64_t b = 0; b < file.block_count(); ++b) {
    const std::vector<std::uint64_t> words = file.read_block(b);
    const std::uint64_t n = std::min(per_block, records - b * per_block);
    bytes.clear();
    for (std::uint64_t i = 0; i < n; ++i) {
      const auto code = code_of(packed_record(words, i * bits, bits));
      static_assert(sizeof code <= 2, "a code of one or two bytes");
      bytes.push_back(static_cast<unsigned char>(code & 0xff));
      if constexpr (sizeof code == 2) bytes.push_back(static_cast<unsigned char>(code >> 8));
    }
    crc = crc64(std::as_bytes(std::span(bytes)), crc);
  }
  return crc;
}

// Extends `digest` (0 for none) by one tier's: a digest of a whole set of tables, in tier order.
std::uint64_t chain_digest(std::uint64_t digest, std::uint64_t tier_digest);

}  // namespace tablebase
