// Checkpoints of a proof search: the proven entries of its table whose subtrees were costly,
// saved periodically so an interrupted run (Ctrl-C, kill, power loss) resumes where it was.
// An entry is a theorem (its key's value), valid in any later run of the same variant, so a
// resumed search just loads them into its table and starts again from the root: everything
// proven before is answered at once, and what was not saved cost less than 2^min_work nodes a
// subtree to redo.
//
// File (little-endian): magic "D16CKPT2", u32 key format (the game's version of its key packing),
// variant and FEN (u32 length + bytes), u64 nodes, f64 seconds (totals of the runs so far), u64
// entry count, entries of 17 bytes (u64 key lo, u64 key hi, u8 win | work_log2 << 1), u64 FNV-1a
// hash of every byte before it. Written to FILE.tmp, synced, then renamed over FILE: a crash
// during a save leaves the previous one. Files of the first version ("D16CKPT1") have no key
// format field; every binary that wrote them packed keys in format 1, so they read as that.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/proof_table.h"

namespace solver {

struct Checkpoint {
  std::uint32_t key_format = 0;  // of the entries' keys; a loader refuses one it does not use
  std::string variant, fen;
  std::uint64_t nodes = 0;  // searched by every run so far
  double seconds = 0;       // their time
  std::vector<ProvenEntry> entries;
};

class CheckpointError : public std::runtime_error {
 public:
  explicit CheckpointError(const std::string& what) : std::runtime_error(what) {}
};

void save_checkpoint(const std::filesystem::path& path, const Checkpoint& checkpoint);
// Throws CheckpointError for a damaged, truncated or foreign file.
Checkpoint load_checkpoint(const std::filesystem::path& path);

}  // namespace solver
