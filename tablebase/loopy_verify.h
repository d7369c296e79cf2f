// Checks of a loopy tier space's tables (loopy_tables.h) on random entries that play reaches,
// each by a method that shares nothing with the solver's levels:
// - children: the entry's value recomputed from its children's stored values by the rules of
//   solver/wdl.h (no child: a loss in 0; a losing child: a win in 1 + the least such distance;
//   else a drawn child: a draw; else a loss in 1 + the greatest distance). Cheap, so many
//   samples; a wrong value anywhere shows wherever it breaks this local rule. It cannot tell a
//   cycle of positions all labelled drawn from one forced to end (both are locally consistent),
//   which is what the second check is for.
// - search: the position re-solved by the bounded forward search (solver/cyclic_search.h), to the
//   tables' longest distance: an exact win or loss with its distance, and for a draw nothing
//   forced within that distance. Costly on drawn positions (a full search to that depth), so few.
// Entries are drawn uniformly from the reached ones (NAME.reached), or from all entries when the
// tables have no reached bits. A reached entry, or a child of one, stored as not in the row (a
// solve of the reached entries only leaves out the others) is a mismatch.
#pragma once

#include <chrono>
#include <climits>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "solver/cyclic_search.h"
#include "tablebase/loopy_tables.h"

namespace tablebase {

struct LoopyVerifyOptions {
  std::uint64_t children_samples = 0, search_samples = 0;
  std::uint64_t seed = 1;
  std::uint64_t search_bytes = std::uint64_t{256} << 20;  // the forward search's table
};

struct LoopyVerifyReport {
  std::uint64_t children_checked = 0, children_mismatches = 0;
  std::uint64_t searched = 0, search_mismatches = 0;
  // Searched entries whose search filled its table (search_bytes) before it decided: left open.
  std::uint64_t search_unfinished = 0;
  LoopyTally searched_values;  // the stored values of the entries searched
  int depth = 0;               // the forward search's: the tables' longest distance
  std::optional<Location> first_mismatch;
  std::string first_fault;
  double seconds = 0;
};

// The code an entry must hold given its children's codes, by the rules above; kLoopyNotInRow when
// a child is not in the row.
template <LoopyTierSpace S, typename Code>
LoopyCode code_from_children(const S& space, typename S::Cursor& cursor, Location at,
                             Code&& code_of) {
  bool any = false, drawn = false, left_out = false;
  int quickest_loss = INT_MAX, slowest_win = -1;
  space.for_each_child(cursor, at.tier, at.index, [&](Location c) {
    any = true;
    const LoopyCode v = code_of(c);
    if (!loopy_in_row(v))
      left_out = true;
    else if (v == kLoopyDraw)
      drawn = true;
    else if (v & 1)
      slowest_win = std::max<int>(slowest_win, v);
    else
      quickest_loss = std::min<int>(quickest_loss, v);
  });
  if (!any) return 0;
  if (left_out) return kLoopyNotInRow;
  if (quickest_loss != INT_MAX) return loopy_decided(quickest_loss + 1);
  if (drawn) return kLoopyDraw;
  return loopy_decided(slowest_win + 1);
}

// Entries drawn uniformly, one a call, from those play reaches (NAME.reached), or from all entries
// when the tables have no reached bits.
template <LoopyTierSpace S>
class LoopyEntryDraw {
 public:
  LoopyEntryDraw(LoopyTables<S>& tables, std::uint64_t seed) : tables_(tables), rng_(seed) {
    const S& space = tables.space();
    for (int t = 0; t < space.tier_count(); ++t) {
      first_.push_back(total_);
      total_ += space.tier_size(t);
    }
  }
  // Entries of every tier, reached or not.
  std::uint64_t entries() const { return total_; }
  // Only when entries() > 0.
  Location operator()() {
    for (;;) {
      const std::uint64_t i = rng_() % total_;
      const int t = int(std::upper_bound(first_.begin(), first_.end(), i) - first_.begin()) - 1;
      const Location at{t, i - first_[t]};
      if (!tables_.has_reached() || tables_.reached(at)) return at;
    }
  }

 private:
  LoopyTables<S>& tables_;
  std::mt19937_64 rng_;
  std::vector<std::uint64_t> first_;  // entries before each tier
  std::uint64_t total_ = 0;
};

template <LoopyPositionSpace S>
LoopyVerifyReport verify_loopy_tables(LoopyTables<S>& tables, int longest,
                                      const LoopyVerifyOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const S& space = tables.space();
  LoopyVerifyReport report;
  report.depth = longest;
  LoopyEntryDraw<S> draw(tables, options.seed);
  if (draw.entries() == 0) return report;
  const auto mismatch = [&](Location at, const std::string& fault) {
    if (report.first_mismatch) return;
    report.first_mismatch = at;
    report.first_fault = fault;
  };
  const auto text = [](LoopyCode c) {
    if (!loopy_in_row(c)) return std::string("not in the row");
    const solver::WdlValue v = loopy_value(c);
    return std::string(solver::wdl_name(v.wdl)) +
           (v.wdl == solver::Wdl::draw ? "" : " in " + std::to_string(v.distance));
  };
  typename S::Cursor cursor;
  for (; report.children_checked < options.children_samples; ++report.children_checked) {
    const Location at = draw();
    const LoopyCode stored = tables.code(at);
    const LoopyCode expected =
        code_from_children(space, cursor, at, [&](Location c) { return tables.code(c); });
    if (stored == expected && loopy_in_row(stored)) continue;
    ++report.children_mismatches;
    mismatch(at, "stored " + text(stored) + ", its children give " + text(expected));
  }
  solver::CyclicSearch<typename S::Game> search(space.game(), options.search_bytes);
  for (; report.searched < options.search_samples; ++report.searched) {
    const Location at = draw();
    const LoopyCode stored = tables.code(at);
    report.searched_values.add(stored);
    if (!loopy_in_row(stored)) {
      ++report.search_mismatches;
      mismatch(at, "stored not in the row, though play reaches it");
      continue;
    }
    const solver::BoundedValue found = search.solve(space.unrank(at.tier, at.index), {longest, 0});
    if (found.stop == solver::SearchStop::memory) {
      // Neither agreement nor a fault: counted, so the report says how many were left open.
      ++report.search_unfinished;
      continue;
    }
    const bool agrees = stored == kLoopyDraw ? !found.value : found.value == loopy_value(stored);
    if (agrees) continue;
    ++report.search_mismatches;
    mismatch(at, "stored " + text(stored) + ", the forward search finds " +
                     (found.value ? text(loopy_code(*found.value))
                                  : "nothing forced within " + std::to_string(longest)));
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace tablebase
