// A digest of a tier's value bits, for comparing two solves of a variant without their files: the
// CRC-64 (crc64.h) of the bits in stored-entry order, packed LSB first into ceil(entries / 8)
// bytes, the bits past the last entry zero. It depends on the values alone, not on the files'
// compression level or block size, nor on whether the tables hold DTEs, so runs of other
// binaries, thread counts or machines agree byte for byte exactly when their digests do.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

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

// Extends `digest` (0 for none) by one tier's: a digest of a whole set of tables, in tier order.
std::uint64_t chain_digest(std::uint64_t digest, std::uint64_t tier_digest);

}  // namespace tablebase
