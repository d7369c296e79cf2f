#include "tablebase/keyed_table_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <mutex>
#include <stdexcept>

#include "solver/parallel_for.h"
#include "tablebase/checked_header.h"
#include "tablebase/crc64.h"
#include "tablebase/file_io.h"

namespace tablebase {

using namespace file_io;

namespace {

constexpr std::array<char, 8> kMagic = {'D', 'R', 'O', 'P', '1', '6', 'K', 'T'};
constexpr std::size_t kHeaderFixedBytes = 48;  // up to the strings
constexpr std::size_t kMinHeaderBytes = kHeaderFixedBytes + 3 * 2 + 8;
constexpr std::uint32_t kMaxKeyBytes = 64, kMaxValueBytes = 16, kMaxTallies = 64;
constexpr std::uint32_t kMaxEntriesPerBlock = 1 << 20;
constexpr std::size_t kMaxHeaderBytes =
    kHeaderFixedBytes + 3 * (2 + kMaxHeaderString) + kMaxTallies * (2 + kMaxHeaderString + 8) + 8;
constexpr std::size_t kCacheSlots = 8;

// The block geometry writer and reader share.
struct Layout {
  std::uint64_t entries, key_bytes, value_bytes, per_block, blocks;
  std::uint64_t entries_in(std::uint64_t i) const {
    return std::min(per_block, entries - i * per_block);
  }
  std::uint64_t raw_bytes(std::uint64_t i) const {
    return entries_in(i) * (key_bytes + value_bytes);
  }
  std::uint64_t index_entry_bytes() const { return key_bytes + 16; }
  std::uint64_t index_bytes() const { return blocks * index_entry_bytes() + 16; }
};

Layout layout_of(const KeyedTableHeader& h, std::uint64_t per_block) {
  return {h.entry_count, h.key_bytes, h.value_bytes, per_block, ceil_div(h.entry_count, per_block)};
}

int compare(std::span<const std::byte> a, std::span<const std::byte> b) {
  return std::memcmp(a.data(), b.data(), a.size());
}

// out = a - b, as big-endian numbers of out.size() bytes (a >= b).
void subtract(std::span<const std::byte> a, std::span<const std::byte> b, std::byte* out,
              std::size_t stride) {
  unsigned borrow = 0;
  for (std::size_t j = a.size(); j-- > 0;) {
    const int d = int(a[j]) - int(b[j]) - int(borrow);
    borrow = d < 0;
    out[j * stride] = std::byte(d & 0xFF);
  }
}

// out = a + delta (delta's byte j at delta[j * stride]).
void add(std::span<const std::byte> a, const std::byte* delta, std::size_t stride,
         std::span<std::byte> out) {
  unsigned carry = 0;
  for (std::size_t j = a.size(); j-- > 0;) {
    const unsigned s = unsigned(a[j]) + unsigned(delta[j * stride]) + carry;
    carry = s >> 8;
    out[j] = std::byte(s & 0xFF);
  }
}

void check_header_for_write(const KeyedTableHeader& h, std::uint32_t per_block) {
  if (h.key_bytes < 1 || h.key_bytes > kMaxKeyBytes)
    throw std::invalid_argument("keyed table key_bytes must be 1.." + std::to_string(kMaxKeyBytes));
  if (h.value_bytes < 1 || h.value_bytes > kMaxValueBytes)
    throw std::invalid_argument("keyed table value_bytes must be 1.." +
                                std::to_string(kMaxValueBytes));
  if (per_block < 1 || per_block > kMaxEntriesPerBlock)
    throw std::invalid_argument("keyed table entries_per_block must be 1.." +
                                std::to_string(kMaxEntriesPerBlock));
  if (h.tallies.size() > kMaxTallies)
    throw std::invalid_argument("keyed table: more than " + std::to_string(kMaxTallies) +
                                " tallies");
  std::vector<const std::string*> strings = {&h.game, &h.name, &h.encoding};
  for (const auto& t : h.tallies) strings.push_back(&t.first);
  for (const std::string* s : strings)
    if (s->size() > kMaxHeaderString)
      throw std::invalid_argument("keyed table header string longer than " +
                                  std::to_string(kMaxHeaderString) + " bytes");
}

std::vector<std::byte> encode_header(const KeyedTableHeader& h, const Layout& layout) {
  ByteWriter w;
  std::size_t size = kHeaderFixedBytes + 6 + h.game.size() + h.name.size() + h.encoding.size() + 8;
  for (const auto& t : h.tallies) size += 2 + t.first.size() + 8;
  w.raw({kMagic.data(), kMagic.size()});
  w.u32(kKeyedTableFormatVersion);
  w.u32(std::uint32_t(size));
  w.u64(h.entry_count);
  w.u32(h.key_bytes);
  w.u32(h.value_bytes);
  w.u32(std::uint32_t(layout.per_block));
  w.u32(std::uint32_t(h.tallies.size()));
  w.u64(layout.blocks);
  w.str(h.game);
  w.str(h.name);
  w.str(h.encoding);
  for (const auto& [name, value] : h.tallies) {
    w.str(name);
    w.u64(value);
  }
  w.u64(crc64(w.bytes()));
  return std::move(w.bytes());
}

}  // namespace

void write_keyed_table(const std::filesystem::path& path, const KeyedTableHeader& header,
                       std::span<const std::byte> keys, std::span<const std::byte> values,
                       int zstd_level, std::uint32_t entries_per_block) {
  check_header_for_write(header, entries_per_block);
  const Layout layout = layout_of(header, entries_per_block);
  const std::size_t K = header.key_bytes, V = header.value_bytes;
  if (keys.size() != header.entry_count * K || values.size() != header.entry_count * V)
    throw std::invalid_argument("write_keyed_table: " + std::to_string(keys.size()) +
                                " key bytes and " + std::to_string(values.size()) +
                                " value bytes for " + std::to_string(header.entry_count) +
                                " entries");
  const auto key = [&](std::uint64_t i) { return keys.subspan(i * K, K); };
  for (std::uint64_t i = 1; i < header.entry_count; ++i)
    if (compare(key(i - 1), key(i)) >= 0)
      throw std::invalid_argument("write_keyed_table: keys not strictly increasing at entry " +
                                  std::to_string(i));

  std::vector<std::vector<std::byte>> compressed(layout.blocks);
  solver::parallel_for(std::uint64_t{0}, layout.blocks, [&](std::uint64_t b) {
    const std::uint64_t first = b * layout.per_block, c = layout.entries_in(b);
    std::vector<std::byte> raw(layout.raw_bytes(b));
    for (std::uint64_t e = 0; e < c; ++e) {
      subtract(key(first + e), key(first + (e == 0 ? 0 : e - 1)), raw.data() + e, c);
      for (std::size_t j = 0; j < V; ++j) raw[(K + j) * c + e] = values[(first + e) * V + j];
    }
    std::vector<std::byte>& out = compressed[b];
    out.resize(ZSTD_compressBound(raw.size()));
    const std::size_t n = ZSTD_compressCCtx(thread_cctx(), out.data(), out.size(), raw.data(),
                                            raw.size(), zstd_level);
    if (ZSTD_isError(n))
      throw TableWriteError(path, std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    out.resize(n);
  });

  const std::vector<std::byte> header_bytes = encode_header(header, layout);
  write_atomically(path, [&](int fd, const std::filesystem::path& tmp) {
    ByteWriter index;
    std::uint64_t offset = header_bytes.size() + layout.index_bytes();
    for (std::uint64_t b = 0; b < layout.blocks; ++b) {
      pwrite_all(fd, tmp, compressed[b], offset);
      index.raw(key(b * layout.per_block));
      index.u64(offset);
      index.u64(crc64(compressed[b]));
      offset += compressed[b].size();
    }
    index.u64(offset);
    index.u64(crc64(index.bytes()));
    pwrite_all(fd, tmp, header_bytes, 0);
    pwrite_all(fd, tmp, index.bytes(), header_bytes.size());
  });
}

struct KeyedTableReader::Impl {
  std::filesystem::path path;
  Fd fd;
  KeyedTableHeader header;
  Layout layout{};
  std::uint64_t file_size = 0;
  std::vector<std::byte> first_keys;   // blocks x K
  std::vector<std::uint64_t> offsets;  // blocks + 1
  std::vector<std::uint64_t> crcs;

  // A decoded block: absolute keys back to back, then the values.
  struct Block {
    std::uint64_t number = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t last_use = 0;
    std::vector<std::byte> keys, values;
  };
  std::mutex mutex;  // guards cache and use_clock
  std::array<Block, kCacheSlots> cache;
  std::uint64_t use_clock = 0;

  [[noreturn]] void fail(const std::string& fault) const { throw TableError(path, fault); }
  void read_at(std::span<std::byte> data, std::uint64_t offset, const std::string& what) const {
    if (auto error = pread_exact(fd.get(), data, offset))
      fail("cannot read " + what + ": " + *error);
  }
  std::span<const std::byte> first_key(std::uint64_t b) const {
    return std::span<const std::byte>(first_keys).subspan(b * layout.key_bytes, layout.key_bytes);
  }

  void open(std::string_view expected_game, std::string_view expected_name);
  void read_index(std::uint64_t header_size);
  Block decode(std::uint64_t b) const;
};

void KeyedTableReader::Impl::open(std::string_view expected_game, std::string_view expected_name) {
  CheckedHeader checked = open_checked_header(
      path, {kMagic, "keyed table", kKeyedTableFormatVersion, kMinHeaderBytes, kMaxHeaderBytes});
  fd = std::move(checked.fd);
  file_size = checked.file_size;
  const std::uint64_t header_size = checked.bytes.size();
  const auto body = checked.body();

  ByteReader r(body);
  r.u64(), r.u32(), r.u32();  // prefix, checked above
  header.entry_count = r.u64();
  header.key_bytes = r.u32();
  header.value_bytes = r.u32();
  const std::uint32_t per_block = r.u32();
  const std::uint32_t tallies = r.u32();
  const std::uint64_t blocks = r.u64();
  header.game = r.str();
  header.name = r.str();
  header.encoding = r.str();
  if (tallies > kMaxTallies) fail("header has " + std::to_string(tallies) + " tallies");
  for (std::uint32_t t = 0; t < tallies && r.ok(); ++t) {
    std::string name = r.str();
    header.tallies.emplace_back(std::move(name), r.u64());
  }
  // A writer bug, not damage, can get here: the checksum matched.
  if (!r.ok() || r.position() != body.size()) fail("header fields do not fill the header");
  if (header.key_bytes < 1 || header.key_bytes > kMaxKeyBytes || header.value_bytes < 1 ||
      header.value_bytes > kMaxValueBytes)
    fail("key or value width out of range");
  if (per_block < 1 || per_block > kMaxEntriesPerBlock)
    fail("entries per block " + std::to_string(per_block) + " out of range");
  if (blocks != ceil_div(header.entry_count, per_block))
    fail("block count " + std::to_string(blocks) + " does not match the entry count");
  layout = layout_of(header, per_block);

  if (!expected_game.empty() && header.game != expected_game)
    fail("table is of game '" + header.game + "', expected '" + std::string(expected_game) + "'");
  if (!expected_name.empty() && header.name != expected_name)
    fail("table is of " + header.name + ", expected " + std::string(expected_name));
  read_index(header_size);
}

void KeyedTableReader::Impl::read_index(std::uint64_t header_size) {
  const std::uint64_t index_size = layout.index_bytes();
  if (file_size < header_size + index_size)
    fail("truncated: file is " + std::to_string(file_size) + " bytes, its index needs " +
         std::to_string(header_size + index_size));
  std::vector<std::byte> bytes(index_size);
  read_at(bytes, header_size, "index");
  if (crc64(std::span<const std::byte>(bytes).first(index_size - 8)) !=
      ByteReader(std::span<const std::byte>(bytes).last(8)).u64())
    fail("index checksum mismatch (damaged index)");
  ByteReader r(bytes);
  first_keys.resize(layout.blocks * layout.key_bytes);
  offsets.resize(layout.blocks + 1);
  crcs.resize(layout.blocks);
  for (std::uint64_t b = 0; b < layout.blocks; ++b) {
    const auto k = r.raw(layout.key_bytes);
    std::copy(k.begin(), k.end(), first_keys.begin() + b * layout.key_bytes);
    offsets[b] = r.u64();
    crcs[b] = r.u64();
    if (b > 0 && compare(first_key(b - 1), first_key(b)) >= 0)
      fail("index keys out of order at block " + std::to_string(b));
  }
  offsets.back() = r.u64();
  if (offsets.front() != header_size + index_size) fail("index does not start the data");
  for (std::uint64_t b = 0; b < layout.blocks; ++b)
    if (offsets[b + 1] <= offsets[b] ||
        offsets[b + 1] - offsets[b] > ZSTD_compressBound(layout.raw_bytes(b)))
      fail("index gives block " + std::to_string(b) + " an impossible size");
  if (file_size < offsets.back())
    fail("truncated: file is " + std::to_string(file_size) + " bytes, its index says " +
         std::to_string(offsets.back()));
  if (file_size > offsets.back())
    fail("has " + std::to_string(file_size - offsets.back()) +
         " unexpected bytes after the last block");
}

KeyedTableReader::Impl::Block KeyedTableReader::Impl::decode(std::uint64_t b) const {
  const std::string name = "block " + std::to_string(b);
  std::vector<std::byte> compressed(offsets[b + 1] - offsets[b]);
  read_at(compressed, offsets[b], name);
  if (crc64(compressed) != crcs[b]) fail(name + " checksum mismatch (damaged data)");
  std::vector<std::byte> raw(layout.raw_bytes(b));
  const std::size_t n = ZSTD_decompressDCtx(thread_dctx(), raw.data(), raw.size(),
                                            compressed.data(), compressed.size());
  if (ZSTD_isError(n)) fail(name + " does not decompress: " + ZSTD_getErrorName(n));
  if (n != raw.size())
    fail(name + " decompresses to " + std::to_string(n) + " bytes, expected " +
         std::to_string(raw.size()));
  const std::size_t K = layout.key_bytes, V = layout.value_bytes, c = layout.entries_in(b);
  Block out;
  out.number = b;
  out.keys.resize(c * K);
  out.values.resize(c * V);
  const std::vector<std::byte> zero(K);
  const auto key = [&](std::size_t e) { return std::span<std::byte>(out.keys).subspan(e * K, K); };
  for (std::size_t e = 0; e < c; ++e) {
    // Each difference is positive but the first, which is 0: the keys strictly increase.
    bool is_zero = true;
    for (std::size_t j = 0; j < K; ++j) is_zero &= raw[j * c + e] == std::byte{0};
    if (is_zero != (e == 0)) fail(name + " keys are not strictly increasing (damaged data)");
    add(e == 0 ? first_key(b) : key(e - 1), raw.data() + e, c, key(e));
    if (e > 0 && compare(key(e - 1), key(e)) >= 0) fail(name + " keys overflow (damaged data)");
    for (std::size_t j = 0; j < V; ++j) out.values[e * V + j] = raw[(K + j) * c + e];
  }
  if (b + 1 < layout.blocks && compare(key(c - 1), first_key(b + 1)) >= 0)
    fail(name + " runs into the next block's keys (damaged data)");
  return out;
}

KeyedTableReader::KeyedTableReader(const std::filesystem::path& path,
                                   std::string_view expected_game, std::string_view expected_name)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->open(expected_game, expected_name);
}

KeyedTableReader::KeyedTableReader(KeyedTableReader&&) noexcept = default;
KeyedTableReader& KeyedTableReader::operator=(KeyedTableReader&&) noexcept = default;
KeyedTableReader::~KeyedTableReader() = default;

const KeyedTableHeader& KeyedTableReader::header() const {
  return impl_->header;
}

std::uint64_t KeyedTableReader::file_bytes() const {
  return impl_->file_size;
}

std::uint32_t KeyedTableReader::entries_per_block() const {
  return std::uint32_t(impl_->layout.per_block);
}

bool KeyedTableReader::find(std::span<const std::byte> key, std::span<std::byte> value) {
  Impl& t = *impl_;
  const std::size_t K = t.layout.key_bytes, V = t.layout.value_bytes;
  if (key.size() != K || value.size() != V)
    throw std::invalid_argument(t.path.string() + ": a probe of " + std::to_string(key.size()) +
                                " key bytes for a table of " + std::to_string(K));
  // The last block whose first key is <= key.
  std::uint64_t lo = 0, hi = t.layout.blocks;
  while (lo < hi) {
    const std::uint64_t mid = (lo + hi) / 2;
    if (compare(t.first_key(mid), key) <= 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return false;
  const std::uint64_t b = lo - 1;
  const auto search = [&](const Impl::Block& block) {
    std::size_t l = 0, h = block.keys.size() / K;
    while (l < h) {
      const std::size_t mid = (l + h) / 2;
      if (compare(std::span(block.keys).subspan(mid * K, K), key) < 0)
        l = mid + 1;
      else
        h = mid;
    }
    if (l == block.keys.size() / K || compare(std::span(block.keys).subspan(l * K, K), key) != 0)
      return false;
    std::copy_n(block.values.begin() + l * V, V, value.begin());
    return true;
  };
  {
    std::lock_guard lock(t.mutex);
    for (Impl::Block& slot : t.cache)
      if (slot.number == b) {
        slot.last_use = ++t.use_clock;
        return search(slot);
      }
  }
  // Decompress outside the lock, so threads missing on different blocks do not queue.
  Impl::Block block = t.decode(b);
  const bool found = search(block);
  std::lock_guard lock(t.mutex);
  auto lru = std::min_element(t.cache.begin(), t.cache.end(),
                              [](const auto& x, const auto& y) { return x.last_use < y.last_use; });
  *lru = std::move(block);
  lru->last_use = ++t.use_clock;
  return found;
}

void KeyedTableReader::drop_cache() {
  std::lock_guard lock(impl_->mutex);
  impl_->cache = {};
}

void KeyedTableReader::for_each_entry(const VisitEntry& visit) {
  const Impl& t = *impl_;
  const std::size_t K = t.layout.key_bytes, V = t.layout.value_bytes;
  for (std::uint64_t b = 0; b < t.layout.blocks; ++b) {
    const Impl::Block block = t.decode(b);
    for (std::size_t e = 0; e < block.keys.size() / K; ++e)
      visit(std::span(block.keys).subspan(e * K, K), std::span(block.values).subspan(e * V, V));
  }
}

}  // namespace tablebase
