// drop16 serve's JSON API as the page and other clients see it: the built binary is started on a
// free port and asked over HTTP (cpp-httplib's client). Answers are checked against the library
// (the forward solver, move generation, make), never against numbers written down here; bad
// requests must get HTTP 400 with a JSON message, and the server must keep serving after them.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "app/analysis.h"
#include "rules/drop/entry.h"
#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/nevsky/game.h"
#include "rules/nevsky/notation.h"
#include "rules/nevsky/variant.h"
#include "rules/rookrace/game.h"
#include "rules/rookrace/notation.h"
#include "rules/rookrace/solve/tier_space.h"
#include "rules/spock/material.h"
#include "rules/spock/notation.h"
#include "solver/cyclic_retrograde.h"
#include "solver/forward_solver.h"
#include "tablebase/keyed_tables.h"
#include "tablebase/loopy_tier_solver.h"
#include "tablebase/wdl_table.h"
#include "tests/analysis_moves.h"
#include "tests/coalition_fixed_point.h"
#include "tests/serve_process.h"
#include "tests/test_support.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A fresh directory per test, removed afterwards.
struct TempDir : test_support::TempDir {
  TempDir() : test_support::TempDir("serve_test") {}
};

// The built binary's server, stopped when the object goes.
struct ServeProcess : test_support::ServeProcess {
  explicit ServeProcess(std::vector<std::string> args)
      : test_support::ServeProcess(DROP16_BINARY, std::move(args)) {}
};

struct Reply {
  int status = 0;
  json body;
  std::string content_type;
};

// The answer, status 0 if none came; no assertion, so threads other than the test's may ask.
Reply fetch(int port, const std::string& path, const httplib::Params& params = {}) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  auto res = client.Get(path, params, httplib::Headers{});
  Reply r;
  if (!res) return r;
  r.status = res->status;
  r.content_type = res->get_header_value("Content-Type");
  if (r.content_type.rfind("application/json", 0) == 0) r.body = json::parse(res->body);
  return r;
}

Reply get(int port, const std::string& path, const httplib::Params& params = {}) {
  Reply r = fetch(port, path, params);
  REQUIRE(r.status != 0);  // the server answered at all
  return r;
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Requests that each need a search of Drop 16's start, sent at once from threads of their own.
class Searchers {
 public:
  Searchers(int port, int count) : replies_(count), seconds_(count) {
    for (int i = 0; i < count; ++i)
      threads_.emplace_back([this, port, i] {
        const auto start = Clock::now();
        replies_[i] = fetch(port, i % 2 ? "/api/line" : "/api/analyze", {{"variant", "drop16"}});
        seconds_[i] = seconds_since(start);
        ++done_;
      });
  }
  ~Searchers() { join(); }
  void join() {
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  bool done() const { return done_ == int(threads_.size()); }
  const std::vector<Reply>& replies() const { return replies_; }
  const std::vector<double>& seconds() const { return seconds_; }

 private:
  std::vector<Reply> replies_;
  std::vector<double> seconds_;
  std::atomic<int> done_{0};
  std::vector<std::thread> threads_;
};

// /api/info until it says a search is running (a minute at most).
void wait_for_a_search(int port) {
  const auto start = Clock::now();
  while (seconds_since(start) < 60 && get(port, "/api/info").body["searches_running"] == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// The server's address, for tests that speak to it over raw sockets.
sockaddr_in loopback(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(std::uint16_t(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

// A connection that has sent `request` (its first line) and reads nothing: a client that goes
// away by closing it.
int send_request(int port, const std::string& request_line) {
  const sockaddr_in address = loopback(port);
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  REQUIRE(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  const std::string request = request_line + " HTTP/1.1\r\nHost: x\r\n\r\n";
  REQUIRE(::send(fd, request.data(), request.size(), 0) == ssize_t(request.size()));
  return fd;
}

Reply post(int port, const std::string& path, const httplib::Params& params) {
  httplib::Client client("127.0.0.1", port);
  auto res = client.Post(path, params);
  REQUIRE(res);
  return {res->status, json::parse(res->body), res->get_header_value("Content-Type")};
}

// A bad request: HTTP 400, a JSON body with an error message that names the fault.
void check_refused(int port, const std::string& path, const httplib::Params& params,
                   const std::string& word) {
  INFO(path << " " << word);
  const Reply r = get(port, path, params);
  CHECK(r.status == 400);
  REQUIRE(r.body.contains("error"));
  CHECK_THAT(r.body["error"].get<std::string>(), Catch::Matchers::Contains(word));
}

// The forward solver's analysis as the contract object (what `drop16 solve` prints).
json expected_analysis(const drop::Game& game, const drop::Position& p) {
  solver::ForwardSolver<drop::Game> search(game, std::uint64_t{1} << 30);
  return json::parse(app::analysis_json<drop::Entry>(game, p, search.analyze(p)).dump());
}

// The analysis object without the fields only serve adds.
json contract_part(json j) {
  j.erase("source");
  return j;
}

// Positions reached by random play from the start, the start included, terminal ones too.
std::vector<drop::Position> sample_positions(const drop::Game& game, int count) {
  std::mt19937 rng(7);
  std::vector<drop::Position> out;
  while (int(out.size()) < count) {
    drop::Position p = game.start();
    out.push_back(p);
    for (;;) {
      drop::MoveList moves;
      game.generate(p, moves);
      if (moves.size() == 0) break;
      game.make(p, moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
      if (rng() % 3 == 0 && int(out.size()) < count) out.push_back(p);
    }
  }
  return out;
}

void build_tables(const std::string& variant, const fs::path& dir) {
  const std::string command = std::string(DROP16_BINARY) + " solve --quiet --variant '" + variant +
                              "' --tables '" + dir.string() + "' >/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
}

}  // namespace

TEST_CASE("serve analyzes from tables and by search like the forward solver", "[serve][parallel]") {
  TempDir tmp;
  build_tables("3x3:NK", tmp.dir / "tables");
  // A time limit no machine reaches (sanitizer builds search slowly): all must be known.
  ServeProcess server({"--tables", (tmp.dir / "tables").string(), "--solve-ms", "120000"});
  CHECK_THAT(server.first_line(), Catch::Matchers::Contains("3x3:NK"));

  // The tables' variant is the default; every position of a random sample, terminal ones too.
  const drop::Game nk(drop::parse_variant("3x3:NK"));
  for (const drop::Position& p : sample_positions(nk, 25)) {
    const std::string fen = drop::to_fen(nk, p);
    INFO(fen);
    const Reply r = get(server.port(), "/api/analyze", {{"fen", fen}});
    REQUIRE(r.status == 200);
    CHECK(r.body["source"] == "tables");
    CHECK(contract_part(r.body) == expected_analysis(nk, p));
  }

  // Another variant: no tables, so the forward solver answers.
  const drop::Game nbk(drop::parse_variant("3x3:NBK"));
  for (const drop::Position& p : sample_positions(nbk, 6)) {
    const std::string fen = drop::to_fen(nbk, p);
    INFO(fen);
    const Reply r = get(server.port(), "/api/analyze", {{"variant", "3x3:NBK"}, {"fen", fen}});
    REQUIRE(r.status == 200);
    CHECK(r.body["source"] == "search");
    CHECK(contract_part(r.body) == expected_analysis(nbk, p));
  }
  CHECK(server.stop() == 0);  // SIGTERM stops it cleanly
}

TEST_CASE("serve answers beyond endgame tables by search that probes them", "[serve]") {
  TempDir tmp;
  const fs::path tables = tmp.dir / "tables";
  const std::string command = std::string(DROP16_BINARY) +
                              " solve --quiet --variant 3x3:NBK --max-pieces 3 --tables '" +
                              tables.string() + "' >/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  ServeProcess server({"--tables", tables.string(), "--solve-ms", "120000"});
  const drop::Game game(drop::parse_variant("3x3:NBK"));
  int from_tables = 0, by_search = 0;
  for (const drop::Position& p : sample_positions(game, 30)) {
    const std::string fen = drop::to_fen(game, p);
    INFO(fen);
    const Reply r = get(server.port(), "/api/analyze", {{"fen", fen}});
    REQUIRE(r.status == 200);
    CHECK(contract_part(r.body) == expected_analysis(game, p));
    int pieces = 0;
    for (const drop::Color c : {drop::kWhite, drop::kBlack})
      for (const drop::PieceType t : drop::kAllPieceTypes) pieces += p.count(c, t);
    drop::MoveList moves;
    game.generate(p, moves);
    if (moves.size() == 0) continue;
    CHECK(r.body["source"] == (pieces <= 3 ? "tables" : "search"));
    ++(pieces <= 3 ? from_tables : by_search);
  }
  CHECK(from_tables > 0);
  CHECK(by_search > 0);
}

TEST_CASE("serve says unknown, not a guess, when the search runs out of time",
          "[serve][parallel]") {
  ServeProcess server({"--solve-ms", "0"});
  const Reply r = get(server.port(), "/api/analyze");  // Drop 16's start: far beyond 0 ms
  REQUIRE(r.status == 200);
  CHECK(r.body["variant"] == "drop16");
  CHECK(r.body["value"] == "unknown");
  CHECK(r.body["dte"].is_null());
  CHECK(r.body["source"] == "none");
  CHECK(r.body["moves"].size() == 80);
  for (const auto& m : r.body["moves"]) {
    CHECK(m["value"] == "unknown");
    CHECK(m["dte"].is_null());
  }
  const Reply line = get(server.port(), "/api/line");
  REQUIRE(line.status == 200);
  CHECK(line.body["complete"] == false);
  CHECK(line.body["line"].empty());
  CHECK(line.body["value"] == "unknown");
}

TEST_CASE("serve runs at most --searches searches at once and answers the others busy", "[serve]") {
  // Drop 16's start is far beyond 6 s of search, so an admitted search holds its slot to its end.
  ServeProcess server({"--searches", "1", "--solve-ms", "6000"});
  const int port = server.port();
  constexpr int kRequests = 6;
  Searchers searchers(port, kRequests);
  int peak_running = 0, peak_waiting = 0;
  while (!searchers.done()) {
    const Reply info = get(port, "/api/info");
    REQUIRE(info.status == 200);
    CHECK(info.body["searches"] == 1);
    peak_running = std::max(peak_running, info.body["searches_running"].get<int>());
    peak_waiting = std::max(peak_waiting, info.body["searches_waiting"].get<int>());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  searchers.join();
  CHECK(peak_running == 1);  // seen running, never more than one
  CHECK(peak_waiting <= 1);  // as many may wait as there are slots
  // One searches and one waits for it; the others are told at once (well within the 6 s a
  // search takes) that every search slot is busy: all unknown, nothing guessed.
  int told_busy_at_once = 0;
  for (int i = 0; i < kRequests; ++i) {
    const Reply& r = searchers.replies()[i];
    INFO(i << ": " << r.body.dump());
    REQUIRE(r.status == 200);
    CHECK(r.body["value"] == "unknown");
    if (r.body["source"] == "busy" && searchers.seconds()[i] < 3) ++told_busy_at_once;
  }
  CHECK(told_busy_at_once >= kRequests - 2);
}

TEST_CASE("serve answers requests that need no search at once while every search is busy",
          "[serve]") {
  TempDir tmp;
  build_tables("3x3:NK", tmp.dir / "tables");
  ServeProcess server(
      {"--tables", (tmp.dir / "tables").string(), "--searches", "1", "--solve-ms", "8000"});
  const int port = server.port();
  // More searches than the slot, its waiter and the server's threads of old together.
  Searchers searchers(port, 8);
  wait_for_a_search(port);
  const auto timed = [&](const std::string& path, const httplib::Params& params) {
    const auto start = Clock::now();
    Reply r = get(port, path, params);
    CHECK(seconds_since(start) < 2);  // milliseconds expected; a search takes 8 s
    return r;
  };
  const drop::Game nk(drop::parse_variant("3x3:NK"));
  for (const drop::Position& p : sample_positions(nk, 10)) {
    const std::string fen = drop::to_fen(nk, p);
    INFO(fen);
    const Reply analysis = timed("/api/analyze", {{"fen", fen}});
    REQUIRE(analysis.status == 200);
    CHECK(analysis.body["source"] == "tables");
    CHECK(contract_part(analysis.body) == expected_analysis(nk, p));
    CHECK(timed("/api/line", {{"fen", fen}}).body["complete"] == true);
    CHECK(timed("/api/moves", {{"fen", fen}}).status == 200);
  }
  CHECK(timed("/api/moves", {{"variant", "drop16"}}).status == 200);
  CHECK(timed("/api/analyze", {{"fen", "bad"}}).status == 400);
  CHECK(timed("/", {}).status == 200);
  // All that happened while the search was running.
  CHECK(get(port, "/api/info").body["searches_running"] == 1);
  searchers.join();
  for (const Reply& r : searchers.replies()) CHECK(r.status == 200);
}

TEST_CASE("serve stops at once on a signal, though clients keep connections open", "[serve]") {
  ServeProcess server({});
  const sockaddr_in address = loopback(server.port());
  // One connection kept alive after its request, one that never sends: a browser leaves both.
  std::vector<int> sockets;
  for (int i = 0; i < 2; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    REQUIRE(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
    sockets.push_back(fd);
  }
  const std::string request = "GET /api/info HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n";
  REQUIRE(::send(sockets[0], request.data(), request.size(), 0) == ssize_t(request.size()));
  char reply[64];
  REQUIRE(::recv(sockets[0], reply, sizeof reply, 0) > 0);
  const auto start = Clock::now();
  CHECK(server.stop() == 0);
  CHECK(seconds_since(start) < 2.5);  // cpp-httplib's default read timeout alone is 5 s
  for (const int fd : sockets) ::close(fd);
}

TEST_CASE("serve stops a search when its client goes", "[serve]") {
  // Drop 16's start is far beyond 20 s of search: it runs until its table fills (some 6 s), or
  // until its client goes.
  ServeProcess server({"--searches", "1", "--solve-ms", "20000"});
  const int port = server.port();
  const int fd = send_request(port, "GET /api/analyze?variant=drop16");
  wait_for_a_search(port);
  REQUIRE(get(port, "/api/info").body["searches_running"] == 1);
  ::close(fd);
  const auto gone = Clock::now();
  while (seconds_since(gone) < 20 && get(port, "/api/info").body["searches_running"] == 1)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(seconds_since(gone) < 2);
  // The slot is free again: the next search runs, and stops at its time limit as before.
  CHECK(get(port, "/api/analyze", {{"variant", "3x3:NK"}}).body["source"] != "busy");
  CHECK(server.stop() == 0);
}

TEST_CASE("serve stops a solve per coalition when its client goes, not holding the next",
          "[serve][nevsky]") {
  ServeProcess server({"--memory-mb", "2000"});
  const int port = server.port();
  const std::string big = "nevsky:6x6:1", small = "nevsky:3x3:1";
  // A client that waits: the whole solve of the big row.
  auto start = Clock::now();
  REQUIRE(get(port, "/api/analyze", {{"variant", big}}).status == 200);
  const double whole = seconds_since(start);
  // Another server, so that nothing is kept: the big row asked and left, then the small one,
  // which waits only for the big solve to stop, not to end.
  ServeProcess fresh({"--memory-mb", "2000"});
  const int fd = send_request(fresh.port(), "GET /api/analyze?variant=" + big);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::close(fd);
  start = Clock::now();
  const Reply r = get(fresh.port(), "/api/analyze", {{"variant", small}});
  const double after = seconds_since(start);
  CHECK(r.status == 200);
  INFO("whole solve " << whole << " s, the next request after the client went " << after << " s");
  CHECK(after < whole / 2);
  CHECK(server.stop() == 0);
  CHECK(fresh.stop() == 0);
}

TEST_CASE("serve takes many connections at once, not httplib's backlog of 5", "[serve]") {
  ServeProcess server({});
  // Stopped, the server accepts nothing: the kernel completes as many connections as the listen
  // backlog holds and drops the others' handshakes (they would retry a second later).
  ::kill(server.pid(), SIGSTOP);
  constexpr int kClients = 64;
  const sockaddr_in address = loopback(server.port());
  std::vector<pollfd> sockets;
  for (int i = 0; i < kClients; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0) break;  // counted as not connected; no REQUIRE while the server is stopped
    ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address);
    sockets.push_back({fd, POLLOUT, 0});
  }
  // A handshake on the loopback takes microseconds; a dropped one is retried only after a second.
  const auto connected = [&] {
    int n = 0;
    for (pollfd& p : sockets) {
      int error = 0;
      socklen_t length = sizeof error;
      if (::poll(&p, 1, 0) == 1 && ::getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 &&
          error == 0)
        ++n;
    }
    return n;
  };
  const auto start = Clock::now();
  int count = connected();
  while (count < kClients && seconds_since(start) < 0.9) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    count = connected();
  }
  for (const pollfd& p : sockets) ::close(p.fd);
  ::kill(server.pid(), SIGCONT);
  CHECK(count == kClients);
  CHECK(get(server.port(), "/api/info").status == 200);
}

TEST_CASE("serve lists the position and its legal moves", "[serve]") {
  ServeProcess server({});
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  for (const drop::Position& p : sample_positions(game, 15)) {
    const std::string fen = drop::to_fen(game, p);
    INFO(fen);
    const Reply r = get(server.port(), "/api/moves", {{"variant", "3x3:NBRK"}, {"fen", fen}});
    REQUIRE(r.status == 200);
    CHECK(r.body["fen"] == fen);
    CHECK(r.body["variant"] == "3x3:NBRK");
    CHECK(r.body["width"] == 3);
    CHECK(r.body["height"] == 3);
    CHECK(r.body["side_to_move"] == (p.side_to_move == drop::kWhite ? "white" : "black"));
    drop::MoveList moves;
    game.generate(p, moves);
    std::vector<std::string> names;
    for (const drop::Move m : moves) names.push_back(drop::move_name(game.geometry(), m));
    CHECK(r.body["moves"].get<std::vector<std::string>>() == names);
    CHECK(r.body["terminal"] == (moves.size() == 0));
    // The board and hands describe the same position: rebuilt as a FEN, it parses back to p.
    int pieces = 0;
    for (int sq = 0; sq < game.geometry().squares(); ++sq) {
      const auto piece = p.piece_on(sq);
      const std::string name = drop::square_name(game.geometry(), sq);
      if (!piece) {
        CHECK_FALSE(r.body["board"].contains(name));
        continue;
      }
      ++pieces;
      CHECK(r.body["board"][name] == std::string(1, drop::piece_letter(piece->type, piece->color)));
    }
    CHECK(int(r.body["board"].size()) == pieces);
    for (const drop::Color c : {drop::kWhite, drop::kBlack})
      for (const drop::PieceType t : drop::kAllPieceTypes) {
        const auto& hand = r.body["hands"][c == drop::kWhite ? "white" : "black"];
        const std::string letter(1, drop::piece_letter(t));
        CHECK(hand.value(letter, 0) == int(p.hand[c][t]));
      }
  }
  // No variant and no FEN: Drop 16's start (no tables given).
  const Reply start = get(server.port(), "/api/moves");
  CHECK(start.body["fen"] == "4/4/4/4[NNBBRRQKnnbbrrqk] w");
  CHECK(start.body["moves"].size() == 80);
}

TEST_CASE("serve plays legal moves by GET and POST and refuses illegal ones", "[serve]") {
  ServeProcess server({});
  const drop::Game game(drop::parse_variant("3x3:NBRK"));
  for (const drop::Position& p : sample_positions(game, 10)) {
    const std::string fen = drop::to_fen(game, p);
    drop::MoveList moves;
    game.generate(p, moves);
    for (int i = 0; i < moves.size(); i += 5) {
      const std::string move = drop::move_name(game.geometry(), moves[i]);
      INFO(fen << " " << move);
      drop::Position after = p;
      game.make(after, moves[i]);
      const httplib::Params params{{"variant", "3x3:NBRK"}, {"fen", fen}, {"move", move}};
      const Reply g = i % 2 ? get(server.port(), "/api/play", params)
                            : post(server.port(), "/api/play", params);
      REQUIRE(g.status == 200);
      CHECK(g.body["fen"] == drop::to_fen(game, after));
      CHECK(g.body["move"] == move);
      CHECK(g.body["previous_fen"] == fen);
    }
  }
  const int port = server.port();
  const httplib::Params start{{"variant", "3x3:NBRK"}};
  auto with = [&](const char* move) {
    httplib::Params p = start;
    p.emplace("move", move);
    return p;
  };
  check_refused(port, "/api/play", with("Q@a1"), "Q@a1");  // no queen in this variant
  check_refused(port, "/api/play", with("a1b2"), "a1b2");  // no piece to capture with
  check_refused(port, "/api/play", with("N@d4"), "d4");    // off the 3x3 board
  check_refused(port, "/api/play", with("n@a1"), "n@a1");  // lower-case drop letter
  check_refused(port, "/api/play", with(""), "move");      // empty
  check_refused(port, "/api/play", start, "missing parameter 'move'");
  const Reply refused = post(port, "/api/play", with("zz"));
  CHECK(refused.status == 400);
  CHECK(refused.body.contains("error"));
}

TEST_CASE("serve's principal line is perfect play to the end", "[serve]") {
  TempDir tmp;
  build_tables("3x3:NBK", tmp.dir / "tables");
  ServeProcess server({"--tables", (tmp.dir / "tables").string(), "--solve-ms", "120000"});
  for (const char* variant : {"3x3:NBK", "3x3:NK"}) {  // from the tables, then by search
    const drop::Game game(drop::parse_variant(variant));
    solver::ForwardSolver<drop::Game> search(game, std::uint64_t{1} << 30);
    for (const drop::Position& start : sample_positions(game, 8)) {
      const std::string fen = drop::to_fen(game, start);
      INFO(variant << " " << fen);
      const Reply r = get(server.port(), "/api/line", {{"variant", variant}, {"fen", fen}});
      REQUIRE(r.status == 200);
      CHECK(r.body["complete"] == true);
      drop::Position p = start;
      int dte = search.dte(p);
      CHECK(r.body["dte"] == dte);
      CHECK(r.body["value"] == (solver::is_win(dte) ? "win" : "loss"));
      REQUIRE(int(r.body["line"].size()) == dte);  // one ply at a time to the end
      REQUIRE(r.body["fens"].size() == r.body["line"].size());
      for (std::size_t i = 0; i < r.body["line"].size(); ++i) {
        const drop::Move m = drop::parse_move(game, p, r.body["line"][i].get<std::string>());
        game.make(p, m);
        // Each move keeps the value and brings the end one ply nearer: perfect play.
        const int next = search.dte(p);
        CHECK(next == dte - 1);
        dte = next;
        CHECK(r.body["fens"][i] == drop::to_fen(game, p));
      }
      CHECK(game.is_terminal(p));
    }
  }
}

TEST_CASE("serve answers bad requests with 400 and a message, and keeps serving",
          "[serve][parallel]") {
  ServeProcess server({});
  const int port = server.port();
  for (const char* path : {"/api/moves", "/api/analyze", "/api/line", "/api/play"}) {
    INFO(path);
    const httplib::Params move{{"move", "N@a1"}};
    auto with = [&](httplib::Params p) {
      p.insert(move.begin(), move.end());
      return p;
    };
    check_refused(port, path, with({{"fen", "4/4/4[NNBBRRQKnnbbrrqk] w"}}), "FEN");
    check_refused(port, path, with({{"fen", "4/4/4/4 w"}}), "FEN");
    check_refused(port, path, with({{"fen", "4/4/4/4[NNBBRRQKnnbbrrqk] x"}}), "FEN");
    check_refused(port, path, with({{"fen", "5/4/4/4[NNBBRRQKnnbbrrqk] w"}}), "FEN");
    check_refused(port, path, with({{"fen", "QQ2/4/4/4[NNBBRRKnnbbrrqk] w"}}), "FEN");
    check_refused(port, path, with({{"variant", "9x9:K"}}), "variant");
    check_refused(port, path, with({{"variant", "4x4:XYZ"}}), "variant");
    check_refused(port, path, with({{"variant", "chess"}}), "variant");
    check_refused(port, path, with({{"fen", std::string(5000, '4')}}), "longer than");
    check_refused(port, path, with({{"variant", std::string(300, 'x')}}), "longer than");
  }
  const Reply missing = get(port, "/api/no-such-thing");
  CHECK(missing.status == 404);
  CHECK(missing.body.contains("error"));
  // Still serving, and the page is there.
  const Reply info = get(port, "/api/info");
  CHECK(info.status == 200);
  CHECK(info.body["default_variant"] == "drop16");
  CHECK(info.body["tables_variant"].is_null());
  CHECK(info.body["solve_ms"] == 2000);
  CHECK(info.body["searches"] >= 1);
  httplib::Client client("127.0.0.1", port);
  for (const auto& [path, type, text] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"/", "text/html", "/app.js"},
           {"/index.html", "text/html", "/style.css"},
           {"/app.js", "text/javascript", "/api/analyze"},
           {"/style.css", "text/css", ".board"}}) {
    INFO(path);
    auto res = client.Get(path);
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK_THAT(res->get_header_value("Content-Type"), Catch::Matchers::StartsWith(type));
    CHECK_THAT(res->body, Catch::Matchers::Contains(text));
  }
  CHECK(server.stop() == 0);
}

TEST_CASE("drop16 serve refuses bad options with exit status 2", "[serve]") {
  TempDir tmp;
  const std::string binary = DROP16_BINARY;
  const auto run = [&](const std::string& args) {
    const std::string command =
        binary + " serve " + args + " >/dev/null 2>'" + (tmp.dir / "err").string() + "' </dev/null";
    const int raw = std::system(command.c_str());
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  };
  CHECK(run("--tables '" + (tmp.dir / "none").string() + "'") == 2);
  CHECK(run("--port 70000") == 2);
  CHECK(run("--solve-ms -1") == 2);
  CHECK(run("--searches 0") == 2);
  CHECK(run("--searches 4 --memory-mb 3") == 2);  // less than 1 MB a search
  CHECK(run("--variant chess") == 2);
  CHECK(run("--variant nevsky:9x9:1") == 2);
  // A game valued per coalition is solved before the server starts: too little memory says so.
  CHECK(run("--variant nevsky:4x4:1 --memory-mb 1") == 2);
  std::ifstream err(tmp.dir / "err");
  const std::string message((std::istreambuf_iterator<char>(err)), {});
  CHECK_THAT(message, Catch::Matchers::Contains("--memory-mb"));
}

// --- Spock (games/SPOCK.md): a ladder row's table, solved here by the library ---

namespace {

struct SpockRow {
  std::string name = "spock:3x3:RK/rk";
  spock::Material material = spock::parse_material(name);
  spock::Game game{material.width, material.height};
  std::vector<spock::Position> roots = spock::placements(material);
  solver::CyclicRetrograde<spock::Game> solved{game, roots, {}};
};

// The table serve reads, written by the library from the solver in memory.
void write_spock_table(const SpockRow& row, const fs::path& dir) {
  fs::create_directories(dir);
  std::vector<std::pair<common::Key, solver::WdlValue>> entries;
  row.solved.for_each_value(
      [&](const common::Key& k, solver::WdlValue v) { entries.emplace_back(k, v); });
  tablebase::write_wdl_table(tablebase::keyed_table_file(dir, "spock"),
                             {"spock", row.name, tablebase::key_format("spock", spock::kKeyFormat)},
                             std::move(entries));
}

json wdl_json(solver::WdlValue v) {
  return {{"value", std::string(solver::wdl_name(v.wdl))},
          {"dte", v.wdl == solver::Wdl::draw ? json(nullptr) : json(v.distance)}};
}

}  // namespace

TEST_CASE("serve answers a Spock row from its table, draws included", "[serve][spock]") {
  TempDir tmp;
  const SpockRow row;
  write_spock_table(row, tmp.dir / "tables");
  ServeProcess server({"--tables", (tmp.dir / "tables").string()});
  CHECK_THAT(server.first_line(), Catch::Matchers::Contains(row.name));
  const Reply info = get(server.port(), "/api/info");
  CHECK(info.body["default_variant"] == row.name);
  CHECK(info.body["tables_variant"] == row.name);
  const spock::Setup start = spock::parse_fen(info.body["start_fen"].get<std::string>());
  CHECK(row.solved.value(start.position).has_value());  // the page opens on a position of the row

  // Every 97th placement of the row (each value among them): the analysis
  // is the solver's, move for move, and the moves listed are the rules'.
  std::vector<spock::Position> sample;
  for (std::size_t i = 0; i < row.roots.size(); i += 97) sample.push_back(row.roots[i]);
  std::set<solver::Wdl> values_seen;
  for (const spock::Position& p : sample) {
    const std::string fen = spock::to_fen(row.game, p);
    INFO(fen);
    const Reply a = get(server.port(), "/api/analyze", {{"fen", fen}});
    REQUIRE(a.status == 200);
    const auto truth = row.solved.analyze(p);
    values_seen.insert(truth.value.wdl);
    CHECK(a.body["source"] == "tables");
    CHECK(a.body["variant"] == row.name);
    CHECK(a.body["fen"] == fen);
    CHECK(a.body["value"] == wdl_json(truth.value)["value"]);
    CHECK(a.body["dte"] == wdl_json(truth.value)["dte"]);
    REQUIRE(a.body["moves"].size() == truth.moves.size());
    const auto moves = test_support::moves_by_name(a.body["moves"]);
    for (std::size_t i = 0; i < truth.moves.size(); ++i) {
      json want = wdl_json(truth.moves[i].value);
      want["move"] = spock::move_name(row.game, truth.moves[i].move);
      REQUIRE(moves.count(want["move"]));
      CHECK(moves.at(want["move"]) ==
            json({{"move", want["move"]}, {"value", want["value"]}, {"dte", want["dte"]}}));
    }
    const Reply m = get(server.port(), "/api/moves", {{"fen", fen}});
    REQUIRE(m.status == 200);
    CHECK(m.body["game"] == "spock");
    CHECK(!m.body.contains("hands"));
    CHECK(m.body["width"] == 3);
    CHECK(m.body["side_to_move"] == (p.side_to_move == spock::kBlue ? "blue" : "red"));
    std::size_t pieces = 0;
    for (int sq = 0; sq < 9; ++sq)
      if (const auto piece = p.piece_on(sq)) {
        ++pieces;
        CHECK(m.body["board"][spock::square_name(row.game, sq)] ==
              std::string(1, spock::piece_letter(piece->type, piece->color)));
      }
    CHECK(m.body["board"].size() == pieces);
    CHECK(m.body["moves"].size() == truth.moves.size());
  }
  CHECK(values_seen.size() == 3);  // wins, draws and losses were all asked about

  // Lines: a win or loss to the end in exactly its DTE; a draw of drawing moves only, stopped.
  for (const spock::Position& p : sample) {
    const std::string fen = spock::to_fen(row.game, p);
    INFO(fen);
    const Reply l = get(server.port(), "/api/line", {{"fen", fen}});
    REQUIRE(l.status == 200);
    const solver::WdlValue v = *row.solved.value(p);
    CHECK(l.body["value"] == wdl_json(v)["value"]);
    spock::Position q = p;
    for (const auto& move : l.body["line"]) {
      row.game.make(q, spock::parse_move(row.game, q, move.get<std::string>()));
      if (v.wdl == solver::Wdl::draw) CHECK(row.solved.value(q)->wdl == solver::Wdl::draw);
    }
    if (v.wdl == solver::Wdl::draw) {
      CHECK(l.body["complete"] == false);
      CHECK((l.body["reason"] == "repetition" || l.body["reason"] == "ply limit"));
    } else {
      CHECK(l.body["complete"] == true);
      CHECK(l.body["line"].size() == std::size_t(v.distance));
      CHECK(row.game.is_terminal(q));
    }
  }

  // Playing a move gives the rules' position; another board or the 5x5 game is not in the table.
  const Reply played = get(server.port(), "/api/play", {{"fen", "r1k/3/R1K w"}, {"move", "a1a2"}});
  REQUIRE(played.status == 200);
  spock::Setup s = spock::parse_fen("r1k/3/R1K w");
  s.game.make(s.position, spock::parse_move(s.game, s.position, "a1a2"));
  CHECK(played.body["fen"] == spock::to_fen(s.game, s.position));
  // Outside the table the forward search answers what it proves within --solve-ms, never a
  // draw: on a 4x4 position, checked against the retrograde solution of all play from it; on the
  // 5x5 start, whose value is unknown, the two Spock moves that lose in 2 (c1a2, c1e2).
  const spock::Setup four = spock::parse_fen("rk2/4/4/RK2 w");
  const solver::CyclicRetrograde<spock::Game> four_solved(
      four.game, std::span<const spock::Position>(&four.position, 1), {});
  const Reply elsewhere =
      get(server.port(), "/api/analyze", {{"variant", "spock"}, {"fen", "rk2/4/4/RK2 w"}});
  REQUIRE(elsewhere.status == 200);
  CHECK(elsewhere.body["source"] == "search");
  spock::MoveList four_moves;
  four.game.generate(four.position, four_moves);
  REQUIRE(elsewhere.body["moves"].size() == std::size_t(four_moves.size()));
  const auto four_by_name = test_support::moves_by_name(elsewhere.body["moves"]);
  int known = 0;
  for (int i = 0; i < four_moves.size(); ++i) {
    spock::Position child = four.position;
    four.game.make(child, four_moves[i]);
    const solver::WdlValue truth = solver::mover_value(*four_solved.value(child));
    REQUIRE(four_by_name.count(spock::move_name(four.game, four_moves[i])));
    const auto& m = four_by_name.at(spock::move_name(four.game, four_moves[i]));
    INFO(m.dump());
    CHECK(m["value"] != "draw");
    if (m["value"] == "unknown") continue;
    ++known;
    CHECK(json({{"value", m["value"]}, {"dte", m["dte"]}}) == wdl_json(truth));
  }
  CHECK(known > 0);
  const Reply outside = get(server.port(), "/api/analyze", {{"variant", "spock"}});
  REQUIRE(outside.status == 200);
  CHECK(outside.body["value"] == "unknown");
  CHECK(outside.body["source"] == "search");
  for (const auto& m : outside.body["moves"]) {
    INFO(m.dump());
    if (m["move"] == "c1a2" || m["move"] == "c1e2")
      CHECK(json({{"value", m["value"]}, {"dte", m["dte"]}}) ==
            json({{"value", "loss"}, {"dte", 2}}));
    else
      CHECK(m["value"] == "unknown");
  }
  // The Drop 16 family still answers beside it.
  CHECK(get(server.port(), "/api/moves", {{"variant", "3x3:NBRK"}}).body["game"] == "drop16");

  // Bad Spock input: 400 naming the fault, and the server goes on.
  check_refused(server.port(), "/api/moves", {{"fen", "r1k/3/R1K x"}}, "side to move");
  check_refused(server.port(), "/api/analyze", {{"fen", "r1k/3/R1Q w"}}, "'Q'");
  check_refused(server.port(), "/api/analyze", {{"fen", "rk2/4/4/RK2 w"}}, "4x4");
  check_refused(server.port(), "/api/play", {{"fen", "r1k/3/R1K w"}, {"move", "a1a3"}}, "a1a3");
  check_refused(server.port(), "/api/play", {{"fen", "r1k/3/R1K w"}, {"move", "zz"}}, "zz");
  check_refused(server.port(), "/api/play", {{"fen", "r1k/3/R1K w"}}, "move");
  check_refused(server.port(), "/api/line", {{"variant", "spock:3x3:RK/rq"}}, "'q'");
  CHECK(get(server.port(), "/api/analyze", {{"fen", "r1k/3/R1K w"}}).status == 200);
  CHECK(server.stop() == 0);
}

TEST_CASE("drop16 serve refuses a damaged Spock table, naming it", "[serve][spock]") {
  TempDir tmp;
  const SpockRow row;
  write_spock_table(row, tmp.dir / "tables");
  const fs::path file = tablebase::keyed_table_file(tmp.dir / "tables", "spock");
  fs::resize_file(file, fs::file_size(file) - 1);
  const std::string command = std::string(DROP16_BINARY) + " serve --port 0 --tables '" +
                              (tmp.dir / "tables").string() + "' 2>'" + (tmp.dir / "err").string() +
                              "'";
  const int raw = std::system(command.c_str());
  CHECK(WEXITSTATUS(raw) == 2);
  std::ifstream in(tmp.dir / "err");
  const std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(err, Catch::Matchers::Contains(file.string()));
}

TEST_CASE("serve plays the rook race and answers what its bounded search proves",
          "[serve][rookrace]") {
  // The drawn start keeps the search busy to its deadline: a short one. No row is solved by the
  // server (--row-entries 0): the search alone answers.
  ServeProcess server({"--solve-ms", "3000", "--row-entries", "0"});
  // The position: board, reserves as hands of pawns, the counters, every legal move.
  const Reply moves = get(server.port(), "/api/moves", {{"variant", "rookrace:4x4:1"}});
  REQUIRE(moves.status == 200);
  CHECK(moves.body["game"] == "rookrace");
  CHECK(moves.body["fen"] == "3r/4/4/R3 [1,1] [-,-] w");
  CHECK(moves.body["board"] == json({{"a1", "R"}, {"d4", "r"}}));
  CHECK(moves.body["hands"] == json({{"white", {{"P", 1}}}, {"black", {{"P", 1}}}}));
  CHECK(moves.body["moves"].size() == 20);
  const Reply played =
      get(server.port(), "/api/play", {{"variant", "rookrace:4x4:1"}, {"move", "P@c3"}});
  REQUIRE(played.status == 200);
  CHECK(played.body["fen"] == "3r/2P1/4/R3 [0,1] [-,-] b");
  CHECK(played.body["hands"]["white"] == json::object());
  // Every value the search proves is the retrograde's (all play from the 4x4:1 start solved);
  // the two drawing moves stay unknown, never "draw".
  const rookrace::Game game(rookrace::parse_variant("rookrace:4x4:1"));
  const rookrace::Position start = game.start();
  const solver::CyclicRetrograde<rookrace::Game> solved(
      game, std::span<const rookrace::Position>(&start, 1), {});
  const Reply analysis = get(server.port(), "/api/analyze", {{"variant", "rookrace:4x4:1"}});
  REQUIRE(analysis.status == 200);
  CHECK(analysis.body["source"] == "search");
  const auto truth = solved.analyze(start);
  REQUIRE(analysis.body["moves"].size() == truth.moves.size());
  const auto by_name = test_support::moves_by_name(analysis.body["moves"]);
  int known = 0;
  for (std::size_t i = 0; i < truth.moves.size(); ++i) {
    REQUIRE(by_name.count(rookrace::move_name(game, truth.moves[i].move)));
    const auto& m = by_name.at(rookrace::move_name(game, truth.moves[i].move));
    INFO(m.dump());
    CHECK(m["value"] != "draw");
    if (m["value"] == "unknown") {
      CHECK(truth.moves[i].value.wdl == solver::Wdl::draw);
      continue;
    }
    ++known;
    CHECK(m["value"] == std::string(solver::wdl_name(truth.moves[i].value.wdl)));
    CHECK(m["dte"] == truth.moves[i].value.distance);
  }
  CHECK(known > 0);
  // A won 2x2 game: the principal line runs to the end.
  const Reply line = get(server.port(), "/api/line", {{"variant", "rookrace:2x2:0"}});
  REQUIRE(line.status == 200);
  CHECK(line.body["value"] == "win");
  CHECK(line.body["complete"] == true);
  CHECK(line.body["line"].size() == 3);
  // Bad input: 400 naming the fault, and the server goes on.
  check_refused(server.port(), "/api/moves", {{"variant", "rookrace:5x5:1"}}, "a side of 5");
  check_refused(server.port(), "/api/play", {{"variant", "rookrace:4x4:1"}, {"move", "P@a1"}},
                "P@a1");
  check_refused(server.port(), "/api/analyze",
                {{"variant", "rookrace:4x4:1"}, {"fen", "3r/4/4/R3 [2,1] [-,-] w"}}, "reserve");
  CHECK(get(server.port(), "/api/moves", {{"variant", "rookrace"}}).status == 200);
  CHECK(server.stop() == 0);
}

namespace {

// Asks the server for rookrace:4x4:1's start and the position after each of its moves, and checks
// every answer against the hash map's solve of the row: its source, the position's value and
// distance, every move's; returns the moves' values seen.
std::set<std::string> check_rookrace_row(int port, const std::string& source) {
  const rookrace::Game game(rookrace::parse_variant("rookrace:4x4:1"));
  const rookrace::Position start = game.start();
  const solver::CyclicRetrograde<rookrace::Game> solved(
      game, std::span<const rookrace::Position>(&start, 1), {});
  std::vector<rookrace::Position> asked = {start};
  rookrace::MoveList list;
  game.generate(start, list);
  for (const rookrace::Move& m : list) {
    rookrace::Position p = start;
    game.make(p, m);
    asked.push_back(p);
  }
  std::set<std::string> values_seen;
  for (const rookrace::Position& p : asked) {
    const std::string fen = rookrace::to_fen(game, p);
    INFO(fen);
    const Reply a = get(port, "/api/analyze", {{"variant", "rookrace:4x4:1"}, {"fen", fen}});
    REQUIRE(a.status == 200);
    CHECK(a.body["source"] == source);
    const auto truth = solved.analyze(p);
    CHECK(a.body["value"] == wdl_json(truth.value)["value"]);
    CHECK(a.body["dte"] == wdl_json(truth.value)["dte"]);
    const auto moves = test_support::moves_by_name(a.body["moves"]);
    REQUIRE(moves.size() == truth.moves.size());
    for (const auto& m : truth.moves) {
      const auto shown = moves.find(rookrace::move_name(game, m.move));
      REQUIRE(shown != moves.end());
      CHECK(shown->second["value"] == wdl_json(m.value)["value"]);
      CHECK(shown->second["dte"] == wdl_json(m.value)["dte"]);
      values_seen.insert(shown->second["value"].get<std::string>());
    }
  }
  return values_seen;
}

}  // namespace

TEST_CASE("serve solves a small row it has no tables of, draws included, and says why not others",
          "[serve][rookrace][tables]") {
  // 300 MB for the whole server: a quarter of what it does not hold at its start for a row's solve
  // (the row's plan is 64 MB), a quarter for the solves per coalition.
  ServeProcess server({"--solve-ms", "500", "--memory-mb", "300"});
  CHECK(check_rookrace_row(server.port(), "solved").count("draw"));
  // The principal line of the drawn start stops with its reason.
  const Reply line = get(server.port(), "/api/line", {{"variant", "rookrace:4x4:1"}});
  REQUIRE(line.status == 200);
  CHECK(line.body["value"] == "draw");
  CHECK(line.body["source"] == "solved");
  // A row too large for a request, and a variant that is no row: searched, with the reason.
  const Reply large = get(server.port(), "/api/analyze", {{"variant", "rookrace:8x8:1"}});
  REQUIRE(large.status == 200);
  CHECK(large.body["source"] != "solved");
  CHECK_THAT(large.body["unsolved"].get<std::string>(),
             Catch::Matchers::Contains("entries") && Catch::Matchers::Contains("--tables DIR"));
  const Reply spock_start = get(server.port(), "/api/analyze", {{"variant", "spock"}});
  REQUIRE(spock_start.status == 200);
  CHECK_THAT(spock_start.body["unsolved"].get<std::string>(),
             Catch::Matchers::Contains("not a whole variant"));
  // A game valued per coalition whose solve does not fit the server's memory: 503, not the
  // client's fault, and the server goes on.
  const Reply full = get(server.port(), "/api/analyze", {{"variant", "nevsky:6x6:1"}});
  CHECK(full.status == 503);
  CHECK_THAT(full.body["error"].get<std::string>(), Catch::Matchers::Contains("--memory-mb 300"));
  CHECK(get(server.port(), "/api/info").status == 200);
  // The row's folder goes with the server.
  const std::string folder = "drop16-row-" + std::to_string(server.pid()) + "-";
  const auto folders = [&] {
    int n = 0;
    for (const auto& e :
         std::filesystem::directory_iterator(std::filesystem::temp_directory_path()))
      n += e.path().filename().string().rfind(folder, 0) == 0;
    return n;
  };
  CHECK(folders() == 1);
  CHECK(server.stop() == 0);
  CHECK(folders() == 0);
}

TEST_CASE("serve answers the rook race from its loopy tier tables, draws included",
          "[serve][rookrace][tables]") {
  TempDir tmp;
  const rookrace::Game game(rookrace::parse_variant("rookrace:4x4:1"));
  const rookrace::TierSpace space(game);
  tablebase::LoopySolveOptions options;
  options.dir = tmp.dir / "tables";
  options.zstd_level = 1;
  tablebase::LoopyTierSolver<rookrace::TierSpace>(space, options).run();
  ServeProcess server({"--tables", options.dir.string()});
  const Reply info = get(server.port(), "/api/info");
  CHECK(info.body["tables_variant"] == "rookrace:4x4:1");
  CHECK(check_rookrace_row(server.port(), "tables") ==
        std::set<std::string>{"win", "draw", "loss"});
  CHECK(server.stop() == 0);
}

// --- Nevsky checkers (games/NEVSKY.md): values per coalition, from the solve in memory ---

namespace {

// Coalition s (bit q for player q) from the names an answer lists.
std::uint32_t coalition_of(const json& players) {
  const std::vector<std::string> names = {"white", "red", "green", "black"};
  std::uint32_t s = 0;
  for (const auto& p : players)
    s |= 1u << (std::find(names.begin(), names.end(), p.get<std::string>()) - names.begin());
  return s;
}

// Every coalition's value as an answer lists it equals the plain fixed point's at p, `plies`
// added to its distance.
void check_coalitions(const json& listed, const test_support::CoalitionFixedPoint<nevsky::Game>& fp,
                      const nevsky::Game& game, const nevsky::Position& p, int plies) {
  const auto i = fp.find(game.raw_key(p));
  REQUIRE(i);
  REQUIRE(listed.size() == 14);
  std::set<std::uint32_t> seen;
  for (const auto& c : listed) {
    INFO(c.dump());
    const std::uint32_t s = coalition_of(c["players"]);
    seen.insert(s);
    const solver::WdlValue v = fp.value(*i, s);
    CHECK(c["value"] == std::string(solver::wdl_name(v.wdl)));
    CHECK(c["distance"] == (v.wdl == solver::Wdl::draw ? json(nullptr) : json(v.distance + plies)));
  }
  CHECK(seen.size() == 14);
}

// /api/analyze along a few plies of a game from the start: every coalition's value there and after
// each move (the move's name and position too), from `source`, as the plain fixed point gives
// them.
void check_analyses_along_a_game(int port,
                                 const test_support::CoalitionFixedPoint<nevsky::Game>& fp,
                                 const nevsky::Game& game, const std::string& source) {
  nevsky::Position p = game.start();
  for (int ply = 0; ply < 4 && !game.is_terminal(p); ++ply) {
    const Reply a = get(port, "/api/analyze", {{"fen", nevsky::to_fen(game, p)}});
    REQUIRE(a.status == 200);
    CHECK(a.body["family"] == "values per coalition");
    CHECK(a.body["source"] == source);
    check_coalitions(a.body["coalitions"], fp, game, p, 0);
    nevsky::MoveList list;
    game.generate(p, list);
    REQUIRE(a.body["moves"].size() == std::size_t(list.size()));
    for (int i = 0; i < list.size(); ++i) {
      nevsky::Position after = p;
      game.make(after, list[i]);
      const json& m = a.body["moves"][i];
      CHECK(m["move"] == nevsky::move_name(game, p, list[i]));
      CHECK(m["fen"] == nevsky::to_fen(game, after));
      check_coalitions(m["coalitions"], fp, game, after, 1);
    }
    game.make(p, list[ply % list.size()]);
  }
}

}  // namespace

TEST_CASE("serve answers Nevsky checkers from its solved coalition tables, either format",
          "[serve][nevsky]") {
  const std::string variant = "nevsky:3x3:1";
  const nevsky::Game game(nevsky::parse_variant(variant));
  const nevsky::Position start = game.start();
  const test_support::CoalitionFixedPoint<nevsky::Game> fp(game, {start});
  for (const char* format : {"coalitions", "coalition-tiers"}) {
    INFO(format);
    TempDir tmp;
    const fs::path tables = tmp.dir / "tables";
    const std::string command = std::string(DROP16_BINARY) + " solve --quiet --variant " + variant +
                                " --format " + format + " --tables '" + tables.string() +
                                "' >/dev/null";
    REQUIRE(std::system(command.c_str()) == 0);
    ServeProcess server({"--tables", tables.string()});
    const int port = server.port();
    const Reply info = get(port, "/api/info");
    CHECK(info.body["tables_variant"] == variant);
    CHECK(info.body["default_variant"] == variant);
    check_analyses_along_a_game(port, fp, game, "tables");
    // Another variant of the game is solved in memory as before.
    const Reply other = get(port, "/api/analyze", {{"variant", "nevsky:3x3:1:pairs"}});
    REQUIRE(other.status == 200);
    CHECK(other.body["source"] == "solve");
    CHECK(server.stop() == 0);
  }
}

TEST_CASE("serve answers Nevsky checkers with every coalition's value of each move",
          "[serve][nevsky]") {
  const std::string variant = "nevsky:3x3:1";
  ServeProcess server({"--variant", variant});
  const int port = server.port();
  CHECK(get(port, "/api/info").body["default_variant"] == variant);
  const nevsky::Game game(nevsky::parse_variant(variant));
  const nevsky::Position start = game.start();
  const test_support::CoalitionFixedPoint<nevsky::Game> fp(game, {start});
  // The position as the page draws it: the grid's checkers, the corners, the players.
  const Reply moves = get(port, "/api/moves", {});
  REQUIRE(moves.status == 200);
  CHECK(moves.body["drawing"] == "corner_checkers");
  CHECK(moves.body["players"] == json({"white", "red", "green", "black"}));
  CHECK(moves.body["fen"] == nevsky::to_fen(game, start));
  CHECK(moves.body["board"] == json({{"13", "w"}, {"33", "r"}, {"31", "g"}, {"11", "b"}}));
  CHECK(moves.body["corners"] == json({"13", "33", "31", "11"}));
  CHECK(moves.body["side_to_move"] == "white");
  nevsky::MoveList legal;
  game.generate(start, legal);
  CHECK(moves.body["moves"].size() == std::size_t(legal.size()));
  check_analyses_along_a_game(port, fp, game, "solve");
  // A move played; no principal line; bad input refused, and the server goes on.
  const std::string first = nevsky::move_name(game, start, legal[0]);
  const Reply played = get(port, "/api/play", {{"move", first}});
  REQUIRE(played.status == 200);
  nevsky::Position after = start;
  game.make(after, legal[0]);
  CHECK(played.body["fen"] == nevsky::to_fen(game, after));
  CHECK(played.body["side_to_move"] == "red");
  check_refused(port, "/api/line", {}, "valued per coalition");
  check_refused(port, "/api/play", {{"move", "13-11"}}, "13-11");
  check_refused(port, "/api/analyze", {{"fen", "3/3/3 w"}}, "checker");
  check_refused(port, "/api/moves", {{"variant", "nevsky:9x9:1"}}, "9");
  CHECK(get(port, "/api/analyze", {}).status == 200);
  CHECK(server.stop() == 0);
}
