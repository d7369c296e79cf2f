// Table file probes and size: cold probe (block not cached: read, checksum, decompress), cold
// probe with a freshly opened reader, disk-cold probe (file evicted from the page cache), warm
// probe (block cached), against an uncompressed bit-packed file read with one pread per probe and
// an in-memory packed array, all in the same run. Tables are 10^7 records of 1 bit (value only)
// and 4 bits (value + 3 DTE bits) with a solved tier's skew: ~90% one value, in runs.
//
//   build-tablefile/drop16_bench --benchmark_filter=Table
//
// Counters: bits_per_record is the file size per record (header and index included);
// zstd_whole_file is the same records as one zstd -19 frame, the size floor that blocking gives up.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tablebase/table_file.h"

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kRecords = 10'000'000;
constexpr int kLevel = 19;

// Runs as a solved tier has them: a two-state chain that stays in the common value for ~33
// records and in the rare one for ~3.7, so 10% of records are rare. With 4 bits the rare records
// carry a DTE that is small more often than large and is constant along a run.
std::vector<std::uint32_t> make_records(std::uint32_t bits) {
  std::mt19937_64 rng(42);
  std::vector<std::uint32_t> records(kRecords);
  bool rare = false;
  std::uint32_t dte = 0;
  for (auto& r : records) {
    const bool flip = rare ? rng() % 100 < 27 : rng() % 100 < 3;
    if (flip) {
      rare = !rare;
      dte = std::min<std::uint32_t>(std::countr_zero(rng() | (1u << 7)), 7);
    }
    r = bits == 1 ? rare : (rare ? 1 + (dte << 1) : dte << 1);
  }
  return records;
}

std::vector<std::uint64_t> pack(const std::vector<std::uint32_t>& records, std::uint32_t bits) {
  std::vector<std::uint64_t> words((records.size() * bits + 63) / 64);
  for (std::uint64_t i = 0; i < records.size(); ++i) {
    const std::uint64_t bit = i * bits;  // bits divides 64 here: no record straddles two words
    words[bit / 64] |= std::uint64_t(records[i]) << (bit % 64);
  }
  return words;
}

// The tables, written once per process into a temporary directory removed at exit.
class Tables {
 public:
  static Tables& get() {
    static Tables tables;
    return tables;
  }
  ~Tables() { fs::remove_all(dir_); }

  const std::vector<std::uint64_t>& packed(std::uint32_t bits) {
    auto& p = packed_[bits];
    if (p.empty()) p = pack(make_records(bits), bits);
    return p;
  }

  // The compressed table with this width and block size.
  fs::path table(std::uint32_t bits, std::size_t block_kib) {
    const fs::path path =
        dir_ / ("table_" + std::to_string(bits) + "_bits_" + std::to_string(block_kib) + "k.tb");
    if (!fs::exists(path)) {
      tablebase::write_packed_table(path, {"bench", "bench", kRecords, bits, "bench"}, packed(bits),
                                    kLevel, block_kib * 1024);
    }
    return path;
  }

  // The baseline: the packed words as they are, uncompressed.
  fs::path raw(std::uint32_t bits) {
    const fs::path path = dir_ / ("raw" + std::to_string(bits));
    if (!fs::exists(path)) {
      const auto& words = packed(bits);
      FILE* f = std::fopen(path.c_str(), "wb");
      std::fwrite(words.data(), 8, words.size(), f);
      std::fclose(f);
    }
    return path;
  }

  // Bits per record of the whole table as one zstd frame: the size floor that blocking gives up.
  double zstd_whole_file_bits(std::uint32_t bits) {
    auto& result = whole_file_bits_[bits];
    if (result == 0) {
      const auto& words = packed(bits);
      std::vector<char> out(ZSTD_compressBound(words.size() * 8));
      result =
          double(ZSTD_compress(out.data(), out.size(), words.data(), words.size() * 8, kLevel)) *
          8 / kRecords;
    }
    return result;
  }

 private:
  Tables() {
    dir_ = fs::temp_directory_path() / ("table_file_bench_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  fs::path dir_;
  std::map<std::uint32_t, std::vector<std::uint64_t>> packed_;
  std::map<std::uint32_t, double> whole_file_bits_;
};

// Probe indices drawn up front, so the timed loop holds only the probe.
std::vector<std::uint64_t> random_indices(std::uint64_t range, std::uint64_t offset = 0) {
  std::mt19937_64 rng(7);
  std::vector<std::uint64_t> indices(1 << 16);
  for (auto& i : indices) i = offset + rng() % range;
  return indices;
}

void evict_from_page_cache(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

double bits_per_record(const fs::path& path) {
  return double(fs::file_size(path)) * 8 / kRecords;
}

// Args: bits per record, block size in KiB.
void BM_TableColdProbe(benchmark::State& state) {
  const auto bits = std::uint32_t(state.range(0));
  const fs::path path = Tables::get().table(bits, std::size_t(state.range(1)));
  tablebase::TableReader reader(path);
  const auto indices = random_indices(kRecords);
  std::size_t k = 0;
  for (auto _ : state) {
    reader.drop_cache();
    benchmark::DoNotOptimize(reader.get(indices[k++ & 0xFFFF]));
  }
  state.counters["bits_per_record"] = bits_per_record(path);
}

void BM_TableColdOpenProbe(benchmark::State& state) {
  const fs::path path =
      Tables::get().table(std::uint32_t(state.range(0)), std::size_t(state.range(1)));
  const auto indices = random_indices(kRecords);
  std::size_t k = 0;
  for (auto _ : state) {
    tablebase::TableReader reader(path);
    benchmark::DoNotOptimize(reader.get(indices[k++ & 0xFFFF]));
  }
}

void BM_TableDiskColdProbe(benchmark::State& state) {
  const fs::path path =
      Tables::get().table(std::uint32_t(state.range(0)), std::size_t(state.range(1)));
  tablebase::TableReader reader(path);
  const auto indices = random_indices(kRecords);
  std::size_t k = 0;
  for (auto _ : state) {
    state.PauseTiming();
    evict_from_page_cache(path);
    reader.drop_cache();
    state.ResumeTiming();
    benchmark::DoNotOptimize(reader.get(indices[k++ & 0xFFFF]));
  }
}

// Probes inside one block already in the cache.
void BM_TableWarmProbe(benchmark::State& state) {
  const fs::path path =
      Tables::get().table(std::uint32_t(state.range(0)), std::size_t(state.range(1)));
  tablebase::TableReader reader(path);
  const std::uint64_t per_block = reader.records_per_block();
  const auto indices = random_indices(per_block, 3 * per_block);
  reader.get(indices[0]);
  std::size_t k = 0;
  for (auto _ : state) benchmark::DoNotOptimize(reader.get(indices[k++ & 0xFFFF]));
}

// Baseline: one pread of the word holding the record from the uncompressed packed file.
std::uint32_t raw_probe(int fd, std::uint64_t index, std::uint32_t bits) {
  const std::uint64_t bit = index * bits;
  std::uint64_t word = 0;
  if (::pread(fd, &word, 8, off_t(bit / 64 * 8)) != 8) std::abort();
  return std::uint32_t(word >> (bit % 64)) & ((1u << bits) - 1);
}

void BM_RawFileProbe(benchmark::State& state) {
  const auto bits = std::uint32_t(state.range(0));
  const fs::path path = Tables::get().raw(bits);
  const int fd = ::open(path.c_str(), O_RDONLY);
  const auto indices = random_indices(kRecords);
  std::size_t k = 0;
  for (auto _ : state) benchmark::DoNotOptimize(raw_probe(fd, indices[k++ & 0xFFFF], bits));
  ::close(fd);
  state.counters["bits_per_record"] = bits_per_record(path);
  state.counters["zstd_whole_file"] = Tables::get().zstd_whole_file_bits(bits);
}

void BM_RawFileDiskColdProbe(benchmark::State& state) {
  const auto bits = std::uint32_t(state.range(0));
  const fs::path path = Tables::get().raw(bits);
  const int fd = ::open(path.c_str(), O_RDONLY);
  const auto indices = random_indices(kRecords);
  std::size_t k = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    state.ResumeTiming();
    benchmark::DoNotOptimize(raw_probe(fd, indices[k++ & 0xFFFF], bits));
  }
  ::close(fd);
}

void BM_RawMemoryProbe(benchmark::State& state) {
  const auto bits = std::uint32_t(state.range(0));
  const auto& words = Tables::get().packed(bits);
  const auto indices = random_indices(kRecords);
  std::size_t k = 0;
  for (auto _ : state) {
    const std::uint64_t bit = indices[k++ & 0xFFFF] * bits;
    benchmark::DoNotOptimize(std::uint32_t(words[bit / 64] >> (bit % 64)) & ((1u << bits) - 1));
  }
}

// How fast a solver can write its tiers, in records per second.
void BM_TableWrite(benchmark::State& state) {
  const auto bits = std::uint32_t(state.range(0));
  const auto& words = Tables::get().packed(bits);
  const fs::path path =
      fs::temp_directory_path() / ("table_file_bench_write_" + std::to_string(::getpid()) + ".tb");
  for (auto _ : state) {
    tablebase::write_packed_table(path, {"bench", "bench", kRecords, bits, "bench"}, words,
                                  int(state.range(1)));
  }
  state.counters["bits_per_record"] = bits_per_record(path);
  fs::remove(path);
  state.SetItemsProcessed(std::int64_t(state.iterations() * kRecords));
}

void block_sizes(benchmark::internal::Benchmark* b) {
  for (int bits : {1, 4})
    for (int kib : {4, 8, 16, 32, 64, 256}) b->Args({bits, kib});
}
void default_block(benchmark::internal::Benchmark* b) {
  for (int bits : {1, 4}) b->Args({bits, int(tablebase::kDefaultBlockBytes / 1024)});
}

BENCHMARK(BM_TableColdProbe)->Apply(block_sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TableColdOpenProbe)->Apply(block_sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TableDiskColdProbe)
    ->Apply(default_block)
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(3000);
BENCHMARK(BM_TableWarmProbe)->Apply(default_block)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_RawFileProbe)->Arg(1)->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RawFileDiskColdProbe)->Arg(1)->Arg(4)->Unit(benchmark::kMicrosecond)->Iterations(3000);
BENCHMARK(BM_RawMemoryProbe)->Arg(1)->Arg(4)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_TableWrite)
    ->Args({1, 3})
    ->Args({1, 19})
    ->Args({4, 3})
    ->Args({4, 19})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();  // compression runs on all cores

}  // namespace
