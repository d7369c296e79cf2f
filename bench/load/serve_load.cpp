// serve_load: `drop16 serve` under load. Starts each given binary's server on 127.0.0.1 (a free
// port, never another address), sends it the same bounded mix of requests from concurrent
// clients, checks every status code (and the source of every analysis), and prints requests/s and
// latency percentiles per class of request and per game (the Drop 16 family, Spock, the rook
// race, Royal Nardy, Nevsky checkers; valid and malformed requests of each), and the server's
// memory after the load, as Markdown. Stops by itself: no request starts after --time-limit, and
// each one waits
// --read-timeout at most.
//
//   serve_load --tables DIR --server base=OLD/drop16 --server new=build/drop16
//              [--requests 3000] [--clients 32] [--time-limit 240] [--seed 1] [--only GAME]
//
// --only sends one game's requests of the mix alone, --requests of them (drop16, spock, rookrace,
// nardy, nevsky; "other" for the page, unknown paths and oversized requests), for that game's own
// rate.
// Exit status 0 when every request was sent and got the expected answer and every server stayed
// up, else 1.
#include <httplib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/variant.h"
#include "rules/nardy/game.h"
#include "rules/nardy/notation.h"
#include "rules/nevsky/game.h"
#include "rules/nevsky/notation.h"
#include "rules/nevsky/variant.h"
#include "rules/rookrace/game.h"
#include "rules/rookrace/notation.h"
#include "rules/rookrace/variant.h"
#include "rules/spock/game.h"
#include "rules/spock/material.h"
#include "rules/spock/notation.h"
#include "tests/serve_process.h"

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// What a request asks, and what must come back.
struct Request {
  std::string game;  // "drop16", "spock", "rookrace", "nardy", "nevsky" or "other"
  std::string kind;  // the class it is reported under
  std::string path;
  httplib::Params params;
  int status;                     // the only right status
  std::set<std::string> sources;  // an analysis's allowed "source"s (empty: not checked)
};

struct Outcome {
  double ms = -1;  // -1: never sent (the time limit came first)
  int status = 0;  // 0: no answer
  std::string source;
  bool right = false;
};

// FENs of positions reached by 0 to max_plies random moves from a start that `start(rng)` gives,
// terminal ones included.
template <typename G, typename Start, typename Fen>
std::vector<std::string> random_fens(const G& game, Start&& start, Fen&& fen, int count,
                                     int max_plies, std::mt19937& rng) {
  std::vector<std::string> fens;
  while (int(fens.size()) < count) {
    typename G::Position p = start(rng);
    const int plies = std::uniform_int_distribution<int>(0, max_plies)(rng);
    for (int ply = 0; ply < plies; ++ply) {
      typename G::MoveList moves;
      game.generate(p, moves);
      if (moves.size() == 0) break;
      game.make(p, moves[std::uniform_int_distribution<int>(0, int(moves.size()) - 1)(rng)]);
    }
    fens.push_back(fen(p));
  }
  return fens;
}

// (variant, FEN) of 100 positions each of 0 to 12 random moves from the start of every variant
// in turn (a game of type G made of parse(variant)).
template <typename G, typename Parse, typename Fen>
std::vector<std::pair<std::string, std::string>> variants_fens(
    std::initializer_list<const char*> variants, Parse parse, Fen fen, std::mt19937& rng) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* variant : variants) {
    const G game(parse(variant));
    for (const auto& f : random_fens(
             game, [&](std::mt19937&) { return game.start(); },
             [&](const typename G::Position& p) { return fen(game, p); }, 100, 12, rng))
      out.emplace_back(variant, f);
  }
  return out;
}

std::vector<std::string> drop_fens(const std::string& variant, int count, int max_plies,
                                   std::mt19937& rng) {
  const drop::Game game(drop::parse_variant(variant));
  return random_fens(
      game, [&](std::mt19937&) { return game.start(); },
      [&](const drop::Position& p) { return drop::to_fen(game, p); }, count, max_plies, rng);
}

// Royal Nardy: positions of random games with the dice rolled (the analysis needs them), and
// the games' ends (no roll: the points).
struct NardyFens {
  std::vector<std::string> rolled, ends;
};
NardyFens nardy_fens(int games, std::mt19937& rng) {
  const auto start = nardy::parse_fen(nardy::start_fen());
  const nardy::Game& g = start.game;
  NardyFens out;
  for (int n = 0; n < games; ++n) {
    nardy::Position p = start.position;
    while (!g.is_terminal(p)) {
      const int a = int(rng() % 6) + 1, b = int(rng() % 6) + 1;
      g.make_chance(p, nardy::Roll{std::uint8_t(std::max(a, b)), std::uint8_t(std::min(a, b))});
      if (rng() % 8 == 0) out.rolled.push_back(nardy::to_fen(g, p));
      nardy::MoveList plays;
      g.generate(p, plays);
      g.make(p, plays[int(rng() % plays.size())]);
    }
    out.ends.push_back(nardy::to_fen(g, p));
  }
  return out;
}

// The mix, in a fixed random order, forty-four parts: the Drop 16 family (analyses the tables
// answer, analyses that must search, positions, the page, malformed and oversized requests), then
// Spock, the rook race, Royal Nardy and Nevsky checkers, each with valid and malformed requests.
// The same for every server. `only`, if not empty, keeps one game's requests, `count` of them.
std::vector<Request> request_mix(const std::string& tables_variant, int count, std::uint32_t seed,
                                 const std::string& only) {
  std::mt19937 rng(seed);
  const auto table_fens = drop_fens(tables_variant, 200, 12, rng);
  // A few plies in: positions the forward search cannot finish within its time limit.
  const auto drop16_fens = drop_fens("drop16", 200, 4, rng);
  // Spock: the 5x5 game a few plies in, and a small row's placements played on.
  const auto spock_start = spock::parse_fen(spock::start_fen());
  auto spock_fens = random_fens(
      spock_start.game, [&](std::mt19937&) { return spock_start.position; },
      [&](const spock::Position& p) { return spock::to_fen(spock_start.game, p); }, 100, 6, rng);
  const spock::Material row = spock::parse_material("spock:3x3:RSK/rsk");
  const spock::Game row_game(row.width, row.height);
  const auto placements = spock::placements(row);
  for (const auto& fen : random_fens(
           row_game, [&](std::mt19937& r) { return placements[r() % placements.size()]; },
           [&](const spock::Position& p) { return spock::to_fen(row_game, p); }, 100, 10, rng))
    spock_fens.push_back(fen);
  // The rook race: 4x4 with 2 pawns and the 8x8 game, some plies in.
  const auto rookrace_fens = variants_fens<rookrace::Game>(
      {"rookrace:4x4:2", "rookrace"}, [](const char* v) { return rookrace::parse_variant(v); },
      [](const auto& game, const auto& p) { return rookrace::to_fen(game, p); }, rng);
  const NardyFens nardy = nardy_fens(40, rng);
  // Nevsky checkers: two one-man rows, each solved by the server when first asked for.
  const auto nevsky_fens = variants_fens<nevsky::Game>(
      {"nevsky:4x4:1", "nevsky:5x5:1"}, [](const char* v) { return nevsky::parse_variant(v); },
      [](const auto& game, const auto& p) { return nevsky::to_fen(game, p); }, rng);
  const auto pick = [&](const auto& fens) {
    return fens[std::uniform_int_distribution<std::size_t>(0, fens.size() - 1)(rng)];
  };
  const std::set<std::string> searched = {"search", "none", "busy"};
  const std::set<std::string> nardy_sources = {"exact race expectimax", "player search, depth 1"};
  // The request of each fortieth of the mix.
  const auto request = [&](int slot) -> Request {
    if (slot < 8) {
      return Request{
          "drop16",  "drop16 table analysis", "/api/analyze", {{"fen", pick(table_fens)}}, 200,
          {"tables"}};
    } else if (slot < 10) {
      return Request{"drop16",
                     "drop16 search analysis",
                     "/api/analyze",
                     {{"variant", "drop16"}, {"fen", pick(drop16_fens)}},
                     200,
                     searched};
    } else if (slot < 13) {
      return Request{"drop16",     "drop16 moves",
                     "/api/moves", {{"variant", "drop16"}, {"fen", pick(drop16_fens)}},
                     200,          {}};
    } else if (slot < 14) {
      return Request{
          "drop16", "drop16 malformed", "/api/analyze", {{"fen", "4/4/4[NNBBRRQKnnbbrrqk] w"}}, 400,
          {}};
    } else if (slot < 15) {
      return Request{"drop16",    "drop16 malformed",
                     "/api/play", {{"variant", "drop16"}, {"move", "Z@z9"}},
                     400,         {}};
    } else if (slot < 16) {
      return Request{"other", "page", "/", {}, 200, {}};
    } else if (slot < 17) {
      return Request{"other", "unknown path", "/api/no-such-thing", {}, 404, {}};
    } else if (slot < 19) {
      return Request{"other", "oversized", "/api/moves", {{"fen", std::string(9000, '4')}},
                     414,     {}};
    } else if (slot < 20) {
      return Request{"other", "oversized", "/api/analyze", {{"fen", std::string(300, '4')}},
                     400,     {}};
    } else if (slot < 22) {
      return Request{"spock",
                     "spock analysis",
                     "/api/analyze",
                     {{"variant", "spock"}, {"fen", pick(spock_fens)}},
                     200,
                     searched};
    } else if (slot < 24) {
      return Request{"spock",      "spock moves",
                     "/api/moves", {{"variant", "spock"}, {"fen", pick(spock_fens)}},
                     200,          {}};
    } else if (slot < 25) {
      return Request{"spock",      "spock malformed",
                     "/api/moves", {{"variant", "spock"}, {"fen", "psksp/rrrrr/5/RRRRR/PSKSQ w"}},
                     400,          {}};
    } else if (slot < 26) {
      return Request{"spock",     "spock malformed",
                     "/api/play", {{"variant", "spock"}, {"move", "z9a1"}},
                     400,         {}};
    } else if (slot < 28) {
      // The small row is solved by the server when first asked for (serve --row-entries); the 8x8
      // game is searched.
      const auto& [variant, fen] = pick(rookrace_fens);
      return Request{"rookrace",
                     "rookrace analysis",
                     "/api/analyze",
                     {{"variant", variant}, {"fen", fen}},
                     200,
                     variant == "rookrace" ? searched : std::set<std::string>{"solved"}};
    } else if (slot < 30) {
      const auto& [variant, fen] = pick(rookrace_fens);
      return Request{"rookrace",   "rookrace moves",
                     "/api/moves", {{"variant", variant}, {"fen", fen}},
                     200,          {}};
    } else if (slot < 31) {
      return Request{
          "rookrace",
          "rookrace malformed",
          "/api/moves",
          {{"variant", "rookrace"}, {"fen", "7r/8/8/8/8/8/8/R7 [100000000000000000000,8] [-,-] w"}},
          400,
          {}};
    } else if (slot < 32) {
      return Request{
          "rookrace", "rookrace malformed", "/api/moves", {{"variant", "rookrace:5x5:2"}}, 400, {}};
    } else if (slot < 36) {
      return Request{"nardy",
                     "nardy analysis",
                     "/api/analyze",
                     {{"variant", "nardy"}, {"fen", pick(nardy.rolled)}},
                     200,
                     nardy_sources};
    } else if (slot < 37) {
      return Request{"nardy",
                     "nardy end",
                     "/api/analyze",
                     {{"variant", "nardy"}, {"fen", pick(nardy.ends)}},
                     200,
                     {"the game is over"}};
    } else if (slot < 38) {
      return Request{
          "nardy", "nardy malformed", "/api/analyze", {{"variant", "nardy"}, {"roll", "7-1"}}, 400,
          {}};
    } else if (slot < 39) {
      return Request{"nardy",
                     "nardy malformed",
                     "/api/analyze",
                     {{"variant", "nardy"}, {"fen", pick(nardy.ends)}, {"roll", "6-5"}},
                     400,
                     {}};
    } else if (slot < 40) {
      return Request{"nardy", "nardy malformed", "/api/line", {{"variant", "nardy"}}, 400, {}};
    } else if (slot < 42) {
      const auto& [variant, fen] = pick(nevsky_fens);
      return Request{
          "nevsky", "nevsky analysis", "/api/analyze", {{"variant", variant}, {"fen", fen}},
          200,      {"solve"}};
    } else if (slot < 43) {
      const auto& [variant, fen] = pick(nevsky_fens);
      return Request{
          "nevsky", "nevsky moves", "/api/moves", {{"variant", variant}, {"fen", fen}}, 200, {}};
    } else {
      return Request{"nevsky", "nevsky malformed", "/api/line", {{"variant", "nevsky:4x4:1"}}, 400,
                     {}};
    }
  };
  std::vector<Request> mix;
  for (int i = 0; int(mix.size()) < count; ++i) {  // with `only`, as many of that game's alone
    Request r = request(i % 44);
    if (only.empty() || r.game == only) mix.push_back(std::move(r));
  }
  std::shuffle(mix.begin(), mix.end(), rng);
  return mix;
}

json get_json(int port, const std::string& path) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(10, 0);
  const auto res = client.Get(path.c_str());
  if (!res || res->status != 200) return nullptr;
  return json::parse(res->body, nullptr, false);
}

struct RunOptions {
  int clients = 32;
  int time_limit_s = 240;
  int read_timeout_s = 60;
};

struct Run {
  std::vector<Outcome> outcomes;  // in the mix's order
  double seconds = 0;
  int peak_searches = -1;  // the most /api/info showed running; -1 if it does not say
  bool stayed_up = false;
  int exit_status = -1;
  // The server's resident memory after the load (VmRSS) and its peak (VmHWM), in MB.
  double rss_mb = -1, peak_rss_mb = -1;
};

// A field of /proc/PID/status in MB ("VmRSS", "VmHWM"); -1 if it cannot be read.
double status_mb(pid_t pid, const std::string& field) {
  std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
  if (!f) return -1;
  char line[256];
  double mb = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::string(line).rfind(field + ":", 0) == 0)
      mb = std::atof(line + field.size() + 1) / 1024;
  std::fclose(f);
  return mb;
}

Run load(const std::string& binary, const std::string& tables, const std::vector<Request>& mix,
         const RunOptions& o) {
  test_support::ServeProcess server(binary, {"--host", "127.0.0.1", "--tables", tables});
  const int port = server.port();
  Run run;
  run.outcomes.resize(mix.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> finished{false};
  const auto start = Clock::now();
  const auto stop_sending = start + std::chrono::seconds(o.time_limit_s);

  // How many searches run at once, as the server says (servers that do not say: -1).
  std::thread monitor([&] {
    while (!finished) {
      const json info = get_json(port, "/api/info");
      if (info.is_object() && info.contains("searches_running"))
        run.peak_searches = std::max(run.peak_searches, info["searches_running"].get<int>());
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  std::vector<std::thread> clients;
  for (int c = 0; c < o.clients; ++c)
    clients.emplace_back([&] {
      httplib::Client client("127.0.0.1", port);
      client.set_connection_timeout(10, 0);
      client.set_read_timeout(o.read_timeout_s, 0);
      for (std::size_t i; (i = next++) < mix.size() && Clock::now() < stop_sending;) {
        const Request& r = mix[i];
        Outcome& out = run.outcomes[i];
        const auto sent = Clock::now();
        const auto res = client.Get(r.path, r.params, httplib::Headers{});
        out.ms = std::chrono::duration<double, std::milli>(Clock::now() - sent).count();
        if (!res) continue;
        out.status = res->status;
        out.right = res->status == r.status;
        if (!r.sources.empty()) {
          const json body = json::parse(res->body, nullptr, false);
          out.source = body.is_object() ? body.value("source", "") : "";
          out.right = out.right && r.sources.count(out.source);
        }
      }
    });
  for (auto& t : clients) t.join();
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  finished = true;
  monitor.join();
  run.stayed_up = get_json(port, "/api/info").is_object();
  run.rss_mb = status_mb(server.pid(), "VmRSS");
  run.peak_rss_mb = status_mb(server.pid(), "VmHWM");
  run.exit_status = server.stop();
  return run;
}

double percentile(std::vector<double> sorted, double q) {
  if (sorted.empty()) return 0;
  const std::size_t i = std::min(sorted.size() - 1, std::size_t(q * sorted.size()));
  return sorted[i];
}

// One table of latencies: a row per key (a class of request, or a game), with its requests, wrong
// answers, requests/s over the run's wall time, percentiles and the analyses' sources.
void latency_table(const char* what, const std::map<std::string, std::vector<double>>& ms,
                   const std::map<std::string, std::size_t>& wrong_of,
                   const std::map<std::string, std::map<std::string, std::size_t>>& sources,
                   double seconds) {
  std::printf(
      "| %s | requests | wrong | requests/s | p50 ms | p95 ms | p99 ms | max ms | sources |\n",
      what);
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
  for (auto [key, v] : ms) {
    std::sort(v.begin(), v.end());
    std::string source_text;
    if (const auto s = sources.find(key); s != sources.end())
      for (const auto& [source, n] : s->second)
        source_text += (source_text.empty() ? "" : ", ") + source + " " + std::to_string(n);
    const auto w = wrong_of.find(key);
    std::printf("| %s | %zu | %zu | %.0f | %.1f | %.1f | %.1f | %.1f | %s |\n", key.c_str(),
                v.size(), w == wrong_of.end() ? 0 : w->second, double(v.size()) / seconds,
                percentile(v, 0.50), percentile(v, 0.95), percentile(v, 0.99), v.back(),
                source_text.c_str());
  }
  std::printf("\n");
}

// The Markdown report of one server's run; false when anything was wrong or not sent.
bool report(const std::string& name, const std::vector<Request>& mix, const Run& run) {
  std::size_t sent = 0, answered = 0, wrong = 0;
  std::map<std::string, std::vector<double>> ms, game_ms;
  std::map<std::string, std::size_t> wrong_of, game_wrong_of;
  std::map<std::string, std::map<std::string, std::size_t>> sources;
  for (std::size_t i = 0; i < mix.size(); ++i) {
    const Outcome& o = run.outcomes[i];
    if (o.ms < 0) continue;
    ++sent;
    answered += o.status != 0;
    ms[mix[i].kind].push_back(o.ms);
    game_ms[mix[i].game].push_back(o.ms);
    if (!o.right) ++wrong, ++wrong_of[mix[i].kind], ++game_wrong_of[mix[i].game];
    if (!o.source.empty()) ++sources[mix[i].kind][o.source];
  }
  std::printf("### %s\n\n", name.c_str());
  std::printf(
      "%zu of %zu requests sent in %.1f s, %zu answered: %.0f requests/s; %zu wrong "
      "answers; ",
      sent, mix.size(), run.seconds, answered, sent / run.seconds, wrong);
  std::printf(
      "most searches running at once (by /api/info): %s; %s, exit status %d on "
      "SIGTERM; server memory after the load %.0f MB resident, %.0f MB at its peak.\n\n",
      run.peak_searches < 0 ? "not reported" : std::to_string(run.peak_searches).c_str(),
      run.stayed_up ? "up after the load" : "NOT UP after the load", run.exit_status, run.rss_mb,
      run.peak_rss_mb);
  latency_table("game", game_ms, game_wrong_of, {}, run.seconds);
  latency_table("class", ms, wrong_of, sources, run.seconds);
  return sent == mix.size() && answered == sent && wrong == 0 && run.stayed_up &&
         run.exit_status == 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("drop16 serve under load, on 127.0.0.1 only");
  std::string tables;
  std::vector<std::string> servers;
  int requests = 3000;
  std::uint32_t seed = 1;
  RunOptions o;
  app.add_option("--tables", tables, "tables for the servers (a small variant's)")->required();
  app.add_option("--server", servers, "NAME=BINARY of a drop16 to load, in order")->required();
  app.add_option("--requests", requests, "requests per server")->check(CLI::Range(1, 1000000));
  app.add_option("--clients", o.clients, "concurrent clients")->check(CLI::Range(1, 1024));
  app.add_option("--time-limit", o.time_limit_s, "seconds after which no request starts")
      ->check(CLI::Range(1, 3600));
  app.add_option("--read-timeout", o.read_timeout_s, "seconds a client waits for an answer")
      ->check(CLI::Range(1, 600));
  app.add_option("--seed", seed, "seed of the mix");
  std::string only;
  app.add_option("--only", only, "only this game's requests, --requests of them")
      ->check(CLI::IsMember({"drop16", "spock", "rookrace", "nardy", "nevsky", "other"}));
  CLI11_PARSE(app, argc, argv);

  try {
    bool all_right = true;
    for (const std::string& spec : servers) {
      const auto eq = spec.find('=');
      if (eq == std::string::npos) throw std::invalid_argument("--server wants NAME=BINARY");
      const std::string name = spec.substr(0, eq), binary = spec.substr(eq + 1);
      std::string tables_variant;
      {
        test_support::ServeProcess probe(binary, {"--host", "127.0.0.1", "--tables", tables});
        const json info = get_json(probe.port(), "/api/info");
        if (!info.is_object() || !info["tables_variant"].is_string())
          throw std::runtime_error(name + ": the server names no tables' variant");
        tables_variant = info["tables_variant"];
      }
      const auto mix = request_mix(tables_variant, requests, seed, only);
      const Run run = load(binary, tables, mix, o);
      all_right = report(name + " (" + binary + ")", mix, run) && all_right;
    }
    return all_right ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "serve_load: " << e.what() << "\n";
    return 2;
  }
}
