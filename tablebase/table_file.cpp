#include "tablebase/table_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <tbb/blocked_range.h>
#include <unistd.h>
// For zstd's estimates of its contexts' sizes (in Debian's shared library, as in every build).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <mutex>
#include <optional>
#include <utility>

#include "solver/parallel_for.h"
#include "tablebase/checked_header.h"
#include "tablebase/crc64.h"
#include "tablebase/file_io.h"

namespace tablebase {

// Words are written as they lie in memory; a big-endian port would byte-swap in pack/unpack.
static_assert(std::endian::native == std::endian::little, "table files are little-endian");

using namespace file_io;

namespace {

constexpr std::array<char, 8> kMagic = {'D', 'R', 'O', 'P', '1', '6', 'T', 'B'};
constexpr std::size_t kHeaderFixedBytes = 40;  // up to the strings
constexpr std::size_t kMinHeaderBytes = kHeaderFixedBytes + 3 * 2 + 8;
constexpr std::size_t kMaxHeaderBytes = kMinHeaderBytes + 3 * kMaxHeaderString;
constexpr std::size_t kMinBlockBytes = 512;
constexpr std::size_t kMaxBlockBytes = std::size_t{64} << 20;
constexpr std::size_t kCacheSlots = 8;
// Raw bytes compressed per parallel batch when writing: enough blocks to keep every core busy,
// few enough that the compressed batch waiting to be written stays small.
constexpr std::size_t kWriteBatchBytes = std::size_t{32} << 20;

std::uint32_t record_mask(std::uint32_t bits) {
  return bits == 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << bits) - 1;
}

// The block geometry both the writer and the reader derive from (record count, width, R).
struct Layout {
  std::uint64_t record_count, bits, records_per_block, block_count, total_words, block_words;

  Layout(std::uint64_t n, std::uint32_t b, std::uint64_t r)
      : record_count(n),
        bits(b),
        records_per_block(r),
        block_count(ceil_div(n, r)),
        total_words(ceil_div(n * b, 64)),
        block_words(r * b / 64) {}

  std::uint64_t words_in_block(std::uint64_t i) const {
    return std::min(block_words, total_words - i * block_words);
  }
  std::uint64_t index_bytes() const { return 16 * block_count + 16; }
};

void check_header_for_write(const TableHeader& h, std::size_t block_bytes) {
  if (h.bits_per_record < 1 || h.bits_per_record > 32)
    throw std::invalid_argument("table bits_per_record must be 1..32, not " +
                                std::to_string(h.bits_per_record));
  for (const std::string* s : {&h.variant, &h.tier, &h.encoding}) {
    if (s->size() > kMaxHeaderString)
      throw std::invalid_argument("table header string longer than " +
                                  std::to_string(kMaxHeaderString) + " bytes");
  }
  if (h.record_count > std::numeric_limits<std::uint64_t>::max() / 64)
    throw std::invalid_argument("table record_count too large");
  if (block_bytes < kMinBlockBytes || block_bytes > kMaxBlockBytes)
    throw std::invalid_argument("table block_bytes must be " + std::to_string(kMinBlockBytes) +
                                ".." + std::to_string(kMaxBlockBytes));
}

std::vector<std::byte> encode_header(const TableHeader& h, const Layout& layout) {
  ByteWriter w;
  w.raw({kMagic.data(), kMagic.size()});
  w.u32(kTableFormatVersion);
  w.u32(std::uint32_t(kMinHeaderBytes + h.variant.size() + h.tier.size() + h.encoding.size()));
  w.u64(h.record_count);
  w.u32(h.bits_per_record);
  w.u32(std::uint32_t(layout.records_per_block));
  w.u64(layout.block_count);
  w.str(h.variant);
  w.str(h.tier);
  w.str(h.encoding);
  w.u64(crc64(w.bytes()));
  return std::move(w.bytes());
}

// The writer proper, for a checked header. fill(i, words) puts block i's packed records into
// `words` (zeroed, exactly words_in_block(i) long).
// The highest zstd level a writer takes (the default of write_table and the others).
constexpr int kHighestZstdLevel = 19;

}  // namespace

std::uint64_t table_write_buffer_bytes(std::uint64_t raw_bytes, std::size_t block_bytes) {
  const std::uint64_t blocks = ceil_div(raw_bytes, block_bytes);
  const std::uint64_t batch = std::min<std::uint64_t>(blocks, kWriteBatchBytes / block_bytes);
  // Each block's buffer keeps the capacity of its bound; the index is two words a block.
  return batch * ZSTD_compressBound(block_bytes) + 16 * (blocks + 2);
}

std::uint64_t table_read_buffer_bytes(std::uint64_t raw_bytes, std::size_t block_bytes) {
  return 16 * (ceil_div(raw_bytes, block_bytes) + 2) + kCacheSlots * block_bytes;
}

std::uint64_t table_thread_buffer_bytes(std::size_t block_bytes) {
  return ZSTD_estimateCCtxSize_usingCParams(ZSTD_getCParams(kHighestZstdLevel, block_bytes, 0)) +
         ZSTD_estimateDCtxSize() + 2 * ZSTD_compressBound(block_bytes) + block_bytes;
}

namespace {

template <class FillBlock>
void write_blocks(const std::filesystem::path& path, const TableHeader& header, int zstd_level,
                  std::size_t block_bytes, FillBlock fill, const BeforeBatch& before_batch = {}) {
  const Layout layout(header.record_count, header.bits_per_record,
                      records_per_block(header.bits_per_record, block_bytes));
  const std::vector<std::byte> header_bytes = encode_header(header, layout);
  const std::uint64_t data_offset = header_bytes.size() + layout.index_bytes();

  file_io::write_atomically(path, [&](int fd, const std::filesystem::path& tmp) {
    pwrite_all(fd, tmp, header_bytes, 0);

    ByteWriter index;
    std::uint64_t offset = data_offset;
    std::uint64_t batch_blocks = std::max<std::uint64_t>(1, kWriteBatchBytes / block_bytes);
    if (before_batch)
      batch_blocks = std::clamp<std::uint64_t>(kStreamedBatchRecords / layout.records_per_block, 1,
                                               batch_blocks);
    std::vector<std::vector<std::byte>> compressed(std::min(batch_blocks, layout.block_count));
    for (std::uint64_t first = 0; first < layout.block_count; first += batch_blocks) {
      const std::uint64_t count = std::min(batch_blocks, layout.block_count - first);
      if (before_batch)
        before_batch(first * layout.records_per_block,
                     std::min(layout.record_count, (first + count) * layout.records_per_block));
      solver::parallel_for(std::uint64_t{0}, count, [&](std::uint64_t k) {
        const std::uint64_t i = first + k;
        std::vector<std::uint64_t> words(layout.words_in_block(i));
        fill(i, std::span<std::uint64_t>(words));
        // Padding bits past the last record are zero, so equal tables give equal files.
        if (i + 1 == layout.block_count && (layout.record_count * layout.bits) % 64 != 0)
          words.back() &= ~std::uint64_t{0} >> (64 - (layout.record_count * layout.bits) % 64);
        const std::size_t raw_size = words.size() * 8;
        std::vector<std::byte>& out = compressed[k];
        out.resize(ZSTD_compressBound(raw_size));
        const std::size_t n = ZSTD_compressCCtx(thread_cctx(), out.data(), out.size(), words.data(),
                                                raw_size, zstd_level);
        if (ZSTD_isError(n))
          throw TableWriteError(tmp,
                                std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
        out.resize(n);
      });
      for (std::uint64_t k = 0; k < count; ++k) {
        pwrite_all(fd, tmp, compressed[k], offset);
        index.u64(offset);
        index.u64(crc64(compressed[k]));
        offset += compressed[k].size();
      }
    }
    index.u64(offset);
    index.u64(crc64(index.bytes()));
    pwrite_all(fd, tmp, index.bytes(), header_bytes.size());
  });
}

}  // namespace

TableError::TableError(const std::filesystem::path& file, const std::string& fault)
    : std::runtime_error(file.string() + ": " + fault) {}

std::uint64_t records_per_block(std::uint32_t bits_per_record, std::size_t block_bytes) {
  return std::max<std::uint64_t>(1, block_bytes * 8 / bits_per_record / 64) * 64;
}

void write_table(const std::filesystem::path& path, const TableHeader& header,
                 std::span<const std::uint32_t> records, int zstd_level, std::size_t block_bytes) {
  check_header_for_write(header, block_bytes);
  if (records.size() != header.record_count)
    throw std::invalid_argument("write_table: " + std::to_string(records.size()) +
                                " records for a header of " + std::to_string(header.record_count));
  const std::uint32_t bits = header.bits_per_record;
  const std::uint64_t per_block = records_per_block(bits, block_bytes);
  write_blocks(path, header, zstd_level, block_bytes,
               [&](std::uint64_t block, std::span<std::uint64_t> words) {
                 const std::uint64_t first = block * per_block;
                 const std::uint64_t end =
                     std::min<std::uint64_t>(first + per_block, records.size());
                 const std::uint32_t mask = record_mask(bits);
                 for (std::uint64_t r = first, bit = 0; r < end; ++r, bit += bits) {
                   const std::uint64_t v = records[r] & mask;
                   const unsigned shift = bit & 63;
                   words[bit >> 6] |= v << shift;
                   if (shift + bits > 64) words[(bit >> 6) + 1] |= v >> (64 - shift);
                 }
               });
}

void write_packed_table(const std::filesystem::path& path, const TableHeader& header,
                        std::span<const std::uint64_t> packed_words, int zstd_level,
                        std::size_t block_bytes, const BeforeBatch& before_batch) {
  check_header_for_write(header, block_bytes);
  const std::uint64_t needed = ceil_div(header.record_count * header.bits_per_record, 64);
  if (packed_words.size() != needed)
    throw std::invalid_argument("write_packed_table: " + std::to_string(packed_words.size()) +
                                " words, " + std::to_string(needed) + " needed");
  const std::uint64_t block_words =
      records_per_block(header.bits_per_record, block_bytes) * header.bits_per_record / 64;
  write_blocks(
      path, header, zstd_level, block_bytes,
      [&](std::uint64_t block, std::span<std::uint64_t> words) {
        std::copy_n(packed_words.begin() + block * block_words, words.size(), words.begin());
      },
      before_batch);
}

void write_table_blocks(const std::filesystem::path& path, const TableHeader& header,
                        const PackBlock& pack, int zstd_level, std::size_t block_bytes,
                        const BeforeBatch& before_batch) {
  check_header_for_write(header, block_bytes);
  const std::uint64_t per_block = records_per_block(header.bits_per_record, block_bytes);
  write_blocks(
      path, header, zstd_level, block_bytes,
      [&](std::uint64_t block, std::span<std::uint64_t> words) { pack(block * per_block, words); },
      before_batch);
}

struct TableReader::Impl {
  std::filesystem::path path;
  Fd fd;
  TableHeader header;
  Layout layout{0, 1, 64};
  std::vector<std::uint64_t> offsets;  // block_count + 1: block i is [offsets[i], offsets[i+1])
  std::vector<std::uint64_t> crcs;

  std::shared_ptr<BlockCache> cache = std::make_shared<BlockCache>(kCacheSlots);
  // Its blocks go with it: another reader may later be made at the same address.
  ~Impl() {
    if (cache) cache->forget(this);
  }

  [[noreturn]] void fail(const std::string& fault) const { throw TableError(path, fault); }
  void read_at(std::span<std::byte> data, std::uint64_t offset, const std::string& what) const {
    if (auto error = pread_exact(fd.get(), data, offset))
      fail("cannot read " + what + ": " + *error);
  }

  void open(std::string_view expected_variant, std::string_view expected_tier);
  void read_index(std::uint64_t header_size, std::uint64_t file_size);
  // Reads block i, checks its checksum and decompresses it into `out` (words_in_block(i) long).
  void decode_block(std::uint64_t i, std::span<std::uint64_t> out) const;
};

bool is_table_file(const std::filesystem::path& path) {
  std::array<char, kMagic.size()> magic{};
  std::ifstream in(path, std::ios::binary);
  return in.read(magic.data(), std::streamsize(magic.size())) && magic == kMagic;
}

void TableReader::Impl::open(std::string_view expected_variant, std::string_view expected_tier) {
  CheckedHeader checked = open_checked_header(
      path, {kMagic, "table", kTableFormatVersion, kMinHeaderBytes, kMaxHeaderBytes});
  fd = std::move(checked.fd);
  const std::uint64_t file_size = checked.file_size;
  const std::uint64_t header_size = checked.bytes.size();
  const auto body = checked.body();

  ByteReader r(body);
  r.u64(), r.u32(), r.u32();  // prefix, checked above
  header.record_count = r.u64();
  header.bits_per_record = r.u32();
  const std::uint64_t per_block = r.u32();
  const std::uint64_t block_count = r.u64();
  header.variant = r.str();
  header.tier = r.str();
  header.encoding = r.str();
  // A writer bug, not damage, can get here: the checksum matched.
  if (!r.ok() || r.position() != body.size()) fail("header fields do not fill the header");
  if (header.bits_per_record < 1 || header.bits_per_record > 32)
    fail("bits per record " + std::to_string(header.bits_per_record) + " is not 1..32");
  if (per_block == 0 || per_block % 64 != 0)
    fail("records per block " + std::to_string(per_block) + " is not a multiple of 64");
  if (header.record_count > std::numeric_limits<std::uint64_t>::max() / 64 ||
      block_count != ceil_div(header.record_count, per_block))
    fail("block count " + std::to_string(block_count) + " does not match the record count");
  layout = Layout(header.record_count, header.bits_per_record, per_block);

  if (!expected_variant.empty() && header.variant != expected_variant)
    fail("table is for variant '" + header.variant + "', expected '" +
         std::string(expected_variant) + "'");
  if (!expected_tier.empty() && header.tier != expected_tier)
    fail("table is for tier '" + header.tier + "', expected '" + std::string(expected_tier) + "'");

  read_index(header_size, file_size);
}

void TableReader::Impl::read_index(std::uint64_t header_size, std::uint64_t file_size) {
  const std::uint64_t index_size = layout.index_bytes();
  if (file_size < header_size + index_size)
    fail("truncated: file is " + std::to_string(file_size) + " bytes, its block index needs " +
         std::to_string(header_size + index_size));
  std::vector<std::byte> bytes(index_size);
  read_at(bytes, header_size, "block index");
  ByteReader r(bytes);
  offsets.resize(layout.block_count + 1);
  crcs.resize(layout.block_count);
  for (std::uint64_t i = 0; i < layout.block_count; ++i) {
    offsets[i] = r.u64();
    crcs[i] = r.u64();
  }
  offsets.back() = r.u64();
  if (crc64(std::span<const std::byte>(bytes).first(index_size - 8)) != r.u64())
    fail("block index checksum mismatch (damaged index)");

  if (offsets.front() != header_size + index_size) fail("block index does not start the data");
  for (std::uint64_t i = 0; i < layout.block_count; ++i) {
    if (offsets[i + 1] <= offsets[i] ||
        offsets[i + 1] - offsets[i] > ZSTD_compressBound(layout.words_in_block(i) * 8))
      fail("block index gives block " + std::to_string(i) + " an impossible size");
  }
  if (file_size < offsets.back())
    fail("truncated: file is " + std::to_string(file_size) + " bytes, its block index says " +
         std::to_string(offsets.back()));
  if (file_size > offsets.back())
    fail("has " + std::to_string(file_size - offsets.back()) +
         " unexpected bytes after the last block");
}

void TableReader::Impl::decode_block(std::uint64_t i, std::span<std::uint64_t> out) const {
  thread_local std::vector<std::byte> compressed;
  compressed.resize(offsets[i + 1] - offsets[i]);
  read_at(compressed, offsets[i], "block " + std::to_string(i));
  if (crc64(compressed) != crcs[i])
    fail("block " + std::to_string(i) + " checksum mismatch (damaged data)");
  const std::size_t n = ZSTD_decompressDCtx(thread_dctx(), out.data(), out.size_bytes(),
                                            compressed.data(), compressed.size());
  if (ZSTD_isError(n))
    fail("block " + std::to_string(i) + " does not decompress: " + ZSTD_getErrorName(n));
  if (n != out.size_bytes())
    fail("block " + std::to_string(i) + " decompresses to " + std::to_string(n) +
         " bytes, expected " + std::to_string(out.size_bytes()));
}

TableReader::TableReader(const std::filesystem::path& path, std::string_view expected_variant,
                         std::string_view expected_tier)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->open(expected_variant, expected_tier);
}

TableReader::TableReader(TableReader&&) noexcept = default;
TableReader& TableReader::operator=(TableReader&&) noexcept = default;
TableReader::~TableReader() = default;

const TableHeader& TableReader::header() const {
  return impl_->header;
}

std::uint64_t TableReader::records_per_block() const {
  return impl_->layout.records_per_block;
}

std::uint64_t TableReader::block_count() const {
  return impl_->layout.block_count;
}

std::vector<std::uint64_t> TableReader::read_block(std::uint64_t block) const {
  const Impl& t = *impl_;
  if (block >= t.layout.block_count)
    throw std::out_of_range(t.path.string() + ": block " + std::to_string(block) +
                            " out of range (" + std::to_string(t.layout.block_count) + " blocks)");
  std::vector<std::uint64_t> words(t.layout.words_in_block(block));
  t.decode_block(block, words);
  return words;
}

std::uint32_t TableReader::get(std::uint64_t index) {
  Impl& t = *impl_;
  if (index >= t.header.record_count)
    throw std::out_of_range(t.path.string() + ": record " + std::to_string(index) +
                            " out of range (" + std::to_string(t.header.record_count) +
                            " records)");
  const std::uint64_t block = index / t.layout.records_per_block;
  const std::uint64_t bit = (index - block * t.layout.records_per_block) * t.layout.bits;
  const std::uint32_t bits = t.header.bits_per_record;
  if (const auto held = t.cache->record(&t, block, bit, bits)) return *held;
  // Decompressed outside the cache's lock, so threads missing on different blocks do not queue.
  std::vector<std::uint64_t> words(t.layout.words_in_block(block));
  t.decode_block(block, words);
  const std::uint32_t value = packed_record(words, bit, bits);
  t.cache->put(&t, block, std::move(words));
  return value;
}

void TableReader::drop_cache() {
  impl_->cache->forget(impl_.get());
}

void TableReader::share_cache(std::shared_ptr<BlockCache> cache) {
  impl_->cache->forget(impl_.get());
  impl_->cache = std::move(cache);
}

BlockCache::BlockCache(std::size_t slots) : slots_(std::max<std::size_t>(1, slots)) {}

std::optional<std::uint32_t> BlockCache::record(const void* owner, std::uint64_t block,
                                                std::uint64_t bit, std::uint32_t bits) {
  std::lock_guard lock(mutex_);
  for (Slot& slot : slots_) {
    if (slot.owner == owner && slot.block == block) {
      slot.last_use = ++use_clock_;
      return packed_record(slot.words, bit, bits);
    }
  }
  return std::nullopt;
}

void BlockCache::put(const void* owner, std::uint64_t block, std::vector<std::uint64_t> words) {
  std::lock_guard lock(mutex_);
  auto lru = std::min_element(slots_.begin(), slots_.end(),
                              [](const Slot& a, const Slot& b) { return a.last_use < b.last_use; });
  *lru = {owner, block, ++use_clock_, std::move(words)};
}

void BlockCache::forget(const void* owner) {
  std::lock_guard lock(mutex_);
  for (Slot& slot : slots_)
    if (slot.owner == owner) slot = {};
}

void TableReader::verify_all() {
  const Impl& t = *impl_;
  solver::parallel_for(tbb::blocked_range<std::uint64_t>(0, t.layout.block_count),
                       [&](const tbb::blocked_range<std::uint64_t>& range) {
                         std::vector<std::uint64_t> words(t.layout.block_words);
                         for (std::uint64_t i = range.begin(); i != range.end(); ++i)
                           t.decode_block(i, std::span(words).first(t.layout.words_in_block(i)));
                       });
}

std::vector<std::uint64_t> TableReader::read_packed() {
  const Impl& t = *impl_;
  std::vector<std::uint64_t> words(t.layout.total_words);
  solver::parallel_for(std::uint64_t{0}, t.layout.block_count, [&](std::uint64_t i) {
    t.decode_block(i,
                   std::span(words).subspan(i * t.layout.block_words, t.layout.words_in_block(i)));
  });
  return words;
}

void TableReader::for_each_block(const VisitBlock& visit, std::span<const IndexRange> only) {
  const Impl& t = *impl_;
  const std::uint64_t per_block = t.layout.records_per_block;
  const auto read = [&](std::uint64_t i) {
    std::vector<std::uint64_t> words(t.layout.words_in_block(i));
    t.decode_block(i, words);
    visit(i * per_block, words);
  };
  if (only.empty()) return solver::parallel_for(std::uint64_t{0}, t.layout.block_count, read);
  std::vector<std::uint64_t> blocks;  // to read, in increasing order
  for (const IndexRange& r : only) {
    if (r.begin >= r.end) continue;
    const std::uint64_t last = std::min(t.layout.block_count, (r.end - 1) / per_block + 1);
    for (std::uint64_t b = r.begin / per_block; b < last; ++b)
      if (blocks.empty() || blocks.back() < b) blocks.push_back(b);
  }
  solver::parallel_for(std::uint64_t{0}, std::uint64_t(blocks.size()),
                       [&](std::uint64_t k) { read(blocks[k]); });
}

std::vector<std::uint32_t> TableReader::read_all() {
  const std::vector<std::uint64_t> words = read_packed();
  const std::uint32_t bits = impl_->header.bits_per_record;
  std::vector<std::uint32_t> records(impl_->header.record_count);
  for (std::uint64_t r = 0; r < records.size(); ++r)
    records[r] = packed_record(words, r * bits, bits);
  return records;
}

}  // namespace tablebase
