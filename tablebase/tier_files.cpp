#include "tablebase/tier_files.h"

#include <absl/strings/match.h>
#include <absl/strings/numbers.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_join.h>
#include <absl/strings/str_split.h>
#include <absl/strings/strip.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "tablebase/table_file.h"

namespace tablebase {

namespace {

// Names the index scheme (rules/drop/solve/tier_space.h: canonical prefixes), so tables of the
// earlier scheme, which stored every position, are refused instead of misread.
constexpr std::string_view kValueEncoding = "win bit; canonical-prefix index";
constexpr std::string_view kDteEncoding = "dte/2 (dte = 2 record + win bit)";
// A checkpoint's state, as "solver bytes of finished passes: K" then optional "; key: value"
// fields (a checkpoint written before a field existed lacks it and reads as 0 / none).
constexpr absl::string_view kPartialEncoding = "solver bytes of finished passes: ";
constexpr absl::string_view kFieldSeparator = "; ";
constexpr absl::string_view kNextPassKey = "entries of the next pass: ";
constexpr absl::string_view kFoldedKey = "children folded first: ";
constexpr absl::string_view kFoldingKey = "children being folded: ";
constexpr absl::string_view kFoldingThroughKey = "folded before entry: ";

std::uint32_t value_record(std::uint8_t b) {
  return b & 1;
}
std::uint32_t dte_record(std::uint8_t b) {
  return b >> 1;
}

}  // namespace

void write_byte_records(const std::filesystem::path& path, const TableHeader& header,
                        std::span<const std::uint8_t> bytes, std::uint32_t (*record)(std::uint8_t),
                        int zstd_level, const BeforeBatch& before_batch) {
  if (header.record_count != bytes.size())
    throw std::invalid_argument("write_byte_records: the header's record count is not the bytes'");
  write_indexed_records(
      path, header, [&](std::uint64_t i) { return record(bytes[i]); }, zstd_level, before_batch);
}

void copy_table_blocks(TableReader& reader, std::uint64_t bits, std::span<std::uint64_t> words,
                       std::span<const IndexRange> only) {
  const std::uint64_t records = reader.header().record_count;
  reader.for_each_block(
      [&](std::uint64_t first, std::span<const std::uint64_t> block) {
        if (only.empty()) {
          std::copy(block.begin(), block.end(), words.begin() + std::ptrdiff_t(first * bits / 64));
          return;
        }
        const IndexRange in_block{first, std::min(records, first + block.size() * 64 / bits)};
        for (const IndexRange& r : only)
          copy_entries(block, first, words, intersection(r, in_block), int(bits));
      },
      only);
}

std::filesystem::path value_path(const std::filesystem::path& dir, const std::string& tier) {
  return dir / (tier + ".value");
}
std::filesystem::path dte_path(const std::filesystem::path& dir, const std::string& tier) {
  return dir / (tier + ".dte");
}

TierFileSizes write_tier_files(const std::filesystem::path& dir, const std::string& variant,
                               const std::string& tier, std::span<const std::uint8_t> bytes,
                               int zstd_level, const StreamedWrite* streamed) {
  int max_half = 0;
  if (streamed)
    max_half = int(dte_record(std::uint8_t(streamed->max_dte)));
  else
    for (std::uint8_t b : bytes) max_half = std::max(max_half, int(dte_record(b)));
  const BeforeBatch before_batch = streamed ? streamed->before_batch : BeforeBatch{};
  const int dte_bits =
      int(std::bit_ceil(std::max(1u, unsigned(std::bit_width(unsigned(max_half))))));
  TableHeader dte{variant, tier, bytes.size(), std::uint32_t(dte_bits), std::string(kDteEncoding)};
  write_byte_records(dte_path(dir, tier), dte, bytes, dte_record, zstd_level, before_batch);
  TableHeader value{variant, tier, bytes.size(), 1, std::string(kValueEncoding)};
  write_byte_records(value_path(dir, tier), value, bytes, value_record, zstd_level, before_batch);
  return tier_file_sizes(dir, tier);
}

TierFileSizes write_value_file(const std::filesystem::path& dir, const std::string& variant,
                               const std::string& tier, std::span<const std::uint64_t> bits,
                               std::uint64_t entries, int zstd_level,
                               const BeforeBatch& before_batch) {
  const TableHeader header{variant, tier, entries, 1, std::string(kValueEncoding)};
  write_packed_table(value_path(dir, tier), header, bits.first((entries + 63) / 64), zstd_level,
                     kDefaultBlockBytes, before_batch);
  return tier_file_sizes(dir, tier);
}

TableReader open_value_file(const std::filesystem::path& dir, const std::string& variant,
                            const std::string& tier) {
  TableReader value(value_path(dir, tier), variant, tier);
  if (value.header().encoding != kValueEncoding)
    throw TableError(value_path(dir, tier),
                     "was written with another index scheme (\"" + value.header().encoding +
                         "\"); solve the variant again into an empty directory");
  return value;
}

namespace {

TableReader open_dte_file(const std::filesystem::path& dir, const std::string& variant,
                          const std::string& tier) {
  if (!std::filesystem::exists(dte_path(dir, tier)))
    throw TableError(dte_path(dir, tier),
                     "is missing: these tables hold values only (solve --value-only); solve "
                     "into another directory for DTEs");
  return TableReader(dte_path(dir, tier), variant, tier);
}

}  // namespace

TierReaders::TierReaders(const std::filesystem::path& dir, const std::string& variant,
                         const std::string& tier)
    : value(open_value_file(dir, variant, tier)), dte(open_dte_file(dir, variant, tier)) {}

bool tier_files_present(const std::filesystem::path& dir, const std::string& variant,
                        const std::string& tier, bool value_only) {
  if (!std::filesystem::exists(value_path(dir, tier))) return false;
  if (value_only)
    open_value_file(dir, variant, tier);
  else
    TierReaders check(dir, variant, tier);
  return true;
}

TierFileSizes tier_file_sizes(const std::filesystem::path& dir, const std::string& tier) {
  TierFileSizes sizes;
  sizes.value_bytes = std::filesystem::file_size(value_path(dir, tier));
  std::error_code none;  // value-only tables have no .dte file
  if (std::filesystem::exists(dte_path(dir, tier), none))
    sizes.dte_bytes = std::filesystem::file_size(dte_path(dir, tier));
  return sizes;
}

void read_tier_files(const std::filesystem::path& dir, const std::string& variant,
                     const std::string& tier, std::span<std::uint8_t> bytes,
                     std::span<const IndexRange> only) {
  TierReaders readers(dir, variant, tier);
  TableReader& value = readers.value;
  TableReader& dte = readers.dte;
  if (value.header().record_count != bytes.size() || dte.header().record_count != bytes.size())
    throw TableError(value_path(dir, tier), "holds " + std::to_string(value.header().record_count) +
                                                " positions, the tier has " +
                                                std::to_string(bytes.size()));
  const int bits = int(dte.header().bits_per_record);
  if (64 % bits != 0) throw TableError(dte_path(dir, tier), "unexpected record width");
  const IndexRange all{0, bytes.size()};
  const std::span<const IndexRange> wanted = only.empty() ? std::span(&all, 1) : only;
  // The entries of `wanted` within records [first, end) of a block.
  const auto for_each_wanted = [&](std::uint64_t first, std::uint64_t end, const auto& visit) {
    for (const IndexRange& r : wanted) {
      const IndexRange in = intersection(r, {first, end});
      for (std::uint64_t i = in.begin; i < in.end; ++i) visit(i);
    }
  };
  // Block by block, so reading a tier needs no memory beyond the tier's own bytes.
  value.for_each_block(
      [&](std::uint64_t first, std::span<const std::uint64_t> words) {
        for_each_wanted(first, first + words.size() * 64, [&](std::uint64_t i) {
          bytes[i] = std::uint8_t(words[(i - first) >> 6] >> ((i - first) & 63) & 1);
        });
      },
      only);
  const std::uint64_t per_word = 64 / bits, mask = (std::uint64_t{1} << bits) - 1;
  dte.for_each_block(
      [&](std::uint64_t first, std::span<const std::uint64_t> words) {
        for_each_wanted(first, first + words.size() * per_word, [&](std::uint64_t i) {
          const std::uint64_t r = i - first;
          const auto half = std::uint32_t(words[r / per_word] >> (r % per_word * bits) & mask);
          bytes[i] = std::uint8_t(dte_from_records(bytes[i], half));
        });
      },
      only);
}

void read_value_file(const std::filesystem::path& dir, const std::string& variant,
                     const std::string& tier, std::uint64_t entries, std::span<std::uint64_t> words,
                     std::span<const IndexRange> only) {
  TableReader value = open_value_file(dir, variant, tier);
  if (value.header().record_count != entries || words.size() < (entries + 63) / 64)
    throw TableError(value_path(dir, tier), "holds " + std::to_string(value.header().record_count) +
                                                " positions, the tier has " +
                                                std::to_string(entries));
  copy_table_blocks(value, 1, words, only);
}

std::filesystem::path partial_path(const std::filesystem::path& dir, const std::string& tier) {
  return dir / (tier + ".partial");
}

void write_partial_tier(const std::filesystem::path& dir, const std::string& variant,
                        const std::string& tier, std::span<const std::uint64_t> words,
                        std::uint64_t positions, const PartialTier& state, int bits_per_entry,
                        const BeforeBatch& before_batch) {
  std::string encoding = absl::StrCat(kPartialEncoding, state.passes);
  const auto add = [&](absl::string_view key, const auto& value) {
    absl::StrAppend(&encoding, kFieldSeparator, key, value);
  };
  if (state.next_pass_done > 0) add(kNextPassKey, state.next_pass_done);
  if (!state.folded.empty()) add(kFoldedKey, absl::StrJoin(state.folded, ","));
  if (!state.folding.empty()) {
    add(kFoldingKey, absl::StrJoin(state.folding, ","));
    add(kFoldingThroughKey, state.folding_through);
  }
  // The record width tells a value-only solve's checkpoint (value bits) from a DTE solve's.
  const TableHeader header{variant, tier, positions, std::uint32_t(bits_per_entry), encoding};
  // Level 1: a checkpoint is written often and read at most once.
  write_packed_table(partial_path(dir, tier), header,
                     words.first((positions * std::uint64_t(bits_per_entry) + 63) / 64), 1,
                     kDefaultBlockBytes, before_batch);
}

PartialTier read_partial_tier(const std::filesystem::path& dir, const std::string& variant,
                              const std::string& tier, std::span<std::uint64_t> words,
                              int bits_per_entry, std::span<const IndexRange> only) {
  const std::filesystem::path path = partial_path(dir, tier);
  if (!std::filesystem::exists(path)) return {};
  TableReader partial(path, variant, tier);
  const std::string& encoding = partial.header().encoding;
  const auto refuse = [&] { return TableError(path, "is not a checkpoint of this tier"); };
  if (!absl::StartsWith(encoding, kPartialEncoding) ||
      partial.header().record_count > words.size() * 64 / std::uint64_t(bits_per_entry))
    throw refuse();
  if (partial.header().bits_per_record != std::uint32_t(bits_per_entry))
    throw TableError(path, bits_per_entry == 1
                               ? "is a checkpoint of a solve with DTEs, not --value-only"
                               : "is a checkpoint of a --value-only solve, not one with DTEs");
  PartialTier state;
  state.saved_entries = partial.header().record_count;
  const auto number = [&](absl::string_view text, auto& value) {
    if (!absl::SimpleAtoi(text, &value)) throw refuse();
  };
  const std::vector<absl::string_view> fields =
      absl::StrSplit(absl::string_view(encoding).substr(kPartialEncoding.size()), kFieldSeparator);
  number(fields[0], state.passes);
  for (std::size_t f = 1; f < fields.size(); ++f) {
    absl::string_view field = fields[f];
    if (absl::ConsumePrefix(&field, kNextPassKey))
      number(field, state.next_pass_done);
    else if (absl::ConsumePrefix(&field, kFoldedKey))
      state.folded = absl::StrSplit(field, ',');
    else if (absl::ConsumePrefix(&field, kFoldingKey))
      state.folding = absl::StrSplit(field, ',');
    else if (absl::ConsumePrefix(&field, kFoldingThroughKey))
      number(field, state.folding_through);
    else
      throw refuse();
  }
  copy_table_blocks(partial, std::uint64_t(bits_per_entry), words, only);
  return state;
}

std::string tables_variant(const std::filesystem::path& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error))
    if (entry.path().extension() == ".value") return TableReader(entry.path()).header().variant;
  throw TableError(dir, "holds no solved tables (no .value files)");
}

int tables_max_pieces(const std::filesystem::path& dir) {
  int most = -1;
  bool any_finished = false;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    // A checkpoint is a tier being solved: it belongs to the tables' space, if not yet finished.
    const auto extension = entry.path().extension();
    any_finished = any_finished || extension == ".value";
    if (extension == ".value" || extension == ".partial")
      most = std::max(most, int(entry.path().stem().string().size()) - 1);  // less the 'v'
  }
  if (!any_finished) throw TableError(dir, "holds no solved tables (no .value files)");
  return most;
}

}  // namespace tablebase
