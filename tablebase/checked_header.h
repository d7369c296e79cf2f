// The checks the table file formats (table_file.cpp, keyed_table_file.cpp) make on opening, before
// they trust a byte of a file: it is a regular file; it begins with the format's magic, a format
// version this build reads and a header size the format allows; and the header's last 8 bytes are
// the crc64 of the rest. Each fault throws TableError naming the file and the fault.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "tablebase/crc64.h"
#include "tablebase/file_io.h"
#include "tablebase/table_file.h"

namespace tablebase::file_io {

// What a format fixes at the start of its header (magic, version and header size, 16 bytes that
// never move), and how it is named in faults ("table", "keyed table").
struct HeaderFormat {
  std::array<char, 8> magic;
  const char* kind;
  std::uint32_t version;
  std::uint64_t min_header_bytes, max_header_bytes;
};

// A table file opened, with its header read and checked.
struct CheckedHeader {
  Fd fd;
  std::uint64_t file_size = 0;
  std::vector<std::byte> bytes;  // the whole header, checksum included

  // The header without its checksum, from the magic on.
  std::span<const std::byte> body() const {
    return std::span<const std::byte>(bytes).first(bytes.size() - 8);
  }
};

inline CheckedHeader open_checked_header(const std::filesystem::path& path,
                                         const HeaderFormat& format) {
  const auto fail = [&](const std::string& fault) { throw TableError(path, fault); };
  CheckedHeader h;
  h.fd = Fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (h.fd.get() < 0) fail("cannot open: " + errno_text());
  struct stat st {};
  if (::fstat(h.fd.get(), &st) != 0) fail("cannot stat: " + errno_text());
  if (!S_ISREG(st.st_mode)) fail("not a regular file");
  h.file_size = std::uint64_t(st.st_size);
  const auto read_header = [&](std::span<std::byte> data) {
    if (h.file_size < data.size())
      fail("truncated: file is " + std::to_string(h.file_size) + " bytes, its header needs " +
           std::to_string(data.size()));
    if (auto error = pread_exact(h.fd.get(), data, 0)) fail("cannot read header: " + *error);
  };

  constexpr std::size_t kPrefixBytes = 16;  // magic, version, header size
  std::array<std::byte, kPrefixBytes> prefix;
  read_header(prefix);
  if (std::memcmp(prefix.data(), format.magic.data(), format.magic.size()) != 0)
    fail(std::string("not a ") + format.kind + " file (bad magic)");
  ByteReader pr(std::span<const std::byte>(prefix).subspan(format.magic.size()));
  const std::uint32_t version = pr.u32();
  const std::uint32_t header_size = pr.u32();
  if (version != format.version)
    fail(std::string(format.kind) + " format version " + std::to_string(version) +
         ", this build reads version " + std::to_string(format.version));
  if (header_size < format.min_header_bytes || header_size > format.max_header_bytes)
    fail("header size " + std::to_string(header_size) + " is impossible (damaged header)");

  h.bytes.resize(header_size);
  read_header(h.bytes);
  ByteReader crc_field(std::span<const std::byte>(h.bytes).last(8));
  if (crc64(h.body()) != crc_field.u64()) fail("header checksum mismatch (damaged header)");
  return h;
}

}  // namespace tablebase::file_io
