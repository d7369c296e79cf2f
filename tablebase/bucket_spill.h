// Records gathered into numbered buckets ahead of their use, held in memory up to a cap and the
// rest appended to a file a bucket: what a reach finds for tiers it has not come to yet (the
// coalition tier space's positions, by tier), which on a large row is more than the tiers
// themselves hold. Each buffer is sorted and its repeats dropped before it is written, so a file
// holds few repeats; a bucket is read back in no particular order, repeats possible. A buffer is
// written as one frame: its record count, its size compressed, then its records compressed by zstd
// with a checksum (sorted records share their high bytes: nevsky:5x5:3's found positions took 16
// bytes each raw).
//
// What it holds can be made to last (a reach's checkpoint): flush() writes every buffer to its
// file and says how many bytes each file holds; resume() with those lengths, in another
// process, finds the same records again (cutting off what was appended after). Once flushed, the
// files outlive the object, and a cleared bucket's file stays until the next flush has been
// recorded (forget_cleared()): the last checkpoint still needs it.
#pragma once

#include <tbb/parallel_sort.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
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
  // f(record) for every record of the bucket, the file's then the buffer's. Throws
  // std::runtime_error when the file cannot be read or a frame is damaged.
  template <typename F>
  void for_each(int bucket, F&& f) const {
    if (on_disk_[bucket]) {
      std::FILE* file = std::fopen(path(bucket).c_str(), "rb");
      if (!file) fail(bucket, "cannot open");
      std::vector<char> packed;
      std::vector<Record> records;
      const auto damaged = [&] {
        std::fclose(file);
        return std::runtime_error(path(bucket).string() + ": is damaged or cut short");
      };
      std::uint64_t read = 0, frame[2];  // records, bytes compressed
      while (read < on_disk_[bucket]) {
        if (std::fread(frame, sizeof frame, 1, file) != 1 ||
            frame[1] > on_disk_[bucket] - read - sizeof frame)
          throw damaged();
        packed.resize(frame[1]);
        bool good = std::fread(packed.data(), 1, packed.size(), file) == packed.size();
        // The count must be what the frame says it holds before anything that size is made.
        const unsigned long long content = ZSTD_getFrameContentSize(packed.data(), packed.size());
        good = good && content != ZSTD_CONTENTSIZE_ERROR && content != ZSTD_CONTENTSIZE_UNKNOWN &&
               content % sizeof(Record) == 0 && content / sizeof(Record) == frame[0];
        if (good) {
          records.resize(frame[0]);
          const std::size_t bytes =
              ZSTD_decompress(records.data(), content, packed.data(), packed.size());
          good = !ZSTD_isError(bytes) && bytes == content;
        }
        if (!good) throw damaged();
        for (const Record& r : records) f(r);
        read += sizeof frame + frame[1];
      }
      std::fclose(file);
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

  // Writes every buffer to its file, synced, and returns the bytes each bucket's file holds
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
  // Takes up the files a flush() left with `lengths` (as it returned them; empty: none), with
  // nothing held in memory: a file cut back to its length, a bucket of none's file removed.
  // Throws std::runtime_error when a file is missing or shorter.
  void resume(const std::vector<std::uint64_t>& lengths) {
    lasting_ = true;
    for (int b = 0; b < int(buffers_.size()); ++b) {
      const std::uint64_t length = b < int(lengths.size()) ? lengths[b] : 0;
      std::error_code error;
      const std::uintmax_t bytes = std::filesystem::file_size(path(b), error);
      if (!length) {
        if (!error) std::filesystem::remove(path(b));
      } else if (error || bytes < length) {
        throw std::runtime_error(path(b).string() + ": holds fewer bytes than its checkpoint's " +
                                 std::to_string(length));
      } else {
        std::filesystem::resize_file(path(b), length);
      }
      on_disk_[b] = length;
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
  // Appends bucket b's buffer to its file as a frame (synced to the disk when asked) and empties
  // it.
  void write(int b, bool sync) {
    std::vector<Record>& buffer = buffers_[b];
    tidy(buffer);
    const std::size_t raw = buffer.size() * sizeof(Record);
    std::vector<char> packed(ZSTD_compressBound(raw));
    if (!compressor_) {
      // Fast, and with a checksum of the records: a damaged frame is refused, not misread.
      compressor_.reset(ZSTD_createCCtx());
      if (!compressor_ ||
          ZSTD_isError(ZSTD_CCtx_setParameter(compressor_.get(), ZSTD_c_compressionLevel, 1)) ||
          ZSTD_isError(ZSTD_CCtx_setParameter(compressor_.get(), ZSTD_c_checksumFlag, 1)))
        throw std::runtime_error(path(b).string() + ": cannot compress");
    }
    const std::size_t bytes =
        ZSTD_compress2(compressor_.get(), packed.data(), packed.size(), buffer.data(), raw);
    if (ZSTD_isError(bytes)) throw std::runtime_error(path(b).string() + ": cannot compress");
    const std::uint64_t frame[2] = {buffer.size(), bytes};
    std::FILE* file = std::fopen(path(b).c_str(), "ab");
    if (!file) fail(b, "cannot open");
    bool bad = std::fwrite(frame, sizeof frame, 1, file) != 1 ||
               std::fwrite(packed.data(), 1, bytes, file) != bytes;
    if (sync) bad = bad || std::fflush(file) != 0 || ::fsync(::fileno(file)) != 0;
    if (std::fclose(file) != 0 || bad) fail(b, "cannot write");
    on_disk_[b] += sizeof frame + bytes;
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
  std::vector<std::uint64_t> on_disk_;  // bytes of a bucket's file
  std::vector<char> retiring_;          // cleared since the last flush, its file kept
  bool lasting_ = false;
  struct FreeCompressor {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
  };
  std::unique_ptr<ZSTD_CCtx, FreeCompressor> compressor_;
  std::filesystem::path dir_;
  std::string name_;
  std::uint64_t cap_, held_ = 0, peak_ = 0;
};

}  // namespace tablebase
