#include "rules/nardy/solve/bearoff_file.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <bit>
#include <span>
#include <string>

#include "tablebase/crc64.h"
#include "tablebase/file_io.h"
#include "tablebase/table_file.h"

namespace nardy::bearoff {

using tablebase::crc64;
using tablebase::TableError;
namespace file_io = tablebase::file_io;

static_assert(std::endian::native == std::endian::little,
              "the bear-off file holds the arrays' bytes as they are on a little-endian machine");

namespace {

constexpr std::string_view kMagic = "RNBEAROF";
constexpr std::size_t kHeaderBytes = 48;

template <typename T>
std::span<const std::byte> bytes_of(const std::vector<T>& v) {
  return std::as_bytes(std::span(v));
}
template <typename T>
std::span<std::byte> writable_bytes_of(std::vector<T>& v) {
  return std::as_writable_bytes(std::span(v));
}

std::uint64_t payload_crc(const OneSided::Tables& t) {
  std::uint64_t crc = crc64(bytes_of(t.expected));
  crc = crc64(bytes_of(t.counts), crc);
  return crc64(bytes_of(t.best), crc);
}

}  // namespace

void write_one_sided(const std::filesystem::path& path, const OneSided& db) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) || ec)
    throw TableError(path, "already exists; the bear-off database is not written over a file");
  const OneSided::Tables& t = db.tables();
  file_io::ByteWriter w;
  w.raw(kMagic);
  w.u32(kBearoffFileVersion);
  w.u32(std::uint32_t(db.index().max_checkers()));
  w.u64(db.size());
  w.u32(kExactRolls);
  w.u32(nardy::kDistinctRolls);
  w.u64(payload_crc(t));
  w.u64(crc64(w.bytes()));
  file_io::write_atomically(path, [&](int fd, const std::filesystem::path& tmp) {
    std::uint64_t at = 0;
    for (std::span<const std::byte> part :
         {std::span<const std::byte>(w.bytes()), bytes_of(t.expected), bytes_of(t.counts),
          bytes_of(t.best)}) {
      file_io::pwrite_all(fd, tmp, part, at);
      at += part.size();
    }
  });
}

OneSided read_one_sided(const std::filesystem::path& path, int expected_checkers) {
  file_io::Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw TableError(path, "cannot open: " + file_io::errno_text());
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw TableError(path, "cannot stat: " + file_io::errno_text());
  const std::uint64_t file_bytes = std::uint64_t(st.st_size);
  std::vector<std::byte> head(kHeaderBytes);
  if (file_bytes < kHeaderBytes || file_io::pread_exact(fd.get(), head, 0))
    throw TableError(path, "too short for a bear-off database header");
  file_io::ByteReader r(head);
  const auto magic = r.raw(kMagic.size());
  if (std::string_view(reinterpret_cast<const char*>(magic.data()), magic.size()) != kMagic)
    throw TableError(path, "not a Royal Nardy bear-off database (bad magic)");
  const std::uint32_t version = r.u32();
  const std::uint32_t checkers = r.u32();
  const std::uint64_t boards = r.u64();
  const std::uint32_t exact_rolls = r.u32();
  const std::uint32_t rolls = r.u32();
  const std::uint64_t stored_payload_crc = r.u64();
  const std::uint64_t header_crc = r.u64();
  if (header_crc != crc64(std::span(head).first(kHeaderBytes - 8)))
    throw TableError(path, "damaged header (checksum mismatch)");
  if (version != kBearoffFileVersion)
    throw TableError(path, "format version " + std::to_string(version) + ", this program reads " +
                               std::to_string(kBearoffFileVersion));
  if (checkers > 15 || exact_rolls != kExactRolls || rolls != nardy::kDistinctRolls)
    throw TableError(path, "a bear-off database of other dimensions");
  if (expected_checkers >= 0 && checkers != std::uint32_t(expected_checkers))
    throw TableError(path, "holds boards of up to " + std::to_string(checkers) + " checkers, not " +
                               std::to_string(expected_checkers));
  const HomeIndex index{int(checkers)};
  if (boards != index.size())
    throw TableError(path, "a board count that is not " + std::to_string(checkers) + " checkers'");
  OneSided::Tables t;
  t.expected.resize(boards);
  t.counts.resize(boards * (kExactRolls + 1));
  t.best.resize(boards * nardy::kDistinctRolls);
  const std::uint64_t payload =
      bytes_of(t.expected).size() + bytes_of(t.counts).size() + bytes_of(t.best).size();
  if (file_bytes != kHeaderBytes + payload)
    throw TableError(path, std::to_string(file_bytes) + " bytes, not the " +
                               std::to_string(kHeaderBytes + payload) + " of its header");
  std::uint64_t at = kHeaderBytes;
  for (std::span<std::byte> part :
       {writable_bytes_of(t.expected), writable_bytes_of(t.counts), writable_bytes_of(t.best)}) {
    if (auto fault = file_io::pread_exact(fd.get(), part, at)) throw TableError(path, *fault);
    at += part.size();
  }
  if (payload_crc(t) != stored_payload_crc)
    throw TableError(path, "damaged tables (checksum mismatch)");
  try {
    return OneSided(int(checkers), std::move(t));
  } catch (const std::invalid_argument& e) {
    throw TableError(path, e.what());
  }
}

}  // namespace nardy::bearoff
