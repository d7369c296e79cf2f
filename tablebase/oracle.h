// The oracle: what is known of a position of any registry game whose values are wins, draws and
// losses (the win/loss and win/draw/loss families), within a deadline, for `serve` (and any
// front end that must answer now rather than exactly). Tables first: the tier tables, or a whole
// variant's keyed table or loopy tier tables, opened from a directory (tables_found.h), when they
// are of the position's game and hold it. Then a forward search: the DTE forward solver for acyclic
// games (solver/forward_solver.h, which probes the tier tables at its leaves), the bounded search
// for games with cycles (solver/cyclic_search.h, which proves wins and losses, never a draw). What
// neither finds in time is unknown, never guessed. The principal line plays the values out.
//
// At most `searches` searches run at once (solver/search_slots.h), each slot keeping its solver
// for the game it last searched, so that a game played on reuses the work; a request that finds
// no slot free within its deadline gets "busy" for what it would have searched, and requests the
// tables answer never wait for a slot. Which search and tables serve a game is the game's
// registry entry's capabilities (rules/registry.h), bound to the solvers here by type.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "rules/registry.h"
#include "solver/cyclic_retrograde.h"
#include "solver/cyclic_search.h"
#include "solver/forward_solver.h"
#include "solver/search_slots.h"
#include "solver/wdl.h"
#include "tablebase/analysis_json.h"
#include "tablebase/game_tables.h"
#include "tablebase/keyed_tables.h"
#include "tablebase/row_solves.h"
#include "tablebase/tablebase.h"
#include "tablebase/tables_found.h"
#include "tablebase/wdl_analysis.h"
#include "tablebase/whole_variant_tables.h"

namespace tablebase {

using OracleClock = std::chrono::steady_clock;

// How long a request may search: until the deadline, or until `stop_requested` (asked with the
// clock; may be empty) says to stop, as a server's does when the request's client has gone.
struct SearchLimit {
  OracleClock::time_point deadline;
  std::function<bool()> stop_requested;
};

// What is known of one position: each move's value for the side that plays it, where known, and
// where the knowledge came from.
template <typename Move>
struct Evaluation {
  struct MoveResult {
    Move move;
    std::optional<solver::WdlValue> value;  // for the mover
  };
  std::vector<MoveResult> moves;
  // "tables", "solved" (a row solved here, row_solves.h), "search", "none" (nothing found in time)
  // or "busy" (no search slot was free in time)
  std::string source;
  std::string unsolved;  // why a row solve did not answer, when one was asked and could not
  // The position's value where a search decided it without every move's: a bounded search
  // deepens every move together, so the first win it finds is the quickest there is.
  std::optional<solver::WdlValue> decided;

  bool complete() const {
    for (const auto& m : moves)
      if (!m.value) return false;
    return true;
  }
  // The position's value when every move is known: its best move's (the quickest win, else a
  // draw, else the slowest loss; a position without moves is a loss in 0); else as a search
  // decided it, if it did.
  std::optional<solver::WdlValue> value() const {
    if (!complete()) return decided;
    solver::WdlValue best{solver::Wdl::loss, 0};
    for (std::size_t i = 0; i < moves.size(); ++i)
      if (i == 0 || better(*moves[i].value, best)) best = *moves[i].value;
    return best;
  }
  // "win", "draw", "loss" or "unknown": one known winning move proves a win even when others are
  // unknown.
  std::string value_name() const {
    if (const auto v = value()) return std::string(solver::wdl_name(v->wdl));
    for (const auto& m : moves)
      if (m.value && m.value->wdl == solver::Wdl::win) return "win";
    return "unknown";
  }

  static bool better(solver::WdlValue a, solver::WdlValue b) {
    if (a.wdl != b.wdl) return a.wdl > b.wdl;
    if (a.wdl == solver::Wdl::win) return a.distance < b.distance;
    return a.wdl == solver::Wdl::loss && a.distance > b.distance;
  }
};

// Perfect play from a position as far as values are known (Oracle::line).
template <typename Position, typename Move>
struct Line {
  std::optional<solver::WdlValue> value;  // of the first position
  std::vector<Move> moves;
  std::vector<Position> positions;  // after each move
  bool complete = false;            // played to the end
  std::string reason;               // why an incomplete line stopped
  std::string source;               // the first position's evaluation's
};

// --- tables of one game ---

// A game's tier tables (the Drop 16 family's tier space), of one variant.
template <typename E>
class TierTables {
 public:
  using G = typename E::Game;
  using Space = tier_space_t<G>;

  TierTables(const std::string& variant, const std::filesystem::path& dir)
      : game_(E::setup(variant, std::nullopt).game),
        // Endgame tables (solve --max-pieces) cover positions of few pieces; the search, which
        // probes them at its leaves, answers the rest.
        space_(*game_, true, tables_max_pieces(dir)),
        tables_(space_, dir) {}

  std::string variant() const { return E::variant_name(*game_); }
  std::string start_fen() const { return E::fen(*game_, game_->start()); }
  bool holds_game(const G& g) const { return g == *game_; }

  // Every move's value, if the tables hold p and its children (a tier may be missing, or p beyond
  // endgame tables).
  std::optional<std::vector<solver::WdlValue>> move_values(const typename G::Position& p) {
    try {
      std::vector<solver::WdlValue> values;
      for (const auto& m : tables_.analyze(p).moves) values.push_back(wdl_of(m.outcome));
      return values;
    } catch (const TableError&) {  // a tier is missing
    } catch (const NotCovered&) {  // beyond endgame tables
    }
    return std::nullopt;
  }
  // p's DTE where the tables hold it, for a search's leaves.
  std::optional<int> dte(const typename G::Position& p) {
    if (!tables_.covers(p)) return std::nullopt;  // beyond endgame tables: search it
    try {
      return tables_.dte(p);
    } catch (const TableError&) {  // a tier not on disk: search it
    }
    return std::nullopt;
  }

 private:
  std::unique_ptr<G> game_;
  Space space_;
  Tablebase<Space> tables_;
};

namespace oracle_detail {

template <typename E>
struct NoTables {};

template <typename E>
using TablesOf = std::conditional_t<
    E::info.tables.has(registry::TableFormat::tiers), TierTables<E>,
    std::conditional_t<has_whole_variant_tables<E>(), WholeVariantTables<E>, NoTables<E>>>;

template <typename List>
struct AnyTablesOf;
template <typename... E>
struct AnyTablesOf<registry::EntryList<E...>> {
  using type = std::variant<std::monostate, std::unique_ptr<TablesOf<E>>...>;
};

// Called by the forward solver before it expands a position: stops the search at its limit
// (checked every 1024 calls) and answers from the tables where they hold the position.
class SearchStopped : public std::runtime_error {
 public:
  SearchStopped() : std::runtime_error("search limit reached") {}
};

template <typename E>
struct SearchProbe {
  struct State {
    const SearchLimit* limit = nullptr;  // the request's, while it searches
    std::uint32_t calls = 0;
    TierTables<E>* tables = nullptr;  // only when they are of the searched game
  };
  State* state;

  std::optional<int> operator()(const typename E::Game::Position& p) const {
    if ((++state->calls & 1023) == 0 &&
        (OracleClock::now() > state->limit->deadline ||
         (state->limit->stop_requested && state->limit->stop_requested())))
      throw SearchStopped();
    return state->tables ? state->tables->dte(p) : std::nullopt;
  }
};

// One slot's search of game E, kept for the game it last searched.
template <typename E>
struct KeptSearch {};

template <typename E>
requires(E::info.solvers.has(registry::Solver::dte_search)) struct KeptSearch<E> {
  using Search = solver::ForwardSolver<typename E::Game, SearchProbe<E>>;
  std::shared_ptr<const typename E::Game> game;
  typename SearchProbe<E>::State probe_state;
  std::unique_ptr<Search> search;
};

template <typename E>
requires(E::info.solvers.has(registry::Solver::bounded_search)) struct KeptSearch<E> {
  std::shared_ptr<const typename E::Game> game;
  std::unique_ptr<solver::CyclicSearch<typename E::Game>> search;
};

template <typename List>
struct SlotOf;
template <typename... E>
struct SlotOf<registry::EntryList<E...>> {
  using type = std::tuple<KeptSearch<E>...>;
};

}  // namespace oracle_detail

struct OracleOptions {
  int searches = 1;                // at most this many searches at once
  std::uint64_t memory_bytes = 0;  // the searches' tables together
  RowSolveLimits rows;             // the rows solved for positions no tables given hold
};

class Oracle {
 public:
  using Slot = typename oracle_detail::SlotOf<registry::Entries>::type;
  using Slots = solver::SearchSlots<Slot>;

  // A request's search slot: taken at its first search and kept to its end (a principal line
  // searches ply after ply with the same solver), or refused once for the whole request.
  struct Claim {
    std::optional<Slots::Lease> lease;
    bool refused = false;
  };

  // Opens the tables in `dir` (none if empty); throws TableError for a directory without tables
  // or a damaged table, and std::invalid_argument when the searches cannot have 1 MB each. As
  // many requests may wait for a slot as there are slots, each for one search at most.
  Oracle(const std::filesystem::path& dir, OracleOptions o)
      : options_(o), slots_(std::size_t(o.searches), std::size_t(o.searches)), rows_(o.rows) {
    if (o.memory_bytes < std::uint64_t(o.searches) << 20)
      throw std::invalid_argument("cannot give each of " + std::to_string(o.searches) +
                                  " searches 1 MB");
    if (dir.empty()) return;
    const std::string variant = tables_variant_in(dir);
    registry::visit(variant, [&](auto e) {
      using E = decltype(e);
      if constexpr (E::info.tables.has(registry::TableFormat::tiers))
        tables_ = std::make_unique<TierTables<E>>(variant, dir);
      else if constexpr (has_whole_variant_tables<E>())
        tables_ = std::make_unique<WholeVariantTables<E>>(dir);
    });
  }

  // The variant the tables are of; empty without tables.
  std::string tables_variant() const {
    return of_tables([](const auto& t) { return t.variant(); });
  }
  // Where the tables' variant opens (its start, a row's pieces on the back ranks); empty without.
  std::string tables_start_fen() const {
    return of_tables([](const auto& t) { return t.start_fen(); });
  }
  const Slots& slots() const { return slots_; }

  // Everything known about p (a position of `game`, of whole variant `variant` as the entry
  // names it) within the request's limit: from the tables given, else from the
  // row solved here (row_solves.h), else by search.
  template <typename E>
  Evaluation<typename E::Game::Move> evaluate(const std::string& variant,
                                              const std::shared_ptr<const typename E::Game>& game,
                                              const typename E::Game::Position& p,
                                              const SearchLimit& limit, Claim& claim) {
    Evaluation<typename E::Game::Move> e;
    typename E::Game::MoveList moves;
    game->generate(p, moves);
    for (int i = 0; i < moves.size(); ++i) e.moves.push_back({moves[i], std::nullopt});
    const auto answer = [&](auto& tables, const char* source) {
      const auto values = tables.move_values(p);
      if (!values) return false;
      for (std::size_t i = 0; i < values->size(); ++i) e.moves[i].value = (*values)[i];
      e.source = source;
      return true;
    };
    if (auto* t = tables_for<E>(*game); t && answer(*t, "tables")) return e;
    if constexpr (E::info.tables.has(registry::TableFormat::loopy_tiers)) {
      const auto row = rows_.tables<E>(variant, e.unsolved);
      if (row && row->holds_game(*game) && answer(*row, "solved")) return e;
    }
    e.source = e.moves.empty() ? "search" : search_children<E>(game, p, limit, claim, e);
    return e;
  }

  // Perfect play from p: the winner takes the quickest win, the loser the slowest loss, a side
  // that can only draw a drawing move, the first such move in generation order on ties (so the
  // line is the same on every request). A won or lost line runs to the end (complete); one stops
  // with a reason where values are no longer known ("unknown"), or, in a draw, at a repetition
  // ("repetition") or after max_drawn_plies ("ply limit").
  template <typename E>
  Line<typename E::Game::Position, typename E::Game::Move> line(
      const std::string& variant, const std::shared_ptr<const typename E::Game>& game,
      typename E::Game::Position p, const SearchLimit& limit, int max_drawn_plies) {
    Claim claim;
    Line<typename E::Game::Position, typename E::Game::Move> out;
    out.reason = "unknown";
    std::set<std::string> seen = {E::fen(*game, p)};
    for (int ply = 0; ply <= 255; ++ply) {
      const auto e = evaluate<E>(variant, game, p, limit, claim);
      if (ply == 0) out.source = e.source;
      const auto value = e.value();
      if (!value) break;
      if (ply == 0) out.value = value;
      if (e.moves.empty()) {
        out.complete = true;
        break;
      }
      if (value->wdl == solver::Wdl::draw && ply == max_drawn_plies) {
        out.reason = "ply limit";
        break;
      }
      const auto best = std::find_if(e.moves.begin(), e.moves.end(),
                                     [&](const auto& m) { return *m.value == *value; });
      out.moves.push_back(best->move);  // there is one: the value is a move's
      game->make(p, best->move);
      out.positions.push_back(p);
      if (!seen.insert(E::fen(*game, p)).second) {
        out.reason = "repetition";
        break;
      }
    }
    if (out.complete) out.reason.clear();
    return out;
  }

 private:
  // text(tables) of the tables held, whatever their game; empty without tables.
  template <typename Text>
  std::string of_tables(Text&& text) const {
    return std::visit(
        [&](const auto& t) -> std::string {
          if constexpr (requires { t->variant(); })  // tables, not monostate nor NoTables
            return text(*t);
          else
            return {};
        },
        tables_);
  }

  // The tables when they are of this game's rules.
  template <typename E>
  oracle_detail::TablesOf<E>* tables_for(const typename E::Game& game) const {
    if constexpr (std::is_same_v<oracle_detail::TablesOf<E>, oracle_detail::NoTables<E>>) {
      return nullptr;
    } else {
      const auto* held = std::get_if<std::unique_ptr<oracle_detail::TablesOf<E>>>(&tables_);
      return held && (*held)->holds_game(game) ? held->get() : nullptr;
    }
  }

  // The search a leased slot keeps for E's games, made afresh by `make` (given the slot's
  // KeptSearch with its game set) when the slot holds none or one for another game; null when
  // no slot is free before the deadline.
  template <typename E, typename Make>
  oracle_detail::KeptSearch<E>* kept_search(Claim& claim, const SearchLimit& limit,
                                            const std::shared_ptr<const typename E::Game>& game,
                                            Make make) {
    Slot* slot = lease(claim, limit.deadline);
    if (!slot) return nullptr;
    auto& kept = std::get<oracle_detail::KeptSearch<E>>(*slot);
    if (!kept.search || !(*kept.game == *game)) {
      kept.search.reset();
      kept.game = game;
      make(kept);
    }
    return &kept;
  }

  // Fills what the game's search finds within the limit; the evaluation's source.
  template <typename E>
  std::string search_children(const std::shared_ptr<const typename E::Game>& game,
                              const typename E::Game::Position& p, const SearchLimit& limit,
                              Claim& claim, Evaluation<typename E::Game::Move>& e) {
    using G = typename E::Game;
    if constexpr (E::info.solvers.has(registry::Solver::dte_search)) {
      if (!game->keys_fit()) return "none";
      auto* held = kept_search<E>(claim, limit, game, [&](auto& kept) {
        kept.probe_state.tables = tables_for<E>(*game);
        kept.search = std::make_unique<typename oracle_detail::KeptSearch<E>::Search>(
            *game, slot_memory(), oracle_detail::SearchProbe<E>{&kept.probe_state});
      });
      if (!held) return "busy";
      auto& kept = *held;
      kept.probe_state.limit = &limit;
      bool found = false;
      for (auto& m : e.moves) {
        typename G::Position child = p;
        game->make(child, m.move);
        try {
          m.value = wdl_of(solver::move_outcome(kept.search->dte(child)));
          found = true;
        } catch (const oracle_detail::SearchStopped&) {
          break;
        } catch (const solver::SearchMemoryError&) {
          kept.search.reset();  // frees its table; the next search in this slot starts afresh
          break;
        }
      }
      kept.probe_state.limit = nullptr;  // the request's, which ends here
      return found ? "search" : "none";
    } else if constexpr (E::info.solvers.has(registry::Solver::bounded_search)) {
      if (!game->keys_fit()) return "none";
      auto* held = kept_search<E>(claim, limit, game, [&](auto& kept) {
        kept.search = std::make_unique<solver::CyclicSearch<G>>(*kept.game, slot_memory());
      });
      if (!held) return "busy";
      auto& kept = *held;
      const double seconds =
          std::chrono::duration<double>(limit.deadline - OracleClock::now()).count();
      if (seconds <= 0) return "none";
      const auto a =
          kept.search->analyze(p, {solver::kCyclicSearchMaxDepth, seconds, limit.stop_requested});
      if (a.stop == solver::SearchStop::memory) kept.search.reset();
      e.decided = a.value;
      bool found = false;
      for (std::size_t i = 0; i < a.moves.size(); ++i)
        if (a.moves[i].value) {
          e.moves[i].value = a.moves[i].value;
          found = true;
        }
      return found ? "search" : "none";
    } else {
      return "none";  // a game without a search: the tables alone answer
    }
  }

  // The request's search slot, taken at its first search; null when none came free in time.
  Slot* lease(Claim& claim, OracleClock::time_point deadline) {
    if (!claim.lease && !claim.refused) {
      claim.lease = slots_.acquire(deadline);
      claim.refused = !claim.lease;
    }
    return claim.refused ? nullptr : &**claim.lease;
  }
  // The memory cap bounds all searches together: each slot's table gets its share.
  std::uint64_t slot_memory() const { return options_.memory_bytes / slots_.size(); }

  OracleOptions options_;
  typename oracle_detail::AnyTablesOf<registry::Entries>::type tables_;
  Slots slots_;
  RowSolves rows_;
};

}  // namespace tablebase
