// What a game tells the front ends about itself: the vocabulary of a registry entry
// (rules/<game>/entry.h, listed in rules/registry.h). A front end (the drop16 command, its HTTP
// server, the Python module, the probe library) reads a game's names, text forms and
// capabilities from its entry and never compares a game's name: which commands, solvers, table
// formats and views apply to a game is the entry's declaration, read here as sets of enums.
//
// The capabilities name solvers and table formats but include none of their code: rules know
// nothing of solvers (DESIGN.md). The front ends bind a capability to the library that serves it
// (if constexpr on the set, so a command's code is compiled only for the games that declare it).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace registry {

// A set of enum values, usable in constant expressions (an entry's capabilities are constexpr).
template <typename Enum>
class EnumSet {
 public:
  constexpr EnumSet() = default;
  constexpr EnumSet(std::initializer_list<Enum> values) {
    for (const Enum v : values) bits_ |= bit(v);
  }
  constexpr bool has(Enum v) const { return (bits_ & bit(v)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool intersects(EnumSet other) const { return (bits_ & other.bits_) != 0; }

 private:
  static constexpr std::uint32_t bit(Enum v) { return std::uint32_t{1} << unsigned(v); }
  std::uint32_t bits_ = 0;
};

// What a position is worth, which decides the shape of every answer about it (DESIGN.md,
// "Values"): the side to move's win or loss with a distance; or a draw besides; expected points;
// or such a value for each coalition of players.
enum class ValueFamily : std::uint8_t { win_loss, win_draw_loss, points, coalition_values };
constexpr std::string_view family_name(ValueFamily f) {
  switch (f) {
    case ValueFamily::win_loss:
      return "win/loss";
    case ValueFamily::win_draw_loss:
      return "win/draw/loss";
    case ValueFamily::points:
      return "points";
    case ValueFamily::coalition_values:
      return "values per coalition";
  }
  return "?";
}

// The drop16 command's subcommands that serve a game (`games`, the listing, serves them all).
enum class Command : std::uint8_t {
  perft,
  distinct,
  moves,
  show,
  solve,
  query,
  verify,
  serve,
};
// In the order lists print them: the position's commands, the solvers', and serve, which fronts
// them, last. A game's own commands (Drop 16's prove, Royal Nardy's bearoff) are not the
// registry's: they live in the game's folder (rules/<game>/commands/) and add themselves to the
// drop16 binary.
inline constexpr std::array kCommands = {Command::perft,  Command::distinct, Command::moves,
                                         Command::show,   Command::solve,    Command::query,
                                         Command::verify, Command::serve};
// As typed on the command line.
constexpr std::string_view command_name(Command c) {
  switch (c) {
    case Command::perft:
      return "perft";
    case Command::distinct:
      return "distinct";
    case Command::moves:
      return "moves";
    case Command::show:
      return "show";
    case Command::solve:
      return "solve";
    case Command::query:
      return "query";
    case Command::verify:
      return "verify";
    case Command::serve:
      return "serve";
  }
  return "?";
}

// The solvers a front end may run on a game, each the class of game it serves.
enum class Solver : std::uint8_t {
  tiers,                 // retrograde over the tiers of a dense index space, tables on disk
  dte_search,            // forward search of an acyclic game with distances to the end
  proof_search,          // proof of one position's value (negamax or df-pn) with a certificate
  reachable_retrograde,  // everything reachable solved in memory, draws of endless play
  bounded_search,        // forward search to a depth: wins and losses, never a draw
  dice_player,           // expectimax over the rolls, with race databases at the leaves
  value_iteration,       // expected points of a small endgame with chance and cycles
  race_database,         // one- and two-sided bear-off databases
  coalition_values,      // a value per coalition of players, from one exploration
};
inline constexpr std::array kSolvers = {Solver::tiers,           Solver::dte_search,
                                        Solver::proof_search,    Solver::reachable_retrograde,
                                        Solver::bounded_search,  Solver::dice_player,
                                        Solver::value_iteration, Solver::race_database,
                                        Solver::coalition_values};
constexpr std::string_view solver_name(Solver s) {
  switch (s) {
    case Solver::tiers:
      return "tiers";
    case Solver::dte_search:
      return "dte-search";
    case Solver::proof_search:
      return "proof-search";
    case Solver::reachable_retrograde:
      return "reachable-retrograde";
    case Solver::bounded_search:
      return "bounded-search";
    case Solver::dice_player:
      return "dice-player";
    case Solver::value_iteration:
      return "value-iteration";
    case Solver::race_database:
      return "race-database";
    case Solver::coalition_values:
      return "coalition-values";
  }
  return "?";
}

// What the game's solved values are stored in (tablebase/FORMAT.md).
enum class TableFormat : std::uint8_t {
  tiers,        // one dense file per tier (and its DTEs), ranked by the game's index space
  keyed,        // one file of canonical keys and values, sorted (DIR/<game id>.wdl)
  loopy_tiers,  // a whole variant of a game with cycles, a file per tier of its loopy tier space
                // (DIR/<tier>.wdl and .reached, tablebase/LOOPY.md)
  bearoff,      // a one-sided race database file
  coalitions,   // one file of canonical keys and every coalition's value, sorted, for a variant
                // solved by coalitions from its start (DIR/<game id>.coalitions)
  coalition_tiers,  // a whole variant solved by coalitions on its coalition tier space, a file
                    // per tier and its index (tablebase/COALITION.md)
};
inline constexpr std::array kTableFormats = {
    TableFormat::tiers,   TableFormat::keyed,      TableFormat::loopy_tiers,
    TableFormat::bearoff, TableFormat::coalitions, TableFormat::coalition_tiers};
constexpr std::string_view table_format_name(TableFormat t) {
  switch (t) {
    case TableFormat::tiers:
      return "tiers";
    case TableFormat::keyed:
      return "keyed";
    case TableFormat::loopy_tiers:
      return "loopy-tiers";
    case TableFormat::bearoff:
      return "bearoff";
    case TableFormat::coalitions:
      return "coalitions";
    case TableFormat::coalition_tiers:
      return "coalition-tiers";
  }
  return "?";
}

// How a position can be seen: a text diagram (show), the explorer page of `serve`.
enum class View : std::uint8_t { diagram, page };
inline constexpr std::array kViews = {View::diagram, View::page};
constexpr std::string_view view_name(View v) {
  switch (v) {
    case View::diagram:
      return "diagram";
    case View::page:
      return "page";
  }
  return "?";
}

// How the explorer page (web/app.js) draws a game that has the page view: the position's JSON
// carries it as "drawing", and the page picks its drawing by that kind, never by the game's name,
// so a game drawn like another declares the same kind and needs nothing new in the page.
enum class PageDrawing : std::uint8_t {
  none,              // no page view
  pieces_and_hands,  // chess figures on a chequered board (first side upper case), and the hands
                     // of pieces beside it when the JSON has "hands" (drops written "N@c3")
  lettered_discs,    // discs in the sides' colours, each with its piece's letter (first side upper)
  points_and_dice,   // a race over numbered points with dice: the moves' JSON of a dice game
  corner_checkers,   // checkers on a grid whose corners are the players' (men lower case, kings
                     // upper case), a colour per player, captures written start:landing:landing
};
inline constexpr std::array kPageDrawings = {
    PageDrawing::pieces_and_hands, PageDrawing::lettered_discs, PageDrawing::points_and_dice,
    PageDrawing::corner_checkers};
// As the position's JSON and the page name it: "pieces_and_hands".
constexpr std::string_view drawing_name(PageDrawing d) {
  switch (d) {
    case PageDrawing::none:
      return "none";
    case PageDrawing::pieces_and_hands:
      return "pieces_and_hands";
    case PageDrawing::lettered_discs:
      return "lettered_discs";
    case PageDrawing::points_and_dice:
      return "points_and_dice";
    case PageDrawing::corner_checkers:
      return "corner_checkers";
  }
  return "?";
}

// Everything about a game that is not its rules: what the listing prints and what the front ends
// read to decide what applies.
struct GameInfo {
  std::string_view id;        // the game's own name, its tables' game name ("spock")
  std::string_view title;     // for people ("Spock")
  std::string_view variants;  // the --variant syntax accepted, for help and errors
  std::string_view example;   // a variant that runs fast, for the listing
  std::string_view about;     // one line: the game and its rules file
  ValueFamily family;
  EnumSet<Command> commands;
  EnumSet<Solver> solvers;
  EnumSet<TableFormat> tables;
  EnumSet<View> views;
  // With View::page: how the page draws it (none without the page view).
  PageDrawing drawing = PageDrawing::none;
  // Keyed tables hold everything reachable from a whole variant: which variants are whole, for
  // the message that refuses another ("a ladder row (--variant spock:WxH:BLUE/red)").
  std::string_view whole_variants = {};
  bool dice = false;  // positions where chance decides (a roll), written with --roll

  constexpr bool has(Command c) const { return commands.has(c); }
  constexpr bool has(Solver s) const { return solvers.has(s); }
  constexpr bool has(TableFormat t) const { return tables.has(t); }
  constexpr bool has(View v) const { return views.has(v); }
};

// What a two-player game whose play can cycle, endless play a draw, gets from the solvers of its
// class (the reachable retrograde in memory, the bounded search) and the commands over them: Spock
// and the rook race declare it, with the format of their whole variants' tables.
inline constexpr EnumSet<Command> kCyclicGameCommands = {
    Command::perft, Command::distinct, Command::moves,  Command::show,
    Command::solve, Command::query,    Command::verify, Command::serve};
inline constexpr EnumSet<Solver> kCyclicGameSolvers = {Solver::reachable_retrograde,
                                                       Solver::bounded_search};

// "a, b and c": names for a sentence.
template <typename Names>
std::string joined_with_and(const Names& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + std::string(names[i]);
  return out;
}

// "perft, distinct, moves, ... and serve": the registry's commands the game supports, in kCommands
// order (the drop16 binary adds the game's own: app::commands_of).
inline std::string supported_commands(const GameInfo& g) {
  std::vector<std::string_view> names;
  for (const Command c : kCommands)
    if (g.commands.has(c)) names.push_back(command_name(c));
  return joined_with_and(names);
}

// A game built from a variant, and a position of it. The game is on the heap so that what keeps
// a reference to it (a solver, a table reader) stays valid when the setup moves.
template <typename G>
struct GameSetup {
  std::unique_ptr<G> game;
  typename G::Position position;
};

}  // namespace registry
