#include "tablebase/loopy_tier_files.h"

#include <algorithm>
#include <bit>
#include <string_view>
#include <vector>

#include "solver/zeroed_array.h"
#include "tablebase/tier_files.h"

namespace tablebase {

namespace {

constexpr std::string_view kWdlEncoding =
    "loopy wdl 1: 0 draw, else distance + 1 (odd distance: win); ";
constexpr std::string_view kReachedEncoding = "reached from the roots; ";

std::string wdl_encoding(const LoopyTableName& name) {
  return std::string(kWdlEncoding) + name.scheme;
}
std::string reached_encoding(const LoopyTableName& name) {
  return std::string(kReachedEncoding) + name.scheme;
}

std::uint32_t wdl_record(std::uint8_t code) {
  return code == kLoopyDraw ? 0 : std::uint32_t(code) + 1;
}

// Opens `path` and checks it is the named tier's (or `tier`'s), in `encoding`, of `entries`
// records.
TableReader open_checked(const std::filesystem::path& path, const LoopyTableName& name,
                         const std::string& encoding, std::uint64_t entries,
                         const std::string& tier = {}) {
  TableReader reader(path, name.variant, tier.empty() ? name.tier : tier);
  if (reader.header().encoding != encoding)
    throw TableError(path, "holds '" + reader.header().encoding + "', this build reads '" +
                               encoding + "'; solve the variant again into an empty directory");
  if (reader.header().record_count != entries)
    throw TableError(path, "holds " + std::to_string(reader.header().record_count) +
                               " positions, the tier has " + std::to_string(entries));
  return reader;
}

std::string slice_tier(const LoopyTableName& name, IndexRange slice) {
  return name.tier + " entries " + std::to_string(slice.begin) + "-" + std::to_string(slice.end);
}

// Checks the records' width as every reader of .wdl records does.
TableReader checked_wdl_bits(TableReader reader, const std::filesystem::path& path) {
  const std::uint32_t bits = reader.header().bits_per_record;
  if (bits > 8 || 64 % bits != 0) throw TableError(path, "has records no writer makes");
  return reader;
}

TableReader open_loopy_slice(const LoopyTableName& name, IndexRange slice) {
  const auto path = loopy_slice_path(name, slice);
  return checked_wdl_bits(open_checked(path, name, wdl_encoding(name), slice.end - slice.begin,
                                       slice_tier(name, slice)),
                          path);
}

std::uint32_t record_bits(std::uint32_t most) {
  return std::bit_ceil(std::max(1u, unsigned(std::bit_width(most))));
}

// Decodes the records of `reader` (a .wdl or a slice of one) into codes, which holds the
// reader's records from 0; with `only`, just those.
void decode_records(const LoopyTableName& name, TableReader& reader, std::span<LoopyCode> codes,
                    std::span<const IndexRange> only) {
  const std::uint32_t bits = reader.header().bits_per_record;
  const std::uint64_t per_word = 64 / bits, mask = (std::uint64_t{1} << bits) - 1;
  reader.for_each_block(
      [&](std::uint64_t first, std::span<const std::uint64_t> words) {
        const IndexRange block{
            first, std::min<std::uint64_t>(codes.size(), first + words.size() * per_word)};
        const auto decode = [&](IndexRange r) {
          for (std::uint64_t i = r.begin; i < r.end; ++i) {
            const std::uint64_t k = i - first;
            codes[i] = loopy_record_code(
                name, std::uint32_t(words[k / per_word] >> (k % per_word * bits) & mask));
          }
        };
        if (only.empty()) return decode(block);
        // The ranges that end past the block's start, while they start before its end.
        auto r = std::partition_point(only.begin(), only.end(),
                                      [&](const IndexRange& x) { return x.end <= block.begin; });
        for (; r != only.end() && r->begin < block.end; ++r) decode(intersection(*r, block));
      },
      only);
}

}  // namespace

std::filesystem::path loopy_wdl_path(const LoopyTableName& name) {
  return name.dir / (name.tier + ".wdl");
}
std::filesystem::path loopy_reached_path(const LoopyTableName& name) {
  return name.dir / (name.tier + ".reached");
}

std::uint64_t write_loopy_tier(const LoopyTableName& name, std::span<const LoopyCode> codes,
                               int zstd_level) {
  std::uint32_t most = 0;
  for (LoopyCode c : codes) most = std::max(most, wdl_record(c));
  const TableHeader header{name.variant, name.tier, codes.size(), record_bits(most),
                           wdl_encoding(name)};
  write_byte_records(loopy_wdl_path(name), header, codes, wdl_record, zstd_level);
  return std::filesystem::file_size(loopy_wdl_path(name));
}

TableReader open_loopy_tier(const LoopyTableName& name, std::uint64_t entries) {
  return checked_wdl_bits(open_checked(loopy_wdl_path(name), name, wdl_encoding(name), entries),
                          loopy_wdl_path(name));
}

TableReader open_loopy_reached(const LoopyTableName& name, std::uint64_t entries) {
  TableReader reader =
      open_checked(loopy_reached_path(name), name, reached_encoding(name), entries);
  if (reader.header().bits_per_record != 1)
    throw TableError(loopy_reached_path(name), "has records no writer makes");
  return reader;
}

LoopyCode loopy_record_code(const LoopyTableName& name, std::uint32_t record) {
  if (record > kMaxLoopyDistance + 1)
    throw TableError(loopy_wdl_path(name), "holds a distance past the longest a loopy table holds");
  return record == 0 ? kLoopyDraw : LoopyCode(record - 1);
}

bool loopy_tier_present(const LoopyTableName& name, std::uint64_t entries) {
  if (!std::filesystem::exists(loopy_wdl_path(name))) return false;
  open_loopy_tier(name, entries);
  return true;
}

void read_loopy_tier(const LoopyTableName& name, std::span<LoopyCode> codes,
                     std::span<const IndexRange> only) {
  TableReader reader = open_loopy_tier(name, codes.size());
  decode_records(name, reader, codes, only);
}

std::filesystem::path loopy_slice_path(const LoopyTableName& name, IndexRange slice) {
  return name.dir / (name.tier + "." + std::to_string(slice.begin) + "-" +
                     std::to_string(slice.end) + ".slice");
}

void write_loopy_slice(const LoopyTableName& name, IndexRange slice,
                       std::span<const LoopyCode> codes, int zstd_level) {
  std::uint32_t most = 0;
  for (LoopyCode c : codes) most = std::max(most, wdl_record(c));
  const TableHeader header{name.variant, slice_tier(name, slice), codes.size(), record_bits(most),
                           wdl_encoding(name)};
  write_byte_records(loopy_slice_path(name, slice), header, codes, wdl_record, zstd_level);
}

bool loopy_slice_present(const LoopyTableName& name, IndexRange slice) {
  if (!std::filesystem::exists(loopy_slice_path(name, slice))) return false;
  open_loopy_slice(name, slice);
  return true;
}

std::uint64_t merge_loopy_slices(const LoopyTableName& name, std::uint64_t entries,
                                 std::span<const IndexRange> slices, int zstd_level) {
  std::vector<TableReader> readers;
  std::uint32_t bits = 1;
  for (const IndexRange& s : slices) {
    readers.push_back(open_loopy_slice(name, s));
    bits = std::max(bits, readers.back().header().bits_per_record);
  }
  // The whole tier addressed, a batch of it in memory at a time: each batch's records read from
  // the slices it overlaps, the batch before given back.
  auto codes = solver::ZeroedArray<LoopyCode>::sparse(entries);
  IndexRange held;
  const auto bring = [&](std::uint64_t first, std::uint64_t end) {
    codes.discard(held.begin, held.end);
    held = {first, end};
    for (std::size_t k = 0; k < slices.size(); ++k) {
      const IndexRange part = intersection(slices[k], held);
      if (part.begin == part.end) continue;
      const IndexRange local{part.begin - slices[k].begin, part.end - slices[k].begin};
      decode_records(
          name, readers[k],
          std::span<LoopyCode>(codes.data() + slices[k].begin, slices[k].end - slices[k].begin),
          std::span<const IndexRange>(&local, 1));
    }
  };
  const TableHeader header{name.variant, name.tier, entries, bits, wdl_encoding(name)};
  write_byte_records(loopy_wdl_path(name), header, codes, wdl_record, zstd_level, bring);
  for (const IndexRange& s : slices) std::filesystem::remove(loopy_slice_path(name, s));
  return std::filesystem::file_size(loopy_wdl_path(name));
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
    if (encoding.starts_with(extension == ".reached" ? kReachedEncoding : kWdlEncoding))
      return reader.header().variant;
  }
  return std::nullopt;
}

}  // namespace tablebase
