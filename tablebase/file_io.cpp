#include "tablebase/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "tablebase/table_file.h"

namespace tablebase::file_io {

std::string errno_text() {
  return std::strerror(errno);
}

Fd::~Fd() {
  if (fd_ >= 0) ::close(fd_);
}

bool Fd::close() {
  return ::close(std::exchange(fd_, -1)) == 0;
}

std::optional<std::string> pread_exact(int fd, std::span<std::byte> data, std::uint64_t offset) {
  while (!data.empty()) {
    const ssize_t n = ::pread(fd, data.data(), data.size(), off_t(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_text();
    if (n == 0) return "unexpected end of file (did it shrink while open?)";
    data = data.subspan(std::size_t(n));
    offset += std::uint64_t(n);
  }
  return std::nullopt;
}

void pwrite_all(int fd, const std::filesystem::path& file, std::span<const std::byte> data,
                std::uint64_t offset) {
  while (!data.empty()) {
    const ssize_t n = ::pwrite(fd, data.data(), data.size(), off_t(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw TableWriteError(file, "write failed: " + errno_text());
    data = data.subspan(std::size_t(n));
    offset += std::uint64_t(n);
  }
}

namespace {
struct ZstdFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};
}  // namespace

ZSTD_CCtx* thread_cctx() {
  thread_local std::unique_ptr<ZSTD_CCtx, ZstdFree> ctx(ZSTD_createCCtx());
  return ctx.get();
}

ZSTD_DCtx* thread_dctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, ZstdFree> ctx(ZSTD_createDCtx());
  return ctx.get();
}

std::filesystem::path temporary_path(const std::filesystem::path& path) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  return tmp;
}

void write_atomically(const std::filesystem::path& path, const WriteFile& write) {
  const std::filesystem::path tmp = temporary_path(path);
  Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (fd.get() < 0) throw TableWriteError(tmp, "cannot create: " + errno_text());
  try {
    write(fd.get(), tmp);
    if (::fsync(fd.get()) != 0) throw TableWriteError(tmp, "fsync failed: " + errno_text());
    if (!fd.close()) throw TableWriteError(tmp, "close failed: " + errno_text());
    if (::rename(tmp.c_str(), path.c_str()) != 0)
      throw TableWriteError(path, "cannot rename " + tmp.string() + " to it: " + errno_text());
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  // Make the rename itself durable, so a finished file survives a crash and is not redone.
  std::filesystem::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  Fd dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir_fd.get() < 0 || (::fsync(dir_fd.get()) != 0 && errno != EINVAL))
    throw TableWriteError(path, "cannot sync its directory: " + errno_text());
}

}  // namespace tablebase::file_io
