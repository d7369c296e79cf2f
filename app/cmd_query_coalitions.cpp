// drop16 query and verify for a game valued per coalition of players, from its coalition table
// (tablebase/coalition_table.h, written by solve --tables).
// query: every coalition's value at the position and after each of its moves, from the file
// alone, in serve's shape for such a game (tablebase/coalition_analysis.h, source "tables").
// verify: entries drawn uniformly from the file (every entry when it holds no more than asked),
// each the canonical representative from_key gives, checked two ways:
// - against their children's stored values (tablebase/coalition_children.h), every coalition:
//   cheap, and the only check a draw gets locally;
// - unless --children, against the bounded forward search of each coalition
//   (solver/coalition_search.h, CoalitionSearch::refutation), which shares nothing with the
//   solver and its tables but the rules: a win or loss in d confirmed exactly by two questions
//   (a win within d, none within d - 1), a draw as "nothing forced within L", L the table's
//   longest distance of any split (a draw is caught when a result is forced within L).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "app/coalition_solve.h"
#include "app/games.h"
#include "app/resources.h"
#include "solver/coalition_search.h"
#include "solver/progress.h"
#include "tablebase/coalition_analysis.h"
#include "tablebase/coalition_children.h"
#include "tablebase/coalition_json.h"
#include "tablebase/coalition_table.h"
#include "tablebase/tables_found.h"

namespace app {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// DIR's coalition table of E's game, of `name` when it is not empty. Throws UsageError when DIR
// holds none (naming what it holds instead), TableError for a damaged or foreign file.
template <registry::CoalitionTablesEntry E>
tablebase::CoalitionTable open_table(const std::string& dir, const std::string& name) {
  if (!tablebase::holds_coalition_table(dir, E::info.id)) {
    const std::string held = tablebase::tables_held(dir);
    throw UsageError("--tables " + dir + " holds no table of " + std::string(E::info.title) +
                     " (no " + tablebase::coalition_table_file(dir, E::info.id).string() + ")" +
                     (held.empty() ? "; solve --variant VARIANT --tables DIR writes one"
                                   : ": it holds " + held));
  }
  return tablebase::open_coalition_table(dir, E::info.id, E::kKeyFormat, int(E::kPlayers.size()),
                                         name);
}

// "white+red W26": a coalition's value, short.
std::string short_value(const nlohmann::ordered_json& c) {
  const std::string v = c["value"].get<std::string>();
  return c["coalition"].get<std::string>() + " " + char(std::toupper(v[0])) +
         (c["distance"].is_null() ? std::string() : c["distance"].dump());
}

void print_query_text(const nlohmann::ordered_json& j) {
  print_coalition_values(j);
  for (const auto& m : j["moves"]) {
    std::cout << "  " << m["move"].get<std::string>() << " ";
    for (const auto& c : m["coalitions"]) std::cout << " " << short_value(c);
    std::cout << "\n";
  }
  std::cout << std::flush;
}

template <registry::CoalitionTablesEntry E>
void query_table(const PositionOptions& o, const std::string& dir, bool variant_given) {
  using G = typename E::Game;
  const auto start = std::chrono::steady_clock::now();
  tablebase::CoalitionTable table =
      open_table<E>(dir, variant_given ? E::normalized(o.variant) : std::string());
  const std::string variant = table.info().name;
  const auto s = E::setup(variant, o.fen);
  const G& game = *s.game;
  const auto values_at = [&](const typename G::Position& p) {
    auto v = tablebase::coalition_values_at(game, table, p);
    if (!v)
      throw UsageError("--fen: " + E::fen(game, p) + " is not among " + variant +
                       "'s positions (not reached from its start, which its table holds)");
    return std::move(*v);
  };
  typename tablebase::CoalitionOracle<G>::Answer answer;
  answer.values = values_at(s.position);
  answer.positions = table.info().positions;
  typename G::MoveList moves;
  if (!game.is_terminal(s.position)) game.generate(s.position, moves);
  for (int i = 0; i < moves.size(); ++i) {
    typename G::Position after = s.position;
    game.make(after, moves[i]);
    answer.moves.push_back({moves[i], after, values_at(after)});
  }
  nlohmann::ordered_json j =
      tablebase::coalition_analysis_json<E>(variant, game, s.position, answer, "tables");
  j["seconds"] = seconds_since(start);
  if (o.json)
    std::cout << j.dump() << std::endl;
  else
    print_query_text(j);
}

// The entries of a table of n to check, by rank in key order: every one when samples >= n, else
// `samples` drawn uniformly (with repeats), sorted.
std::vector<std::uint64_t> sampled_ranks(std::uint64_t n, std::uint64_t samples,
                                         std::uint64_t seed) {
  std::vector<std::uint64_t> ranks;
  if (samples >= n) {
    ranks.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) ranks[i] = i;
    return ranks;
  }
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> any(0, n - 1);
  for (std::uint64_t k = 0; k < samples; ++k) ranks.push_back(any(rng));
  std::sort(ranks.begin(), ranks.end());
  return ranks;
}

template <registry::CoalitionTablesEntry E>
void verify_table(const CoalitionVerifyRequest& r) {
  using G = typename E::Game;
  const auto start = std::chrono::steady_clock::now();
  const std::string name = E::normalized(r.position.variant);
  tablebase::CoalitionTable table = open_table<E>(r.tables, name);
  const auto setup = E::setup(name, std::nullopt);
  const G& game = *setup.game;
  const tablebase::CoalitionTableInfo info = table.info();
  int longest = 0;
  for (const solver::CoalitionTally& t : info.splits)
    longest = std::max({longest, t.longest_win, t.longest_loss});
  // The entries to check, read in one pass (every block's checksum and the header's counts
  // checked on the way) before any probe.
  const std::vector<std::uint64_t> ranks = sampled_ranks(info.positions, r.samples, r.seed);
  std::vector<common::Key> keys;
  keys.reserve(ranks.size());
  std::uint64_t rank = 0;
  auto next = ranks.begin();
  table.for_each([&](const common::Key& k, std::span<const solver::WdlValue>) {
    for (; next != ranks.end() && *next == rank; ++next) keys.push_back(k);
    ++rank;
  });
  const std::uint64_t search_bytes = r.memory_bytes / 2;
  std::optional<solver::CoalitionSearch<G>> search;
  // By raw position: the check shares nothing with the solve but the rules.
  if (!r.children) search.emplace(game, search_bytes, false);
  const std::uint32_t everyone = (1u << game.players()) - 1;
  const auto values_at = [&](const typename G::Position& p) {
    return tablebase::coalition_values_at(game, table, p);
  };
  std::uint64_t children_mismatches = 0, search_mismatches = 0, coalitions_searched = 0;
  std::uint64_t search_left_open = 0, search_left_open_by_nodes = 0;
  nlohmann::ordered_json first_mismatch;
  const auto mismatch = [&](std::uint64_t& count, nlohmann::ordered_json what) {
    if (children_mismatches + search_mismatches == 0) first_mismatch = std::move(what);
    ++count;
  };
  solver::Progress progress("verify", keys.size(), "samples", !r.position.quiet);
  for (const common::Key& k : keys) {
    const typename G::Position p = game.from_key(k);
    const auto local = tablebase::check_coalitions_against_children(game, p, values_at);
    if (!local) {
      mismatch(children_mismatches, {{"fen", E::fen(game, p)},
                                     {"check", "children"},
                                     {"fault", "a child of this position is not in the table"}});
    } else {
      for (std::uint32_t s = 1; s < everyone; ++s) {
        const solver::WdlValue stored = local->stored[s];
        if (stored != local->from_children[s])
          mismatch(children_mismatches,
                   {{"fen", E::fen(game, p)},
                    {"check", "children"},
                    {"coalition", tablebase::coalition_name(E::kPlayers, s)},
                    {"stored", tablebase::coalition_value_json(E::kPlayers, s, stored)},
                    {"from_children",
                     tablebase::coalition_value_json(E::kPlayers, s, local->from_children[s])}});
        if (!search) continue;
        std::optional<solver::CoalitionAnswer> against;
        try {
          against = search->refutation(p, s, stored, longest, r.search_nodes);
        } catch (const solver::SearchMemoryError&) {
          ++search_left_open;  // one question fills the search's memory: neither agrees nor not
          continue;
        } catch (const solver::SearchNodeBudgetError&) {
          ++search_left_open_by_nodes;  // one question visits more than --search-nodes: the same
          continue;
        }
        ++coalitions_searched;
        if (against)
          mismatch(search_mismatches,
                   {{"fen", E::fen(game, p)},
                    {"check", "search"},
                    {"coalition", tablebase::coalition_name(E::kPlayers, s)},
                    {"stored", tablebase::coalition_value_json(E::kPlayers, s, stored)},
                    {"search", tablebase::coalition_name(E::kPlayers, against->side) +
                                   (against->wins ? " forces" : " does not force") +
                                   " a win within " + std::to_string(against->plies) + " plies"}});
      }
    }
    progress.advance();
    progress.add_to_rate(1);
  }
  const std::uint64_t mismatches = children_mismatches + search_mismatches;
  nlohmann::ordered_json j;
  j["variant"] = name;
  j["source"] = tablebase::coalition_table_file(r.tables, E::info.id).string();
  j["samples"] = keys.size();
  j["seed"] = r.seed;
  j["method"] = search ? "children and search" : "children";
  j["positions"] = info.positions;
  j["longest_distance"] = longest;
  j["mismatches"] = mismatches;
  j["children_mismatches"] = children_mismatches;
  if (search) {
    j["search_mismatches"] = search_mismatches;
    j["coalitions_searched"] = coalitions_searched;
    j["coalitions_left_open"] = search_left_open;  // by the search's memory
    j["coalitions_left_open_by_nodes"] = search_left_open_by_nodes;
    j["search_node_budget"] = r.search_nodes;
    j["search_nodes"] = search->nodes();
    j["table_clears"] = search->table_clears();
  }
  if (mismatches) j["first_mismatch"] = first_mismatch;
  j["seconds"] = seconds_since(start);
  j["peak_memory_mb"] = peak_memory_mb();
  const std::string against =
      search ? "their children's values and every coalition's forward search (draws: nothing "
               "forced within " +
                   std::to_string(longest) + " plies)"
             : std::string("their children's values");
  if (r.position.json)
    std::cout << j.dump() << std::endl;
  else
    std::cout << keys.size() << " positions of " << name << " (" << j["source"].get<std::string>()
              << ") checked against " << against << ": " << mismatches << " mismatches"
              << (search_left_open ? ", " + std::to_string(search_left_open) +
                                         " coalition searches left open by --memory"
                                   : std::string())
              << (search_left_open_by_nodes
                      ? ", " + std::to_string(search_left_open_by_nodes) +
                            " coalition searches left open past --search-nodes " +
                            std::to_string(r.search_nodes)
                      : std::string())
              << std::endl;
  if (mismatches)
    throw std::runtime_error(std::to_string(mismatches) + " coalition values of " +
                             std::to_string(keys.size()) + " positions fail the " +
                             first_mismatch["check"].get<std::string>() + " check, the first at " +
                             first_mismatch["fen"].get<std::string>());
}

}  // namespace

void run_coalition_query(const PositionOptions& o, const std::string& dir, bool variant_given) {
  with_capability<registry::TableFormat::coalitions>(o.variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (registry::CoalitionTablesEntry<E>) query_table<E>(o, dir, variant_given);
  });
}

void run_coalition_verify(const CoalitionVerifyRequest& r) {
  with_capability<registry::TableFormat::coalitions>(r.position.variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (registry::CoalitionTablesEntry<E>) verify_table<E>(r);
  });
}

}  // namespace app
