#include "tablebase/table_file.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tablebase/crc64.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;
using tablebase::TableError;
using tablebase::TableHeader;
using tablebase::TableReader;

namespace {

// A fresh directory per test, removed afterwards.
struct TempDir : test_support::TempDir {
  TempDir() : test_support::TempDir("table_file_test") {}
};

TableHeader make_header(std::uint64_t count, std::uint32_t bits) {
  return {"3x3:NBRK", "NBRK/nbrk", count, bits, "test" + std::to_string(bits)};
}

// Skewed records like a solved tier's: runs of a common value with rarer values between.
std::vector<std::uint32_t> make_records(std::uint64_t count, std::uint32_t bits,
                                        std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t mask = bits == 32 ? 0xFFFFFFFF : (std::uint64_t{1} << bits) - 1;
  std::vector<std::uint32_t> records(count);
  std::uint32_t value = 0;
  for (auto& r : records) {
    if (rng() % 8 == 0) value = rng() % 4 == 0 ? std::uint32_t(rng() & mask) : 0;
    r = value;
  }
  return records;
}

std::vector<std::uint64_t> pack(const std::vector<std::uint32_t>& records, std::uint32_t bits) {
  std::vector<std::uint64_t> words((records.size() * bits + 63) / 64);
  for (std::uint64_t i = 0; i < records.size(); ++i) {
    for (std::uint32_t b = 0; b < bits; ++b) {
      const std::uint64_t bit = i * bits + b;
      words[bit / 64] |= std::uint64_t((records[i] >> b) & 1) << (bit % 64);
    }
  }
  return words;
}

std::vector<char> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& p, const std::vector<char>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

std::uint64_t le64(const std::vector<char>& bytes, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(std::uint8_t(bytes[at + i])) << (8 * i);
  return v;
}
std::uint32_t le32(const std::vector<char>& bytes, std::size_t at) {
  return std::uint32_t(le64(bytes, at));  // only used away from the end of the file
}

// Where the parts of a written file lie, read back from its bytes.
struct FileParts {
  std::size_t header_size, data_offset, block_count;
  explicit FileParts(const std::vector<char>& bytes)
      : header_size(le32(bytes, 12)), block_count(le64(bytes, 32)) {
    data_offset = header_size + 16 * block_count + 16;
  }
  std::size_t block_offset(const std::vector<char>& bytes, std::size_t i) const {
    return le64(bytes, header_size + 16 * i);
  }
};

// Runs f, which must throw TableError naming `file` and containing `fault`.
template <class F>
void require_table_error(F&& f, const fs::path& file, const std::string& fault) {
  try {
    f();
    FAIL("no TableError; expected: " << fault);
  } catch (const TableError& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find(file.string()) != std::string::npos);
    CHECK(what.find(fault) != std::string::npos);
  }
}

// A table of several blocks with small blocks, so damage can be placed in any part.
struct SmallTable {
  static constexpr std::size_t kBlockBytes = 512;  // 4096 one-bit records per block
  TempDir tmp;
  fs::path path = tmp / "t.tb";
  std::vector<std::uint32_t> records = make_records(20000, 1, 7);
  std::vector<char> bytes;
  SmallTable() {
    tablebase::write_table(path, make_header(records.size(), 1), records, 3, kBlockBytes);
    bytes = read_file(path);
  }
};

}  // namespace

TEST_CASE("crc64 is CRC-64/XZ", "[table_file]") {
  const std::string check = "123456789";
  CHECK(tablebase::crc64(std::as_bytes(std::span(check))) == 0x995DC9BBDF1939FAull);
  CHECK(tablebase::crc64({}) == 0);
  // Extending a CRC equals checksumming the concatenation.
  const std::string long_text = "a longer text that takes the eight-byte path more than once";
  const auto all = std::as_bytes(std::span(long_text));
  CHECK(tablebase::crc64(all.subspan(13), tablebase::crc64(all.first(13))) ==
        tablebase::crc64(all));
}

TEST_CASE("records_per_block keeps blocks on 64-record groups", "[table_file]") {
  CHECK(tablebase::records_per_block(1, 16384) == 131072);
  CHECK(tablebase::records_per_block(32, 16384) == 4096);
  CHECK(tablebase::records_per_block(5, 16384) == 26176);  // 26214 rounded down to 64s
  CHECK(tablebase::records_per_block(32, 512) == 128);
}

TEST_CASE("tables round-trip for every width and awkward record counts", "[table_file]") {
  TempDir tmp;
  for (std::uint32_t bits : {1u, 2u, 5u, 8u, 16u, 32u}) {
    const std::uint64_t r = tablebase::records_per_block(bits, tablebase::kDefaultBlockBytes);
    std::vector<std::uint64_t> counts = {0, 1, 63, 64, 65, r - 1, r, r + 1, 2 * r - 1, 3 * r + 1};
    if (bits == 1 || bits == 5) counts.push_back(3'000'017);
    for (std::uint64_t count : counts) {
      INFO("bits " << bits << ", records " << count);
      const auto records = make_records(count, bits, count * 131 + bits);
      const fs::path path = tmp / ("rt" + std::to_string(bits) + "_" + std::to_string(count));
      const TableHeader header = make_header(count, bits);
      tablebase::write_table(path, header, records, 3);

      TableReader reader(path, header.variant, header.tier);
      CHECK(reader.header().variant == header.variant);
      CHECK(reader.header().tier == header.tier);
      CHECK(reader.header().encoding == header.encoding);
      CHECK(reader.header().record_count == count);
      CHECK(reader.header().bits_per_record == bits);
      CHECK(reader.records_per_block() == r);
      REQUIRE(reader.read_all() == records);
      CHECK(reader.read_packed() == pack(records, bits));
      reader.verify_all();
      std::mt19937_64 rng(count);
      for (int probe = 0; probe < 300 && count > 0; ++probe) {
        const std::uint64_t i = probe < 3 ? (probe == 0   ? 0
                                             : probe == 1 ? count - 1
                                                          : count / 2)
                                          : rng() % count;
        REQUIRE(reader.get(i) == records[i]);
      }
      CHECK_THROWS_AS(reader.get(count), std::out_of_range);
      // Block by block, each record where packed_record finds it.
      REQUIRE(reader.block_count() == (count + r - 1) / r);
      for (std::uint64_t b = 0; b < reader.block_count(); ++b) {
        const std::vector<std::uint64_t> words = reader.read_block(b);
        for (std::uint64_t i = b * r; i < std::min(count, (b + 1) * r); i += 1 + i % 7)
          REQUIRE(tablebase::packed_record(words, (i - b * r) * bits, bits) == records[i]);
      }
      CHECK_THROWS_AS(reader.read_block(reader.block_count()), std::out_of_range);
      CHECK(!fs::exists(path.string() + ".tmp"));
    }
  }
}

TEST_CASE("packed and unpacked writes give identical files", "[table_file]") {
  TempDir tmp;
  for (std::uint32_t bits : {1u, 5u, 32u}) {
    const std::uint64_t count = 100'003;
    const auto records = make_records(count, bits, bits);
    auto words = pack(records, bits);
    // Garbage past the last record must not reach the file.
    if ((count * bits) % 64 != 0) words.back() |= ~std::uint64_t{0} << ((count * bits) % 64);
    tablebase::write_table(tmp / "a", make_header(count, bits), records, 3);
    tablebase::write_packed_table(tmp / "b", make_header(count, bits), words, 3);
    CHECK(read_file(tmp / "a") == read_file(tmp / "b"));
  }
}

TEST_CASE("high record bits beyond the width are ignored", "[table_file]") {
  TempDir tmp;
  const std::vector<std::uint32_t> records = {0xFFFFFFF5, 2, 0x10, 7};
  tablebase::write_table(tmp / "t", make_header(records.size(), 3), records, 19);
  CHECK(TableReader(tmp / "t").read_all() == std::vector<std::uint32_t>{5, 2, 0, 7});
}

TEST_CASE("readers take the block size from the file", "[table_file]") {
  TempDir tmp;
  const auto records = make_records(300'000, 4, 1);
  for (std::size_t block_bytes : {std::size_t{512}, std::size_t{65536}, std::size_t{1} << 20}) {
    const fs::path path = tmp / ("blocks_of_" + std::to_string(block_bytes));
    tablebase::write_table(path, make_header(records.size(), 4), records, 3, block_bytes);
    TableReader reader(path);
    CHECK(reader.records_per_block() == tablebase::records_per_block(4, block_bytes));
    CHECK(reader.read_all() == records);
    CHECK(reader.get(299'999) == records[299'999]);
  }
}

TEST_CASE("bad write arguments are refused", "[table_file]") {
  TempDir tmp;
  const std::vector<std::uint32_t> records(10);
  CHECK_THROWS_AS(tablebase::write_table(tmp / "t", make_header(10, 0), records),
                  std::invalid_argument);
  CHECK_THROWS_AS(tablebase::write_table(tmp / "t", make_header(10, 33), records),
                  std::invalid_argument);
  CHECK_THROWS_AS(tablebase::write_table(tmp / "t", make_header(11, 1), records),
                  std::invalid_argument);
  CHECK_THROWS_AS(
      tablebase::write_packed_table(tmp / "t", make_header(65, 1), std::vector<std::uint64_t>(1)),
      std::invalid_argument);
  CHECK_THROWS_AS(tablebase::write_table(tmp / "t", make_header(10, 1), records, 3, 100),
                  std::invalid_argument);
  CHECK(fs::is_empty(tmp.dir));
}

TEST_CASE("a missing file or a directory is refused by name", "[table_file]") {
  TempDir tmp;
  require_table_error([&] { TableReader r(tmp / "absent.tb"); }, tmp / "absent.tb", "cannot open");
  require_table_error([&] { TableReader r(tmp.dir); }, tmp.dir, "not a regular file");
}

TEST_CASE("a truncated file is refused at open, wherever it is cut", "[table_file]") {
  SmallTable t;
  const FileParts parts(t.bytes);
  REQUIRE(parts.block_count == 5);
  const fs::path cut = t.tmp / "cut.tb";
  for (std::size_t size :
       {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16}, parts.header_size - 1,
        parts.header_size, parts.header_size + 20, parts.data_offset - 1, parts.data_offset,
        parts.data_offset + 1, parts.block_offset(t.bytes, 3) + 2, t.bytes.size() - 1}) {
    INFO("cut at " << size << " of " << t.bytes.size());
    write_file(cut, std::vector<char>(t.bytes.begin(), t.bytes.begin() + std::ptrdiff_t(size)));
    require_table_error([&] { TableReader r(cut); }, cut, "truncated");
  }
  auto longer = t.bytes;
  longer.push_back(0);
  write_file(cut, longer);
  require_table_error([&] { TableReader r(cut); }, cut, "unexpected bytes after the last block");
}

TEST_CASE("a damaged byte is caught by the check that covers it", "[table_file]") {
  SmallTable t;
  const FileParts parts(t.bytes);
  const fs::path bad = t.tmp / "bad.tb";
  auto flipped = [&](std::size_t at) {
    auto bytes = t.bytes;
    bytes[at] ^= 0x10;
    write_file(bad, bytes);
  };

  SECTION("header fields and strings") {
    for (std::size_t at :
         {std::size_t{16}, std::size_t{30}, std::size_t{44}, parts.header_size - 1}) {
      INFO("byte " << at);
      flipped(at);
      require_table_error([&] { TableReader r(bad); }, bad, "header checksum mismatch");
    }
  }
  SECTION("block index") {
    for (std::size_t at : {parts.header_size, parts.header_size + 27, parts.data_offset - 1}) {
      INFO("byte " << at);
      flipped(at);
      require_table_error([&] { TableReader r(bad); }, bad, "block index checksum mismatch");
    }
  }
  SECTION("block payload: refused when read, other blocks still readable") {
    const std::size_t block2 = parts.block_offset(t.bytes, 2);
    flipped(block2 + (parts.block_offset(t.bytes, 3) - block2) / 2);
    TableReader reader(bad);
    const std::uint64_t per_block = reader.records_per_block();
    CHECK(reader.get(per_block + 5) == t.records[per_block + 5]);
    require_table_error([&] { reader.get(2 * per_block + 5); }, bad, "block 2 checksum mismatch");
    require_table_error([&] { reader.verify_all(); }, bad, "block 2 checksum mismatch");
    require_table_error([&] { reader.read_all(); }, bad, "block 2 checksum mismatch");
    require_table_error([&] { reader.read_packed(); }, bad, "block 2 checksum mismatch");
  }
}

TEST_CASE("wrong magic, version, variant or tier is refused by name", "[table_file]") {
  SmallTable t;
  const fs::path other = t.tmp / "other.tb";
  auto bytes = t.bytes;
  bytes[0] = 'X';
  write_file(other, bytes);
  require_table_error([&] { TableReader r(other); }, other, "bad magic");

  bytes = t.bytes;
  bytes[8] = 2;  // format version 2: refused by name before the checksum is even looked at
  write_file(other, bytes);
  require_table_error([&] { TableReader r(other); }, other,
                      "table format version 2, this build reads version 1");

  require_table_error([&] { TableReader r(t.path, "4x4:NBRQK"); }, t.path,
                      "table is for variant '3x3:NBRK', expected '4x4:NBRQK'");
  require_table_error([&] { TableReader r(t.path, "3x3:NBRK", "NBR/nbrk"); }, t.path,
                      "table is for tier 'NBRK/nbrk', expected 'NBR/nbrk'");
  CHECK_NOTHROW(TableReader(t.path, "3x3:NBRK", "NBRK/nbrk"));
}

TEST_CASE("an interrupted write never yields a table", "[table_file]") {
  TempDir tmp;
  const fs::path path = tmp / "t.tb";
  const fs::path partial = path.string() + ".tmp";
  const auto records = make_records(50'000, 2, 3);
  tablebase::write_table(path, make_header(records.size(), 2), records, 3, 512);
  const auto complete = read_file(path);
  fs::remove(path);

  // What a killed writer leaves: the header, the index not yet filled in, some of the blocks.
  const FileParts parts(complete);
  auto leftover = complete;
  std::fill(leftover.begin() + std::ptrdiff_t(parts.header_size),
            leftover.begin() + std::ptrdiff_t(parts.data_offset), 0);
  leftover.resize(complete.size() / 2);
  write_file(partial, leftover);
  require_table_error([&] { TableReader r(path); }, path, "cannot open");
  require_table_error([&] { TableReader r(partial); }, partial, "block index checksum mismatch");

  // Writing again replaces the leftover and leaves only the table.
  tablebase::write_table(path, make_header(records.size(), 2), records, 3, 512);
  CHECK(!fs::exists(partial));
  CHECK(TableReader(path).read_all() == records);

  // A leftover next to a complete table does not disturb it.
  write_file(partial, {'x'});
  CHECK(TableReader(path).read_all() == records);
}

TEST_CASE("a failed write leaves no file", "[table_file]") {
  TempDir tmp;
  const fs::path path = tmp / "no_such_dir" / "t.tb";
  require_table_error(
      [&] { tablebase::write_table(path, make_header(1, 1), std::vector<std::uint32_t>{1}); },
      fs::path(path.string() + ".tmp"), "cannot create");
  CHECK(fs::is_empty(tmp.dir));
}

TEST_CASE("concurrent get() returns the right records", "[table_file]") {
  TempDir tmp;
  const fs::path path = tmp / "t.tb";
  const auto records = make_records(400'000, 5, 11);
  tablebase::write_table(path, make_header(records.size(), 5), records, 3, 2048);  // 122 blocks
  TableReader reader(path);
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(t);
      for (int probe = 0; probe < 20000; ++probe) {
        // Mostly a few hot blocks (cache hits), sometimes anywhere (misses and evictions).
        const std::uint64_t i = probe % 4 == 0 ? rng() % records.size() : rng() % 20000;
        if (reader.get(i) != records[i]) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(wrong == 0);
}

TEST_CASE("readers sharing a block cache each get their own records, in its slots",
          "[table_file][block-cache][parallel]") {
  TempDir tmp;
  // Two files whose blocks have the same numbers and different records: a cache that mixed up its
  // readers would answer one file's record for the other's.
  const auto a_records = make_records(200'000, 3, 21);
  const auto b_records = make_records(200'000, 3, 22);
  tablebase::write_table(tmp / "a.tb", make_header(a_records.size(), 3), a_records, 3, 2048);
  tablebase::write_table(tmp / "b.tb", make_header(b_records.size(), 3), b_records, 3, 2048);
  REQUIRE(a_records != b_records);
  const auto cache = std::make_shared<tablebase::BlockCache>(4);
  std::optional<TableReader> a(std::in_place, tmp / "a.tb");
  TableReader b(tmp / "b.tb");
  a->share_cache(cache);
  b.share_cache(cache);
  std::mt19937_64 rng(5);
  for (int probe = 0; probe < 5000; ++probe) {
    const std::uint64_t i = rng() % 3 == 0 ? rng() % a_records.size() : rng() % 3000;
    CHECK(a->get(i) == a_records[i]);
    CHECK(b.get(i) == b_records[i]);
  }
  // Threads on both readers at once: the cache's lock keeps its slots whole.
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 r(t);
      for (int probe = 0; probe < 5000; ++probe) {
        const std::uint64_t i = r() % 4 == 0 ? r() % a_records.size() : r() % 6000;
        if ((t % 2 ? a->get(i) : b.get(i)) != (t % 2 ? a_records[i] : b_records[i])) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(wrong == 0);
  // A reader closed forgets its blocks: one opened after it, maybe at the same address, on the
  // other file reads that file's records, not the closed reader's.
  CHECK(a->get(7) == a_records[7]);
  a.reset();
  a.emplace(tmp / "b.tb");
  a->share_cache(cache);
  CHECK(a->get(7) == b_records[7]);
  // The slots bound what is held, however many blocks were read.
  CHECK(cache->slots() == 4);
  tablebase::BlockCache one(1);
  one.put(&one, 3, {0b101});
  CHECK(one.record(&one, 3, 0, 1) == 1u);
  CHECK(one.record(&one, 3, 1, 1) == 0u);
  CHECK(!one.record(&a, 3, 0, 1));
  one.put(&one, 4, {0b1});
  CHECK(!one.record(&one, 3, 0, 1));  // the least recently used went
  one.forget(&one);
  CHECK(!one.record(&one, 4, 0, 1));
}
