#include "tablebase/tier_files.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <string_view>
#include <vector>

#include "tablebase/table_file.h"

namespace tablebase {

namespace {

// Names the index scheme (drop_space.h: canonical prefixes), so tables of the earlier scheme,
// which stored every position, are refused instead of misread.
constexpr std::string_view kValueEncoding = "win bit; canonical-prefix index";
constexpr std::string_view kDteEncoding = "dte/2 (dte = 2 record + win bit)";
constexpr std::string_view kPartialEncoding = "solver bytes of finished passes: ";

// Packs one record per entry, LSB-first, `bits` each (a power of two, so no record straddles a
// word), in parallel chunks.
std::vector<std::uint64_t> pack(std::span<const std::uint8_t> bytes, int bits,
                                std::uint32_t (*record)(std::uint8_t)) {
  constexpr std::size_t kChunkWords = 4096;
  const std::uint64_t per_word = 64 / bits;
  std::vector<std::uint64_t> words((bytes.size() + per_word - 1) / per_word);
  const std::size_t chunks = (words.size() + kChunkWords - 1) / kChunkWords;
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t chunk) {
    const std::size_t end_word = std::min(words.size(), (chunk + 1) * kChunkWords);
    for (std::size_t w = chunk * kChunkWords; w < end_word; ++w) {
      std::uint64_t word = 0;
      const std::uint64_t first = w * per_word;
      const std::uint64_t end = std::min<std::uint64_t>(bytes.size(), first + per_word);
      for (std::uint64_t i = first; i < end; ++i)
        word |= std::uint64_t(record(bytes[i])) << ((i - first) * bits);
      words[w] = word;
    }
  });
  return words;
}

std::uint32_t value_record(std::uint8_t b) {
  return b & 1;
}
std::uint32_t dte_record(std::uint8_t b) {
  return b >> 1;
}

}  // namespace

std::filesystem::path value_path(const std::filesystem::path& dir, const std::string& tier) {
  return dir / (tier + ".value");
}
std::filesystem::path dte_path(const std::filesystem::path& dir, const std::string& tier) {
  return dir / (tier + ".dte");
}

TierFileSizes write_tier_files(const std::filesystem::path& dir, const std::string& variant,
                               const std::string& tier, std::span<const std::uint8_t> bytes,
                               int zstd_level) {
  int max_half = 0;
  for (std::uint8_t b : bytes) max_half = std::max(max_half, int(dte_record(b)));
  const int dte_bits =
      int(std::bit_ceil(std::max(1u, unsigned(std::bit_width(unsigned(max_half))))));
  TableHeader dte{variant, tier, bytes.size(), std::uint32_t(dte_bits), std::string(kDteEncoding)};
  write_packed_table(dte_path(dir, tier), dte, pack(bytes, dte_bits, dte_record), zstd_level);
  TableHeader value{variant, tier, bytes.size(), 1, std::string(kValueEncoding)};
  write_packed_table(value_path(dir, tier), value, pack(bytes, 1, value_record), zstd_level);
  return tier_file_sizes(dir, tier);
}

TierReaders::TierReaders(const std::filesystem::path& dir, const std::string& variant,
                         const std::string& tier)
    : value(value_path(dir, tier), variant, tier), dte(dte_path(dir, tier), variant, tier) {
  if (value.header().encoding != kValueEncoding)
    throw TableError(value_path(dir, tier),
                     "was written with another index scheme (\"" + value.header().encoding +
                         "\"); solve the variant again into an empty directory");
}

bool tier_files_present(const std::filesystem::path& dir, const std::string& variant,
                        const std::string& tier) {
  if (!std::filesystem::exists(value_path(dir, tier))) return false;
  TierReaders check(dir, variant, tier);
  return true;
}

TierFileSizes tier_file_sizes(const std::filesystem::path& dir, const std::string& tier) {
  TierFileSizes sizes;
  sizes.value_bytes = std::filesystem::file_size(value_path(dir, tier));
  sizes.dte_bytes = std::filesystem::file_size(dte_path(dir, tier));
  return sizes;
}

void read_tier_files(const std::filesystem::path& dir, const std::string& variant,
                     const std::string& tier, std::span<std::uint8_t> bytes) {
  TierReaders readers(dir, variant, tier);
  TableReader& value = readers.value;
  TableReader& dte = readers.dte;
  if (value.header().record_count != bytes.size() || dte.header().record_count != bytes.size())
    throw TableError(value_path(dir, tier), "holds " + std::to_string(value.header().record_count) +
                                                " positions, the tier has " +
                                                std::to_string(bytes.size()));
  const int bits = int(dte.header().bits_per_record);
  if (64 % bits != 0) throw TableError(dte_path(dir, tier), "unexpected record width");
  {
    const std::vector<std::uint64_t> words = value.read_packed();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bytes.size(), 1 << 16), [&](auto r) {
      for (std::size_t i = r.begin(); i != r.end(); ++i)
        bytes[i] = std::uint8_t(words[i >> 6] >> (i & 63) & 1);
    });
  }
  const std::vector<std::uint64_t> words = dte.read_packed();
  const std::uint64_t per_word = 64 / bits, mask = (std::uint64_t{1} << bits) - 1;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, bytes.size(), 1 << 16), [&](auto r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      const auto half = std::uint32_t(words[i / per_word] >> (i % per_word * bits) & mask);
      bytes[i] = std::uint8_t(dte_from_records(bytes[i], half));
    }
  });
}

std::filesystem::path partial_path(const std::filesystem::path& dir, const std::string& tier) {
  return dir / (tier + ".partial");
}

void write_partial_tier(const std::filesystem::path& dir, const std::string& variant,
                        const std::string& tier, std::span<const std::uint64_t> words,
                        std::uint64_t positions, int passes) {
  const TableHeader header{variant, tier, positions, 8,
                           std::string(kPartialEncoding) + std::to_string(passes)};
  // Level 1: a checkpoint is written often and read at most once.
  write_packed_table(partial_path(dir, tier), header, words.first((positions + 7) / 8), 1);
}

int read_partial_tier(const std::filesystem::path& dir, const std::string& variant,
                      const std::string& tier, std::span<std::uint64_t> words) {
  const std::filesystem::path path = partial_path(dir, tier);
  if (!std::filesystem::exists(path)) return 0;
  TableReader partial(path, variant, tier);
  const std::string& encoding = partial.header().encoding;
  if (!encoding.starts_with(kPartialEncoding) || partial.header().bits_per_record != 8 ||
      partial.header().record_count > words.size() * 8)
    throw TableError(path, "is not a checkpoint of this tier");
  const std::vector<std::uint64_t> saved = partial.read_packed();
  std::copy(saved.begin(), saved.end(), words.begin());
  return std::stoi(encoding.substr(kPartialEncoding.size()));
}

std::string tables_variant(const std::filesystem::path& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".value") return TableReader(entry.path()).header().variant;
  throw TableError(dir, "holds no solved tables (no .value files)");
}

int tables_max_pieces(const std::filesystem::path& dir) {
  int most = -1;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".value")
      most = std::max(most, int(entry.path().stem().string().size()) - 1);  // less the 'v'
  if (most < 0) throw TableError(dir, "holds no solved tables (no .value files)");
  return most;
}

}  // namespace tablebase
