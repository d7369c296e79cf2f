#include "solver/proof_checkpoint.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace solver {

namespace {

constexpr char kMagic[8] = {'D', '1', '6', 'C', 'K', 'P', 'T', '2'};
// The first version: no key format field, keys in format 1.
constexpr char kMagicVersion1[8] = {'D', '1', '6', 'C', 'K', 'P', 'T', '1'};

// FNV-1a over the bytes written or read: cheap, and enough to tell damage from a checkpoint.
class Hasher {
 public:
  void add(const void* data, std::size_t n) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    for (std::size_t i = 0; i < n; ++i) hash_ = (hash_ ^ bytes[i]) * 0x100000001B3ull;
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xCBF29CE484222325ull;
};

using File = std::unique_ptr<std::FILE, decltype(&std::fclose)>;

class Writer {
 public:
  Writer(std::FILE* f, const std::filesystem::path& path) : file_(f), path_(path) {}
  void bytes(const void* data, std::size_t n) {
    hasher_.add(data, n);
    if (std::fwrite(data, 1, n, file_) != n)
      throw CheckpointError(path_.string() + ": write failed: " + std::strerror(errno));
  }
  template <typename T>
  void value(T v) {
    bytes(&v, sizeof v);
  }
  void string(const std::string& s) {
    value(std::uint32_t(s.size()));
    bytes(s.data(), s.size());
  }
  std::uint64_t hash() const { return hasher_.value(); }

 private:
  std::FILE* file_;
  const std::filesystem::path& path_;
  Hasher hasher_;
};

class Reader {
 public:
  Reader(std::FILE* f, const std::filesystem::path& path) : file_(f), path_(path) {}
  void bytes(void* data, std::size_t n) {
    if (std::fread(data, 1, n, file_) != n)
      throw CheckpointError(path_.string() + ": truncated checkpoint");
    hasher_.add(data, n);
  }
  template <typename T>
  T value() {
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  std::string string() {
    const auto size = value<std::uint32_t>();
    if (size > 4096) throw CheckpointError(path_.string() + ": damaged checkpoint header");
    std::string s(size, '\0');
    bytes(s.data(), size);
    return s;
  }
  std::uint64_t hash() const { return hasher_.value(); }

 private:
  std::FILE* file_;
  const std::filesystem::path& path_;
  Hasher hasher_;
};

}  // namespace

void save_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  File file(std::fopen(tmp.c_str(), "wb"), &std::fclose);
  if (!file) throw CheckpointError(tmp.string() + ": cannot create: " + std::strerror(errno));
  Writer out(file.get(), tmp);
  out.bytes(kMagic, sizeof kMagic);
  out.value(c.key_format);
  out.string(c.variant);
  out.string(c.fen);
  out.value(c.nodes);
  out.value(c.seconds);
  out.value(std::uint64_t(c.entries.size()));
  for (const ProvenEntry& e : c.entries) {
    out.value(e.lo);
    out.value(e.hi);
    out.value(std::uint8_t(e.win | e.work_log2 << 1));
  }
  const std::uint64_t hash = out.hash();
  out.value(hash);
  if (std::fflush(file.get()) != 0 || ::fsync(fileno(file.get())) != 0)
    throw CheckpointError(tmp.string() + ": sync failed: " + std::strerror(errno));
  file.reset();
  std::filesystem::rename(tmp, path);
}

Checkpoint load_checkpoint(const std::filesystem::path& path) {
  File file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw CheckpointError(path.string() + ": cannot open: " + std::strerror(errno));
  Reader in(file.get(), path);
  char magic[sizeof kMagic];
  in.bytes(magic, sizeof magic);
  Checkpoint c;
  if (std::memcmp(magic, kMagic, sizeof kMagic) == 0)
    c.key_format = in.value<std::uint32_t>();
  else if (std::memcmp(magic, kMagicVersion1, sizeof kMagic) == 0)
    c.key_format = 1;
  else
    throw CheckpointError(path.string() + ": not a proof search checkpoint");
  c.variant = in.string();
  c.fen = in.string();
  c.nodes = in.value<std::uint64_t>();
  c.seconds = in.value<double>();
  const auto count = in.value<std::uint64_t>();
  const auto size = std::filesystem::file_size(path);
  if (count > size / 17) throw CheckpointError(path.string() + ": truncated checkpoint");
  c.entries.resize(count);
  for (ProvenEntry& e : c.entries) {
    e.lo = in.value<std::uint64_t>();
    e.hi = in.value<std::uint64_t>();
    const auto packed = in.value<std::uint8_t>();
    e.win = packed & 1;
    e.work_log2 = packed >> 1;
  }
  const std::uint64_t expected = in.hash();
  if (in.value<std::uint64_t>() != expected)
    throw CheckpointError(path.string() + ": damaged checkpoint (checksum mismatch)");
  if (std::fgetc(file.get()) != EOF)
    throw CheckpointError(path.string() + ": data after the end of the checkpoint");
  return c;
}

}  // namespace solver
