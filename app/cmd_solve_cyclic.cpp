// drop16 solve for games with cycles and draws (Spock): the cyclic retrograde solver
// (solver/cyclic_retrograde.h) over every position reachable from the roots, then the analysis of
// the position asked about. The roots are --fen's position (--variant spock), or every placement
// of a ladder row's pieces (--variant spock:WxH:BLUE/red).
#include <chrono>
#include <iostream>
#include <span>

#include "app/cyclic_solve.h"
#include "app/games.h"
#include "app/resources.h"
#include "rules/spock/material.h"
#include "solver/cyclic_retrograde.h"

namespace app {

namespace {

nlohmann::ordered_json wdl_json(solver::WdlValue v) {
  nlohmann::ordered_json j;
  j["value"] = solver::wdl_name(v.wdl);
  // A draw has no distance: the game never ends.
  j["dte"] = v.wdl == solver::Wdl::draw ? nlohmann::ordered_json(nullptr)
                                        : nlohmann::ordered_json(v.distance);
  return j;
}

nlohmann::ordered_json report_json(const solver::CyclicSolveReport& r, std::size_t roots) {
  return {{"roots", roots},
          {"positions", r.positions},
          {"moves", r.moves},
          {"links", r.links},
          {"wins", r.wins},
          {"draws", r.draws},
          {"losses", r.losses},
          {"longest_win", r.longest_win},
          {"longest_loss", r.longest_loss},
          {"counted_peak_mb", double(r.peak_bytes) / double(1 << 20)},
          {"explore_seconds", r.explore_seconds},
          {"solve_seconds", r.solve_seconds}};
}

void print_text(const nlohmann::ordered_json& j) {
  const auto& s = j["solved"];
  std::cout << j["variant"].get<std::string>() << ": " << s["positions"] << " positions ("
            << s["wins"] << " wins, " << s["draws"] << " draws, " << s["losses"]
            << " losses; longest win " << s["longest_win"] << " plies)\n";
  if (j.contains("fen")) {
    const auto in = [](const nlohmann::ordered_json& v) {
      return v["dte"].is_null() ? std::string() : " in " + v["dte"].dump();
    };
    std::cout << j["fen"].get<std::string>() << ": " << j["value"].get<std::string>() << in(j)
              << "\n";
    for (const auto& m : j["moves"])
      std::cout << "  " << m["move"].get<std::string>() << "  " << m["value"].get<std::string>()
                << in(m) << "\n";
  }
  std::cout << std::flush;
}

}  // namespace

void run_cyclic_solve(const CyclicSolveRequest& r) {
  const auto start = std::chrono::steady_clock::now();
  const PositionOptions& o = r.position;
  if (!r.tables.empty())
    throw UsageError(
        "--tables: Spock's solved positions are not written to disk yet; solve "
        "without --tables");
  const bool ladder_row = o.variant != kSpockVariant;
  std::unique_ptr<spock::Game> game;
  std::vector<spock::Position> roots;
  std::optional<spock::Position> asked;
  if (ladder_row) {
    const spock::Material m = spock::parse_material(o.variant);
    game = std::make_unique<spock::Game>(m.width, m.height);
    // The roots are held beside the solver's arrays, under the same cap: refuse before listing.
    const std::uint64_t count = spock::placement_count(m);
    if (count >= r.memory_bytes / sizeof(spock::Position))
      throw UsageError("--memory: the " + std::to_string(count) + " placements of " + m.name() +
                       " alone take more than " + std::to_string(r.memory_bytes >> 20) + " MB");
    roots = spock::placements(m);
    if (o.fen) asked = make_spock_setup(o).position;
  } else {
    auto s = make_spock_setup(o);
    game = std::move(s.game);
    asked = s.position;
    roots = {s.position};
  }

  // The roots are held beside the solver's arrays, under the same cap.
  const std::uint64_t roots_bytes = roots.size() * sizeof(spock::Position);
  if (roots_bytes >= r.memory_bytes)
    throw UsageError("--memory: the " + std::to_string(roots.size()) + " placements alone take " +
                     std::to_string(roots_bytes >> 20) + " MB");
  solver::CyclicSolveOptions options;
  options.memory_bytes = r.memory_bytes - roots_bytes;
  options.show_progress = !o.quiet;
  std::optional<solver::CyclicRetrograde<spock::Game>> solved;
  try {
    solved.emplace(*game, std::span<const spock::Position>(roots), options);
  } catch (const solver::CyclicMemoryError& e) {
    throw UsageError(std::string(e.what()) + " (raise --memory)");
  }

  nlohmann::ordered_json j;
  j["variant"] = ladder_row ? spock::parse_material(o.variant).name() : variant_name(*game);
  if (asked) {
    if (!solved->value(*asked))
      throw UsageError("--fen: this position is not among " + j["variant"].get<std::string>() +
                       "'s (its pieces are not a placement of the row's, nor reached from one)");
    const auto a = solved->analyze(*asked);
    j["fen"] = fen_text(*game, *asked);
    j.update(wdl_json(a.value));
    j["moves"] = nlohmann::ordered_json::array();
    for (const auto& m : a.moves) {
      nlohmann::ordered_json move = {{"move", move_text(*game, m.move)}};
      move.update(wdl_json(m.value));
      j["moves"].push_back(move);
    }
  }
  j["solved"] = report_json(solved->report(), roots.size());
  j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  j["peak_memory_mb"] = peak_memory_mb();
  if (o.json)
    std::cout << j.dump() << std::endl;
  else
    print_text(j);
}

}  // namespace app
