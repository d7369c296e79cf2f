// A loopy tier space solved holding a byte or two for each entry play reaches, not for each entry
// (a space with unmoves: LoopyUnmoveSpace):
// for a space whose tiers are few and large and mostly out of play (Dobutsu shogi: one block of
// 855 million entries, 29% of them reached; rules/dobutsu/solve/tier_space.h), where the loopy
// tier solver's byte an entry and counter an entry of its largest block would not fit
// (loopy_tier_solver.h holds 2 bytes an entry of a shared block).
//
// The same answers as the loopy tier solver with its reached entries only (the tests compare
// them): the reach marks what the roots reach, tiers from the last to the first, in passes over
// each tier's bits (a word's children gathered and their bits prefetched before they are marked);
// then each tier, in solve order, holds its reached entries' codes by their rank among its reached
// bits (reached_ranks.h), and a counter each while it is solved, beside its code:
// - a first pass over the reached entries reads their children: those in earlier tiers, and those
//   whose value the space knows (LoopyKnownSpace), folded in (a losing one a tentative win, a
//   drawn one "cannot lose", the slowest winning one kept), the others counted, each once (or
//   without being located, where the space vouches they are distinct);
// - levels d = 0, 1, ...: each entry final at d tells its parents in the tier, found by the
//   space's unmoves (a space with unmoves only: a tier here is one block, and sweeps over it
//   would cost a pass of moves a level) and looked up in batches with prefetches: a loss makes
//   them wins at d + 1, a win counts them down, and a parent counted down to 0 (with no drawn
//   child outside) is a loss at d + 1, or later if a child outside wins later. What is undecided
//   at the end is drawn.
// The entries of a level are found by a scan of the codes of the chunks (57,344 entries of the
// tier) whose set of codes present holds d: a chunk notes each code set in it, so a level looks
// only where something is final at it.
//
// Memory: the reach holds a bit an entry of every tier and a bit an entry of the tier being
// spread; the solve the ranks' lines (the bits and a count, 1.14 bits an entry), and for each
// reached entry a byte of code (kept for the later tiers) and a byte of counter in the tier being
// solved; on disk, the I/O buffers too. The reach's peak is checked against the cap before
// anything starts, the solve's once the reach has counted the reached entries (its marks are on
// disk by then, so a run refused there resumes after them).
//
// On disk it writes what the loopy tier solver writes (loopy_tier_files.h): NAME.reached after the
// reach, NAME.wdl a tier as it is solved, so every reader (loopy_tables.h) opens them alike. A run
// stopped and started again takes the reach from the NAME.reached files when all are there, and a
// tier's codes from its NAME.wdl when it is there.
#pragma once

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/parallel_for.h"
#include "solver/process_resources.h"
#include "solver/progress.h"
#include "solver/zeroed_array.h"
#include "tablebase/directory_lock.h"
#include "tablebase/loopy_reach.h"
#include "tablebase/loopy_tier_files.h"
#include "tablebase/loopy_tier_solver.h"  // LoopySolveOptions, LoopySolveReport
#include "tablebase/loopy_tier_space.h"
#include "tablebase/loopy_value.h"
#include "tablebase/reached_ranks.h"
#include "tablebase/tier_memory_plan.h"

namespace tablebase {

template <LoopyUnmoveSpace S>
class CompactLoopySolver {
 public:
  CompactLoopySolver(const S& space, LoopySolveOptions options)
      : space_(space),
        options_(std::move(options)),
        bits_(space.tier_count()),
        ranks_(space.tier_count()),
        codes_(space.tier_count()) {}

  // What the reach holds: the space, every tier's bits, and the expanded bits of the largest block
  // spread by all threads.
  std::uint64_t reach_bytes() const {
    std::uint64_t bits = 0, largest = 0;
    for (int t = 0; t < space_.tier_count(); ++t) {
      bits += bit_bytes(space_.tier_size(t));
      for (std::uint64_t b = 0; b < space_.block_count(t); ++b) {
        const IndexRange r = space_.block_range(t, b);
        largest = std::max(largest, r.end - r.begin);
      }
    }
    return fixed_bytes() + bits + bit_bytes(largest);
  }
  // What every stage holds besides its arrays: the space, each thread's slack (the caller's
  // too), and the I/O buffers on disk.
  std::uint64_t fixed_bytes() const {
    const auto threads = std::max(1, options_.threads);
    return space_.memory_bytes() + std::uint64_t(threads + 1) * kThreadSlackBytes +
           (on_disk() ? loopy_io_bytes(largest_tier(space_), threads) : 0);
  }
  // The most the ranks and the bits they are made from hold at once.
  std::uint64_t ranks_bytes() const {
    std::uint64_t all = fixed_bytes();
    for (int t = 0; t < space_.tier_count(); ++t)
      all += bit_bytes(space_.tier_size(t)) + ReachedRanks::bytes_for(space_.tier_size(t));
    return all;
  }

  LoopySolveReport run() {
    LoopySolveReport report;
    report.tiers = space_.tier_count();
    report.planned_bytes = std::max(reach_bytes(), ranks_bytes());
    if (report.planned_bytes > options_.memory_bytes)
      throw over_memory_cap(space_.variant_name(), report.planned_bytes, options_.memory_bytes);
    std::optional<DirectoryLock> lock;
    if (on_disk()) {
      std::filesystem::create_directories(options_.dir);
      lock.emplace(options_.dir);
    }
    tbb::task_arena arena(std::max(1, options_.threads));
    arena.execute([&] {
      const auto start = std::chrono::steady_clock::now();
      const double start_cpu = solver::cpu_seconds();
      reach(report);
      const auto reached = std::chrono::steady_clock::now();
      const double reached_cpu = solver::cpu_seconds();
      for (int t = 0; t < space_.tier_count(); ++t) {
        ranks_[t] = ReachedRanks(bits_[t].data(), space_.tier_size(t));
        bits_[t] = {};  // the ranks hold them now
      }
      report.planned_bytes = std::max(report.planned_bytes, solve_bytes());
      if (solve_bytes() > options_.memory_bytes)
        throw MemoryCapError(
            over_memory_cap(space_.variant_name(), solve_bytes(), options_.memory_bytes).what() +
            std::string(on_disk() ? " to solve what play reaches; its reach is saved, and a run "
                                    "with a larger cap resumes after it"
                                  : " to solve what play reaches"));
      for (int t = 0; t < space_.tier_count(); ++t) solve_tier(t, report);
      report.time(start, start_cpu, reached, reached_cpu);
    });
    return report;
  }

  // After a run: the code at a location (kLoopyNotInRow where play does not reach), and whether
  // play reaches it.
  LoopyCode code(Location at) const {
    const ReachedRanks& r = ranks_[at.tier];
    return r.has(at.index) ? codes_[at.tier][r.rank(at.index)] : kLoopyNotInRow;
  }
  bool reached(Location at) const { return ranks_[at.tier].has(at.index); }

 private:
  // A chunk of a tier's entries (by index, 57,344 of them): the unit the threads take, with its
  // set of codes.
  static constexpr std::uint64_t kChunkLines = 128;
  static constexpr std::uint64_t kChunkEntries = kChunkLines * ReachedRanks::kLineEntries;
  // Counters: an entry with a drawn child outside never loses; one whose value the space knew
  // (LoopyKnownSpace) was counted by its parents in their first pass and tells them nothing.
  static constexpr std::uint8_t kCannotLose = 255, kKnown = 254;
  static constexpr int kMostChildren = 253;
  using CodeSet = std::array<std::uint64_t, 4>;

  struct Worker {
    typename S::Cursor cursor;
    std::vector<std::uint64_t> found;
    std::vector<Location> children;
    // A level's parents gathered from several entries, each with its rank (kAbsent: not reached).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> parents;
  };
  static constexpr std::uint64_t kAbsent = ~std::uint64_t{0};
  // Parents gathered before they are looked up together.
  static constexpr std::size_t kParentBatch = 256;

  static std::uint64_t bit_bytes(std::uint64_t entries) { return (entries + 63) / 64 * 8; }
  bool on_disk() const { return !options_.dir.empty(); }
  LoopyTableName table_name(int t) const {
    return {options_.dir, space_.variant_name(), space_.index_scheme(), space_.tier_name(t)};
  }
  // What the solve holds at the most: every tier's ranks and reached entries' codes, and the
  // largest tier's counters.
  std::uint64_t solve_bytes() const {
    std::uint64_t all = fixed_bytes(), counters = 0;
    for (int t = 0; t < space_.tier_count(); ++t) {
      all += ranks_[t].memory_bytes() + ranks_[t].count();
      counters = std::max(counters, ranks_[t].count());
    }
    return all + counters;
  }

  // --- reach ---
  void reach(LoopySolveReport& report) {
    const int n = space_.tier_count();
    std::vector<std::uint64_t*> words(n);
    for (int t = 0; t < n; ++t) {
      bits_[t] = solver::ZeroedArray<std::uint64_t>((space_.tier_size(t) + 63) / 64);
      words[t] = bits_[t].data();
    }
    bool done = on_disk();
    for (int t = 0; t < n && done; ++t)
      done = loopy_reached_present(table_name(t), space_.tier_size(t));
    if (done) {
      for (int t = 0; t < n; ++t) read_loopy_reached(table_name(t), bits_[t], space_.tier_size(t));
      report.reach_tiers_resumed = n;
      return;
    }
    std::uint64_t total = 0;
    for (int t = 0; t < n; ++t) total += space_.tier_size(t);
    solver::Progress progress("reach " + space_.variant_name(), total, "positions",
                              options_.show_progress);
    for (const LocationRange& r : space_.roots())
      for (std::uint64_t i = r.range.begin; i < r.range.end; ++i) mark_reached(words[r.tier], i);
    for (int t = n - 1; t >= 0; --t) {
      progress.set_stage(space_.tier_name(t));
      spread(t, words, progress);
    }
    if (on_disk())
      for (int t = 0; t < n; ++t)
        write_loopy_reached(table_name(t), bits_[t], space_.tier_size(t), options_.zstd_level);
  }

  // Tier t's marks closed under its moves (children in other tiers marked in their bits), in
  // passes over the tier, each expanding the entries marked and not yet expanded, a word of 64 at
  // a time: the word's children are gathered first and their bits prefetched, then marked, so
  // that their cache misses (the bits are far larger than the caches) overlap. A pass takes marks
  // ahead of it as it comes to them, those behind it in the next pass.
  void spread(int t, const std::vector<std::uint64_t*>& words, solver::Progress& progress) {
    const std::uint64_t n = space_.tier_size(t), word_count = (n + 63) / 64;
    constexpr std::uint64_t kChunkWords = 1024;
    std::uint64_t* own = words[t];
    solver::ZeroedArray<std::uint64_t> expanded(word_count);  // a chunk's words by its thread only
    tbb::enumerable_thread_specific<Worker> workers;
    for (std::atomic<bool> more{true}; more.exchange(false);)
      solver::parallel_for(
          std::uint64_t{0}, (word_count + kChunkWords - 1) / kChunkWords, [&](std::uint64_t c) {
            Worker& w = workers.local();
            std::uint64_t done = 0;
            for (std::uint64_t k = c * kChunkWords; k < std::min(word_count, (c + 1) * kChunkWords);
                 ++k) {
              const std::uint64_t pending =
                  std::atomic_ref<std::uint64_t>(own[k]).load(std::memory_order_relaxed) &
                  ~expanded[k];
              if (!pending) continue;
              expanded[k] |= pending;
              more.store(true, std::memory_order_relaxed);
              w.children.clear();
              for (std::uint64_t b = pending; b; b &= b - 1)
                space_.for_each_child(w.cursor, t, 64 * k + std::uint64_t(std::countr_zero(b)),
                                      [&](Location child) { w.children.push_back(child); });
              for (const Location child : w.children)
                __builtin_prefetch(&words[child.tier][child.index >> 6], 1);
              for (const Location child : w.children) mark_reached(words[child.tier], child.index);
              done += std::uint64_t(std::popcount(pending));
            }
            progress.add_to_rate(done);
          });
    progress.advance(n);
  }

  // --- solve ---
  // body(index, rank) for each reached entry of chunk c of tier t, in index order.
  template <typename Body>
  void for_each_reached_in_chunk(int t, std::uint64_t c, const Body& body) const {
    ranks_[t].for_each_marked(c * kChunkLines, (c + 1) * kChunkLines, body);
  }
  std::uint64_t chunks(int t) const { return (ranks_[t].lines() + kChunkLines - 1) / kChunkLines; }

  static LoopyCode load(const LoopyCode& b) {
    return std::atomic_ref<LoopyCode>(const_cast<LoopyCode&>(b)).load(std::memory_order_relaxed);
  }
  // Sets the entry at `index` (rank `rank`) of the tier being solved to `code` and notes the code
  // in its chunk's set.
  void set_code(std::uint64_t index, std::uint64_t rank, LoopyCode code) {
    std::atomic_ref<LoopyCode>(state_[2 * rank]).store(code, std::memory_order_relaxed);
    note(index, code);
  }
  void note(std::uint64_t index, LoopyCode code) {
    std::atomic_ref<std::uint64_t>(present_[index / kChunkEntries][code >> 6])
        .fetch_or(std::uint64_t{1} << (code & 63), std::memory_order_relaxed);
    std::atomic_ref<int> highest(highest_);
    for (int now = highest.load(std::memory_order_relaxed);
         now < code && !highest.compare_exchange_weak(now, code, std::memory_order_relaxed);) {
    }
  }
  // Lowers the entry (index, rank) of the tier being solved to `code` if it is above it.
  void lower(std::uint64_t index, std::uint64_t rank, LoopyCode code) {
    std::atomic_ref<LoopyCode> a(state_[2 * rank]);
    LoopyCode now = a.load(std::memory_order_relaxed);
    while (now > code)
      if (a.compare_exchange_weak(now, code, std::memory_order_relaxed)) return note(index, code);
  }
  LoopyCode child_code(Location c) const { return codes_[c.tier][ranks_[c.tier].rank(c.index)]; }
  // visit(child, code) for each child of entry i of tier t, code its code when it is final already
  // (in an earlier tier, or known to the space: LoopyKnownSpace), else kLoopyUnresolved.
  template <typename Visit>
  void for_each_child_code(Worker& w, int t, std::uint64_t i, const Visit& visit) const {
    const auto seen = [&](Location c, LoopyCode known) {
      visit(c, c.tier != t ? child_code(c) : known);
    };
    if constexpr (LoopyKnownSpace<S>)
      space_.for_each_child_known(w.cursor, t, i, seen);
    else
      space_.for_each_child(w.cursor, t, i, [&](Location c) { seen(c, kLoopyUnresolved); });
  }
  // 1 + the greatest distance of the entry's winning children whose codes were final before its
  // tier's levels (0 if none).
  int outside_max(Worker& w, int t, std::uint64_t index) const {
    int most = 0;
    for_each_child_code(w, t, index, [&](Location, LoopyCode code) {
      if (code != kLoopyUnresolved && code != kLoopyDraw && code & 1)
        most = std::max(most, int(code) + 1);
    });
    return most;
  }

  void solve_tier(int t, LoopySolveReport& report) {
    const ReachedRanks& r = ranks_[t];
    if (on_disk() && loopy_tier_present(table_name(t), space_.tier_size(t))) {
      read_by_rank(t);
      ++report.tiers_resumed;
    } else {
      solve_levels(t);
      ++report.tiers_solved;
      if (on_disk())
        report.table_bytes +=
            write_loopy_tier_by_rank(table_name(t), r, codes_[t], options_.zstd_level);
    }
    // Over the reached entries; a class stored twice (LoopyTwinSpace) counted once, at its first
    // reached copy, as tally_reached counts it.
    LoopyTally entries, classes;
    typename S::Cursor cursor;
    for (std::uint64_t c = 0; c < chunks(t); ++c)
      for_each_reached_in_chunk(t, c, [&](std::uint64_t i, std::uint64_t rank) {
        entries.add(codes_[t][rank]);
        bool first = true;
        if constexpr (LoopyTwinSpace<S>)
          space_.for_each_twin(cursor, t, i, [&](std::uint64_t twin) {
            first = first && !(twin < i && r.has(twin));
          });
        if (first) classes.add(codes_[t][rank]);
      });
    report.reached.add(classes);
    entries.not_in_row = space_.tier_size(t) - r.count();
    report.entries.add(entries);
  }

  void read_by_rank(int t) {
    codes_[t].assign(ranks_[t].count(), kLoopyDraw);
    LoopyTierReader reader(table_name(t), space_.tier_size(t));
    for (std::uint64_t c = 0; c < chunks(t); ++c)
      for_each_reached_in_chunk(
          t, c, [&](std::uint64_t i, std::uint64_t rank) { codes_[t][rank] = reader.code(i); });
  }

  void solve_levels(int t) {
    const ReachedRanks& r = ranks_[t];
    // Each reached entry's code and counter side by side (a parent's are read together), by rank;
    // the codes alone once the tier is solved.
    std::vector<std::uint8_t>& state = codes_[t];
    state.assign(2 * r.count(), 0);
    for (std::uint64_t k = 0; k < r.count(); ++k) state[2 * k] = kLoopyUnresolved;
    state_ = state.data();
    present_.assign(chunks(t), CodeSet{});
    highest_ = 0;
    tbb::enumerable_thread_specific<Worker> workers;
    solver::Progress progress("solve " + space_.variant_name() + " " + space_.tier_name(t),
                              r.count(), "positions", options_.show_progress);
    progress.set_stage("first pass");
    solver::parallel_for(std::uint64_t{0}, chunks(t), [&](std::uint64_t c) {
      Worker& w = workers.local();
      std::uint64_t done = 0;
      for_each_reached_in_chunk(t, c, [&](std::uint64_t i, std::uint64_t rank) {
        first_pass(w, t, i, rank, state_[2 * rank + 1]);
        ++done;
      });
      progress.advance(done);
      progress.add_to_rate(done);
    });
    for (int d = 0; d <= highest_; ++d) {
      progress.set_stage("level " + std::to_string(d));
      solver::parallel_for(std::uint64_t{0}, chunks(t), [&](std::uint64_t c) {
        const std::uint64_t present =
            std::atomic_ref<std::uint64_t>(present_[c][d >> 6]).load(std::memory_order_relaxed);
        if (!(present >> (d & 63) & 1)) return;
        Worker& w = workers.local();
        w.parents.clear();
        for_each_reached_in_chunk(t, c, [&](std::uint64_t i, std::uint64_t rank) {
          if (load(state_[2 * rank]) != d || load(state_[2 * rank + 1]) == kKnown) return;
          gather_parents(w, t, i);
          if (w.parents.size() >= kParentBatch) tell_parents(w, t, d);
        });
        tell_parents(w, t, d);
      });
    }
    for (std::uint64_t k = 0; k < r.count(); ++k)  // in place: k <= 2k
      state[k] = state[2 * k] == kLoopyUnresolved ? kLoopyDraw : state[2 * k];
    state.resize(r.count());
    if (t + 1 < space_.tier_count()) state.shrink_to_fit();  // kept for the later tiers
    state_ = nullptr;
  }

  void first_pass(Worker& w, int t, std::uint64_t i, std::uint64_t rank, std::uint8_t& counter) {
    if constexpr (LoopyKnownSpace<S>) {
      const LoopyCode known = space_.known_code(w.cursor, t, i);
      if (known != kLoopyUnresolved) {
        counter = kKnown;
        return set_code(i, rank, known);
      }
    }
    int win = INT_MAX, out_max = 0;
    bool any = false, cannot_lose = false;
    w.found.clear();
    std::uint64_t unlocated = 0;
    for_each_child_code(w, t, i, [&](Location c, LoopyCode code) {
      any = true;
      if (code == kLoopyUnresolved && c.index == kLoopyNotLocated)
        ++unlocated;
      else if (code == kLoopyUnresolved)
        w.found.push_back(c.index);
      else if (code == kLoopyDraw)
        cannot_lose = true;
      else if (code & 1)
        out_max = std::max(out_max, int(code) + 1);
      else
        win = std::min(win, int(code) + 1);
    });
    if (!any) return set_code(i, rank, 0);
    std::sort(w.found.begin(), w.found.end());
    const auto inside =
        std::uint64_t(std::unique(w.found.begin(), w.found.end()) - w.found.begin()) + unlocated;
    if (inside > std::uint64_t(kMostChildren))
      throw std::length_error("a position of " + space_.variant_name() + " has more than " +
                              std::to_string(kMostChildren) + " children in its tier");
    if (win != INT_MAX) set_code(i, rank, loopy_decided(win));
    if (cannot_lose)
      counter = kCannotLose;
    else if (inside)
      counter = std::uint8_t(inside);
    else if (win == INT_MAX)
      set_code(i, rank, loopy_decided(out_max));  // every child outside, every one won
  }

  // Appends the parents of entry i of tier t (each once) to w.parents.
  void gather_parents(Worker& w, int t, std::uint64_t i) const {
    w.found.clear();
    space_.for_each_parent(w.cursor, t, i, [&](std::uint64_t p) { w.found.push_back(p); });
    std::sort(w.found.begin(), w.found.end());
    w.found.erase(std::unique(w.found.begin(), w.found.end()), w.found.end());
    for (const std::uint64_t p : w.found) w.parents.emplace_back(p, kAbsent);
  }

  // Tells the parents gathered in w.parents (of entries final at level d) what they are, and
  // empties it: looked up in three rounds, each prefetching what the next reads (the ranks' line
  // of each, then its code and counter), so that the misses of a batch overlap.
  void tell_parents(Worker& w, int t, int d) {
    const ReachedRanks& r = ranks_[t];
    for (const auto& [p, rank] : w.parents) r.prefetch(p);
    for (auto& [p, rank] : w.parents) {
      if (!r.has(p)) continue;
      rank = r.rank(p);
      __builtin_prefetch(&state_[2 * rank], 1);
    }
    for (const auto& [p, rank] : w.parents) {
      if (rank == kAbsent) continue;
      if (d % 2 == 0) {
        lower(p, rank, loopy_decided(d + 1));
        continue;
      }
      if (load(state_[2 * rank]) != kLoopyUnresolved) continue;
      std::atomic_ref<std::uint8_t> left(state_[2 * rank + 1]);
      if (left.load(std::memory_order_relaxed) == kCannotLose) continue;  // (kKnown: decided)
      if (left.fetch_sub(1, std::memory_order_relaxed) != 1) continue;
      const int outside = outside_max(w, t, p);
      set_code(p, rank, loopy_decided(std::max(d + 1, outside)));
    }
    w.parents.clear();
  }

  const S& space_;
  LoopySolveOptions options_;
  std::vector<solver::ZeroedArray<std::uint64_t>> bits_;  // by tier, the reached bits
  std::vector<ReachedRanks> ranks_;
  std::vector<std::vector<LoopyCode>> codes_;  // by tier, by rank among the reached
  std::vector<CodeSet> present_;               // of the tier being solved, by chunk
  std::uint8_t* state_ = nullptr;              // its codes and counters, interleaved by rank
  int highest_ = 0;                            // the greatest code set in it
};

}  // namespace tablebase
