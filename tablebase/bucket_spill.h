// Records gathered into numbered buckets ahead of their use, held in memory up to a cap and the
// rest appended to a file a bucket: what a reach finds for tiers it has not come to yet (the
// coalition tier space's positions, by tier), which on a large row is more than the tiers
// themselves hold. Each buffer is sorted and its repeats dropped before it is written, so a file
// holds few repeats; a bucket is read back in no particular order, repeats possible.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace tablebase {

template <typename Record>
requires std::is_trivially_copyable_v<Record>
class BucketSpill {
 public:
  // `dir` empty: everything in memory, no cap. Else files dir/NAME-<bucket>.spill, written when
  // the buffers pass `cap_bytes` (the largest first), removed by clear() and the destructor.
  BucketSpill(int buckets, std::filesystem::path dir, std::string name, std::uint64_t cap_bytes)
      : buffers_(buckets),
        tidied_(buckets, 0),
        on_disk_(buckets, false),
        dir_(std::move(dir)),
        name_(std::move(name)),
        cap_(cap_bytes) {}
  BucketSpill(const BucketSpill&) = delete;
  BucketSpill& operator=(const BucketSpill&) = delete;
  ~BucketSpill() {
    for (int b = 0; b < int(buffers_.size()); ++b)
      if (on_disk_[b]) {
        std::error_code ignored;
        std::filesystem::remove(path(b), ignored);
      }
  }

  void add(int bucket, const Record& r) {
    std::vector<Record>& buffer = buffers_[bucket];
    held_ -= buffer.capacity() * sizeof(Record);
    buffer.push_back(r);
    // Repeats kept at most as many as the distinct ones.
    if (buffer.size() >= 2 * tidied_[bucket] + 1024) {
      tidy(buffer);
      tidied_[bucket] = buffer.size();
    }
    held_ += buffer.capacity() * sizeof(Record);
    if (!dir_.empty() && held_ > cap_) spill();
    peak_ = std::max(peak_, held_);
  }
  // f(record) for every record of the bucket, the file's then the buffer's.
  template <typename F>
  void for_each(int bucket, F&& f) const {
    if (on_disk_[bucket]) {
      std::FILE* file = std::fopen(path(bucket).c_str(), "rb");
      if (!file) fail(bucket, "cannot open");
      std::vector<Record> chunk(std::size_t{1} << 16);
      for (std::size_t n; (n = std::fread(chunk.data(), sizeof(Record), chunk.size(), file)) > 0;)
        for (std::size_t i = 0; i < n; ++i) f(chunk[i]);
      const bool bad = std::ferror(file);
      std::fclose(file);
      if (bad) fail(bucket, "cannot read");
    }
    for (const Record& r : buffers_[bucket]) f(r);
  }
  // Forgets the bucket's records (its file removed).
  void clear(int bucket) {
    held_ -= buffers_[bucket].capacity() * sizeof(Record);
    std::vector<Record>().swap(buffers_[bucket]);
    tidied_[bucket] = 0;
    if (on_disk_[bucket]) std::filesystem::remove(path(bucket));
    on_disk_[bucket] = false;
  }
  // The most the buffers held at once, in bytes.
  std::uint64_t peak_bytes() const { return peak_; }

 private:
  std::filesystem::path path(int bucket) const {
    return dir_ / (name_ + "-" + std::to_string(bucket) + ".spill");
  }
  [[noreturn]] void fail(int bucket, const char* what) const {
    throw std::runtime_error(path(bucket).string() + ": " + what + ": " + std::strerror(errno));
  }
  // Writes the largest buffers until they hold half the cap.
  void spill() {
    std::vector<std::pair<std::size_t, int>> by_size;
    for (int b = 0; b < int(buffers_.size()); ++b)
      if (!buffers_[b].empty()) by_size.emplace_back(buffers_[b].size(), b);
    std::sort(by_size.rbegin(), by_size.rend());
    for (const auto& [size, b] : by_size) {
      if (held_ <= cap_ / 2) break;
      std::vector<Record>& buffer = buffers_[b];
      tidy(buffer);
      std::FILE* file = std::fopen(path(b).c_str(), "ab");
      if (!file) fail(b, "cannot open");
      const bool bad =
          std::fwrite(buffer.data(), sizeof(Record), buffer.size(), file) != buffer.size();
      if (std::fclose(file) != 0 || bad) fail(b, "cannot write");
      on_disk_[b] = true;
      held_ -= buffer.capacity() * sizeof(Record);
      std::vector<Record>().swap(buffer);
      tidied_[b] = 0;
    }
  }
  static void tidy(std::vector<Record>& buffer) {
    std::sort(buffer.begin(), buffer.end());
    buffer.erase(std::unique(buffer.begin(), buffer.end()), buffer.end());
  }

  std::vector<std::vector<Record>> buffers_;
  std::vector<std::size_t> tidied_;  // a buffer's size when its repeats were last dropped
  std::vector<char> on_disk_;
  std::filesystem::path dir_;
  std::string name_;
  std::uint64_t cap_, held_ = 0, peak_ = 0;
};

}  // namespace tablebase
