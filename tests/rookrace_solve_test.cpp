// The rook race solved: the cyclic retrograde (solver/cyclic_retrograde.h) on small variants
// against a plain fixed point over the reference engine's own positions (rules/rookrace/
// reference_rules.h: FEN strings as keys, no symmetry, no 128-bit keys, values by sweeps), which
// checks the rules, the keys, the symmetries and the solver together; against the bounded forward
// search (solver/cyclic_search.h) on every position of a variant; and each value against its
// children's (tablebase/wdl_analysis.h), which catches a value changed anywhere.
#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <climits>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "rules/rookrace/game.h"
#include "rules/rookrace/notation.h"
#include "rules/rookrace/reference_rules.h"
#include "solver/cyclic_retrograde.h"
#include "solver/cyclic_search.h"
#include "solver/wdl.h"
#include "tablebase/wdl_analysis.h"

namespace {

using rookrace::Game;
using solver::Wdl;
using solver::WdlValue;
namespace reference = rookrace::reference;

// Every position the reference engine reaches from `start`, each with its value by the plain
// sweeps of tests/fixed_point.h's rules: no move is a loss in 0; a win in 1 + the least distance
// of the losing children, a loss in 1 + the greatest when every child wins, else a draw; repeated
// from "all draws" until nothing changes.
std::vector<std::pair<std::string, WdlValue>> reference_values(const std::string& start) {
  std::unordered_map<std::string, int> index{{start, 0}};
  std::vector<std::string> fens{start};
  std::vector<std::vector<int>> children;
  for (std::size_t i = 0; i < fens.size(); ++i) {
    const reference::Board b = reference::from_fen(fens[i]);
    children.emplace_back();
    for (const std::string& m : reference::legal_moves(b)) {
      const std::string child = reference::to_fen(reference::play(b, m));
      const auto [it, added] = index.try_emplace(child, int(fens.size()));
      if (added) fens.push_back(child);
      children[i].push_back(it->second);
    }
  }
  std::vector<WdlValue> values(fens.size());
  for (bool changed = true; changed;) {
    std::vector<WdlValue> next(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      int quickest_loss = INT_MAX, slowest_win = -1;
      bool all_win = true;
      for (int c : children[i]) {
        if (values[c].wdl == Wdl::loss) quickest_loss = std::min(quickest_loss, values[c].distance);
        if (values[c].wdl == Wdl::win)
          slowest_win = std::max(slowest_win, values[c].distance);
        else
          all_win = false;
      }
      if (children[i].empty())
        next[i] = {Wdl::loss, 0};
      else if (quickest_loss != INT_MAX)
        next[i] = {Wdl::win, quickest_loss + 1};
      else if (all_win)
        next[i] = {Wdl::loss, slowest_win + 1};
    }
    changed = next != values;
    values = std::move(next);
  }
  std::vector<std::pair<std::string, WdlValue>> out;
  for (std::size_t i = 0; i < fens.size(); ++i) out.emplace_back(fens[i], values[i]);
  return out;
}

solver::CyclicRetrograde<Game> solve_start(const Game& g) {
  const rookrace::Position root = g.start();
  return solver::CyclicRetrograde<Game>(g, std::span<const rookrace::Position>(&root, 1), {});
}

}  // namespace

TEST_CASE(
    "rookrace: the cyclic retrograde agrees with a plain fixed point over the reference "
    "engine",
    "[rookrace][solve]") {
  for (const char* v : {"rookrace:2x2:0", "rookrace:2x2:1", "rookrace:2x2:2", "rookrace:2x2:5",
                        "rookrace:4x4:0", "rookrace:4x4:1"}) {
    INFO(v);
    const Game g(rookrace::parse_variant(v));
    const auto solved = solve_start(g);
    const auto expected = reference_values(rookrace::to_fen(g, g.start()));
    // The reference keeps mirror images apart, the solver one per canonical key: fewer or equal.
    CHECK(solved.report().positions <= expected.size());
    // One assertion for all: Catch's per-assertion cost would dominate.
    std::uint64_t wins = 0, draws = 0, losses = 0, mismatches = 0;
    std::string first_mismatch;
    for (const auto& [fen, value] : expected) {
      const auto got = solved.value(rookrace::parse_fen(g, fen));
      if ((!got || *got != value) && mismatches++ == 0) first_mismatch = fen;
      (value.wdl == Wdl::win ? wins : value.wdl == Wdl::draw ? draws : losses)++;
    }
    INFO("first mismatch: " << first_mismatch);
    CHECK(mismatches == 0);
    // Something to check: every kind of value occurs once the board is 4x4.
    if (g.size() == 4) CHECK((wins > 0 && draws > 0 && losses > 0));
  }
}

TEST_CASE("rookrace: the starts of 2x2 and 4x4 solved, checked by hand where short",
          "[rookrace][solve]") {
  // 2x2 without pawns: a1b1 (or a1a2) and Black's rook must leave b2 (its one move, to a2 or b1),
  // then White takes the corner: a win in 3.
  const Game tiny(rookrace::parse_variant("rookrace:2x2:0"));
  const auto a = solve_start(tiny).analyze(tiny.start());
  CHECK(a.value == WdlValue{Wdl::win, 3});
  REQUIRE(a.moves.size() == 2);
  for (const auto& m : a.moves) CHECK(m.value == WdlValue{Wdl::win, 3});
}

TEST_CASE(
    "rookrace: the bounded forward search agrees with the retrograde on every position of "
    "a variant",
    "[rookrace][solve]") {
  const Game g(rookrace::parse_variant("rookrace:4x4:0"));
  const auto solved = solve_start(g);
  const int longest = std::max(solved.report().longest_win, solved.report().longest_loss);
  solver::CyclicSearch<Game> search(g, std::uint64_t{64} << 20);
  int checked = 0, draws = 0;
  solved.for_each_value([&](const rookrace::Key& k, WdlValue truth) {
    const rookrace::Position p = g.from_key(k);
    INFO(rookrace::to_fen(g, p));
    const auto found = search.solve(p, {longest, 0});
    if (truth.wdl == Wdl::draw) {
      CHECK(!found.value);  // nothing forced within the longest distance there is
      ++draws;
    } else {
      CHECK(found.value == truth);
    }
    ++checked;
  });
  CHECK(checked == int(solved.report().positions));
  CHECK(draws > 0);
}

TEST_CASE(
    "rookrace: every solved value agrees with its children's, and one flipped value is caught "
    "where it is",
    "[rookrace][solve][children]") {
  const Game g(rookrace::parse_variant("rookrace:4x4:0"));
  const auto solved = solve_start(g);
  absl::flat_hash_map<rookrace::Key, WdlValue> values;
  solved.for_each_value([&](const rookrace::Key& k, WdlValue v) { values.emplace(k, v); });
  const auto probe = [&](const rookrace::Key& k) -> std::optional<WdlValue> {
    const auto it = values.find(k);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
  // The keys whose stored value its children's contradict.
  const auto disagreeing = [&] {
    std::vector<rookrace::Key> out;
    for (const auto& [k, v] : values) {
      const auto check = tablebase::check_against_children(g, g.from_key(k), probe);
      REQUIRE(check);  // every child was reached, so solved
      if (!check->agrees()) out.push_back(k);
    }
    return out;
  };
  CHECK(disagreeing().empty());
  // One value of each kind changed in turn: a draw called a win, a win called a draw (the
  // mislabelled draw a bounded search cannot tell from a long win), a loss one move longer.
  int flipped = 0;
  for (const Wdl kind : {Wdl::draw, Wdl::win, Wdl::loss}) {
    const auto it = std::find_if(values.begin(), values.end(),
                                 [&](const auto& e) { return e.second.wdl == kind; });
    REQUIRE(it != values.end());
    const WdlValue truth = it->second;
    it->second = kind == Wdl::draw  ? WdlValue{Wdl::win, 1}
                 : kind == Wdl::win ? WdlValue{Wdl::draw, 0}
                                    : WdlValue{Wdl::loss, truth.distance + 2};
    const auto caught = disagreeing();
    INFO(rookrace::to_fen(g, g.from_key(it->first)));
    CHECK(std::find(caught.begin(), caught.end(), it->first) != caught.end());
    it->second = truth;
    ++flipped;
  }
  CHECK(flipped == 3);
  CHECK(disagreeing().empty());
}
