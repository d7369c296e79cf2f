// The plumbing every checked file of tablebase/ shares (dense tier tables, keyed tables): file
// descriptors, exact reads and writes at an offset, little-endian fields, per-thread zstd
// contexts, and the write-to-a-temporary-then-rename that keeps a half-written file from ever
// looking finished. The formats themselves live in their own files (table_file.h,
// keyed_table_file.h).
#pragma once

#include <zstd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tablebase::file_io {

std::string errno_text();

inline std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return a / b + (a % b != 0);
}

// Little-endian field encoding.
class ByteWriter {
 public:
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void raw(std::string_view s) {
    for (char c : s) bytes_.push_back(std::byte(c));
  }
  void raw(std::span<const std::byte> b) { bytes_.insert(bytes_.end(), b.begin(), b.end()); }
  void str(std::string_view s) {
    u16(std::uint16_t(s.size()));
    raw(s);
  }
  std::vector<std::byte>& bytes() { return bytes_; }

 private:
  void put(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) bytes_.push_back(std::byte(v >> (8 * i)));
  }
  std::vector<std::byte> bytes_;
};

// The reading side: an overrun sets !ok() (and yields zeros) rather than reading past, so a
// header whose lengths disagree with its size is refused.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  bool ok() const { return ok_; }
  std::size_t position() const { return pos_; }
  std::uint16_t u16() { return std::uint16_t(get(2)); }
  std::uint32_t u32() { return std::uint32_t(get(4)); }
  std::uint64_t u64() { return get(8); }
  std::string str() {
    const std::size_t n = u16();
    if (!take(n)) return {};
    return {reinterpret_cast<const char*>(bytes_.data() + pos_ - n), n};
  }
  // The next n bytes (empty, and !ok(), if there are fewer).
  std::span<const std::byte> raw(std::size_t n) {
    if (!take(n)) return {};
    return bytes_.subspan(pos_ - n, n);
  }

 private:
  bool take(std::size_t n) {
    if (!ok_ || bytes_.size() - pos_ < n) return ok_ = false;
    pos_ += n;
    return true;
  }
  std::uint64_t get(int n) {
    if (!take(n)) return 0;
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= std::uint64_t(bytes_[pos_ - n + i]) << (8 * i);
    return v;
  }
  std::span<const std::byte> bytes_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

// Owns a file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~Fd();
  int get() const { return fd_; }
  // Closes now, reporting failure (close can report a failed delayed write).
  bool close();

 private:
  int fd_ = -1;
};

// Reads exactly data.size() bytes at offset; on failure returns why.
std::optional<std::string> pread_exact(int fd, std::span<std::byte> data, std::uint64_t offset);
// Writes all of data at offset; throws TableWriteError naming `file`.
void pwrite_all(int fd, const std::filesystem::path& file, std::span<const std::byte> data,
                std::uint64_t offset);

// zstd contexts reused per thread: creating one per block would cost more than a small block.
ZSTD_CCtx* thread_cctx();
ZSTD_DCtx* thread_dctx();

// Where write_atomically writes `path` before renaming it: `path + ".tmp"` (what a stopped writer
// may leave, and a cleanup removes).
std::filesystem::path temporary_path(const std::filesystem::path& path);

// Calls write(fd, tmp) on a new temporary_path(path), then fsyncs it, renames it over `path` and
// fsyncs the directory, so a killed writer leaves only the temporary file, never a `path` that
// looks finished. On any exception the temporary file is removed and the exception passes on.
// Failures of the file system throw TableWriteError.
using WriteFile = std::function<void(int fd, const std::filesystem::path& tmp)>;
void write_atomically(const std::filesystem::path& path, const WriteFile& write);

}  // namespace tablebase::file_io
