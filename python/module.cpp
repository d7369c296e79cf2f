// drop16py: the libraries from Python, for querying at scale without a process per position. Only
// converts text and answers: the games and their names are the registry's (rules/registry.h), the
// counting solver/perft.h's, the probing tablebase::TableProbe's (any game's tables), and the
// answers' shape tablebase/analysis_json.h's, the command's own (for a game valued per coalition,
// tablebase/coalition_analysis.h's, serve's).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "rules/registry.h"
#include "solver/perft.h"
#include "tablebase/coalition_analysis.h"
#include "tablebase/coalition_game_tables.h"
#include "tablebase/coalition_oracle.h"
#include "tablebase/table_probe.h"

namespace py = pybind11;

namespace {

constexpr int kMaxPerftDepth = 64;  // as `drop16 perft --depth`

// A JSON value as the Python object json.loads would give.
py::object to_python(const nlohmann::ordered_json& j) {
  switch (j.type()) {
    case nlohmann::ordered_json::value_t::null:
      return py::none();
    case nlohmann::ordered_json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case nlohmann::ordered_json::value_t::number_float:
      return py::float_(j.get<double>());
    case nlohmann::ordered_json::value_t::string:
      return py::str(j.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
      py::list list;
      for (const auto& item : j) list.append(to_python(item));
      return list;
    }
    case nlohmann::ordered_json::value_t::object: {
      py::dict dict;
      for (const auto& [key, value] : j.items()) dict[py::str(key)] = to_python(value);
      return dict;
    }
    default:
      throw std::logic_error("a JSON value of no Python type");
  }
}

// Calls f(E{}) for the game the variant names if it has the command and no dice, else raises
// ValueError naming the game and what serves it (as the command refuses it).
template <registry::Command C, typename F>
void with_entry(const std::string& variant, F&& f) {
  registry::visit(variant, [&](auto e) {
    using E = decltype(e);
    if constexpr (!E::info.commands.has(C))
      throw std::invalid_argument(registry::refusal(C, E::info, variant, "variant"));
    else if constexpr (E::info.dice)  // its positions need their rolls, which this API lacks
      throw std::invalid_argument(std::string(registry::command_name(C)) +
                                  ": this module serves the games without dice; " +
                                  std::string(E::info.title) + "'s is drop16 " +
                                  std::string(registry::command_name(C)) + " --variant " + variant);
    else
      f(e);
  });
}

std::uint64_t perft(const std::string& variant, const std::optional<std::string>& fen, int depth) {
  if (depth < 0 || depth > kMaxPerftDepth)
    throw std::invalid_argument("depth " + std::to_string(depth) + " is not in 0.." +
                                std::to_string(kMaxPerftDepth));
  std::uint64_t nodes = 0;
  with_entry<registry::Command::perft>(variant, [&](auto e) {
    auto s = decltype(e)::setup(variant, fen);
    py::gil_scoped_release unlocked;  // a long count need not stop other Python threads
    nodes = solver::perft(*s.game, s.position, depth);
  });
  return nodes;
}

std::vector<std::string> moves(const std::string& variant, const std::optional<std::string>& fen) {
  std::vector<std::string> names;
  with_entry<registry::Command::moves>(variant, [&](auto e) {
    using E = decltype(e);
    auto s = E::setup(variant, fen);
    typename E::Game::MoveList list;
    s.game->generate(s.position, list);
    for (int i = 0; i < list.size(); ++i)
      names.push_back(registry::move_text<E>(*s.game, s.position, list[i]));
  });
  return names;
}

// The tables a directory holds, of whichever game; answers as the command's JSON.
class Tables {
 public:
  explicit Tables(const std::string& dir) : probe_(tablebase::open_table_probe(dir)) {}
  std::string variant() const {
    return tablebase::with_probe<std::string>(probe_, [](auto& t) { return t.variant(); });
  }
  py::dict probe(const std::string& fen) { return answer(fen, false); }
  py::dict analyze(const std::string& fen) { return answer(fen, true); }

 private:
  py::dict answer(const std::string& fen, bool with_moves) {
    return tablebase::with_probe<py::dict>(probe_, [&](auto& t) {
      using E = typename std::decay_t<decltype(t)>::Entry;
      const auto a = t.probe(E::parse_fen(t.game(), fen), with_moves);
      nlohmann::ordered_json j = tablebase::answer_json<E>(t.variant(), t.game(), a);
      if (!with_moves) j.erase("moves");
      return to_python(j);
    });
  }

  tablebase::AnyTableProbe probe_;
};

// Every coalition's value at positions of one variant of a game valued per coalition, from its
// solved tables in `tables` (tablebase/coalition_game_tables.h) where given, else from the
// coalition solver in memory (tablebase/coalition_oracle.h): the variant's start is solved when
// the object is made, a position it does not reach when it is asked.
class Coalitions {
 public:
  Coalitions(const std::string& variant, std::uint64_t memory_mb,
             const std::optional<std::string>& tables) {
    registry::visit(variant, [&](auto e) {
      using E = decltype(e);
      if constexpr (!E::info.solvers.has(registry::Solver::coalition_values)) {
        throw std::invalid_argument("variant " + variant + ": " + std::string(E::info.title) +
                                    " is valued " +
                                    std::string(registry::family_name(E::info.family)) +
                                    ", not per coalition (Tables answers it)");
      } else {
        using G = typename E::Game;
        auto s = E::setup(variant, std::nullopt);
        const std::shared_ptr<const G> game(std::move(s.game));
        const auto oracle = std::make_shared<tablebase::CoalitionOracle<G>>(memory_mb << 20);
        const std::string name = E::normalized(variant);
        variant_ = name;
        if (tables) {
          auto found = tablebase::find_coalition_tables<E>(*tables, name, game);
          if (!found)
            throw std::invalid_argument(*tables + " holds no coalition tables of " + name);
          oracle->use_tables(name, std::move(found->values), found->positions);
        }
        {
          py::gil_scoped_release unlocked;
          oracle->prepare(name, game, s.position);
        }
        analyze_ = [game, oracle, name, start = s.position](const std::optional<std::string>& fen) {
          const auto p = fen ? E::parse_fen(*game, *fen) : start;
          typename tablebase::CoalitionOracle<G>::Answer answer;
          {
            py::gil_scoped_release unlocked;
            answer = oracle->evaluate(name, game, p);
          }
          return tablebase::coalition_analysis_json<E>(name, *game, p, answer,
                                                       answer.from_tables ? "tables" : "solve");
        };
      }
    });
  }
  const std::string& variant() const { return variant_; }
  py::dict analyze(const std::optional<std::string>& fen) { return to_python(analyze_(fen)); }

 private:
  std::string variant_;
  std::function<nlohmann::ordered_json(const std::optional<std::string>&)> analyze_;
};

std::string variants_doc() {
  std::string out;
  for (const registry::GameInfo& g : registry::kGames)
    out += "  " + std::string(g.variants) + ": " + std::string(g.title) + "\n";
  return out;
}

}  // namespace

PYBIND11_MODULE(drop16py, m) {
  static const std::string doc =
      R"(The drop16 libraries from Python: move counts, legal moves and solved tables.

Variants are named as on drop16's command line (drop16 games lists them):
)" + variants_doc() +
      R"(Positions and moves are text as drop16 prints them. A value is for the side to move; a
move's value is what it gives the side that plays it; dte counts plies to the end with best play
(None for a draw).

Errors: ValueError for bad input (a FEN, variant or depth that does not parse or fit, a position
the tables do not hold, a game without the command); RuntimeError for a directory without tables
or a damaged table file (the message names it); OverflowError for a count past 2^64.)";
  m.doc() = doc.c_str();

  m.def("perft", &perft, py::arg("variant"), py::arg("fen") = py::none(), py::kw_only(),
        py::arg("depth"),
        "perft(variant, fen=None, *, depth) -> int: the number of move sequences of exactly depth "
        "plies from fen (default: the variant's start), as `drop16 perft`.");
  m.def("moves", &moves, py::arg("variant"), py::arg("fen") = py::none(),
        "moves(variant, fen=None) -> list[str]: the legal moves, in drop16's order.");

  py::class_<Tables>(m, "Tables",
                     "Tables(dir): the solved tables in dir, written by `drop16 solve --tables "
                     "dir` (tier tables, or a whole variant's keyed table dir/<game>.wdl or "
                     "loopy tier tables). Not thread-safe: it caches decoded blocks.")
      .def(py::init<const std::string&>(), py::arg("dir"))
      .def_property_readonly("variant", &Tables::variant, "the variant the tables solve")
      .def("probe", &Tables::probe, py::arg("fen"),
           "probe(fen) -> {'variant', 'fen', 'value': 'win'|'draw'|'loss', 'dte': int|None}")
      .def("analyze", &Tables::analyze, py::arg("fen"),
           "analyze(fen) -> probe(fen)'s dict with 'moves': [{'move', 'value', 'dte'}, ...], "
           "every legal move, as `drop16 query --json`");

  py::class_<Coalitions>(
      m, "Coalitions",
      "Coalitions(variant, memory_mb=512, tables=None): every coalition's value at positions of a "
      "game valued per coalition of players (Nevsky checkers), from the variant's solved tables "
      "in the folder `tables` (written by `drop16 solve --tables`, either format; 'source' is "
      "then 'tables'), else from the coalition solver in memory: the variant's start is solved "
      "at once, a position it does not reach when asked; the solves kept hold at most memory_mb "
      "(RuntimeError past it). ValueError when `tables` holds no tables of the variant.")
      .def(py::init<const std::string&, std::uint64_t, const std::optional<std::string>&>(),
           py::arg("variant"), py::arg("memory_mb") = 512, py::arg("tables") = py::none())
      .def_property_readonly("variant", &Coalitions::variant, "the variant, as answers name it")
      .def("analyze", &Coalitions::analyze, py::arg("fen") = py::none(),
           "analyze(fen=None) -> {'variant', 'fen', 'family', 'to_move', 'coalitions': "
           "[{'coalition', 'players', 'value', 'distance'}, ...], 'moves': [{'move', 'fen', "
           "'coalitions'}, ...], 'positions', 'source'}: every coalition's value from its own "
           "side at fen (default: the start) and after each move (distances counted from fen), "
           "as `drop16 serve`'s /api/analyze");
}
