// Records gathered into numbered buckets ahead of their use, held in memory up to a cap and the
// rest appended to a file a bucket: what a reach finds for tiers it has not come to yet (the
// coalition tier space's positions, by tier), which on a large row is more than the tiers
// themselves hold. Each buffer is sorted and its repeats dropped before it is written, so a file
// holds few repeats; a bucket is read back in no particular order, repeats possible.
//
// What it holds can be made to last (a reach's checkpoint): flush() writes every buffer to its
// file and says how many records each file holds; resume() with those counts, in another
// process, finds the same records again (cutting off what was appended after). Once flushed, the
// files outlive the object, and a cleared bucket's file stays until the next flush has been
// recorded (forget_cleared()): the last checkpoint still needs it.
#pragma once

#include <tbb/parallel_sort.h>
#include <unistd.h>

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
  // the buffers pass `cap_bytes` (the largest first), removed by clear() and, unless flushed, the
  // destructor.
  BucketSpill(int buckets, std::filesystem::path dir, std::string name, std::uint64_t cap_bytes)
      : buffers_(buckets),
        tidied_(buckets, 0),
        on_disk_(buckets, 0),
        retiring_(buckets, 0),
        dir_(std::move(dir)),
        name_(std::move(name)),
        cap_(cap_bytes) {}
  BucketSpill(const BucketSpill&) = delete;
  BucketSpill& operator=(const BucketSpill&) = delete;
  ~BucketSpill() {
    if (lasting_) return;
    for (int b = 0; b < int(buffers_.size()); ++b)
      if (on_disk_[b]) {
        std::error_code ignored;
        std::filesystem::remove(path(b), ignored);
      }
  }

  void add(int bucket, const Record& r) {
    if (retiring_[bucket])
      throw std::logic_error("a bucket took records after it was cleared, before forget_cleared");
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
  // Forgets the bucket's records (its file removed, or once flushed, at forget_cleared()).
  void clear(int bucket) {
    held_ -= buffers_[bucket].capacity() * sizeof(Record);
    std::vector<Record>().swap(buffers_[bucket]);
    tidied_[bucket] = 0;
    if (on_disk_[bucket]) {
      if (lasting_)
        retiring_[bucket] = 1;  // takes no records until forget_cleared()
      else
        std::filesystem::remove(path(bucket));
    }
    on_disk_[bucket] = 0;
  }

  // Writes every buffer to its file, synced, and returns the records each bucket's file holds
  // (0: none). Throws std::runtime_error when a file cannot be written.
  std::vector<std::uint64_t> flush() {
    lasting_ = true;
    for (int b = 0; b < int(buffers_.size()); ++b)
      if (!buffers_[b].empty()) {
        write(b, true);
      } else if (on_disk_[b]) {  // spilled before: synced now
        std::FILE* file = std::fopen(path(b).c_str(), "rb");
        if (!file) fail(b, "cannot open");
        const bool bad = ::fsync(::fileno(file)) != 0;
        if (std::fclose(file) != 0 || bad) fail(b, "cannot sync");
      }
    return on_disk_;
  }
  // Removes the files of the buckets cleared since the last flush (call once that flush's counts
  // are recorded).
  void forget_cleared() {
    for (int b = 0; b < int(buffers_.size()); ++b)
      if (retiring_[b]) std::filesystem::remove(path(b));
    std::fill(retiring_.begin(), retiring_.end(), 0);
  }
  // Takes up the files a flush() left with `records` (as it returned them; empty: none), with
  // nothing held in memory: a file cut back to its count, a bucket of none's file removed.
  // Throws std::runtime_error when a file is missing or shorter.
  void resume(const std::vector<std::uint64_t>& records) {
    lasting_ = true;
    for (int b = 0; b < int(buffers_.size()); ++b) {
      const std::uint64_t count = b < int(records.size()) ? records[b] : 0;
      std::error_code error;
      const std::uintmax_t bytes = std::filesystem::file_size(path(b), error);
      if (!count) {
        if (!error) std::filesystem::remove(path(b));
      } else if (error || bytes < count * sizeof(Record)) {
        throw std::runtime_error(path(b).string() + ": holds fewer records than its checkpoint's " +
                                 std::to_string(count));
      } else {
        std::filesystem::resize_file(path(b), count * sizeof(Record));
      }
      on_disk_[b] = count;
    }
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
      write(b, false);
    }
  }
  // Appends bucket b's buffer to its file (synced to the disk when asked) and empties it.
  void write(int b, bool sync) {
    std::vector<Record>& buffer = buffers_[b];
    tidy(buffer);
    std::FILE* file = std::fopen(path(b).c_str(), "ab");
    if (!file) fail(b, "cannot open");
    bool bad = std::fwrite(buffer.data(), sizeof(Record), buffer.size(), file) != buffer.size();
    if (sync) bad = bad || std::fflush(file) != 0 || ::fsync(::fileno(file)) != 0;
    if (std::fclose(file) != 0 || bad) fail(b, "cannot write");
    on_disk_[b] += buffer.size();
    held_ -= buffer.capacity() * sizeof(Record);
    std::vector<Record>().swap(buffer);
    tidied_[b] = 0;
  }
  // Sorted (in parallel, in the calling task arena, when large: a reach's hand-on of what its
  // threads found is otherwise a serial part) and its repeats dropped.
  static void tidy(std::vector<Record>& buffer) {
    if (buffer.size() >= kParallelSort)
      tbb::parallel_sort(buffer.begin(), buffer.end());
    else
      std::sort(buffer.begin(), buffer.end());
    buffer.erase(std::unique(buffer.begin(), buffer.end()), buffer.end());
  }
  static constexpr std::size_t kParallelSort = std::size_t{1} << 16;

  std::vector<std::vector<Record>> buffers_;
  std::vector<std::size_t> tidied_;     // a buffer's size when its repeats were last dropped
  std::vector<std::uint64_t> on_disk_;  // records in a bucket's file
  std::vector<char> retiring_;          // cleared since the last flush, its file kept
  bool lasting_ = false;
  std::filesystem::path dir_;
  std::string name_;
  std::uint64_t cap_, held_ = 0, peak_ = 0;
};

}  // namespace tablebase
