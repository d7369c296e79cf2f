// The games, one registry line each: the one place that maps a variant's name to a game. The
// command line, the HTTP server, the Python module and the probe library dispatch through it, and
// nothing else compares a game's name (DESIGN.md, "Several games").
//
// A game's entry (rules/<game>/entry.h) is a struct of static members, checked by GameEntry below:
//   Game                      the rules (solver/game_concept.h)
//   info                      registry::GameInfo: names, variant syntax, value family and
//                             capabilities (rules/game_entry.h)
//   claims(text)              whether the text names this game at all, well formed or not (so
//                             that its own parser names the fault)
//   normalized(variant)       the variant's name as answers print it; ParseError if malformed
//   setup(variant, fen)       the game and the FEN's position (default: the variant's start)
//   variant_name(game)        the name of the game's own variant (what perft and moves print)
//   fen, parse_fen, move_text, parse_move, diagram   the text forms (parse_fen reads a position
//                             of the given game, ParseError for one of another board;
//                             move_text(game, m), or move_text(game, p, m) for a game whose move's
//                             text depends on the position it is played from: front ends call
//                             registry::move_text, which passes p to the entries that take it)
// and, by capability:
//   View::page                info.drawing (how the page draws it), kPlayers (the sides' names,
//                             by index, as the position's JSON names the side to move),
//                             position_json(game, p) (board, hands, side to move as the page
//                             draws them) and start_fen(variant) (where the page opens); a dice
//                             game's page draws what its moves answer (the dice members below)
//   TableFormat::keyed        kKeyFormat (the version of its key packing) and the whole variants'
//                             members: has_start, root_count, whole_game and roots (a whole
//                             variant's game and the positions it starts from: everything
//                             reachable from them is what its tables hold)
//   TableFormat::loopy_tiers  the whole variants' members, and a loopy tier space of its whole
//                             variants beside the game's solve code (tablebase::LoopySpaceOf,
//                             tablebase/loopy_tier_space.h), which the front ends name through
//                             tablebase/game_tables.h
//   dice                      chance_text, parse_chance, rolled (the roll of a position),
//                             with_roll and kPlayers (player names, by index)
//   Solver::coalition_values  kPlayers (player names, by index: a coalition's, a winner's) and
//                             a game that names its players (solver::NamesPlayers)
//   TableFormat::coalitions   kKeyFormat (the version of its key packing): a variant's table holds
//                             everything reachable from its start (setup without a FEN)
//   optionally                end_text(game, p): what a finished position's result is, for the
//                             commands that list its moves (default: the side to move has lost)
//
// Adding a game: rules/ADDING-A-GAME.md.
#pragma once

#include <array>
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "rules/common/parse_error.h"
#include "rules/dobutsu/entry.h"
#include "rules/drop/entry.h"
#include "rules/game_entry.h"
#include "rules/nardy/entry.h"
#include "rules/nevsky/entry.h"
#include "rules/rookrace/entry.h"
#include "rules/spock/entry.h"
#include "rules/teeko/entry.h"

namespace registry {

template <typename... E>
struct EntryList {};

// The games, in the order they are listed; the first one's variant "drop16" is the default.
using Entries = EntryList<drop::Entry, spock::Entry, rookrace::Entry, nardy::Entry, nevsky::Entry,
                          teeko::Entry, dobutsu::Entry>;

template <typename E>
concept GameEntry = requires(std::string_view text, const std::optional<std::string>& fen,
                             const typename E::Game& g, const typename E::Game::Position& p,
                             const typename E::Game::Move& m) {
  { E::info } -> std::convertible_to<GameInfo>;
  { E::claims(text) } -> std::same_as<bool>;
  { E::normalized(text) } -> std::same_as<std::string>;
  { E::setup(text, fen) } -> std::same_as<GameSetup<typename E::Game>>;
  { E::variant_name(g) } -> std::same_as<std::string>;
  { E::fen(g, p) } -> std::same_as<std::string>;
  { E::parse_fen(g, text) } -> std::same_as<typename E::Game::Position>;
  requires(
      requires {
        { E::move_text(g, m) } -> std::same_as<std::string>;
      } ||
      requires {
        { E::move_text(g, p, m) } -> std::same_as<std::string>;
      });
  { E::parse_move(g, p, text) } -> std::same_as<typename E::Game::Move>;
  { E::diagram(g, p) } -> std::same_as<std::string>;
};

// The text of move m of position p, by whichever move_text the entry has.
template <typename E>
std::string move_text(const typename E::Game& g, const typename E::Game::Position& p,
                      const typename E::Game::Move& m) {
  if constexpr (requires { E::move_text(g, p, m); })
    return E::move_text(g, p, m);
  else
    return E::move_text(g, m);
}

// What the page view asks of a game.
template <typename E>
concept PageEntry = GameEntry<E> && requires(std::string_view text, const typename E::Game& g,
                                             const typename E::Game::Position& p) {
  {E::position_json(g, p)};
  { E::start_fen(text) } -> std::same_as<std::string>;
  { E::kPlayers.size() } -> std::convertible_to<std::size_t>;
};

// What tables of whole variants ask of a game: which variants are whole (everything reachable
// from the positions they start from), their game and those positions.
template <typename E>
concept WholeVariantEntry = GameEntry<E> && requires(std::string_view text) {
  { E::has_start(text) } -> std::same_as<bool>;
  { E::root_count(text) } -> std::same_as<std::optional<std::uint64_t>>;
  { E::whole_game(text) } -> std::same_as<std::unique_ptr<typename E::Game>>;
  { E::roots(text) } -> std::same_as<std::vector<typename E::Game::Position>>;
};

// What keyed tables ask of a game: keys of 128 bits, and whole variants.
template <typename E>
concept KeyedEntry = WholeVariantEntry<E> && requires {
  { E::kKeyFormat } -> std::convertible_to<std::uint32_t>;
};

// What a dice game's commands ask of it.
template <typename E>
concept DiceEntry = GameEntry<E> &&
    requires(std::string_view text, const typename E::Game::Position& p) {
  { E::chance_text(*E::rolled(p)) } -> std::same_as<std::string>;
  { E::with_roll(p, E::parse_chance(text)) } -> std::same_as<typename E::Game::Position>;
  { E::kPlayers.size() } -> std::convertible_to<std::size_t>;
};

// What the coalition solver's front ends ask of a game: its players' names, and a game that
// says how many players there are and whose turn it is.
template <typename E>
concept CoalitionEntry = GameEntry<E> &&
    requires(const typename E::Game& g, const typename E::Game::Position& p) {
  { E::kPlayers.size() } -> std::convertible_to<std::size_t>;
  { g.players() } -> std::convertible_to<int>;
  { g.player_to_move(p) } -> std::convertible_to<int>;
};

// What coalition tables ask of a game: solved by coalitions, keys of 128 bits.
template <typename E>
concept CoalitionTablesEntry = CoalitionEntry<E> && requires {
  { E::kKeyFormat } -> std::convertible_to<std::uint32_t>;
};

namespace detail {

template <typename E>
constexpr bool declares_what_it_has() {
  static_assert(GameEntry<E>, "a registry entry lacks a member rules/registry.h asks for");
  static_assert(!E::info.views.has(View::page) || PageEntry<E> || (E::info.dice && DiceEntry<E>),
                "a game with the page view needs position_json and start_fen (a dice game's page "
                "draws its moves' JSON instead)");
  static_assert(E::info.views.has(View::page) == (E::info.drawing != PageDrawing::none),
                "a game with the page view declares how the page draws it (info.drawing), and "
                "only such a game");
  static_assert(!E::info.tables.has(TableFormat::keyed) || KeyedEntry<E>,
                "a game with keyed tables needs kKeyFormat, has_start, root_count, whole_game and "
                "roots");
  static_assert(!E::info.tables.has(TableFormat::loopy_tiers) || WholeVariantEntry<E>,
                "a game with loopy tier tables needs has_start, root_count, whole_game and roots");
  static_assert(!E::info.dice || DiceEntry<E>,
                "a dice game needs chance_text, parse_chance, rolled, with_roll and kPlayers");
  static_assert(!E::info.solvers.has(Solver::coalition_values) || CoalitionEntry<E>,
                "a game solved by coalitions needs kPlayers and a game that names its players");
  static_assert(!E::info.tables.has(TableFormat::coalitions) ||
                    (CoalitionTablesEntry<E> && E::info.solvers.has(Solver::coalition_values)),
                "a game with coalition tables is solved by coalitions and needs kKeyFormat");
  return true;
}

template <typename... E>
constexpr std::array<GameInfo, sizeof...(E)> infos(EntryList<E...>) {
  static_assert((declares_what_it_has<E>() && ...));
  return {E::info...};
}

template <typename F, typename E, typename... Rest>
decltype(auto) visit_claiming(std::string_view variant, F& f, EntryList<E, Rest...>) {
  if constexpr (sizeof...(Rest) == 0) {
    return f(E{});
  } else {
    if (E::claims(variant)) return f(E{});
    return visit_claiming(variant, f, EntryList<Rest...>{});
  }
}

template <typename F, typename... E>
void for_each(F&& f, EntryList<E...>) {
  (f(E{}), ...);
}

template <typename A, typename B>
struct Concat;
template <typename... A, typename... B>
struct Concat<EntryList<A...>, EntryList<B...>> {
  using type = EntryList<A..., B...>;
};

template <template <typename> class Keep, typename List>
struct FilterOf;
template <template <typename> class Keep>
struct FilterOf<Keep, EntryList<>> {
  using type = EntryList<>;
};
template <template <typename> class Keep, typename E, typename... Rest>
struct FilterOf<Keep, EntryList<E, Rest...>> {
  using rest = typename FilterOf<Keep, EntryList<Rest...>>::type;
  using type = std::conditional_t<Keep<E>::value, typename Concat<EntryList<E>, rest>::type, rest>;
};

}  // namespace detail

// The entries for which Keep<E>::value holds, in registry order: for a holder of one of several
// games' objects (a std::variant over them) that only some games can have.
template <template <typename> class Keep>
using EntriesWhere = typename detail::FilterOf<Keep, Entries>::type;

// Every game's info, in registry order.
inline constexpr auto kGames = detail::infos(Entries{});

// "drop16": the default variant of the commands, the first game's.
inline std::string default_variant() {
  return std::string(kGames.front().id);
}

// "drop16, WxH:HAND, WxH:WHITE/black; spock, spock:WxH:BLUE/red; ...": every game's syntax.
inline std::string accepted_variants() {
  std::string out;
  for (const GameInfo& g : kGames) out += (out.empty() ? "" : "; ") + std::string(g.variants);
  return out;
}

// The info of the game the variant names; ParseError for text no game claims.
const GameInfo& info_of(std::string_view variant);

// Calls f(E{}) with the entry of the game the variant names and returns what it returns (the same
// type for every entry). Throws ParseError for text no game claims, naming what is accepted. The
// variant itself is not parsed here: E's setup and normalized do that, naming the fault.
template <typename F>
decltype(auto) visit(std::string_view variant, F&& f) {
  bool claimed = false;
  detail::for_each([&](auto e) { claimed = claimed || decltype(e)::claims(variant); }, Entries{});
  if (!claimed)
    throw common::ParseError("variant '" + std::string(variant) + "' names no game; accepted: " +
                             accepted_variants() + " (drop16 games lists them)");
  return detail::visit_claiming(variant, f, Entries{});
}

// Calls f(E{}) for every entry, in registry order.
template <typename F>
void for_each_entry(F&& f) {
  detail::for_each(f, Entries{});
}

// "Drop 16, Spock and the rook race", or "Drop 16 only": the games that declare the command.
inline std::string games_serving(Command c) {
  std::vector<std::string_view> titles;
  for (const GameInfo& g : kGames)
    if (g.commands.has(c)) titles.push_back(g.title);
  return joined_with_and(titles) + (titles.size() == 1 ? " only" : "");
}

// Why a command refuses the game a variant names, and what would be accepted: "prove serves
// Drop 16 only; Spock (--variant spock) has perft, distinct, moves, show, solve, query, verify
// and serve". `option` is how the caller's users name a variant ("--variant", "variant").
inline std::string refusal(Command c, const GameInfo& game, std::string_view variant,
                           std::string_view option = "--variant") {
  return std::string(command_name(c)) + " serves " + games_serving(c) + "; " +
         std::string(game.title) + " (" + std::string(option) + " " + std::string(variant) +
         ") has " + supported_commands(game);
}

inline const GameInfo& info_of(std::string_view variant) {
  return visit(variant, [](auto e) -> const GameInfo& { return decltype(e)::info; });
}

}  // namespace registry
