#include "tablebase/value_digest.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <vector>

#include "tablebase/crc64.h"
#include "tablebase/tier_files.h"

namespace tablebase {

namespace {

// Table files and the digest both pack LSB first into little-endian words; the bytes of a word in
// memory are the digest's bytes only on a little-endian host.
static_assert(std::endian::native == std::endian::little);

// Extends crc over the first `bits` bits of `words` (whole bytes, the last one's unused bits 0).
std::uint64_t extend(std::uint64_t crc, std::span<const std::uint64_t> words, std::uint64_t bits) {
  const std::uint64_t full_words = bits / 64;
  crc = crc64(std::as_bytes(words.first(full_words)), crc);
  if (const int rest = int(bits % 64)) {
    const std::uint64_t last = words[full_words] & ((std::uint64_t{1} << rest) - 1);
    crc = crc64(std::as_bytes(std::span(&last, 1)).first((rest + 7) / 8), crc);
  }
  return crc;
}

}  // namespace

std::uint64_t value_bits_digest(std::span<const std::uint64_t> words, std::uint64_t entries) {
  return extend(0, words, entries);
}

std::uint64_t value_file_digest(TableReader& value_file) {
  const TableHeader& header = value_file.header();
  if (header.bits_per_record != 1)
    throw std::invalid_argument("tier " + header.tier + ": records of " +
                                std::to_string(header.bits_per_record) + " bits, not value bits");
  const std::uint64_t per_block = value_file.records_per_block();
  std::uint64_t crc = 0;
  for (std::uint64_t b = 0; b < value_file.block_count(); ++b) {
    // Whole blocks are whole words (table_file.h), so blocks chain as one run of bits.
    const std::vector<std::uint64_t> words = value_file.read_block(b);
    crc = extend(crc, words, std::min(per_block, header.record_count - b * per_block));
  }
  return crc;
}

std::uint64_t tier_value_digest(const std::filesystem::path& dir, const std::string& variant,
                                const std::string& tier) {
  TableReader file = open_value_file(dir, variant, tier);
  return value_file_digest(file);
}

std::uint64_t chain_digest(std::uint64_t digest, std::uint64_t tier_digest) {
  return crc64(std::as_bytes(std::span(&tier_digest, 1)), digest);
}

}  // namespace tablebase
