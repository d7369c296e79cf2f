// drop16py: the libraries from Python, for querying at scale without a process per position. Only
// converts text and answers: the names are rules/game_by_name.h's, the counting solver/perft.h's,
// the probing tablebase::Prober's (Drop 16 tiers) and tablebase::WdlTable's (a Spock row).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "app/spock_tables.h"
#include "rules/game_by_name.h"
#include "solver/outcome.h"
#include "solver/perft.h"
#include "solver/wdl.h"
#include "tablebase/prober.h"
#include "tablebase/tier_files.h"
#include "tablebase/wdl_analysis.h"

namespace py = pybind11;

namespace {

constexpr int kMaxPerftDepth = 64;  // as `drop16 perft --depth`

std::uint64_t perft(const std::string& variant, const std::optional<std::string>& fen, int depth) {
  if (depth < 0 || depth > kMaxPerftDepth)
    throw std::invalid_argument("depth " + std::to_string(depth) + " is not in 0.." +
                                std::to_string(kMaxPerftDepth));
  std::uint64_t nodes = 0;
  games::with_game(variant, fen, [&](auto& s) {
    py::gil_scoped_release unlocked;  // a long count need not stop other Python threads
    nodes = solver::perft(*s.game, s.position, depth);
  });
  return nodes;
}

std::vector<std::string> moves(const std::string& variant, const std::optional<std::string>& fen) {
  std::vector<std::string> names;
  games::with_game(variant, fen, [&](auto& s) {
    typename std::remove_reference_t<decltype(*s.game)>::MoveList list;
    s.game->generate(s.position, list);
    for (int i = 0; i < list.size(); ++i) names.push_back(games::move_text(*s.game, list[i]));
  });
  return names;
}

// The value and DTE of query --json: a Drop 16 DTE (solver/outcome.h) or a Spock WdlValue, whose
// draw has no distance (the game never ends).
void put_value(py::dict& d, bool win, int dte) {
  d["value"] = win ? "win" : "loss";
  d["dte"] = dte;
}
void put_value(py::dict& d, solver::WdlValue v) {
  d["value"] = std::string(solver::wdl_name(v.wdl));
  d["dte"] = v.wdl == solver::Wdl::draw ? py::object(py::none()) : py::object(py::int_(v.distance));
}

// Drop 16 tier tables: the game outlives the prober, which keeps a reference to it.
struct DropTables {
  drop::Game game;
  tablebase::Prober prober;
  explicit DropTables(const std::string& dir)
      : game(drop::parse_variant(tablebase::tables_variant(dir))), prober(game, dir) {}

  std::string variant() const { return game.variant().name(); }
  py::dict answer(const std::string& fen, bool with_moves) {
    const tablebase::Prober::Answer a = prober.probe_fen(fen, with_moves);
    py::dict d;
    d["variant"] = variant();
    d["fen"] = games::fen_text(game, a.position);
    put_value(d, solver::is_win(a.dte), a.dte);
    if (!with_moves) return d;
    py::list list;
    for (const auto& m : a.moves) {
      py::dict move;
      move["move"] = games::move_text(game, m.move);
      put_value(move, m.outcome.win, m.outcome.dte);
      list.append(move);
    }
    d["moves"] = list;
    return d;
  }
};

// A solved Spock ladder row, DIR/spock.wdl: positions of the row's board, by canonical key.
struct SpockTables {
  tablebase::WdlTable table;
  spock::Material row;
  explicit SpockTables(const std::string& dir)
      : table(app::open_spock_table(dir)), row(spock::parse_material(table.info().name)) {}

  std::string variant() const { return table.info().name; }
  py::dict answer(const std::string& fen, bool with_moves) {
    const auto s = games::spock_setup(games::kSpockVariant, fen);
    games::check_spock_board(row, *s.game);
    const auto probe = [&](const spock::Key& k) { return table.probe(k); };
    py::dict d;
    d["variant"] = variant();
    d["fen"] = games::fen_text(*s.game, s.position);
    const auto not_in_row = [&] {
      return std::invalid_argument(
          "this position is not among " + variant() +
          "'s (its pieces are not a placement of the row's, nor reached from one)");
    };
    if (!with_moves) {
      const std::optional<solver::WdlValue> v = probe(s.game->canonical_key(s.position));
      if (!v) throw not_in_row();
      put_value(d, *v);
      return d;
    }
    const auto a = tablebase::analyze_wdl(*s.game, s.position, probe);
    if (!a) throw not_in_row();
    put_value(d, a->value);
    py::list list;
    for (const auto& m : a->moves) {
      py::dict move;
      move["move"] = games::move_text(*s.game, m.move);
      put_value(move, m.value);
      list.append(move);
    }
    d["moves"] = list;
    return d;
  }
};

// Either kind, as the directory holds: a Spock row's file, or else Drop 16 tiers.
class Tables {
 public:
  explicit Tables(const std::string& dir) {
    if (app::holds_spock_table(dir))
      tables_ = std::make_unique<SpockTables>(dir);
    else
      tables_ = std::make_unique<DropTables>(dir);
  }
  std::string variant() const {
    return std::visit([](const auto& t) { return t->variant(); }, tables_);
  }
  py::dict probe(const std::string& fen) {
    return std::visit([&](auto& t) { return t->answer(fen, false); }, tables_);
  }
  py::dict analyze(const std::string& fen) {
    return std::visit([&](auto& t) { return t->answer(fen, true); }, tables_);
  }

 private:
  std::variant<std::unique_ptr<DropTables>, std::unique_ptr<SpockTables>> tables_;
};

}  // namespace

PYBIND11_MODULE(drop16py, m) {
  m.doc() = R"(The drop16 libraries from Python: move counts, legal moves and solved tables.

Variants are named as on drop16's command line: "drop16", "WxH:HAND" or "WxH:WHITE/black"
(e.g. "3x3:NBK") for the Drop 16 family, "spock" for Spock (the board is the FEN's, by default
the 5x5 start), "spock:WxH:BLUE/red" for a row of Spock's ladder (needs a fen). Positions and
moves are text as drop16 prints them. A value is for the side to move; a move's value is what it
gives the side that plays it; dte counts plies to the end with best play (None for a draw).

Errors: ValueError for bad input (a FEN, variant or depth that does not parse or fit, a position
the tables do not hold); RuntimeError for a directory without tables or a damaged table file (the
message names it); OverflowError for a count past 2^64.)";

  m.def("perft", &perft, py::arg("variant"), py::arg("fen") = py::none(), py::kw_only(),
        py::arg("depth"),
        "perft(variant, fen=None, *, depth) -> int: the number of move sequences of exactly depth "
        "plies from fen (default: the variant's start), as `drop16 perft`.");
  m.def("moves", &moves, py::arg("variant"), py::arg("fen") = py::none(),
        "moves(variant, fen=None) -> list[str]: the legal moves, in drop16's order.");

  py::class_<Tables>(m, "Tables",
                     "Tables(dir): the solved tables in dir, written by `drop16 solve --tables "
                     "dir` (Drop 16 tier tables, or a Spock row's dir/spock.wdl). Not "
                     "thread-safe: it caches decoded blocks.")
      .def(py::init<const std::string&>(), py::arg("dir"))
      .def_property_readonly("variant", &Tables::variant, "the variant the tables solve")
      .def("probe", &Tables::probe, py::arg("fen"),
           "probe(fen) -> {'variant', 'fen', 'value': 'win'|'draw'|'loss', 'dte': int|None}")
      .def("analyze", &Tables::analyze, py::arg("fen"),
           "analyze(fen) -> probe(fen)'s dict with 'moves': [{'move', 'value', 'dte'}, ...], "
           "every legal move, as `drop16 query --json`");
}
