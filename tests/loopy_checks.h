// What the loopy tier solver's tests check alike for every game's tier space
// (tablebase/loopy_tier_space.h): every entry's position located back to it or to a twin, the
// unmoves against the rules' moves edge for edge, and a row's every value against the hash-map
// retrograde (solver/cyclic_retrograde.h), which shares none of the solver's code; a solve of the
// reached entries only against one of every entry; and a row too large for the hash map solved
// into tables and checked (verify_loopy_tables), for results/.
#pragma once

#include <sys/resource.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "solver/cyclic_retrograde.h"
#include "tablebase/loopy_tables.h"
#include "tablebase/loopy_tier_solver.h"
#include "tablebase/loopy_verify.h"
#include "tests/test_support.h"

namespace test_support {

struct LocateCheck {
  std::uint64_t checked = 0;
  std::uint64_t misplaced = 0;   // located neither at the entry nor at one of its twins
  std::uint64_t with_twins = 0;  // entries that have twins
};
// Locates the position of every `step`th entry of each tier.
template <typename Space>
LocateCheck check_locate(const Space& space, std::uint64_t step = 1) {
  typename Space::Cursor cursor;
  LocateCheck out;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); i += step) {
      const tablebase::Location at = space.locate(space.unrank(t, i));
      bool ok = at == tablebase::Location{t, i}, twins = false;
      space.for_each_twin(cursor, t, i, [&](std::uint64_t twin) {
        ok = ok || tablebase::Location{t, twin} == at;
        twins = true;
      });
      out.with_twins += twins;
      out.misplaced += !ok;
      ++out.checked;
    }
  return out;
}

// The entries whose children, as for_each_child gives them to one cursor going in index order, are
// not the rules' moves of the entry's position made one by one and located, in the same order
// (nor, to a visit that asks for no more after the first child, that child alone).
// Entries whose children (for_each_child) are not the located positions its moves make, in the
// rules' order and, where a visit asks for no more, stopping there; or, with `any_order`, as a
// multiset (a space that gives them in an order of its own and visits them all).
template <typename Space>
std::uint64_t children_mislocated(const Space& space, bool any_order = false) {
  typename Space::Cursor cursor;
  std::uint64_t wrong = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      std::vector<tablebase::Location> given, made;
      space.for_each_child(cursor, t, i, [&](tablebase::Location c) { given.push_back(c); });
      const typename Space::Position p = space.unrank(t, i);
      typename Space::Game::MoveList moves;
      space.game().generate(p, moves);
      for (const auto m : moves) {
        typename Space::Position q = p;
        space.game().make(q, m);
        made.push_back(space.locate(q));
      }
      if (any_order) {
        const auto before = [](tablebase::Location a, tablebase::Location b) {
          return std::pair(a.tier, a.index) < std::pair(b.tier, b.index);
        };
        std::sort(given.begin(), given.end(), before);
        std::sort(made.begin(), made.end(), before);
        wrong += given != made;
        continue;
      }
      wrong += given != made;
      // A visit that asks for no more after the first child gets that child only.
      std::vector<tablebase::Location> first;
      space.for_each_child(cursor, t, i, [&](tablebase::Location c) {
        first.push_back(c);
        return false;
      });
      wrong += first != std::vector<tablebase::Location>(
                            made.begin(), made.begin() + std::min<std::size_t>(1, made.size()));
    }
  return wrong;
}

// Entries whose children outside their block, by for_each_child_outside, are not those
// for_each_child gives (in its order), or whose count of children inside is not its.
template <typename Space>
std::uint64_t outside_children_wrong(const Space& space) {
  typename Space::Cursor cursor;
  std::uint64_t wrong = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      std::vector<tablebase::Location> all_outside, outside;
      int inside = 0;
      space.for_each_child(cursor, t, i, [&](tablebase::Location c) {
        if (c.tier == t)
          ++inside;
        else
          all_outside.push_back(c);
      });
      const int counted = space.for_each_child_outside(
          cursor, t, i, [&](tablebase::Location c) { outside.push_back(c); });
      wrong += outside != all_outside || counted != inside;
    }
  return wrong;
}

// Checks, tier by tier, that the (child, parent) pairs inside the tier by unmoves are those by
// moves; with `distinct`, that no entry's moves reach one child twice.
template <typename Space>
void check_unmoves_against_moves(const Space& space, bool distinct) {
  typename Space::Cursor cursor;
  for (int t = 0; t < space.tier_count(); ++t) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> moved, unmoved;
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      space.for_each_child(cursor, t, i, [&](tablebase::Location c) {
        if (c.tier == t) moved.emplace_back(c.index, i);
      });
      space.for_each_parent(cursor, t, i, [&](std::uint64_t p) { unmoved.emplace_back(i, p); });
    }
    std::sort(moved.begin(), moved.end());
    std::sort(unmoved.begin(), unmoved.end());
    if (!distinct) {
      moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
      unmoved.erase(std::unique(unmoved.begin(), unmoved.end()), unmoved.end());
    }
    INFO(space.tier_name(t));
    CHECK(moved == unmoved);
    if (distinct) CHECK(std::adjacent_find(moved.begin(), moved.end()) == moved.end());
  }
}

// Every code of an in-memory solve, tier by tier.
template <typename Space>
std::vector<std::vector<tablebase::LoopyCode>> all_codes(
    const Space& space, const tablebase::LoopyTierSolver<Space>& solved) {
  std::vector<std::vector<tablebase::LoopyCode>> codes(space.tier_count());
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) codes[t].push_back(solved.code({t, i}));
  return codes;
}

// Checks a space's for_each_parent_copy (tablebase::LoopyParentCopySpace) against its moves: for
// each entry, the set of entries it names is every copy (the entry and its twins) of every entry
// of the tier with a move to any copy of this entry's class.
template <typename Space>
void check_parent_copies_against_moves(const Space& space) {
  typename Space::Cursor cursor;
  const auto copies = [&](int t, std::uint64_t i) {
    std::vector<std::uint64_t> all{i};
    space.for_each_twin(cursor, t, i, [&](std::uint64_t twin) { all.push_back(twin); });
    return all;
  };
  for (int t = 0; t < space.tier_count(); ++t) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> moved, named;
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      std::vector<std::uint64_t> children;
      space.for_each_child(cursor, t, i, [&](tablebase::Location c) {
        if (c.tier == t) children.push_back(c.index);
      });
      if (children.empty()) continue;
      const std::vector<std::uint64_t> parents = copies(t, i);
      for (const std::uint64_t c : children)
        for (const std::uint64_t child : copies(t, c))
          for (const std::uint64_t parent : parents) moved.emplace_back(child, parent);
    }
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i)
      space.for_each_parent_copy(cursor, t, i, [&](std::uint64_t p) { named.emplace_back(i, p); });
    for (auto* pairs : {&moved, &named}) {
      std::sort(pairs->begin(), pairs->end());
      pairs->erase(std::unique(pairs->begin(), pairs->end()), pairs->end());
    }
    INFO(space.tier_name(t));
    CHECK(moved == named);
  }
}

// Solves a row both ways, from `roots`, and compares every position the hash-map retrograde
// reaches (each reached by the loopy solve too, with the same value and distance) and the counts
// of the two reports; prints both when asked (hidden rows, whose figures go to results/).
template <typename Game, typename Space, typename Fen>
void compare_loopy_with_hashed(const std::string& name, const Game& game,
                               std::span<const typename Game::Position> roots, const Space& space,
                               const tablebase::LoopySolveOptions& options, const Fen& to_fen,
                               bool print = false) {
  INFO(name);
  const auto started = std::chrono::steady_clock::now();
  const solver::CyclicRetrograde<Game> hashed(game, roots, {std::uint64_t{22} << 30, false});
  const auto hashed_at = std::chrono::steady_clock::now();
  tablebase::LoopyTierSolver<Space> solver(space, options);
  const auto report = solver.run();
  const auto solved_at = std::chrono::steady_clock::now();
  std::uint64_t mismatches = 0, unreached = 0;
  std::string first;
  typename Space::Cursor cursor;
  hashed.for_each_value([&](const typename Game::Key& key, solver::WdlValue value) {
    const typename Game::Position p = game.from_key(key);
    const tablebase::Location at = space.locate(p);
    REQUIRE(at.tier >= 0);
    bool reached = solver.reached(at);  // or the twin the reach came to first
    space.for_each_twin(cursor, at.tier, at.index, [&](std::uint64_t twin) {
      reached = reached || solver.reached({at.tier, twin});
    });
    unreached += !reached;
    const tablebase::LoopyCode code = tablebase::loopy_class_code(
        space, at, [&](tablebase::Location l) { return solver.code(l); });
    if ((!tablebase::loopy_in_row(code) || tablebase::loopy_value(code) != value) &&
        mismatches++ == 0)
      first = to_fen(p);
  });
  INFO("first mismatch: " << first);
  CHECK(mismatches == 0);
  CHECK(unreached == 0);
  const auto& h = hashed.report();
  const auto& r = report.reached;
  CHECK(r.positions == h.positions);
  CHECK(r.wins == h.wins);
  CHECK(r.draws == h.draws);
  CHECK(r.losses == h.losses);
  CHECK(r.longest_win == h.longest_win);
  CHECK(r.longest_loss == h.longest_loss);
  CHECK(report.entries.positions + report.entries.not_in_row == space.total_entries());
  CHECK(report.entries.positions >= r.positions);
  if (!print) return;
  const auto seconds = [](auto from, auto to) {
    return std::chrono::duration<double>(to - from).count();
  };
  std::printf(
      "%s: %llu positions compared, %llu mismatches; reached %llu: %llu wins, %llu draws, %llu "
      "losses, longest win %d, longest loss %d (both solvers); loopy entries %llu; hash-map "
      "%.1f s, loopy %.1f s (%d threads)\n",
      name.c_str(), (unsigned long long)h.positions, (unsigned long long)mismatches,
      (unsigned long long)r.positions, (unsigned long long)r.wins, (unsigned long long)r.draws,
      (unsigned long long)r.losses, r.longest_win, r.longest_loss,
      (unsigned long long)report.entries.positions, seconds(started, hashed_at),
      seconds(hashed_at, solved_at), options.threads);
}

struct ReachedOnlyCheck {
  std::uint64_t entries = 0, reached = 0;
  std::uint64_t differ = 0;            // reached entries whose codes differ
  std::uint64_t marks_differ = 0;      // entries reached in one solve and not in the other
  std::uint64_t unreached_solved = 0;  // unreached entries not stored as not in the row
};
// Solves `space` twice in memory, every entry and the reached ones only (options otherwise as
// given), and compares every entry: a reached one has the same code both ways, an unreached one
// is not in the row; the reports' counts of reached positions agree.
template <typename Space>
ReachedOnlyCheck check_reached_only(const Space& space, tablebase::LoopySolveOptions options) {
  options.solve_reached_only = false;
  tablebase::LoopyTierSolver<Space> full(space, options);
  const auto a = full.run();
  options.solve_reached_only = true;
  tablebase::LoopyTierSolver<Space> only(space, options);
  const auto b = only.run();
  CHECK(a.reached == b.reached);
  CHECK(a.entries.not_in_row == 0);
  CHECK(b.entries.positions + b.entries.not_in_row == a.entries.positions);
  ReachedOnlyCheck c;
  for (int t = 0; t < space.tier_count(); ++t)
    for (std::uint64_t i = 0; i < space.tier_size(t); ++i) {
      const tablebase::Location at{t, i};
      ++c.entries;
      c.marks_differ += full.reached(at) != only.reached(at);
      if (full.reached(at)) {
        ++c.reached;
        c.differ += only.code(at) != full.code(at);
      } else {
        c.unreached_solved += only.code(at) != tablebase::kLoopyNotInRow;
      }
    }
  CHECK(b.entries.not_in_row == c.entries - c.reached);
  return c;
}

// A row solved into tables and checked, for results/: the tables go to $DROP16_LOOPY_TABLES/ROW
// (kept) or to a temporary directory (removed), under a cap of $DROP16_LOOPY_MEMORY_GB (default
// 8), on two threads; prints the counts, the times, the memory and the checks, the forward search
// on $DROP16_LOOPY_SEARCHES samples (default 200) with $DROP16_LOOPY_SEARCH_MB for its table
// (default 256); predecessors by sweeps with
// $DROP16_LOOPY_SWEEPS set, else the solver's default.
template <typename Space, typename Fen>
void solve_loopy_row(const char* variant, const Space& space, const Fen& to_fen) {
  const char* kept = std::getenv("DROP16_LOOPY_TABLES");
  std::optional<test_support::TempDir> tmp;
  std::filesystem::path dir;
  if (kept) {
    dir = std::filesystem::path(kept) / variant;
  } else {
    tmp.emplace("loopy_row");
    dir = tmp->dir;
  }
  const char* cap = std::getenv("DROP16_LOOPY_MEMORY_GB");
  tablebase::LoopySolveOptions o;
  o.dir = dir;
  o.memory_bytes = std::uint64_t((cap ? std::stod(cap) : 8.0) * double(1 << 30));
  o.threads = 2;
  o.show_progress = true;
  if (std::getenv("DROP16_LOOPY_SWEEPS")) o.predecessors = tablebase::LoopyPredecessors::sweeps;
  const auto r = tablebase::LoopyTierSolver<Space>(space, o).run();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto& v = r.reached;
  std::printf(
      "%s: %llu positions reached: %llu wins, %llu draws, %llu losses, longest win %d, longest "
      "loss %d; %llu entries in %d tiers (%d solved, %d found finished): %llu wins, %llu draws, "
      "%llu losses, longest win %d, longest loss %d; reach %.1f s, solve %.1f s; planned %.1f "
      "MB, peak resident %.1f MB, %.1f user + %.1f system s; tables %llu bytes in %s\n",
      variant, (unsigned long long)v.positions, (unsigned long long)v.wins,
      (unsigned long long)v.draws, (unsigned long long)v.losses, v.longest_win, v.longest_loss,
      (unsigned long long)r.entries.positions, r.tiers, r.tiers_solved, r.tiers_resumed,
      (unsigned long long)r.entries.wins, (unsigned long long)r.entries.draws,
      (unsigned long long)r.entries.losses, r.entries.longest_win, r.entries.longest_loss,
      r.reach_seconds, r.solve_seconds, double(r.planned_bytes) / double(1 << 20),
      double(usage.ru_maxrss) / 1024.0,
      double(usage.ru_utime.tv_sec) + 1e-6 * double(usage.ru_utime.tv_usec),
      double(usage.ru_stime.tv_sec) + 1e-6 * double(usage.ru_stime.tv_usec),
      (unsigned long long)r.table_bytes, dir.c_str());
  std::fflush(stdout);
  tablebase::LoopyTables<Space> tables(space, dir);
  tablebase::LoopyVerifyOptions checks;
  checks.children_samples = 100000;
  const char* searches = std::getenv("DROP16_LOOPY_SEARCHES");
  checks.search_samples = searches ? std::stoull(searches) : 200;
  if (const char* mb = std::getenv("DROP16_LOOPY_SEARCH_MB"))
    checks.search_bytes = std::stoull(mb) << 20;
  const auto c = tablebase::verify_loopy_tables(
      tables, std::max(r.entries.longest_win, r.entries.longest_loss), checks);
  std::printf(
      "%s checked: %llu reached entries against their children, %llu mismatches; %llu by the "
      "forward search to %d plies (%llu wins, %llu draws, %llu losses), %llu mismatches, %llu "
      "left open (the search's %llu MB filled); %.1f s\n",
      variant, (unsigned long long)c.children_checked, (unsigned long long)c.children_mismatches,
      (unsigned long long)c.searched, c.depth, (unsigned long long)c.searched_values.wins,
      (unsigned long long)c.searched_values.draws, (unsigned long long)c.searched_values.losses,
      (unsigned long long)c.search_mismatches, (unsigned long long)c.search_unfinished,
      (unsigned long long)(checks.search_bytes >> 20), c.seconds);
  if (c.first_mismatch)
    std::printf("first mismatch: %s: %s\n",
                to_fen(space.unrank(c.first_mismatch->tier, c.first_mismatch->index)).c_str(),
                c.first_fault.c_str());
  CHECK(c.children_mismatches == 0);
  CHECK(c.search_mismatches == 0);
  CHECK(c.search_unfinished < c.searched);  // some searches decided, or the check says nothing
}

}  // namespace test_support
