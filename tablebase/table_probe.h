// Probing solved tables of any game, whatever their format, one position after another: what
// `query --batch`, the Python module and the probe library run on (the oracle, tablebase/oracle.h,
// adds the search for `serve`). A game's tables are its tier tables (Prober: every block decoded
// kept, up to a budget) or a whole variant's keyed table or loopy tier tables (game_tables.h), as
// its registry entry declares
// (rules/registry.h); either way an answer is a win/draw/loss value with its distance, and each
// move's for the side that plays it, so every front end prints the one shape of analysis_json.h.
//
// Not thread-safe (the tier prober caches without locks): one per thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "rules/registry.h"
#include "solver/wdl.h"
#include "tablebase/analysis_json.h"
#include "tablebase/game_tables.h"
#include "tablebase/keyed_tables.h"
#include "tablebase/tables_found.h"
#include "tablebase/tier_prober.h"
#include "tablebase/wdl_analysis.h"

namespace tablebase {

template <typename Move, typename Position>
struct ProbeAnswer {
  Position position;
  solver::WdlValue value;  // for the side to move
  struct MoveResult {
    Move move;
    solver::WdlValue value;  // for the side that plays it
  };
  std::vector<MoveResult> moves;  // every legal move in generation order, if asked for
};

template <typename E>
class TableProbe;

// The games whose tables a TableProbe reads: those with tier tables or tables of whole variants.
template <typename E>
struct HasTableProbe : std::bool_constant<E::info.tables.has(registry::TableFormat::tiers) ||
                                          has_whole_variant_tables<E>()> {};
using ProbedEntries = registry::EntriesWhere<HasTableProbe>;

// A tier game's tables (the Drop 16 family's, through the batch prober).
template <typename E>
requires(E::info.tables.has(registry::TableFormat::tiers)) class TableProbe<E> {
 public:
  using Entry = E;
  using G = typename E::Game;
  using Answer = ProbeAnswer<typename G::Move, typename G::Position>;

  // Throws TableError when `dir` holds no tables of the variant.
  TableProbe(const std::string& variant, const std::filesystem::path& dir,
             std::uint64_t cache_bytes = kDefaultProbeCacheBytes)
      : game_(E::setup(variant, std::nullopt).game), prober_(*game_, dir, cache_bytes) {}

  const G& game() const { return *game_; }
  std::string variant() const { return E::variant_name(*game_); }

  // Throws std::invalid_argument for a position the tables do not hold (NotCovered), TableError
  // for a damaged file.
  Answer probe(const typename G::Position& p, bool with_moves) {
    const auto a = prober_.probe(p, with_moves);
    Answer out{a.position, wdl_of_dte(a.dte), {}};
    for (const auto& m : a.moves) out.moves.push_back({m.move, wdl_of(m.outcome)});
    return out;
  }

 private:
  std::unique_ptr<G> game_;
  TierProber<tier_space_t<G>> prober_;
};

// A whole variant's tables, keyed or loopy tiers (game_tables.h): positions by canonical key.
template <typename E>
requires(has_whole_variant_tables<E>()) class TableProbe<E> {
 public:
  using Entry = E;
  using G = typename E::Game;
  using Answer = ProbeAnswer<typename G::Move, typename G::Position>;

  // `variant` names the game (the tables' own variant is read from them), or the whole variant
  // the tables must hold. Throws TableError when there are no such tables or they are damaged.
  TableProbe(const std::string& variant, const std::filesystem::path& dir, std::uint64_t = 0)
      : tables_(dir, E::root_count(variant) ? E::normalized(variant) : std::string()) {}

  const G& game() const { return tables_.game(); }
  std::string variant() const { return tables_.variant(); }

  // Throws std::invalid_argument for a position the tables do not hold.
  Answer probe(const typename G::Position& p, bool with_moves) {
    const auto probe = [&](const common::Key& k) { return tables_.probe(k); };
    Answer out{p, {}, {}};
    if (!with_moves) {
      const auto v = probe(game().canonical_key(p));
      if (!v) throw not_held();
      out.value = *v;
      return out;
    }
    const auto a = analyze_wdl(game(), p, probe);
    if (!a) throw not_held();
    out.value = a->value;
    for (const auto& m : a->moves) out.moves.push_back({m.move, m.value});
    return out;
  }

 private:
  std::invalid_argument not_held() const {
    return std::invalid_argument("this position is not among " + variant() +
                                 "'s (not reached from the positions it starts from)");
  }

  GameTablesOf<E> tables_;
};

namespace probe_detail {
template <typename List>
struct AnyOf;
template <typename... E>
struct AnyOf<registry::EntryList<E...>> {
  using type = std::variant<std::monostate, std::unique_ptr<TableProbe<E>>...>;
};
}  // namespace probe_detail

// A TableProbe of whichever game's tables a directory holds (tables_found.h).
using AnyTableProbe = typename probe_detail::AnyOf<ProbedEntries>::type;

// Throws TableError, naming `dir`, for a directory without tables, a damaged one, or tables of a
// game no TableProbe reads: refused when opened, not at the first probe.
inline AnyTableProbe open_table_probe(const std::filesystem::path& dir,
                                      std::uint64_t cache_bytes = kDefaultProbeCacheBytes) {
  AnyTableProbe any;
  const std::string variant = tables_variant_in(dir);
  registry::visit(variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (HasTableProbe<E>::value)
      any = std::make_unique<TableProbe<E>>(variant, dir, cache_bytes);
  });
  if (std::holds_alternative<std::monostate>(any))
    throw TableError(
        dir, "holds the tables of " + variant + ", which only `drop16 query --tables` reads");
  return any;
}

// f(TableProbe<E>&) for the probe held (f generic over it, returning R; TableProbe<E>::Entry is
// E).
template <typename R, typename F>
R with_probe(const AnyTableProbe& any, F&& f) {
  return std::visit(
      [&](const auto& held) -> R {
        if constexpr (std::is_same_v<std::decay_t<decltype(held)>, std::monostate>)
          throw std::logic_error("no tables open");
        else
          return f(*held);
      },
      any);
}

// The analysis object of an answer, named as E's text forms name them.
template <typename E, typename Answer>
nlohmann::ordered_json answer_json(const std::string& variant, const typename E::Game& game,
                                   const Answer& a) {
  std::vector<MoveValue> moves;
  for (const auto& m : a.moves)
    moves.push_back({registry::move_text<E>(game, a.position, m.move), m.value});
  return analysis_json(variant, E::fen(game, a.position), a.value, moves);
}

}  // namespace tablebase
