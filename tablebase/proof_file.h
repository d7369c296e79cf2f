// A proof certificate on disk: its byte stream (solver/proof_format.h) as one zstd frame with
// zstd's content checksum, so a damaged or truncated file is refused, never read as a proof.
// The writer streams (a certificate may be far larger than memory would like) into FILE.tmp and
// renames it when complete, so an interrupted write never leaves a file that looks finished.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "solver/proof_format.h"

struct ZSTD_CCtx_s;
struct ZSTD_DCtx_s;

namespace tablebase {

class ProofFileWriter {
 public:
  explicit ProofFileWriter(std::filesystem::path path, int zstd_level = 12);
  ~ProofFileWriter();  // an unfinished file is removed
  ProofFileWriter(const ProofFileWriter&) = delete;
  ProofFileWriter& operator=(const ProofFileWriter&) = delete;

  void put(std::uint8_t byte) {
    if (buffer_.size() == kBufferBytes) flush(false);
    buffer_.push_back(byte);
  }
  // Completes the frame, syncs and renames; returns the file's size in bytes.
  std::uint64_t finish();
  std::uint64_t bytes_in() const { return bytes_in_ + buffer_.size(); }

 private:
  static constexpr std::size_t kBufferBytes = 1 << 20;
  void flush(bool end);

  std::filesystem::path path_, tmp_;
  std::FILE* file_ = nullptr;
  ZSTD_CCtx_s* ctx_ = nullptr;
  std::vector<std::uint8_t> buffer_, compressed_;
  std::uint64_t bytes_in_ = 0, bytes_out_ = 0;
};

class ProofFileReader {
 public:
  // Throws solver::ProofFormatError if the file cannot be opened.
  explicit ProofFileReader(const std::filesystem::path& path);
  ~ProofFileReader();
  ProofFileReader(const ProofFileReader&) = delete;
  ProofFileReader& operator=(const ProofFileReader&) = delete;

  // The next byte; ProofFormatError at the end of the stream or on damage.
  std::uint8_t get() {
    if (pos_ == buffer_.size() && !refill())
      throw solver::ProofFormatError("truncated certificate");
    return buffer_[pos_++];
  }
  // True when every byte was read and the frame ended with a good checksum.
  bool at_end() { return pos_ == buffer_.size() && !refill() && frame_complete_; }
  std::uint64_t bytes_read() const { return consumed_ + pos_; }

 private:
  bool refill();

  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  ZSTD_DCtx_s* ctx_ = nullptr;
  std::vector<std::uint8_t> buffer_, input_;
  std::size_t pos_ = 0, input_pos_ = 0;
  std::uint64_t consumed_ = 0;
  bool frame_complete_ = false, eof_ = false;
};

// Whole-stream helpers, for tests that alter a certificate byte by byte.
std::vector<std::uint8_t> read_proof_bytes(const std::filesystem::path& path);
void write_proof_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes);

}  // namespace tablebase
