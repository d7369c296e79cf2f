// serve_load: `drop16 serve` under load. Starts each given binary's server on 127.0.0.1 (a free
// port, never another address), sends it the same bounded mix of requests from concurrent
// clients, checks every status code (and the source of every analysis), and prints requests/s and
// latency percentiles per class of request as Markdown. Stops by itself: no request starts after
// --time-limit, and each one waits --read-timeout at most.
//
//   serve_load --tables DIR --server base=OLD/drop16 --server new=build/drop16
//              [--requests 3000] [--clients 32] [--time-limit 240] [--seed 1]
//
// Exit status 0 when every answer was the expected one and every server stayed up, else 1.
#include <httplib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/variant.h"
#include "tests/serve_process.h"

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

// What a request asks, and what must come back.
struct Request {
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

// Positions of a variant reached by random play from its start, terminal ones included.
std::vector<std::string> random_fens(const std::string& variant, int count, int max_plies,
                                     std::mt19937& rng) {
  const drop::Game game(drop::parse_variant(variant));
  std::vector<std::string> fens;
  while (int(fens.size()) < count) {
    drop::Position p = game.start();
    const int plies = std::uniform_int_distribution<int>(0, max_plies)(rng);
    for (int ply = 0; ply < plies; ++ply) {
      drop::MoveList moves;
      game.generate(p, moves);
      if (moves.size() == 0) break;
      game.make(p, moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
    }
    fens.push_back(drop::to_fen(game, p));
  }
  return fens;
}

// The mix, in a fixed random order: three fifths cheap (analyses the tables answer, positions,
// the page), a tenth that must search Drop 16 (whose tables no server here has), three tenths
// refused (malformed, oversized). The same for every server.
std::vector<Request> request_mix(const std::string& tables_variant, int count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const auto table_fens = random_fens(tables_variant, 200, 12, rng);
  // A few plies in: positions the forward search cannot finish within its time limit.
  const auto drop16_fens = random_fens("drop16", 200, 4, rng);
  const auto pick = [&](const std::vector<std::string>& fens) {
    return fens[std::uniform_int_distribution<std::size_t>(0, fens.size() - 1)(rng)];
  };
  const std::set<std::string> searched = {"search", "none", "busy"};
  std::vector<Request> mix;
  for (int i = 0; i < count; ++i) {
    const int slot = i % 20;  // twentieths of the mix
    if (slot < 8)
      mix.push_back(
          {"table analysis", "/api/analyze", {{"fen", pick(table_fens)}}, 200, {"tables"}});
    else if (slot < 10)
      mix.push_back({"drop16 analysis",
                     "/api/analyze",
                     {{"variant", "drop16"}, {"fen", pick(drop16_fens)}},
                     200,
                     searched});
    else if (slot < 13)
      mix.push_back(
          {"moves", "/api/moves", {{"variant", "drop16"}, {"fen", pick(drop16_fens)}}, 200, {}});
    else if (slot < 14)
      mix.push_back({"page", "/", {}, 200, {}});
    else if (slot < 15)
      mix.push_back({"malformed", "/api/analyze", {{"fen", "4/4/4[NNBBRRQKnnbbrrqk] w"}}, 400, {}});
    else if (slot < 16)
      mix.push_back({"malformed", "/api/play", {{"variant", "drop16"}, {"move", "Z@z9"}}, 400, {}});
    else if (slot < 17)
      mix.push_back({"malformed", "/api/no-such-thing", {}, 404, {}});
    else if (slot < 19)
      mix.push_back({"oversized", "/api/moves", {{"fen", std::string(9000, '4')}}, 414, {}});
    else
      mix.push_back({"oversized", "/api/analyze", {{"fen", std::string(300, '4')}}, 400, {}});
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
};

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
  run.exit_status = server.stop();
  return run;
}

double percentile(std::vector<double> sorted, double q) {
  if (sorted.empty()) return 0;
  const std::size_t i = std::min(sorted.size() - 1, std::size_t(q * sorted.size()));
  return sorted[i];
}

// The Markdown report of one server's run; false when anything was wrong.
bool report(const std::string& name, const std::vector<Request>& mix, const Run& run) {
  std::size_t sent = 0, wrong = 0;
  std::map<std::string, std::vector<double>> ms;
  std::map<std::string, std::size_t> wrong_of;
  std::map<std::string, std::map<std::string, std::size_t>> sources;
  for (std::size_t i = 0; i < mix.size(); ++i) {
    const Outcome& o = run.outcomes[i];
    if (o.ms < 0) continue;
    ++sent;
    ms[mix[i].kind].push_back(o.ms);
    if (!o.right) ++wrong, ++wrong_of[mix[i].kind];
    if (!o.source.empty()) ++sources[mix[i].kind][o.source];
  }
  std::printf("### %s\n\n", name.c_str());
  std::printf("%zu of %zu requests sent in %.1f s: %.0f requests/s; %zu wrong answers; ", sent,
              mix.size(), run.seconds, sent / run.seconds, wrong);
  std::printf(
      "most searches running at once (by /api/info): %s; %s, exit status %d on "
      "SIGTERM.\n\n",
      run.peak_searches < 0 ? "not reported" : std::to_string(run.peak_searches).c_str(),
      run.stayed_up ? "up after the load" : "NOT UP after the load", run.exit_status);
  std::printf("| class | requests | wrong | p50 ms | p95 ms | p99 ms | max ms | sources |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---|\n");
  for (auto& [kind, v] : ms) {
    std::sort(v.begin(), v.end());
    std::string source_text;
    for (const auto& [source, n] : sources[kind])
      source_text += (source_text.empty() ? "" : ", ") + source + " " + std::to_string(n);
    std::printf("| %s | %zu | %zu | %.1f | %.1f | %.1f | %.1f | %s |\n", kind.c_str(), v.size(),
                wrong_of[kind], percentile(v, 0.50), percentile(v, 0.95), percentile(v, 0.99),
                v.back(), source_text.c_str());
  }
  std::printf("\n");
  return sent == mix.size() && wrong == 0 && run.stayed_up && run.exit_status == 0;
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
      const auto mix = request_mix(tables_variant, requests, seed);
      const Run run = load(binary, tables, mix, o);
      all_right = report(name + " (" + binary + ")", mix, run) && all_right;
    }
    return all_right ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "serve_load: " << e.what() << "\n";
    return 2;
  }
}
