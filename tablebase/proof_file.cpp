#include "tablebase/proof_file.h"

#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace tablebase {

namespace {

std::runtime_error write_error(const std::filesystem::path& path, const std::string& what) {
  return std::runtime_error(path.string() + ": " + what);
}

}  // namespace

ProofFileWriter::ProofFileWriter(std::filesystem::path path, int zstd_level)
    : path_(std::move(path)), tmp_(path_.string() + ".tmp") {
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw write_error(tmp_, std::string("cannot create: ") + std::strerror(errno));
  ctx_ = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(ctx_, ZSTD_c_compressionLevel, zstd_level);
  ZSTD_CCtx_setParameter(ctx_, ZSTD_c_checksumFlag, 1);
  buffer_.reserve(kBufferBytes);
  compressed_.resize(ZSTD_CStreamOutSize());
}

ProofFileWriter::~ProofFileWriter() {
  ZSTD_freeCCtx(ctx_);
  if (file_) {
    std::fclose(file_);
    std::filesystem::remove(tmp_);
  }
}

void ProofFileWriter::flush(bool end) {
  ZSTD_inBuffer in{buffer_.data(), buffer_.size(), 0};
  const ZSTD_EndDirective mode = end ? ZSTD_e_end : ZSTD_e_continue;
  for (bool done = false; !done;) {
    ZSTD_outBuffer out{compressed_.data(), compressed_.size(), 0};
    const std::size_t left = ZSTD_compressStream2(ctx_, &out, &in, mode);
    if (ZSTD_isError(left))
      throw write_error(tmp_, std::string("zstd: ") + ZSTD_getErrorName(left));
    if (std::fwrite(compressed_.data(), 1, out.pos, file_) != out.pos)
      throw write_error(tmp_, std::string("write failed: ") + std::strerror(errno));
    bytes_out_ += out.pos;
    done = end ? left == 0 : in.pos == in.size;
  }
  bytes_in_ += buffer_.size();
  buffer_.clear();
}

std::uint64_t ProofFileWriter::finish() {
  flush(true);
  if (std::fflush(file_) != 0 || ::fsync(fileno(file_)) != 0)
    throw write_error(tmp_, std::string("sync failed: ") + std::strerror(errno));
  std::fclose(file_);
  file_ = nullptr;
  std::filesystem::rename(tmp_, path_);
  return bytes_out_;
}

ProofFileReader::ProofFileReader(const std::filesystem::path& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "rb");
  if (!file_)
    throw solver::ProofFormatError(path.string() + ": cannot open: " + std::strerror(errno));
  ctx_ = ZSTD_createDCtx();
}

ProofFileReader::~ProofFileReader() {
  ZSTD_freeDCtx(ctx_);
  if (file_) std::fclose(file_);
}

// Decompresses the next piece of the stream into buffer_; false when the frame has ended. Data
// after the end of the frame, or a file that stops inside it, is damage.
bool ProofFileReader::refill() {
  consumed_ += pos_;
  pos_ = 0;
  buffer_.resize(ZSTD_DStreamOutSize());
  for (;;) {
    if (input_pos_ == input_.size() && !eof_) {
      input_.resize(ZSTD_DStreamInSize());
      input_.resize(std::fread(input_.data(), 1, input_.size(), file_));
      input_pos_ = 0;
      eof_ = input_.empty();
    }
    if (frame_complete_) {
      buffer_.clear();
      if (input_pos_ < input_.size())
        throw solver::ProofFormatError(path_.string() + ": data after the end of the certificate");
      return false;
    }
    ZSTD_inBuffer in{input_.data(), input_.size(), input_pos_};
    ZSTD_outBuffer out{buffer_.data(), buffer_.size(), 0};
    const std::size_t left = ZSTD_decompressStream(ctx_, &out, &in);
    if (ZSTD_isError(left))
      throw solver::ProofFormatError(path_.string() +
                                     ": damaged file (zstd: " + ZSTD_getErrorName(left) + ")");
    input_pos_ = in.pos;
    frame_complete_ = left == 0;
    if (out.pos > 0) {
      buffer_.resize(out.pos);
      return true;
    }
    // Nothing came out although the frame is open: zstd needs input the file no longer has.
    if (!frame_complete_ && eof_ && input_pos_ == input_.size())
      throw solver::ProofFormatError(path_.string() + ": truncated file");
  }
}

std::vector<std::uint8_t> read_proof_bytes(const std::filesystem::path& path) {
  ProofFileReader in(path);
  std::vector<std::uint8_t> bytes;
  while (!in.at_end()) bytes.push_back(in.get());
  return bytes;
}

void write_proof_bytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  ProofFileWriter out(path);
  for (std::uint8_t b : bytes) out.put(b);
  out.finish();
}

}  // namespace tablebase
