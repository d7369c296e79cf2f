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
#include "app/tier_digests.h"
#include "solver/coalition_search.h"
#include "solver/progress.h"
#include "tablebase/coalition_analysis.h"
#include "tablebase/coalition_children.h"
#include "tablebase/coalition_json.h"
#include "tablebase/coalition_table.h"
#include "tablebase/coalition_tier_tables.h"
#include "tablebase/game_tables.h"
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

// The answer of query from tables whose `source(p)` gives every coalition's value at p, nullopt
// for a position they lack; `positions` the positions they hold.
template <registry::CoalitionEntry E, typename Source>
void query_from(const PositionOptions& o, const std::string& variant, Source&& source,
                std::uint64_t positions, std::chrono::steady_clock::time_point start) {
  using G = typename E::Game;
  const auto s = E::setup(variant, o.fen);
  const G& game = *s.game;
  const auto values_at = [&](const typename G::Position& p) {
    auto v = source(game, p);
    if (!v)
      throw UsageError("--fen: " + E::fen(game, p) + " is not among " + variant +
                       "'s positions (not reached from its start, which its table holds)");
    return std::move(*v);
  };
  typename tablebase::CoalitionOracle<G>::Answer answer;
  answer.values = values_at(s.position);
  answer.positions = positions;
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

template <registry::CoalitionTablesEntry E>
void query_table(const PositionOptions& o, const std::string& dir, bool variant_given) {
  const auto start = std::chrono::steady_clock::now();
  tablebase::CoalitionTable table =
      open_table<E>(dir, variant_given ? E::normalized(o.variant) : std::string());
  query_from<E>(
      o, table.info().name,
      [&](const auto& game, const auto& p) {
        return tablebase::coalition_values_at(game, table, p);
      },
      table.info().positions, start);
}

// The same from coalition tier tables, whose variant DIR's index names.
template <registry::CoalitionEntry E>
void query_tiers(const PositionOptions& o, const std::string& dir, const std::string& variant) {
  using Space = tablebase::coalition_space_t<typename E::Game>;
  const auto start = std::chrono::steady_clock::now();
  const auto space = tablebase::CoalitionSpaceOf<typename E::Game>::of(variant);
  if (!space->load_index(dir))
    throw UsageError("--tables " + dir + " holds no coalition tier tables of " + variant);
  tablebase::CoalitionTierTables<Space> tables(*space, dir);
  std::uint64_t positions = 0;
  for (int t = 0; t < space->tier_count(); ++t) positions += space->tier_size(t);
  query_from<E>(
      o, variant, [&](const auto& game, const auto& p) { return tables.values_at(game, p); },
      positions, start);
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

// Checks `positions` against their children's values and, unless --children, every coalition's
// forward search, and reports: what verify does whatever tables hold the values. `values_at(p)`
// gives every coalition's value at p by coalition, nullopt when the tables lack p; `longest` is
// their longest distance of any split (a draw's search horizon).
template <registry::CoalitionEntry E, typename ValuesAt>
void verify_positions(const CoalitionVerifyRequest& r, const std::string& name,
                      const std::string& source, const typename E::Game& game,
                      const std::vector<typename E::Game::Position>& positions,
                      ValuesAt&& values_at, int longest, std::uint64_t total,
                      std::chrono::steady_clock::time_point start) {
  using G = typename E::Game;
  const std::uint64_t search_bytes = r.memory_bytes / 2;
  std::optional<solver::CoalitionSearch<G>> search;
  // By raw position: the check shares nothing with the solve but the rules.
  if (!r.children) search.emplace(game, search_bytes, false);
  const std::uint32_t everyone = (1u << game.players()) - 1;
  std::uint64_t children_mismatches = 0, search_mismatches = 0, coalitions_searched = 0;
  std::uint64_t search_left_open = 0, search_left_open_by_nodes = 0;
  nlohmann::ordered_json first_mismatch;
  const auto mismatch = [&](std::uint64_t& count, nlohmann::ordered_json what) {
    if (children_mismatches + search_mismatches == 0) first_mismatch = std::move(what);
    ++count;
  };
  solver::Progress progress("verify", positions.size(), "samples", !r.position.quiet);
  for (const typename G::Position& p : positions) {
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
  j["source"] = source;
  j["samples"] = positions.size();
  j["seed"] = r.seed;
  j["method"] = search ? "children and search" : "children";
  j["positions"] = total;
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
    std::cout << positions.size() << " positions of " << name << " ("
              << j["source"].get<std::string>() << ") checked against " << against << ": "
              << mismatches << " mismatches"
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
                             std::to_string(positions.size()) + " positions fail the " +
                             first_mismatch["check"].get<std::string>() + " check, the first at " +
                             first_mismatch["fen"].get<std::string>());
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
  std::vector<typename G::Position> positions;
  positions.reserve(keys.size());
  for (const common::Key& k : keys) positions.push_back(game.from_key(k));
  verify_positions<E>(
      r, name, tablebase::coalition_table_file(r.tables, E::info.id).string(), game, positions,
      [&](const typename G::Position& p) { return tablebase::coalition_values_at(game, table, p); },
      longest, info.positions, start);
}

// The same of coalition tier tables: positions drawn uniformly from the row (by rank over its
// tiers), after every tier's file is read whole once for the counts and the longest distance.
template <registry::CoalitionEntry E>
void verify_tiers(const CoalitionVerifyRequest& r) {
  using G = typename E::Game;
  using Space = tablebase::coalition_space_t<G>;
  const auto start = std::chrono::steady_clock::now();
  const std::string name = E::normalized(r.position.variant);
  const auto setup = E::setup(name, std::nullopt);
  const G& game = *setup.game;
  const auto space = tablebase::CoalitionSpaceOf<G>::of(name);
  if (!space->load_index(r.tables))
    throw UsageError("--tables " + r.tables + " holds no coalition tier tables of " + name);
  tablebase::CoalitionTierTables<Space> tables(*space, r.tables);
  int longest = 0;
  for (const solver::CoalitionTally& t : tables.tally())
    longest = std::max({longest, t.longest_win, t.longest_loss});
  std::uint64_t total = 0;
  for (int t = 0; t < space->tier_count(); ++t) total += space->tier_size(t);
  std::vector<typename G::Position> positions;
  typename Space::Cursor cursor;
  int tier = 0;
  std::uint64_t before = 0;  // positions of the tiers before `tier`
  for (const std::uint64_t rank : sampled_ranks(total, r.samples, r.seed)) {
    while (rank >= before + space->tier_size(tier)) before += space->tier_size(tier++);
    positions.push_back(space->position(cursor, tier, rank - before));
  }
  verify_positions<E>(
      r, name, r.tables + " (coalition-tiers)", game, positions,
      [&](const typename G::Position& p) { return tables.values_at(game, p); }, longest, total,
      start);
}

// verify --digest of coalition tier tables: every finished tier's codes (coalition_tier_digest).
template <registry::CoalitionEntry E>
void digest_tiers(const CoalitionVerifyRequest& r) {
  using G = typename E::Game;
  const std::string name = E::normalized(r.position.variant);
  const auto space = tablebase::CoalitionSpaceOf<G>::of(name);
  if (!space->load_index(r.tables))
    throw UsageError("--tables " + r.tables + " holds no coalition tier tables of " + name);
  const int splits = tablebase::SplitRenaming(space->players()).count();
  const auto tier = [&](int t) {
    return tablebase::CoalitionTierName{
        r.tables, name, space->index_scheme(), t, space->tier_name(t), splits};
  };
  report_tier_digests({name, space->tier_count(), [&](int t) { return space->tier_name(t); },
                       [&](int t) { return space->tier_size(t); },
                       [&](int t) -> std::optional<std::uint64_t> {
                         const std::uint64_t codes = space->tier_size(t) * std::uint64_t(splits);
                         if (!tablebase::coalition_tier_present(tier(t), codes))
                           return std::nullopt;
                         return tablebase::coalition_tier_digest(tier(t), codes);
                       }},
                      r.tables, r.against, r.position.json, r.position.quiet);
}

}  // namespace

void run_coalition_query(const PositionOptions& o, const std::string& dir, bool variant_given) {
  with_capability<registry::TableFormat::coalitions>(o.variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (E::info.tables.has(registry::TableFormat::coalition_tiers))
      if (const auto held = tablebase::coalition_tiers_variant(dir)) {
        if (variant_given && E::normalized(o.variant) != *held)
          throw UsageError("--tables " + dir + " holds the tables of " + *held + ", not of " +
                           E::normalized(o.variant));
        return query_tiers<E>(o, dir, *held);
      }
    if constexpr (registry::CoalitionTablesEntry<E>) query_table<E>(o, dir, variant_given);
  });
}

void run_coalition_verify(const CoalitionVerifyRequest& r) {
  with_capability<registry::TableFormat::coalitions>(r.position.variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (E::info.tables.has(registry::TableFormat::coalition_tiers))
      if (tablebase::coalition_tiers_variant(r.tables))
        return r.digest ? digest_tiers<E>(r) : verify_tiers<E>(r);
    if (r.digest)
      throw UsageError("--digest: for tier tables; --tables " + r.tables +
                       " holds the keyed table");
    if constexpr (registry::CoalitionTablesEntry<E>) verify_table<E>(r);
  });
}

}  // namespace app
