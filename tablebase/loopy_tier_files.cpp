#include "tablebase/loopy_tier_files.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <iterator>
#include <span>
#include <string_view>
#include <vector>

#include "tablebase/file_io.h"
#include "tablebase/loopy_reach.h"
#include "tablebase/tier_files.h"
#include "tablebase/value_digest.h"

namespace tablebase {

namespace {

// The .wdl encodings by format, the one written last; format 1 had every entry solved.
constexpr std::string_view kWdlEncodings[] = {
    "loopy wdl 1: 0 draw, else distance + 1 (odd distance: win); ",
    "loopy wdl 2: 0 not in the row, 1 draw, else distance + 2 (odd distance: win); "};
constexpr int kWdlFormat = 2;
constexpr std::string_view kReachedEncoding = "reached from the roots; ";
constexpr std::string_view kMarksEncoding = "reach marks so far; ";

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

std::uint32_t record_bits(std::uint32_t most) {
  return std::bit_ceil(std::max(1u, unsigned(std::bit_width(most))));
}

// The records of `codes` in the format written (kWdlFormat): with `reached` (the tier's reached
// bits, codes[i] being the tier's entry first + i), an entry not marked is not in the row,
// whatever its code.
struct WdlRecords {
  std::span<const LoopyCode> codes;
  const std::uint64_t* reached = nullptr;
  std::uint64_t first = 0;

  std::uint32_t operator()(std::uint64_t i) const {
    return reached && !reached_bit(reached, first + i) ? wdl_record(kLoopyNotInRow)
                                                       : wdl_record(codes[i]);
  }
  // The fewest bits that hold every record.
  std::uint32_t bits() const {
    std::uint32_t most = 0;
    for (std::uint64_t i = 0; i < codes.size(); ++i) most = std::max(most, (*this)(i));
    return record_bits(most);
  }
};

// Writes `records`, `bits` wide, to `path`: NAME.wdl (header tier name.tier) or a slice of it.
void write_wdl(const std::filesystem::path& path, const LoopyTableName& name,
               const std::string& tier, const WdlRecords& records, std::uint32_t bits,
               int zstd_level) {
  const TableHeader header{name.variant, tier, records.codes.size(), bits,
                           wdl_encoding(name, kWdlFormat)};
  write_indexed_records(path, header, records, zstd_level);
}

// Checks the table `reader` opened at `path` holds `entries` records in one of `encodings`;
// returns the index of the one it holds through `which`, when given.
void check_contents(const TableReader& reader, const std::filesystem::path& path,
                    std::span<const std::string> encodings, std::uint64_t entries,
                    int* which = nullptr) {
  const auto held = std::find(encodings.begin(), encodings.end(), reader.header().encoding);
  if (held == encodings.end())
    throw TableError(path, "holds '" + reader.header().encoding + "', this build reads '" +
                               encodings.back() +
                               "'; solve the variant again into an empty directory");
  if (which) *which = int(held - encodings.begin());
  if (reader.header().record_count != entries)
    throw TableError(path, "holds " + std::to_string(reader.header().record_count) +
                               " positions, the tier has " + std::to_string(entries));
}

// Opens `path` and checks it is the named variant's tier `tier`, of `entries` records, in one of
// `encodings` (check_contents).
TableReader open_checked(const std::filesystem::path& path, const LoopyTableName& name,
                         const std::string& tier, std::span<const std::string> encodings,
                         std::uint64_t entries, int* which = nullptr) {
  TableReader reader(path, name.variant, tier);
  check_contents(reader, path, encodings, entries, which);
  return reader;
}

// The header tier of NAME.marks with `spread` blocks spread.
std::string marks_tier(const LoopyTableName& name, std::uint64_t spread) {
  return name.tier + " marks, blocks 0-" + std::to_string(spread) + " spread";
}

// A .wdl file at `path`, NAME.wdl or a slice of it (header tier `tier`), opened and checked: of
// `entries` records in a format from `oldest` to kWdlFormat, of a width a writer makes; `format`
// gets its format.
TableReader open_wdl(const std::filesystem::path& path, const LoopyTableName& name,
                     const std::string& tier, std::uint64_t entries, int oldest, int& format) {
  std::vector<std::string> encodings;
  for (int f = oldest; f <= kWdlFormat; ++f) encodings.push_back(wdl_encoding(name, f));
  int which = 0;
  TableReader reader = open_checked(path, name, tier, encodings, entries, &which);
  const std::uint32_t bits = reader.header().bits_per_record;
  if (bits > 8 || 64 % bits != 0) throw TableError(path, "has records no writer makes");
  format = oldest + which;
  return reader;
}

std::string slice_tier(const LoopyTableName& name, IndexRange slice) {
  return name.tier + " entries " + std::to_string(slice.begin) + "-" + std::to_string(slice.end);
}

// A slice's file opened and checked. Only the format written: slices are merged record for
// record, so the merged file's width is their headers' (a run stopped inside a tier by a build
// that wrote format 1 leaves slices this one refuses by name).
TableReader open_loopy_slice(const LoopyTableName& name, IndexRange slice) {
  int format = 0;
  return open_wdl(loopy_slice_path(name, slice), name, slice_tier(name, slice),
                  slice.end - slice.begin, kWdlFormat, format);
}

// Decodes the records of `reader` (at `path`, a .wdl of `format` or a slice of one) into codes,
// which holds the reader's records from 0; with `only`, just those.
void decode_records(const std::filesystem::path& path, int format, TableReader& reader,
                    std::span<LoopyCode> codes, std::span<const IndexRange> only) {
  const std::uint32_t bits = reader.header().bits_per_record;
  const std::uint64_t per_word = 64 / bits, mask = (std::uint64_t{1} << bits) - 1;
  reader.for_each_block(
      [&](std::uint64_t first, std::span<const std::uint64_t> words) {
        const IndexRange block{
            first, std::min<std::uint64_t>(codes.size(), first + words.size() * per_word)};
        const auto decode = [&](IndexRange r) {
          for (std::uint64_t i = r.begin; i < r.end; ++i) {
            const std::uint64_t k = i - first;
            codes[i] = wdl_code(path, format,
                                std::uint32_t(words[k / per_word] >> (k % per_word * bits) & mask));
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

// Copies `count` records from `from` (packed `from_bits` wide, starting at record `from_at`) into
// `to` (packed `to_bits` wide, starting at record `to_at`, zeroed there): widths a power of two
// (no record straddles a word), to_bits >= from_bits.
void copy_records(std::span<const std::uint64_t> from, std::uint32_t from_bits,
                  std::uint64_t from_at, std::span<std::uint64_t> to, std::uint32_t to_bits,
                  std::uint64_t to_at, std::uint64_t count) {
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t t = (to_at + i) * to_bits;
    to[t >> 6] |= std::uint64_t(packed_record(from, (from_at + i) * from_bits, from_bits))
                  << (t & 63);
  }
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
  const WdlRecords records{codes, reached};
  write_wdl(loopy_wdl_path(name), name, name.tier, records, records.bits(), zstd_level);
  return std::filesystem::file_size(loopy_wdl_path(name));
}

std::uint64_t loopy_tier_digest(const LoopyTableName& name, std::uint64_t entries) {
  int format = 0;
  const std::filesystem::path path = loopy_wdl_path(name);
  TableReader reader = open_wdl(path, name, name.tier, entries, 1, format);
  return records_digest(reader,
                        [&](std::uint32_t record) { return wdl_code(path, format, record); });
}

std::uint64_t write_loopy_tier_by_rank(const LoopyTableName& name, const ReachedRanks& ranks,
                                       std::span<const LoopyCode> codes, int zstd_level) {
  std::uint32_t most = 0;
  for (const LoopyCode code : codes) most = std::max(most, wdl_record(code));
  const auto record = [&](std::uint64_t i) {
    return ranks.has(i) ? wdl_record(codes[ranks.rank(i)]) : wdl_record(kLoopyNotInRow);
  };
  const TableHeader header{name.variant, name.tier, ranks.entries(), record_bits(most),
                           wdl_encoding(name, kWdlFormat)};
  write_indexed_records(loopy_wdl_path(name), header, record, zstd_level);
  return std::filesystem::file_size(loopy_wdl_path(name));
}

LoopyTierReader::LoopyTierReader(const LoopyTableName& name, std::uint64_t entries)
    : path_(loopy_wdl_path(name)), reader_(open_wdl(path_, name, name.tier, entries, 1, format_)) {}

LoopyCode LoopyTierReader::code(std::uint64_t index) {
  return wdl_code(path_, format_, reader_.get(index));
}

TableReader open_loopy_reached(const LoopyTableName& name, std::uint64_t entries) {
  const std::string encoding[] = {reached_encoding(name)};
  TableReader reader = open_checked(loopy_reached_path(name), name, name.tier, encoding, entries);
  if (reader.header().bits_per_record != 1)
    throw TableError(loopy_reached_path(name), "has records no writer makes");
  return reader;
}

bool loopy_tier_present(const LoopyTableName& name, std::uint64_t entries) {
  if (!std::filesystem::exists(loopy_wdl_path(name))) return false;
  int format = 0;
  open_wdl(loopy_wdl_path(name), name, name.tier, entries, 1, format);
  return true;
}

void read_loopy_tier(const LoopyTableName& name, std::span<LoopyCode> codes,
                     std::span<const IndexRange> only) {
  int format = 0;
  TableReader reader = open_wdl(loopy_wdl_path(name), name, name.tier, codes.size(), 1, format);
  decode_records(loopy_wdl_path(name), format, reader, codes, only);
}

std::filesystem::path loopy_slice_path(const LoopyTableName& name, IndexRange slice) {
  return name.dir / (name.tier + "." + std::to_string(slice.begin) + "-" +
                     std::to_string(slice.end) + ".slice");
}

std::vector<IndexRange> loopy_slices_on_disk(const LoopyTableName& name) {
  std::vector<IndexRange> found;
  const std::string prefix = name.tier + ".";
  constexpr std::string_view kSuffix = ".slice";
  std::error_code error;
  for (const auto& e : std::filesystem::directory_iterator(name.dir, error)) {
    const std::string file = e.path().filename().string();
    if (file.size() <= prefix.size() + kSuffix.size() || !file.starts_with(prefix) ||
        !file.ends_with(kSuffix))
      continue;
    const std::string_view range(file.data() + prefix.size(),
                                 file.size() - prefix.size() - kSuffix.size());
    IndexRange r;
    const char* end = range.data() + range.size();
    const auto first = std::from_chars(range.data(), end, r.begin);
    if (first.ec != std::errc() || first.ptr == end || *first.ptr != '-') continue;
    const auto last = std::from_chars(first.ptr + 1, end, r.end);
    if (last.ec != std::errc() || last.ptr != end || r.begin >= r.end) continue;
    if (loopy_slice_path(name, r).filename() == file) found.push_back(r);  // no other spelling
  }
  std::sort(found.begin(), found.end(), [](IndexRange a, IndexRange b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  return found;
}

void write_loopy_slice(const LoopyTableName& name, IndexRange slice,
                       std::span<const LoopyCode> codes, int zstd_level,
                       const std::uint64_t* reached) {
  const WdlRecords records{codes, reached, slice.begin};
  write_wdl(loopy_slice_path(name, slice), name, slice_tier(name, slice), records, records.bits(),
            zstd_level);
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
  // A slice's records are the tier's, in as many bits or fewer: each block of the tier is packed,
  // in parallel, from the blocks of the slices it overlaps, its records copied as they are (no
  // record decoded, no more than a block a thread in memory).
  const TableHeader header{name.variant, name.tier, entries, bits, wdl_encoding(name, kWdlFormat)};
  write_table_blocks(
      loopy_wdl_path(name), header,
      [&](std::uint64_t first, std::span<std::uint64_t> words) {
        const IndexRange block{first, std::min(entries, first + words.size() * 64 / bits)};
        auto k =
            std::size_t(std::partition_point(slices.begin(), slices.end(),
                                             [&](IndexRange s) { return s.end <= block.begin; }) -
                        slices.begin());
        for (; k < slices.size() && slices[k].begin < block.end; ++k) {
          const IndexRange part = intersection(slices[k], block);
          const TableReader& reader = readers[k];
          const std::uint64_t per_block = reader.records_per_block();
          for (std::uint64_t b = (part.begin - slices[k].begin) / per_block;
               slices[k].begin + b * per_block < part.end; ++b) {
            const std::uint64_t from_first = slices[k].begin + b * per_block;
            const IndexRange in = intersection(part, {from_first, from_first + per_block});
            copy_records(reader.read_block(b), reader.header().bits_per_record,
                         in.begin - from_first, words, bits, in.begin - first, in.end - in.begin);
          }
        }
      },
      zstd_level);
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

std::filesystem::path loopy_marks_path(const LoopyTableName& name) {
  return name.dir / (name.tier + ".marks");
}

void write_loopy_marks(const LoopyTableName& name, std::span<const std::uint64_t> words,
                       std::uint64_t entries, std::uint64_t spread_blocks, int zstd_level) {
  const TableHeader header{name.variant, marks_tier(name, spread_blocks), entries, 1,
                           std::string(kMarksEncoding) + name.scheme};
  write_packed_table(loopy_marks_path(name), header, words.first((entries + 63) / 64), zstd_level);
}

std::optional<std::uint64_t> read_loopy_marks(const LoopyTableName& name,
                                              std::span<std::uint64_t> words, std::uint64_t entries,
                                              std::uint64_t blocks) {
  const std::filesystem::path path = loopy_marks_path(name);
  if (!std::filesystem::exists(path)) return std::nullopt;
  TableReader reader(path, name.variant);
  // The blocks spread, from the header's tier: the digits between what marks_tier puts around.
  const std::string& tier = reader.header().tier;
  const std::string before = marks_tier(name, 0), after = " spread";
  const std::string_view prefix(before.data(), before.size() - after.size() - 1);
  std::uint64_t spread = 0;
  const char* digits = tier.data() + std::min(tier.size(), prefix.size());
  const char* end = tier.data() + tier.size() - std::min(tier.size(), after.size());
  const auto [stop, error] = std::from_chars(digits, end, spread);
  if (!tier.starts_with(prefix) || !tier.ends_with(after) || digits >= end ||
      error != std::errc() || stop != end || spread > blocks)
    throw TableError(path, "holds '" + tier + "', not the reach marks of tier " + name.tier +
                               " (of " + std::to_string(blocks) + " blocks)");
  const std::string encoding[] = {std::string(kMarksEncoding) + name.scheme};
  check_contents(reader, path, encoding, entries);
  if (reader.header().bits_per_record != 1) throw TableError(path, "has records no writer makes");
  copy_table_blocks(reader, 1, words);
  return spread;
}

void remove_loopy_marks(const LoopyTableName& name) {
  const std::filesystem::path path = loopy_marks_path(name);
  std::filesystem::remove(path);
  std::filesystem::remove(file_io::temporary_path(path));
}

std::optional<std::string> loopy_tables_variant(const std::filesystem::path& dir) {
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    const auto extension = entry.path().extension();
    if (extension != ".reached" && extension != ".wdl") continue;
    if (extension == ".wdl" && !is_table_file(entry.path())) continue;  // a keyed table
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
