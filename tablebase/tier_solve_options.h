// What a tier solve is asked (TierSolveOptions), what it reports (TierSolveReport), and how it
// stops when asked to (SolveInterrupted): the tier solver's interface with its callers
// (drop16 solve, the MPI solver, tests and benchmarks), apart from its workings.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>

#include "tablebase/tier_memory_plan.h"

namespace tablebase {

struct TierSolveOptions {
  std::filesystem::path dir;
  std::uint64_t memory_bytes = std::uint64_t{1} << 30;
  int threads = 1;
  bool show_progress = false;
  int zstd_level = 19;
  // One bit an entry, the value; only .value files are written (tier_files.h).
  bool value_only = false;
  // A tier's sweeps go in chunks of this many entries; after each the solver polls
  // stop_requested and, once checkpoint_interval has passed since the tier started or last saved,
  // saves the tier's state (NAME.partial, tier_files.h); at least ten times the last save's own
  // time apart. A run killed inside a big tier loses at most that and a chunk of work.
  std::uint64_t chunk_entries = std::uint64_t{1} << 24;
  std::chrono::seconds checkpoint_interval{300};
  // When it returns true the solver saves its work and throws SolveInterrupted (a graceful stop,
  // for example on SIGINT).
  std::function<bool()> stop_requested;
  // A tier that folds its children in by groups and whose children take at least this many
  // bytes reads them in address order in its fold sweeps (address_ordered_reads.h), with windows
  // of this many bytes over all threads; the memory plan counts them (planned_memory uses these
  // defaults; tests lower both).
  std::uint64_t ordered_reads_from = kOrderedReadsFrom;
  std::uint64_t ordered_window_bytes = kOrderedWindowBytes;
};

// Thrown when stop_requested said to stop; the message says what is saved and how to go on.
class SolveInterrupted : public std::runtime_error {
 public:
  explicit SolveInterrupted(const std::string& what) : std::runtime_error(what) {}
};

struct TierSolveReport {
  std::uint64_t positions = 0;  // positions of all tiers
  std::uint64_t stored = 0;     // entries that store them (tier_space.h), one byte each in memory
  int tiers = 0, tiers_solved = 0, tiers_resumed = 0;
  std::uint64_t value_bytes = 0, dte_bytes = 0;  // on disk, all tiers
  std::uint64_t planned_bytes = 0;               // smallest workable memory, counted first
  int group_folds = 0;    // sweeps that folded in a group of child tiers ahead of a tier's passes
  int ordered_folds = 0;  // those of them that read the children in address order
  int children_in_parts = 0;  // tiers of a team whose children its members held in parts
  double seconds = 0;
};

}  // namespace tablebase
