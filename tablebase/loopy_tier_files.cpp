#include "tablebase/loopy_tier_files.h"

#include <algorithm>
#include <bit>
#include <iterator>
#include <span>
#include <string_view>

#include "tablebase/loopy_reach.h"
#include "tablebase/tier_files.h"

namespace tablebase {

namespace {

// The .wdl encodings by format, the one written last; format 1 had every entry solved.
constexpr std::string_view kWdlEncodings[] = {
    "loopy wdl 1: 0 draw, else distance + 1 (odd distance: win); ",
    "loopy wdl 2: 0 not in the row, 1 draw, else distance + 2 (odd distance: win); "};
constexpr int kWdlFormat = 2;
constexpr std::string_view kReachedEncoding = "reached from the roots; ";

std::string wdl_encoding(const LoopyTableName& name, int format) {
  return std::string(kWdlEncodings[format - 1]) + name.scheme;
}
std::string reached_encoding(const LoopyTableName& name) {
  return std::string(kReachedEncoding) + name.scheme;
}

std::uint32_t wdl_record(std::uint8_t code) {
  if (code == kLoopyNotInRow) return 0;
  return code == kLoopyDraw ? 1 : std::uint32_t(code) + 2;
}

// The code of a record of `format`; throws TableError for one no writer makes.
LoopyCode wdl_code(const std::filesystem::path& path, int format, std::uint32_t record) {
  const std::uint32_t first_distance = format == 1 ? 1 : 2;  // the record of a loss in 0
  if (record > kMaxLoopyDistance + first_distance)
    throw TableError(path, "holds a distance past the longest a loopy table holds");
  if (format == 2 && record == 0) return kLoopyNotInRow;
  return record == first_distance - 1 ? kLoopyDraw : LoopyCode(record - first_distance);
}

// Opens `path` and checks it is the named tier's, of `entries` records, in one of `encodings`;
// `which`, when given, gets the index of the one it holds.
TableReader open_checked(const std::filesystem::path& path, const LoopyTableName& name,
                         std::span<const std::string> encodings, std::uint64_t entries,
                         int* which = nullptr) {
  TableReader reader(path, name.variant, name.tier);
  const auto held = std::find(encodings.begin(), encodings.end(), reader.header().encoding);
  if (held == encodings.end())
    throw TableError(path, "holds '" + reader.header().encoding + "', this build reads '" +
                               encodings.back() +
                               "'; solve the variant again into an empty directory");
  if (which) *which = int(held - encodings.begin());
  if (reader.header().record_count != entries)
    throw TableError(path, "holds " + std::to_string(reader.header().record_count) +
                               " positions, the tier has " + std::to_string(entries));
  return reader;
}

// NAME.wdl opened and checked; `format` gets its format.
TableReader open_wdl(const LoopyTableName& name, std::uint64_t entries, int& format) {
  const std::string encodings[] = {wdl_encoding(name, 1), wdl_encoding(name, 2)};
  int which = 0;
  TableReader reader = open_checked(loopy_wdl_path(name), name, encodings, entries, &which);
  const std::uint32_t bits = reader.header().bits_per_record;
  if (bits > 8 || 64 % bits != 0)
    throw TableError(loopy_wdl_path(name), "has records no writer makes");
  format = which + 1;
  return reader;
}

}  // namespace

std::filesystem::path loopy_wdl_path(const LoopyTableName& name) {
  return name.dir / (name.tier + ".wdl");
}
std::filesystem::path loopy_reached_path(const LoopyTableName& name) {
  return name.dir / (name.tier + ".reached");
}

std::uint64_t write_loopy_tier(const LoopyTableName& name, std::span<const LoopyCode> codes,
                               int zstd_level, const std::uint64_t* reached) {
  const auto record = [&](std::uint64_t i) {
    return reached && !reached_bit(reached, i) ? wdl_record(kLoopyNotInRow) : wdl_record(codes[i]);
  };
  std::uint32_t most = 0;
  for (std::uint64_t i = 0; i < codes.size(); ++i) most = std::max(most, record(i));
  const auto bits = std::bit_ceil(std::max(1u, unsigned(std::bit_width(most))));
  const TableHeader header{name.variant, name.tier, codes.size(), bits,
                           wdl_encoding(name, kWdlFormat)};
  write_table_blocks(
      loopy_wdl_path(name), header,
      [&](std::uint64_t first, std::span<std::uint64_t> words) {
        const std::uint64_t end =
            std::min<std::uint64_t>(codes.size(), first + words.size() * 64 / bits);
        for (std::uint64_t i = first; i < end; ++i) {
          const std::uint64_t bit = (i - first) * bits;
          words[bit >> 6] |= std::uint64_t(record(i)) << (bit & 63);
        }
      },
      zstd_level);
  return std::filesystem::file_size(loopy_wdl_path(name));
}

LoopyTierReader::LoopyTierReader(const LoopyTableName& name, std::uint64_t entries)
    : path_(loopy_wdl_path(name)), reader_(open_wdl(name, entries, format_)) {}

LoopyCode LoopyTierReader::code(std::uint64_t index) {
  return wdl_code(path_, format_, reader_.get(index));
}

TableReader open_loopy_reached(const LoopyTableName& name, std::uint64_t entries) {
  const std::string encoding[] = {reached_encoding(name)};
  TableReader reader = open_checked(loopy_reached_path(name), name, encoding, entries);
  if (reader.header().bits_per_record != 1)
    throw TableError(loopy_reached_path(name), "has records no writer makes");
  return reader;
}

bool loopy_tier_present(const LoopyTableName& name, std::uint64_t entries) {
  if (!std::filesystem::exists(loopy_wdl_path(name))) return false;
  int format = 0;
  open_wdl(name, entries, format);
  return true;
}

void read_loopy_tier(const LoopyTableName& name, std::span<LoopyCode> codes) {
  int format = 0;
  TableReader reader = open_wdl(name, codes.size(), format);
  const std::filesystem::path path = loopy_wdl_path(name);
  const std::uint32_t bits = reader.header().bits_per_record;
  const std::uint64_t per_word = 64 / bits, mask = (std::uint64_t{1} << bits) - 1;
  reader.for_each_block([&](std::uint64_t first, std::span<const std::uint64_t> words) {
    const std::uint64_t end =
        std::min<std::uint64_t>(codes.size(), first + words.size() * per_word);
    for (std::uint64_t i = first; i < end; ++i) {
      const std::uint64_t r = i - first;
      codes[i] = wdl_code(path, format,
                          std::uint32_t(words[r / per_word] >> (r % per_word * bits) & mask));
    }
  });
}

void write_loopy_reached(const LoopyTableName& name, std::span<const std::uint64_t> words,
                         std::uint64_t entries, int zstd_level) {
  const TableHeader header{name.variant, name.tier, entries, 1, reached_encoding(name)};
  write_packed_table(loopy_reached_path(name), header, words.first((entries + 63) / 64),
                     zstd_level);
}

bool loopy_reached_present(const LoopyTableName& name, std::uint64_t entries) {
  if (!std::filesystem::exists(loopy_reached_path(name))) return false;
  open_loopy_reached(name, entries);
  return true;
}

void read_loopy_reached(const LoopyTableName& name, std::span<std::uint64_t> words,
                        std::uint64_t entries) {
  TableReader reader = open_loopy_reached(name, entries);
  copy_table_blocks(reader, 1, words);
}

std::optional<std::string> loopy_tables_variant(const std::filesystem::path& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const auto extension = entry.path().extension();
    if (extension != ".reached" && extension != ".wdl") continue;
    const TableReader reader(entry.path());
    const std::string& encoding = reader.header().encoding;
    const bool loopy =
        extension == ".reached"
            ? encoding.starts_with(kReachedEncoding)
            : std::any_of(std::begin(kWdlEncodings), std::end(kWdlEncodings),
                          [&](std::string_view e) { return encoding.starts_with(e); });
    if (loopy) return reader.header().variant;
  }
  return std::nullopt;
}

}  // namespace tablebase
