// The retrograde tier solver: every position of every tier, smallest tiers first, each tier in
// passes (tier.h), each pass in parallel with oneTBB. The game is acyclic and every child of a
// pass lies in an earlier pass or tier, so each position is computed exactly once from its
// children's DTEs (outcome.h): no counters, no iteration to a fixpoint.
//
// Every stored entry is solved (the space decides what it stores: symmetry representatives, for
// Drop 16), and a child is read where the space locates it.
//
// Value-only (options.value_only): an entry is one bit, its value, and a position is a win when
// some child is a loss. Bits start at 0 (loss) and only ever turn to 1, so folding children in
// groups, passes and checkpoints are all the same OR; a tier is an eighth of the bytes, so larger
// tiers fit and its children are read from a smaller, more cache-friendly array.
// Memory is counted before the first tier: the largest working set (a tier plus the tiers its
// captures reach, one byte a position, plus the packing buffers) must fit the cap, or nothing
// starts. Finished tiers that the current one does not need are evicted, oldest first, and read
// back from disk if a later tier needs them. Each finished tier is written at once (tier_files.h),
// so a run that is stopped and started again skips every finished tier.
#pragma once

#include <absl/strings/str_cat.h>
#include <absl/strings/str_join.h>
#include <tbb/blocked_range.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/outcome.h"
#include "solver/parallel_for.h"
#include "solver/progress.h"
#include "solver/zeroed_array.h"
#include "tablebase/directory_lock.h"
#include "tablebase/memory_plan.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_space.h"
#include "tablebase/tier_team.h"

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
};

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
  int group_folds = 0;  // sweeps that folded in a group of child tiers ahead of a tier's passes
  int children_in_parts = 0;  // tiers of a team whose children its members held in parts
  double seconds = 0;
};

// Bits an entry takes in memory: its DTE in a byte, or its value alone.
inline int entry_bits(bool value_only) {
  return value_only ? 1 : 8;
}
// 64-bit words that hold `entries` entries.
inline std::uint64_t entry_words(std::uint64_t entries, bool value_only) {
  return (entries * std::uint64_t(entry_bits(value_only)) + 63) / 64;
}

// The memory tier t takes when in memory, in 64-bit words, in whole pages (solver::mapped_bytes:
// every page of a tier is touched).
template <TierSpace S>
std::uint64_t tier_memory(const S& space, int t, bool value_only = false) {
  return solver::mapped_bytes(entry_words(space.tier_size(t), value_only) * 8);
}

// A team member's (tier_team.h) rounds of requests for its entries' children held by other
// members stop at this many children or entries; the children are located a wave of entries at
// a time, so a round may pass the mark by a wave's children (at most kMostChildren an entry: 5
// kinds of piece in hand onto 16 empty squares). A child takes about 50 bytes of buffers (found,
// its owner, sent, asked of this member, answered, and MPI's copies), an entry 4.
inline constexpr std::uint64_t kTeamRoundChildren = std::uint64_t{1} << 19;
inline constexpr std::uint64_t kTeamRoundWave = 2048;
inline constexpr std::uint64_t kMostChildren = 80;
inline constexpr std::uint64_t kTeamBytesPerChild = 50;
inline constexpr std::uint64_t kTeamRoundBytes =
    (kTeamRoundChildren + kMostChildren * kTeamRoundWave) * kTeamBytesPerChild +
    (kTeamRoundChildren + kTeamRoundWave) * 4;

// What a team member holds of tier t cut into `parts` ranges (its passes, or the whole tier),
// each divided between `members` members: its share (at most a share and a word more), a page
// more at each end of each part, no more than the whole tier.
template <TierSpace S>
std::uint64_t team_part_memory(const S& space, int t, bool value_only, int members,
                               std::uint64_t parts) {
  const std::uint64_t size = space.tier_size(t);
  const std::uint64_t whole = tier_memory(space, t, value_only);
  const std::uint64_t page =
      whole >= solver::kHugePageArrayBytes ? solver::kHugePageBytes : std::uint64_t{4096};
  const std::uint64_t share =
      entry_words(size / std::uint64_t(members) + 64 * parts, value_only) * 8 + 2 * page * parts;
  return std::min(whole, share);
}

// What a member of a team of `members` holds of tier t: its part of every pass
// (team_part_memory), and the buffers of a round of requests (kTeamRoundBytes, or less for a
// small tier) and of a batch that member 0 gathers to write (twice: brought in and received).
template <TierSpace S>
std::uint64_t team_share_memory(const S& space, int t, bool value_only, int members) {
  const std::uint64_t size = space.tier_size(t);
  const std::uint64_t round =
      std::min(kTeamRoundBytes, (kMostChildren * kTeamBytesPerChild + 4) * (size + 1));
  const std::uint64_t batch = entry_words(std::min(size, kStreamedBatchRecords), value_only) * 8;
  return team_part_memory(space, t, value_only, members, space.tier_passes(t).size()) + round +
         2 * batch;
}

// What a member of such a team holds of a child tier c of its tier: one contiguous part of c
// (TierTeam::part of all its entries); the other members answer for the rest.
template <TierSpace S>
std::uint64_t team_child_memory(const S& space, int c, bool value_only, int members) {
  return team_part_memory(space, c, value_only, members, 1);
}

// Bytes the smallest workable working set needs: the space's own index, the largest tier together
// with its largest child (children that do not fit beside the tier are folded in one group at a
// time: TierSolver::solve), and the I/O buffers. With more memory the solver reads more children
// at once and sweeps fewer times. Tiers of more than split_entries entries, solved by a team of
// `members` processes, count the share each member holds of the tier and of its children
// (team_share_memory, team_child_memory).
template <TierSpace S>
std::uint64_t planned_memory(const S& space, bool value_only = false,
                             std::uint64_t split_entries = UINT64_MAX, int members = 1) {
  std::uint64_t most = 0;
  for (int t = 0; t < space.tier_count(); ++t) {
    const bool split = members > 1 && space.tier_size(t) > split_entries;
    std::uint64_t largest_child = 0;
    for (int c : space.tier_children(t))
      largest_child = std::max<std::uint64_t>(
          largest_child, split ? team_child_memory(space, c, value_only, members)
                               : tier_memory(space, c, value_only));
    const std::uint64_t held = split ? team_share_memory(space, t, value_only, members)
                                     : tier_memory(space, t, value_only);
    most = std::max(most, held + largest_child);
  }
  return space.memory_bytes() + most + kIoBufferBytes;
}

template <TierSpace S>
class TierSolver {
 public:
  TierSolver(const S& space, TierSolveOptions options)
      : space_(space),
        options_(std::move(options)),
        index_bytes_(space.memory_bytes()),
        data_(space.tier_count()),
        words_(space.tier_count(), nullptr),
        in_part_(space.tier_count(), 0) {}

  // Solves every tier; with an empty options.dir nothing is written and every tier stays in
  // memory (for tests and benchmarks), so the memory plan is then the sum of all tiers.
  TierSolveReport run() {
    const auto start = std::chrono::steady_clock::now();
    const bool on_disk = !options_.dir.empty();
    TierSolveReport report;
    report.tiers = space_.tier_count();
    std::uint64_t every_tier = 0;
    for (int t = 0; t < space_.tier_count(); ++t) {
      report.positions += space_.tier_positions(t);
      report.stored += space_.tier_size(t);
      every_tier += memory(t);
    }
    report.planned_bytes =
        on_disk ? planned_memory(space_, options_.value_only) : index_bytes_ + every_tier;
    check_memory_plan(space_.variant_name(), report.planned_bytes, options_.memory_bytes);
    std::optional<DirectoryLock> lock;
    if (on_disk) {
      std::filesystem::create_directories(options_.dir);
      lock.emplace(options_.dir);
    }
    solver::Progress progress("solve " + space_.variant_name(), report.stored, "positions",
                              options_.show_progress);
    tbb::task_arena arena(options_.threads);
    arena.execute([&] {
      for (int t = 0; t < space_.tier_count(); ++t) {
        const std::string& name = space_.tier_name(t);
        if (!on_disk) {
          solve(t, progress, report);
          ++report.tiers_solved;
        } else if (tier_files_present(options_.dir, space_.variant_name(), name,
                                      options_.value_only)) {
          ++report.tiers_resumed;
          progress.advance(space_.tier_size(t));
        } else {
          solve_and_write(t, progress, report);
        }
        // Asked after new work only, so a resumed run always gets further than the last one.
        if (report.tiers_solved > 0 && t + 1 < space_.tier_count() && options_.stop_requested &&
            options_.stop_requested())
          throw SolveInterrupted(
              "stopped after tier " + name +
              (on_disk ? "; finished tiers are saved, run again to continue" : ""));
        if (!on_disk) continue;
        const TierFileSizes sizes = tier_file_sizes(options_.dir, name);
        report.value_bytes += sizes.value_bytes;
        report.dte_bytes += sizes.dte_bytes;
      }
    });
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
  }

  // The DTE at a location of a tier still in memory (every tier, after an in-memory run; not
  // for value-only tables).
  int dte(Location at) const { return *byte_at(at); }
  // The value there, for either kind of table.
  bool win(Location at) const {
    return options_.value_only ? value_bit(at) : solver::is_win(*byte_at(at));
  }

  // Solves tier t into its files in options.dir (from its checkpoint, if it has one): run()'s
  // step for one unfinished tier, for a caller that orders the tiers itself, holds the
  // directory's lock and has checked the memory plan (the MPI solver, mpi/). Every child of t
  // must be finished in options.dir; the ones this solver still holds are not read again.
  // With a team (tier_team.h), this process solves its part of the tier with the team's other
  // members, which call this at the same time; member 0 writes the files and checkpoints, and
  // no member holds the tier afterwards (a later tier reads it from its files).
  TierSolveReport solve_tier(int t, TierTeam* team = nullptr) {
    TierSolveReport report;
    solver::Progress quiet("", 0, "", false);
    if (team) {
      // A fetched child is asked for by its tier and index in one word (fetch_children).
      bool fits = space_.tier_count() <= kFetchTiers;
      for (int c = 0; fits && c < space_.tier_count(); ++c)
        fits = space_.tier_size(c) <= kFetchEntries;
      if (!fits) throw std::logic_error("a split tier's children do not fit a request word");
      if (part_team_ != TeamSeat{team->member(), team->members()}) {  // parts of another team
        for (int c = 0; c < space_.tier_count(); ++c)
          if (in_part_[c]) release(c);
        part_team_ = {team->member(), team->members()};
      }
      team_ = team;
      team_tier_ = t;
      owned_ = TierTeam::owned(space_.tier_passes(t), team->member(), team->members());
      std::uint64_t whole = held_memory(t) + kIoBufferBytes;
      for (int c : space_.tier_children(t)) whole += memory(c);
      children_in_parts_ = !options_.dir.empty() && whole > tier_budget();
    }
    struct Alone {  // the team is this call's only, and its tier is held in parts
      TierSolver& solver;
      int t;
      ~Alone() {
        if (!solver.team_) return;
        solver.release(t);
        solver.team_ = nullptr;
        solver.team_tier_ = -1;
        solver.owned_.clear();
        solver.children_in_parts_ = false;
        solver.fetch_ = {};
      }
    } alone{*this, t};
    tbb::task_arena(options_.threads).execute([&] { solve_and_write(t, quiet, report); });
    report.children_in_parts = children_in_parts_ ? 1 : 0;
    if (!writes()) return report;
    const TierFileSizes sizes = tier_file_sizes(options_.dir, space_.tier_name(t));
    report.value_bytes = sizes.value_bytes;
    report.dte_bytes = sizes.dte_bytes;
    return report;
  }

 private:
  // A tier's bytes live in 64-bit words, so a checkpoint can hand them to the file layer as they
  // are (bytes may be read through any object; the reverse would break aliasing rules).
  std::span<std::uint8_t> bytes(int t) {
    return {reinterpret_cast<std::uint8_t*>(data_[t].data()), space_.tier_size(t)};
  }
  void allocate(int t) {
    data_[t] = solver::ZeroedArray<std::uint64_t>(entry_words(space_.tier_size(t), value_only()));
    words_[t] = data_[t].data();
  }
  // A DTE entry's byte (bytes may be read through any object's words).
  const std::uint8_t* byte_at(Location at) const {
    return reinterpret_cast<const std::uint8_t*>(words_[at.tier]) + at.index;
  }
  bool value_only() const { return options_.value_only; }
  // This process writes the tier's files and checkpoints: alone, or as member 0 of a team.
  bool writes() const { return !team_ || team_->member() == 0; }
  std::uint64_t memory(int t) const { return tier_memory(space_, t, value_only()); }
  // What tier t holds in memory once solved or read: all of it, or a team member's share.
  std::uint64_t held_memory(int t) const {
    if (t == team_tier_) return team_share_memory(space_, t, value_only(), team_->members());
    if (in_part_[t]) return team_child_memory(space_, t, value_only(), part_team_.members);
    return memory(t);
  }
  // True while a team member reads the children of its tier in parts: when they do not all fit
  // whole beside its share of the tier (a child held whole is read without asking its owner).
  bool reading_parts() const { return team_ && children_in_parts_; }
  // Whether tier c, if held, is held as this solve reads it (whole, or in part for this team).
  bool held_as_read(int c) const { return !data_[c].empty() && (!in_part_[c] || reading_parts()); }
  // What child tier c takes while this solve reads it: as held now, or as load(c) reads it.
  std::uint64_t child_memory(int c) const {
    if (held_as_read(c)) return held_memory(c);
    return reading_parts() ? team_child_memory(space_, c, value_only(), team_->members())
                           : memory(c);
  }
  // The entry of tier t at `index` that this process holds (a DTE, or 0/1 for a value).
  std::uint8_t own_entry(int t, std::uint64_t index) const {
    return value_only() ? std::uint8_t(value_bit({t, index})) : *byte_at({t, index});
  }

  // A value-only entry's bit. Words of the tier being swept also change while it is read (a
  // boundary word shared with the pass before), so every access is atomic; relaxed is enough, as
  // a child's own bit is final before the sweep reading it starts.
  bool value_bit(Location at) const {
    const std::atomic_ref<std::uint64_t> word(words_[at.tier][at.index >> 6]);
    return (word.load(std::memory_order_relaxed) >> (at.index & 63) & 1) != 0;
  }

 private:
  // What the cap leaves for tiers and I/O buffers beside the space's own index.
  std::uint64_t tier_budget() const {
    return options_.memory_bytes > index_bytes_ ? options_.memory_bytes - index_bytes_ : 0;
  }

  std::uint64_t resident_bytes() const {
    std::uint64_t n = 0;
    for (int t = 0; t < space_.tier_count(); ++t)
      if (!data_[t].empty()) n += held_memory(t);
    return n;
  }

  // Evicts finished tiers other than t and `children`, oldest first, until t and the children
  // fit in memory together.
  void make_room(int t, const std::vector<int>& children) {
    if (options_.dir.empty()) return;  // everything stays in memory
    std::vector<bool> needed(space_.tier_count(), false);
    needed[t] = true;
    std::uint64_t to_add = kIoBufferBytes + (data_[t].empty() ? held_memory(t) : 0);
    for (int c : children) {
      needed[c] = true;
      if (!held_as_read(c)) to_add += child_memory(c);
    }
    for (int old = 0; old < space_.tier_count(); ++old) {
      if (resident_bytes() + to_add <= tier_budget()) break;
      if (!needed[old]) release(old);
    }
  }

  // Tier t's children in the groups that are read together: one group when they all fit beside
  // t under the cap (or nothing goes to disk), else as few groups as fit, each within the cap.
  std::vector<std::vector<int>> child_groups(int t, const std::vector<int>& children) const {
    std::vector<std::vector<int>> groups(1);
    if (options_.dir.empty()) {
      groups[0] = children;
      return groups;
    }
    const std::uint64_t used = held_memory(t) + kIoBufferBytes;
    const std::uint64_t room = tier_budget() > used ? tier_budget() - used : 0;
    std::uint64_t in_group = 0;
    for (int c : children) {
      if (!groups.back().empty() && in_group + child_memory(c) > room) {
        groups.emplace_back();
        in_group = 0;
      }
      groups.back().push_back(c);
      in_group += child_memory(c);
    }
    return groups;
  }

  void release(int t) {
    data_[t] = {};
    words_[t] = nullptr;
    in_part_[t] = 0;
  }

  // Solves tier t and writes its files, then drops its checkpoint.
  void solve_and_write(int t, solver::Progress& progress, TierSolveReport& report) {
    const std::string& name = space_.tier_name(t);
    solve(t, progress, report);
    ++report.tiers_solved;
    // The .dte records' width comes from the largest DTE, which in a team no member sees alone
    // (alone, write_tier_files counts it).
    const int max_dte = team_ && !value_only() ? team_largest(largest_own_dte(t)) : 0;
    // Minutes on the largest tiers (zstd 19), with done/total already at the tier's end.
    progress.set_stage(name + " writing its table files");
    write_gathered(t, [&](const BeforeBatch& before_batch) {
      if (options_.value_only) {
        write_value_file(options_.dir, space_.variant_name(), name, data_[t], space_.tier_size(t),
                         options_.zstd_level, before_batch);
      } else {
        const StreamedWrite streamed{before_batch, max_dte};
        write_tier_files(options_.dir, space_.variant_name(), name, bytes(t), options_.zstd_level,
                         team_ ? &streamed : nullptr);
      }
    });
    if (writes()) std::filesystem::remove(partial_path(options_.dir, name));
  }

  // The largest DTE among a team member's own entries of tier t.
  int largest_own_dte(int t) {
    const std::span<const std::uint8_t> all = bytes(t);
    int most = 0;
    for (const IndexRange& r : owned_)
      most = std::max<int>(most, *std::max_element(all.begin() + r.begin, all.begin() + r.end));
    return most;
  }

  // The largest of every team member's `mine`.
  int team_largest(int mine) {
    const auto from = team_->exchange(
        std::vector<TierTeam::Bytes>(team_->members(), TierTeam::Bytes{std::uint8_t(mine)}));
    int most = mine;
    for (const auto& b : from) most = std::max<int>(most, b.at(0));
    return most;
  }

  // Runs write(before_batch), which writes a file of tier t's entries from data_[t]. Alone the
  // entries are all there (before_batch empty); in a team member 0 writes, bringing each batch's
  // entries from their owners first and dropping those not its own after, while the others
  // answer (serve_gathers) until it is done.
  template <typename Write>
  void write_gathered(int t, const Write& write) {
    if (!team_) return write(BeforeBatch{});
    if (!writes()) return serve_gathers(t);
    GatheringWindow window(*this, t);
    write(BeforeBatch([&](std::uint64_t first, std::uint64_t end) { window.bring({first, end}); }));
  }

  // Member 0's batch of another member's entries: the words (value bits) or bytes of each of its
  // owned ranges met by the batch, in index order.
  struct GatheringWindow {
    TierSolver& solver;
    int t;
    IndexRange held{};  // the batch brought in last
    GatheringWindow(TierSolver& s, int tier) : solver(s), t(tier) {}
    GatheringWindow(const GatheringWindow&) = delete;
    GatheringWindow& operator=(const GatheringWindow&) = delete;
    // Tells the others the writes are done (also when one failed: they must not wait for ever).
    ~GatheringWindow() {
      try {
        drop_held();
        solver.team_->exchange(std::vector<TierTeam::Bytes>(solver.team_->members()));
      } catch (...) {  // a destructor must not throw; the write's own error is the report
      }
    }
    void bring(IndexRange batch) {
      drop_held();
      TierTeam& team = *solver.team_;
      TierTeam::Bytes asked(sizeof batch);
      std::memcpy(asked.data(), &batch, sizeof batch);
      std::vector<TierTeam::Bytes> to_each(team.members(), asked);
      to_each[0].clear();
      team.exchange(to_each);
      const auto from = team.exchange(std::vector<TierTeam::Bytes>(team.members()));
      for (int m = 1; m < team.members(); ++m) solver.place_gathered(t, batch, m, from[m]);
      held = batch;
    }
    // The pages of the last batch outside member 0's own parts.
    void drop_held() {
      std::uint64_t at = held.begin;
      for (const IndexRange& r : solver.owned_) {
        if (r.end <= at) continue;
        solver.discard(t, {at, std::min(r.begin, held.end)});
        at = std::max(at, r.end);
        if (at >= held.end) break;
      }
      if (at < held.end) solver.discard(t, {at, held.end});
      held = {};
    }
  };

  // A member other than 0 while member 0 writes a file of tier t: sends it its entries of each
  // batch it asks for, until it says it is done (an empty request).
  void serve_gathers(int t) {
    for (;;) {
      const auto asked = team_->exchange(std::vector<TierTeam::Bytes>(team_->members()));
      if (asked[0].empty()) return;
      IndexRange batch;
      std::memcpy(&batch, asked[0].data(), sizeof batch);
      std::vector<TierTeam::Bytes> reply(team_->members());
      reply[0] = pack_owned(t, batch, team_->member());
      team_->exchange(reply);
    }
  }

  // Tier t's entries that member m owns within `batch`, as its words (value bits: whole words
  // holding the range) or bytes, range after range.
  TierTeam::Bytes pack_owned(int t, IndexRange batch, int m) const {
    TierTeam::Bytes out;
    const auto* from = reinterpret_cast<const std::uint8_t*>(words_[t]);
    for (const IndexRange& r : owned_within(t, batch, m)) {
      const auto [first, end] = packed_bytes(r);
      out.insert(out.end(), from + first, from + end);
    }
    return out;
  }
  // Places what pack_owned(t, batch, m) gave on member m into this member's tier.
  void place_gathered(int t, IndexRange batch, int m, const TierTeam::Bytes& packed) {
    std::size_t at = 0;
    const std::span<std::uint64_t> words(data_[t].data(), data_[t].size());
    for (const IndexRange& r : owned_within(t, batch, m)) {
      const auto [first, end] = packed_bytes(r);
      if (at + (end - first) > packed.size())
        throw std::runtime_error("a team member sent fewer entries than asked for");
      std::vector<std::uint64_t> block((end - first + 7) / 8);
      std::memcpy(block.data(), packed.data() + at, end - first);
      copy_entries(block, first * 8 / std::uint64_t(entry_bits(value_only())), words, r,
                   entry_bits(value_only()));
      at += end - first;
    }
  }
  // The bytes that hold entries r in memory: whole words for value bits (copy_entries' layout).
  std::pair<std::uint64_t, std::uint64_t> packed_bytes(IndexRange r) const {
    if (!value_only()) return {r.begin, r.end};
    return {r.begin / 64 * 8, (r.end + 63) / 64 * 8};
  }
  // Member m's parts of tier t's passes (TierTeam::owned), cut to `range`; the empty ones left
  // out.
  std::vector<IndexRange> owned_within(int t, IndexRange range, int m) const {
    std::vector<IndexRange> within;
    for (const IndexRange& r : TierTeam::owned(space_.tier_passes(t), m, team_->members()))
      if (const IndexRange in = intersection(r, range); in.begin < in.end) within.push_back(in);
    return within;
  }
  // The pass of tier t that holds entry i (the passes cover the tier in order).
  const IndexRange& pass_of(int t, std::uint64_t i) const {
    const auto& passes = space_.tier_passes(t);
    return *(std::upper_bound(passes.begin(), passes.end(), i,
                              [](std::uint64_t x, const IndexRange& p) { return x < p.begin; }) -
             1);
  }
  // Gives back the pages wholly inside entries r of tier t.
  void discard(int t, IndexRange r) {
    if (r.begin >= r.end) return;
    const auto bits = std::uint64_t(entry_bits(value_only()));
    data_[t].discard(r.begin * bits / 8, r.end * bits / 8);
  }

  // Runs `step` (reading children or a checkpoint) and, in a team, has the members agree that
  // none failed: a member that throws would otherwise leave the others waiting in the next
  // collective for ever. The failing member rethrows its error, the others TeamMemberFailed.
  template <typename Step>
  void together(int t, const Step& step) {
    if (!team_) return step();
    std::exception_ptr failure;
    try {
      step();
    } catch (...) {
      failure = std::current_exception();
    }
    if (!team_->any(failure != nullptr)) return;
    if (failure) std::rethrow_exception(failure);
    throw TeamMemberFailed("stopped in tier " + space_.tier_name(t) +
                           ": another rank of its team failed");
  }

  // True on every member of a team when `mine` is on any; alone, `mine`.
  bool agreed(bool mine) { return team_ ? team_->any(mine) : mine; }

  // Reads a finished tier back from disk: all of it, or this team member's part of it when it
  // reads its children in parts (the other members answer for the rest).
  void load(int t) {
    if (space_.tier_size(t) == 0 || held_as_read(t)) return;
    release(t);
    allocate(t);
    std::vector<IndexRange> only;
    if (reading_parts()) {
      only.push_back(child_part(t, team_->member()));
      in_part_[t] = 1;
    }
    if (value_only())
      read_value_file(options_.dir, space_.variant_name(), space_.tier_name(t), space_.tier_size(t),
                      data_[t], only);
    else
      read_tier_files(options_.dir, space_.variant_name(), space_.tier_name(t), bytes(t), only);
  }
  // Member m's part of a child tier c that the team holds in parts, and the member that holds
  // entry i of it.
  IndexRange child_part(int c, int m) const {
    return TierTeam::part({0, space_.tier_size(c)}, m, team_->members());
  }
  int child_owner(int c, std::uint64_t i) const {
    return TierTeam::owner({0, space_.tier_size(c)}, i, team_->members());
  }

  // Solves tier t from its children, continuing from its checkpoint if there is one.
  //
  // When t and all its children do not fit in memory together, the children are read in groups:
  // every group but the last is folded into t's entries first, one sweep over t's captures per
  // group, each entry keeping the DTE of its deciding child so far (DteFold::deciding_child, or
  // kNoChild); the passes then add the last group and the moves inside the tier. On 4x4:NBRQK
  // this is what lets the largest tier (14 GB) be solved beside children of 15.7 GB.
  void solve(int t, solver::Progress& progress, TierSolveReport& report) {
    const std::string& name = space_.tier_name(t);
    const std::uint64_t size = space_.tier_size(t);
    make_room(t, {});
    allocate(t);
    const auto& passes = space_.tier_passes(t);
    PartialTier state;
    if (!options_.dir.empty())
      together(t, [&] {  // every member of a team reads the same checkpoint
        state = read_partial_tier(options_.dir, space_.variant_name(), name, data_[t],
                                  entry_bits(value_only()), owned_);
        check_checkpoint(t, state);
      });
    // Entries before `unfinished` hold their DTE; past it, the deciding child of the groups
    // folded in so far (once any is).
    const std::uint64_t unfinished = first_unfinished(t, state);
    progress.advance(unfinished);
    if (unfinished == size) return;  // saved after its last pass: only its files are left

    std::vector<std::vector<int>> groups;
    std::vector<char> folded(space_.tier_count(), 0);
    for (int c : children_named(t, state.folded)) folded[c] = 1;
    if (!state.folding.empty()) {  // the group a stopped run was folding in goes first
      groups.push_back(children_named(t, state.folding));
      for (int c : groups[0]) folded[c] = 1;
    }
    std::vector<int> unread;
    for (int c : space_.tier_children(t))
      if (!folded[c]) unread.push_back(c);
    for (auto& group : child_groups(t, unread)) groups.push_back(std::move(group));

    auto next_save = std::chrono::steady_clock::now() + options_.checkpoint_interval;
    // After each chunk of work, fold and pass: saves when due or asked to stop, then stops if
    // asked. Saves take at most a tenth of the time: writing a 14 GB tier takes a while. A
    // team saves between sweeps only, where every member holds the same state as one process
    // would: one checkpoint, written by member 0, resumes any team or a process alone; member 0's
    // clock decides, and a stop asked of any member stops all.
    const auto checkpoint = [&](const std::string& done) {
      using Clock = std::chrono::steady_clock;
      const bool stop = agreed(options_.stop_requested && options_.stop_requested());
      const bool due = agreed(writes() && Clock::now() >= next_save);
      if (!options_.dir.empty() && (stop || due)) {
        const auto saving = Clock::now();
        const bool all_bytes_matter = !state.folded.empty() || !state.folding.empty();
        write_gathered(t, [&](const BeforeBatch& before_batch) {
          write_partial_tier(options_.dir, space_.variant_name(), name, data_[t],
                             all_bytes_matter ? size : first_unfinished(t, state), state,
                             entry_bits(value_only()), before_batch);
        });
        const auto saved = Clock::now();
        next_save =
            saved + std::max<Clock::duration>(options_.checkpoint_interval, 10 * (saved - saving));
      }
      if (stop)
        throw SolveInterrupted(
            "stopped in tier " + name + " " + done +
            (options_.dir.empty() ? "" : "; its work is saved, run again to continue"));
    };

    std::uint8_t* tier_bytes = bytes(t).data();
    // Each sweep left covers the entries from `unfinished` on (a stopped fold, from where it got).
    const std::uint64_t per_sweep = size - unfinished;
    TierClock clock;
    for (std::size_t g = 0; g + 1 < groups.size(); ++g) {
      make_room(t, groups[g]);
      together(t, [&] {
        for (int c : groups[g]) load(c);
      });
      // Value bits need no marker: 0 until a losing child is found.
      if (state.folded.empty() && state.folding.empty() && !value_only())
        for (const IndexRange& r : held_ranges(t, {unfinished, size}))
          std::fill(tier_bytes + r.begin, tier_bytes + r.end, kNoChild);
      state.folding.clear();
      for (int c : groups[g]) state.folding.push_back(space_.tier_name(c));
      std::vector<char> wanted(space_.tier_count(), 0);
      for (int c : groups[g]) wanted[c] = 1;
      const std::string doing = "folding in " + absl::StrJoin(state.folding, ",");
      const std::uint64_t sweeps_after = groups.size() - 1 - g;  // folds after this, the passes
      sweep_shared(t, {std::max(unfinished, state.folding_through), size}, wanted,
                   Sweep::kFoldGroup, {doing, sweeps_after * per_sweep}, clock, progress,
                   [&](std::uint64_t through) {
                     state.folding_through = through;
                     checkpoint(doing);
                   });
      ++report.group_folds;
      for (int c : groups[g]) folded[c] = 1;
      state.folded.insert(state.folded.end(), state.folding.begin(), state.folding.end());
      state.folding.clear();
      state.folding_through = 0;
      checkpoint("after " + doing);
    }
    make_room(t, groups.back());
    together(t, [&] {
      for (int c : groups.back()) load(c);
    });
    std::vector<char> wanted(space_.tier_count(), 0);
    for (int c = 0; c < space_.tier_count(); ++c) wanted[c] = !folded[c];
    const Sweep kind = state.folded.empty() ? Sweep::kSolve : Sweep::kSolveFolded;
    for (int k = state.passes; k < int(passes.size()); ++k) {
      const std::string doing =
          "in pass " + std::to_string(k + 1) + " of " + std::to_string(passes.size());
      sweep_shared(t, {std::max(unfinished, passes[k].begin), passes[k].end}, wanted, kind,
                   {doing, size - passes[k].end}, clock, progress, [&](std::uint64_t through) {
                     state.next_pass_done = through - passes[k].begin;
                     checkpoint(doing);
                   });
      state.passes = k + 1;
      state.next_pass_done = 0;
      // Also after the last pass: writing a large tier's files takes long enough (the 14e9-entry
      // tier of 4x4:NBRQK: 19 minutes) that the passes must not hang on it.
      checkpoint("after pass " + std::to_string(k + 1));
    }
  }

  // The first entry of tier t that the passes of a checkpoint have not finished.
  std::uint64_t first_unfinished(int t, const PartialTier& state) const {
    const auto& passes = space_.tier_passes(t);
    if (state.passes == int(passes.size())) return space_.tier_size(t);
    return passes[state.passes].begin + state.next_pass_done;
  }

  // Refuses a checkpoint read back that does not fit tier t, or whose file holds fewer bytes
  // than its state counts on (every entry's, once a fold has begun).
  void check_checkpoint(int t, const PartialTier& state) const {
    const auto& passes = space_.tier_passes(t);
    const auto refuse = [&](const std::string& fault) {
      return TableError(partial_path(options_.dir, space_.tier_name(t)), fault);
    };
    if (state.passes > int(passes.size()) ||
        (state.passes == int(passes.size()) && state.next_pass_done > 0) ||
        (state.passes < int(passes.size()) &&
         state.next_pass_done > passes[state.passes].end - passes[state.passes].begin) ||
        state.folding_through > space_.tier_size(t))
      throw refuse("does not fit tier " + space_.tier_name(t));
    const bool folds = !state.folded.empty() || !state.folding.empty();
    if (state.saved_entries < (folds ? space_.tier_size(t) : first_unfinished(t, state)))
      throw refuse("holds " + std::to_string(state.saved_entries) +
                   " entries, fewer than its state needs");
  }

  // Tier t's children called `names` (from a checkpoint).
  std::vector<int> children_named(int t, const std::vector<std::string>& names) const {
    std::vector<int> children;
    for (const std::string& name : names) children.push_back(child_named(t, name));
    return children;
  }

  // The index in the tier list of t's child called `name` (from a checkpoint).
  int child_named(int t, const std::string& name) const {
    for (int c : space_.tier_children(t))
      if (space_.tier_name(c) == name) return c;
    throw TableError(partial_path(options_.dir, space_.tier_name(t)),
                     "names " + name + ", which is not a child tier of " + space_.tier_name(t));
  }

  // An entry that has no child folded in yet; DTEs never reach it.
  static constexpr std::uint8_t kNoChild = 0xFF;
  static_assert(kMaxDte < kNoChild);

  enum class Sweep {
    kSolve,        // every child read now: the entry's DTE
    kSolveFolded,  // the same, starting from the deciding child kept by the group sweeps
    kFoldGroup,    // moves into the `wanted` (child) tiers only: the new deciding child
  };

  // The progress line's view of a sweep: what it does, and how many entries the tier's sweeps
  // after it will cover.
  struct SweepLabel {
    std::string doing;
    std::uint64_t entries_after = 0;
  };
  // A tier's sweeps so far in this run, whose rate estimates the time its remaining ones take: a
  // big tier that folds its children in groups sweeps several times without finishing an entry.
  // The current sweep's own rate is used once it has run a while: a fold (captures only) runs
  // faster than a pass, 2% against 0.75% of the top tier of 4x4:NBRQK a minute (SOLVER.md).
  struct TierClock {
    using Clock = std::chrono::steady_clock;
    Clock::time_point start = Clock::now(), sweep_start = start;
    std::uint64_t swept = 0, sweep_swept = 0;
    // Seconds for `entries` more at the current sweep's rate, or the tier's, or nullopt this
    // early in the tier (a few seconds' rate says little).
    std::optional<double> seconds_for(std::uint64_t entries) const {
      constexpr double kSettled = 10;
      const auto now = Clock::now();
      const double in_sweep = std::chrono::duration<double>(now - sweep_start).count();
      const double in_tier = std::chrono::duration<double>(now - start).count();
      if (in_sweep >= kSettled && sweep_swept > 0) return entries * in_sweep / sweep_swept;
      if (in_tier >= kSettled && swept > 0) return entries * in_tier / swept;
      return std::nullopt;
    }
  };

  // The entries of tier t within `range` that this process holds: all, or a member's parts.
  std::vector<IndexRange> held_ranges(int t, IndexRange range) const {
    return t == team_tier_ ? owned_within(t, range, team_->member()) : std::vector{range};
  }

  // One sweep over entries `range` of tier t: alone, all of it, calling after_chunk between
  // chunks (sweep); in a team, this member's parts pass by pass, and no checkpoint inside it
  // (the members' chunks do not line up). A member fetches from their owners, a round at a time
  // (sweep_fetching), the entries of earlier passes that a pass reads and the children in tiers
  // it holds in part.
  template <typename AfterChunk>
  void sweep_shared(int t, IndexRange range, const std::vector<char>& wanted, Sweep kind,
                    const SweepLabel& label, TierClock& clock, solver::Progress& progress,
                    const AfterChunk& after_chunk) {
    if (!team_)
      return sweep(t, range.begin, range.end, wanted, kind, label, clock, progress, after_chunk);
    for (const IndexRange& pass : space_.tier_passes(t))
      if (const IndexRange r = intersection(pass, range); r.begin < r.end)
        sweep_fetching(t, r, wanted, kind, label, clock, progress);
  }

  // A round of a team's sweep (sweep_fetching): the DTEs (or values, 0/1) of its entries' children
  // fetched from their owners, entry i's from entry[first[i - begin]] to
  // entry[first[i - begin + 1]].
  struct FetchedRound {
    std::uint64_t begin = 0;
    std::vector<std::uint32_t> first;
    std::vector<std::uint8_t> entry;
    std::span<const std::uint8_t> of(std::uint64_t i) const {
      const std::uint64_t k = i - begin;
      return {entry.data() + first[k], entry.data() + first[k + 1]};
    }
  };

  // A sweep in a team: this member's part of `range` (which lies in one pass) in rounds, as long
  // as any member has entries left. A round locates its entries' children held by their owners
  // (inside the tier, or in a child tier this member holds in part), asks the owners for them
  // and answers the others' requests, then sweeps the entries with those and their children in
  // the tiers it holds whole: every child is located once, as alone.
  void sweep_fetching(int t, IndexRange range, const std::vector<char>& wanted, Sweep kind,
                      const SweepLabel& label, TierClock& clock, solver::Progress& progress) {
    const IndexRange mine = intersection(team_->own_part(pass_of(t, range.begin)), range);
    std::vector<char> fetched_tiers(space_.tier_count(), 0), elsewhere = wanted;
    for (int c = 0; c < space_.tier_count(); ++c) {
      fetched_tiers[c] = wanted[c] && (c == t || in_part_[c]);
      elsewhere[c] = wanted[c] && !fetched_tiers[c];
    }
    for (std::uint64_t at = mine.begin; team_->any(at < mine.end);) {
      const std::uint64_t end = fetch_children(t, {at, mine.end}, fetched_tiers);
      round_ = &fetch_.round;
      struct Done {
        const FetchedRound*& round;
        ~Done() { round = nullptr; }
      } done{round_};
      sweep(t, at, end, elsewhere, kind, label, clock, progress, [](std::uint64_t) {});
      at = end;
    }
  }

  // A round of a team's sweep (collective: every member answers the requests it gets): from
  // range.begin on, until kTeamRoundChildren children or entries, the children in the tiers
  // `from` fetched from their owners into fetch_.round. Returns the round's end. Each child goes
  // as often as an entry reaches it, so no member sorts: requests and answers keep the order they
  // were found in. A request is the child's tier and index in one word.
  std::uint64_t fetch_children(int t, IndexRange range, const std::vector<char>& from) {
    constexpr std::uint64_t kBlock = 256, kBlocks = kTeamRoundWave / kBlock;
    FetchBuffers& f = fetch_;
    f.round.begin = range.begin;
    f.round.first.assign(1, 0);
    f.keys.clear();
    f.found.resize(kBlocks);
    f.found_after.resize(kTeamRoundWave);
    std::uint64_t at = range.begin;
    while (at < range.end && f.keys.size() < kTeamRoundChildren &&
           at - range.begin < kTeamRoundChildren) {
      const std::uint64_t wave_end = std::min(range.end, at + kTeamRoundWave);
      solver::parallel_for(
          std::uint64_t{0}, (wave_end - at + kBlock - 1) / kBlock, [&](std::uint64_t b) {
            f.found[b].clear();
            const std::uint64_t first = at + b * kBlock;
            typename S::Cursor cursor;
            for (std::uint64_t i = first; i < std::min(wave_end, first + kBlock); ++i) {
              space_.for_each_child(cursor, t, i, from, [&](Location c) {
                f.found[b].push_back(std::uint64_t(c.tier) << kFetchIndexBits | c.index);
              });
              f.found_after[i - at] = std::uint32_t(f.found[b].size());
            }
          });
      for (std::uint64_t b = 0; at + b * kBlock < wave_end; ++b) {
        const std::uint64_t first = at + b * kBlock, last = std::min(wave_end, first + kBlock);
        for (std::uint64_t i = first; i < last; ++i)
          f.round.first.push_back(std::uint32_t(f.keys.size() + f.found_after[i - at]));
        f.keys.insert(f.keys.end(), f.found[b].begin(), f.found[b].end());
      }
      at = wave_end;
    }

    const int members = team_->members();
    f.owner.resize(f.keys.size());
    f.requests.resize(members);
    for (auto& r : f.requests) r.clear();
    for (std::size_t k = 0; k < f.keys.size(); ++k) {
      const Location c = fetched_location(f.keys[k]);
      f.owner[k] = c.tier == t ? TierTeam::owner(pass_of(t, c.index), c.index, members)
                               : child_owner(c.tier, c.index);
      append_word(f.requests[f.owner[k]], f.keys[k]);
    }
    team_->exchange(f.requests, f.asked);
    f.answers.resize(members);
    for (int m = 0; m < members; ++m) {
      f.answers[m].resize(f.asked[m].size() / 8);
      solver::parallel_for(std::uint64_t{0}, f.answers[m].size(), [&](std::uint64_t w) {
        const Location c = fetched_location(word_at(f.asked[m], w));
        f.answers[m][w] = own_entry(c.tier, c.index);
      });
    }
    team_->exchange(f.answers, f.answered);
    f.round.entry.resize(f.keys.size());
    std::vector<std::size_t> next(members, 0);
    for (std::size_t k = 0; k < f.keys.size(); ++k) {
      const TierTeam::Bytes& answer = f.answered[f.owner[k]];
      if (next[f.owner[k]] >= answer.size())
        throw std::runtime_error("a team member answered fewer entries than asked for");
      f.round.entry[k] = answer[next[f.owner[k]]++];
    }
    return at;
  }

  // A fetch request's word: a tier below kFetchTiers, an index below kFetchEntries.
  static constexpr int kFetchIndexBits = 48;
  static constexpr std::uint64_t kFetchEntries = std::uint64_t{1} << kFetchIndexBits;
  static constexpr int kFetchTiers = 1 << (64 - kFetchIndexBits);
  static Location fetched_location(std::uint64_t key) {
    return {int(key >> kFetchIndexBits), key & (kFetchEntries - 1)};
  }

  static void append_word(TierTeam::Bytes& to, std::uint64_t word) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(&word);
    to.insert(to.end(), bytes, bytes + sizeof word);
  }
  static std::uint64_t word_at(const TierTeam::Bytes& from, std::size_t w) {
    std::uint64_t word;
    std::memcpy(&word, from.data() + w * sizeof word, sizeof word);
    return word;
  }

  // One sweep over entries [begin, end) of tier t, reading the children in the `wanted` tiers: in
  // chunks, each in parallel, calling after_chunk(first entry not swept) after each but the last.
  // The progress line names the sweep, where it is and the time the tier has left (TierClock): a
  // fold finishes no entry, so done/total does not move.
  template <typename AfterChunk>
  void sweep(int t, std::uint64_t begin, std::uint64_t end, const std::vector<char>& wanted,
             Sweep kind, const SweepLabel& label, TierClock& clock, solver::Progress& progress,
             const AfterChunk& after_chunk) {
    const std::uint64_t chunk = std::max<std::uint64_t>(options_.chunk_entries, 1);
    clock.sweep_start = TierClock::Clock::now();
    clock.sweep_swept = 0;
    for (std::uint64_t first = begin; first < end; first += chunk) {
      const std::uint64_t last = std::min(end, first + chunk);
      std::string stage = absl::StrCat(space_.tier_name(t), " ", label.doing, ", at ",
                                       100 * first / space_.tier_size(t), "% of the tier");
      if (const auto left = clock.seconds_for(end - first + label.entries_after))
        absl::StrAppend(&stage, ", about ", solver::duration_text(*left), " left in it");
      progress.set_stage(std::move(stage));
      solver::parallel_for(tbb::blocked_range<std::uint64_t>(first, last, 1024),
                           [&](const auto& range) {
                             if (value_only())
                               sweep_values(t, range.begin(), range.end(), wanted);
                             else
                               sweep_range(t, range.begin(), range.end(), wanted, kind);
                             progress.add_to_rate(range.size());
                             // Each entry is finished by exactly one pass, never by a fold.
                             if (kind != Sweep::kFoldGroup) progress.advance(range.size());
                           });
      clock.swept += last - first;
      clock.sweep_swept += last - first;
      if (last < end) after_chunk(last);
    }
  }

  // A few entries at a time: first every child of the batch is located and its byte prefetched,
  // then each entry folds its children. Children of a big tier are scattered over gigabytes, so
  // a solver that reads each child as it finds it waits on memory most of the time (two thirds
  // of it on 4x4:NBRQK's eight-piece tiers, by perf); this way the reads of a batch overlap each
  // other and the ranking of the next children.
  void sweep_range(int t, std::uint64_t begin, std::uint64_t end, const std::vector<char>& wanted,
                   Sweep kind) {
    constexpr std::uint64_t kBatch = 8;
    std::uint8_t* tier_bytes = bytes(t).data();
    std::vector<const std::uint8_t*> children;
    std::array<std::size_t, kBatch + 1> first_child{};
    const auto gather = [&](Location c) {
      const std::uint8_t* byte = byte_at(c);
      __builtin_prefetch(byte);
      children.push_back(byte);
    };
    typename S::Cursor cursor;
    for (std::uint64_t i = begin; i < end; i += kBatch) {
      const std::uint64_t n = std::min(kBatch, end - i);
      children.clear();
      for (std::uint64_t k = 0; k < n; ++k) {
        first_child[k] = children.size();
        space_.for_each_child(cursor, t, i + k, wanted, gather);
        if (round_)  // a team's round: the children fetched from their owners
          for (const std::uint8_t& byte : round_->of(i + k)) children.push_back(&byte);
      }
      first_child[n] = children.size();
      for (std::uint64_t k = 0; k < n; ++k) {
        solver::DteFold fold;
        if (kind != Sweep::kSolve && tier_bytes[i + k] != kNoChild) fold.add(tier_bytes[i + k]);
        for (std::size_t c = first_child[k]; c < first_child[k + 1]; ++c) fold.add(*children[c]);
        if (kind == Sweep::kFoldGroup) {
          const int child = fold.deciding_child();
          tier_bytes[i + k] = child < 0 ? kNoChild : std::uint8_t(child);
        } else {
          tier_bytes[i + k] = std::uint8_t(fold.dte());
        }
      }
    }
  }

  // Value-only: an entry becomes a win (its bit set) when a child in the wanted tiers is a loss;
  // its moves stop at the first such child, and an entry a fold already won is skipped. Parallel
  // ranges may share a word, so each word's new bits go in with one atomic OR.
  void sweep_values(int t, std::uint64_t begin, std::uint64_t end,
                    const std::vector<char>& wanted) {
    std::uint64_t* words = words_[t];
    std::uint64_t won = 0, word = begin >> 6;
    const auto flush = [&] {
      if (won) std::atomic_ref<std::uint64_t>(words[word]).fetch_or(won, std::memory_order_relaxed);
      won = 0;
    };
    typename S::Cursor cursor;
    for (std::uint64_t i = begin; i < end; ++i) {
      if (i >> 6 != word) {
        flush();
        word = i >> 6;
      }
      if (value_bit({t, i})) continue;
      bool win = false;
      if (round_)  // a team's round: the children fetched from their owners
        for (const std::uint8_t value : round_->of(i)) win = win || value == 0;
      if (!win)
        space_.for_each_child(cursor, t, i, wanted, [&](Location c) {
          win = !value_bit(c);
          return !win;
        });
      if (win) won |= std::uint64_t{1} << (i & 63);
    }
    flush();
  }

  const S& space_;
  TierSolveOptions options_;
  std::uint64_t index_bytes_;  // the space's own (S::memory_bytes)
  // Per tier, its bytes (empty when not in memory), in huge pages: children are read at random.
  std::vector<solver::ZeroedArray<std::uint64_t>> data_;
  std::vector<std::uint64_t*> words_;  // each tier's first word, for the inner loops
  // During solve_tier with a team only: the team, its tier, the entries of it this member owns
  // (tier_team.h), and during a pass's round the entries fetched from their owners.
  TierTeam* team_ = nullptr;
  int team_tier_ = -1;
  std::vector<IndexRange> owned_;
  const FetchedRound* round_ = nullptr;
  // A team's round of fetched children and its buffers, kept from round to round with their room
  // (a pass has thousands of rounds; allocating them anew each time leaves the heap fragmented).
  struct FetchBuffers {
    FetchedRound round;
    std::vector<std::uint64_t> keys;                // the round's children, as requested
    std::vector<std::vector<std::uint64_t>> found;  // a wave's, block by block
    std::vector<std::uint32_t> found_after;         // a wave's entry: its block's count after it
    std::vector<std::int32_t> owner;                // each child's
    std::vector<TierTeam::Bytes> requests, asked, answers, answered;  // to and from each member
  } fetch_;
  // Per tier, whether it holds only this member's part (a child of a team's tier, read by
  // load), and this member's seat in the team those parts were read for.
  std::vector<char> in_part_;
  bool children_in_parts_ = false;
  struct TeamSeat {
    int member = 0, members = 0;
    bool operator==(const TeamSeat&) const = default;
  } part_team_;
};

template <TierSpace S>
TierSolveReport solve_tiers(const S& space, const TierSolveOptions& options) {
  return TierSolver<S>(space, options).run();
}

}  // namespace tablebase
