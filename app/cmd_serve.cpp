// drop16 serve: a local web page that shows what the solver knows about a position, and the small
// JSON API it runs on, for every registry game with the page view (rules/registry.h), and the
// dice player's answers for dice games. Only requests and JSON are handled here: the answers come
// from the oracle (tablebase/oracle.h: the tables given with --tables first, then a small whole
// variant solved when first asked for (--row-entries), then a forward search within --solve-ms;
// what it cannot find in time is "unknown", never guessed), the position's
// JSON from the game's entry, the dice games' from app/dice_player.h. A request's
// `variant` picks the game through the registry; the handlers are templates over its entry. At most
// --searches searches run at once; a request that finds no search slot free within its time limit
// gets "unknown" for what it would have searched, with "source": "busy", and requests that need no
// search never queue behind searches. A search or a solve per coalition stops when its client
// goes (app/client_connection.h); a row's solve runs on, as it is kept for the requests after.
// Every handler turns bad input into HTTP 400 {"error":
// message} and any other failure into 500, so one bad request never stops the server.
//
//   GET /                     the page (web/index.html, app.js, style.css, compiled in)
//   GET /api/info             default variant, the tables' variant, the search limits
//   GET /api/moves    variant, fen          the position (board, hands, side) and its legal moves
//                     (a dice game: fen, roll; what `moves --json` gives, with "game")
//   GET /api/analyze  variant, fen          the contract object of `query`, plus "source"
//                     (a dice game: fen, roll; the best play and its expected points; a game
//                     valued per coalition: every coalition's value there and after each move,
//                     app/serve_coalitions.h)
//   GET|POST /api/play variant, fen, move   the position after a legal move
//   GET /api/line     variant, fen          the principal line: perfect play to the end (not for
//                     a game valued per coalition: there is no one perfect play)
// `variant` defaults to --variant, else the tables' variant, else the registry's first, and `fen`
// to the variant's start (for a Spock row, its pieces on the back ranks).
#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/client_connection.h"
#include "app/command.h"
#include "app/dice_game.h"
#include "app/dice_player.h"
#include "app/games.h"
#include "app/resources.h"
#include "app/serve_coalitions.h"
#include "tablebase/analysis_json.h"
#include "tablebase/oracle.h"
#include "web_assets.h"

namespace app {

namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

struct ServeOptions {
  std::string tables;
  std::string variant;  // where the page opens (default: the tables', else the registry's first)
  std::string host = "127.0.0.1";
  int port = 8016;
  int solve_ms = 2000;
  int memory_mb = 512;
  std::uint64_t row_entries = tablebase::RowSolveLimits{}.max_entries;
  // Half the cores: the other half stays free for the requests that need no search.
  int searches = std::max(1, int(std::thread::hardware_concurrency()) / 2);
  bool quiet = false;
};

// The client's mistake: answered with 400 and the message.
class BadRequest : public std::invalid_argument {
 public:
  explicit BadRequest(const std::string& what) : std::invalid_argument(what) {}
};

// A request the server cannot answer within its limits (its memory): answered with 503, as it is
// not the client's fault.
class ServerFull : public std::runtime_error {
 public:
  explicit ServerFull(const std::string& what) : std::runtime_error(what) {}
};

// No parameter this API takes is longer; anything longer is refused before it is parsed.
constexpr std::size_t kMaxParamLength = 256;
constexpr std::size_t kMaxPayload = 64 * 1024;

// --- requests ---

// --memory-mb is the whole server's: what the process holds when it starts (binary, libraries)
// is taken first, and the rest shared by what grows with requests: half for the searches' tables
// (each search its share), a quarter for the games valued per coalition solved in memory, a
// quarter for a row being solved into tables (tablebase/row_solves.h).
struct MemoryShares {
  std::uint64_t searches, coalition_solves, row_solve;
};

MemoryShares memory_shares(int memory_mb) {
  const std::uint64_t cap = std::uint64_t(memory_mb) << 20;
  const std::uint64_t held = resident_bytes();
  if (held >= cap)
    throw UsageError("the server holds " + solver::size_text(held) +
                     " when it starts, before any request");
  const std::uint64_t left = cap - held;
  return {left / 2, left / 4, left / 4};
}

class Service {
 public:
  explicit Service(const ServeOptions& o) : Service(o, memory_shares(o.memory_mb)) {}

 private:
  Service(const ServeOptions& o, MemoryShares shares)
      : options_(o),
        oracle_(o.tables, {o.searches, shares.searches, {o.row_entries, shares.row_solve}}),
        coalitions_(shares.coalition_solves, o.tables),
        default_variant_(!o.variant.empty()         ? o.variant
                         : tables_variant().empty() ? registry::default_variant()
                                                    : tables_variant()) {}

 public:
  const ServeOptions& options() const { return options_; }
  tablebase::Oracle& oracle() { return oracle_; }
  CoalitionAnswers& coalitions() { return coalitions_; }
  const std::string& default_variant() const { return default_variant_; }
  // The variant --tables holds (two-player tables or coalition tables), empty for none.
  std::string tables_variant() const {
    return oracle_.tables_variant().empty() ? coalitions_.tables_variant()
                                            : oracle_.tables_variant();
  }

 private:
  ServeOptions options_;
  tablebase::Oracle oracle_;
  CoalitionAnswers coalitions_;
  std::string default_variant_;
};

// --variant: a game the server serves with a page; one valued per coalition has its start
// solved now. Bad input is a UsageError naming what is wrong.
void open_variant(Service& service, const std::string& variant) {
  try {
    registry::visit(variant, [&](auto e) {
      using E = decltype(e);
      if constexpr (!E::info.commands.has(registry::Command::serve)) {
        throw UsageError(app::refusal(registry::Command::serve, E::info, variant));
      } else {
        const std::string name = E::normalized(variant);
        if constexpr (E::info.family == registry::ValueFamily::coalition_values) {
          auto s = E::setup(variant, std::nullopt);
          service.coalitions().template prepare<E>(
              name, std::shared_ptr<const typename E::Game>(std::move(s.game)), s.position);
        }
      }
    });
  } catch (const common::ParseError& e) {
    throw UsageError(std::string("--variant: ") + e.what());
  } catch (const solver::CyclicMemoryError& e) {
    throw UsageError("--variant " + variant + ": " + e.what() + " (raise --memory-mb)");
  }
}

// The oracle, or bad input: a directory without tables, a damaged table, a cap too small, a
// --variant that names no game the server serves, or one valued per coalition whose start does
// not solve under --memory-mb (solved here, before the server starts, so that it says so).
std::unique_ptr<Service> open_service(const ServeOptions& o) {
  std::unique_ptr<Service> service;
  try {
    service = std::make_unique<Service>(o);
  } catch (const tablebase::TableError& e) {
    throw UsageError(e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError("--memory-mb " + std::to_string(o.memory_mb) + ": " + e.what());
  }
  if (!o.variant.empty()) open_variant(*service, o.variant);
  return service;
}

std::optional<std::string> param(const httplib::Request& req, const char* name) {
  if (!req.has_param(name)) return std::nullopt;
  std::string value = req.get_param_value(name);
  if (value.size() > kMaxParamLength)
    throw BadRequest("parameter '" + std::string(name) + "' is longer than " +
                     std::to_string(kMaxParamLength) + " characters");
  return value;
}

std::string required_param(const httplib::Request& req, const char* name) {
  auto value = param(req, name);
  if (!value) throw BadRequest("missing parameter '" + std::string(name) + "'");
  return *value;
}

// The variant and position a request names, in game E.
template <typename E>
struct Subject {
  using Entry = E;
  std::shared_ptr<const typename E::Game> game;
  typename E::Game::Position position;
  std::string variant;  // as answers name it
};

template <typename E>
Subject<E> subject_of(const httplib::Request& req, const std::string& variant) {
  const auto fen = param(req, "fen");
  auto s = E::setup(variant, fen && !fen->empty() ? *fen : E::start_fen(variant));
  return {std::shared_ptr<const typename E::Game>(std::move(s.game)), s.position,
          E::normalized(variant)};
}

std::string request_variant(const Service& service, const httplib::Request& req) {
  const auto given = param(req, "variant");
  return given && !given->empty() ? *given : service.default_variant();
}

// Calls f(subject) with the request's game and position, for a board game the page draws (a
// dice game's page asks /api/moves and /api/analyze instead); f is generic over the game.
template <typename F>
Json with_subject(Service& service, const httplib::Request& req, F&& f) {
  const std::string variant = request_variant(service, req);
  return registry::visit(variant, [&](auto e) -> Json {
    using E = decltype(e);
    if constexpr (!E::info.commands.has(registry::Command::serve))
      throw BadRequest(app::refusal(registry::Command::serve, E::info, variant, "variant"));
    else if constexpr (E::info.views.has(registry::View::page) && !E::info.dice)
      return f(subject_of<E>(req, variant));
    else
      throw BadRequest("variant " + variant + ": " + std::string(E::info.title) +
                       (E::info.dice ? " is a dice game, served by /api/analyze and /api/moves"
                                     : " has no page view, and is served by /api/analyze") +
                       " only");
  });
}

// What the page draws by (rules/game_entry.h): the game's drawing and its sides' names, by index;
// the game's name only names it.
template <typename E>
void add_drawing(Json& j) {
  j["game"] = E::info.id;
  j["drawing"] = registry::drawing_name(E::info.drawing);
  j["players"] = Json::array();
  for (const std::string_view player : E::kPlayers) j["players"].push_back(player);
}

// The position as the page draws it: the game's own JSON (rules/<game>/entry.h) between the
// names and the moves every game has.
template <typename E>
Json position_json(const Subject<E>& s, const typename E::Game::Position& p) {
  Json j;
  j["variant"] = s.variant;
  add_drawing<E>(j);
  j["fen"] = E::fen(*s.game, p);
  j.update(E::position_json(*s.game, p));
  typename E::Game::MoveList moves;
  s.game->generate(p, moves);
  j["moves"] = Json::array();
  for (int i = 0; i < moves.size(); ++i)
    j["moves"].push_back(registry::move_text<E>(*s.game, p, moves[i]));
  j["terminal"] = moves.size() == 0;
  return j;
}

// The contract object of `query` (tablebase/analysis_json.h) with the evaluation's source:
// unknown values are "unknown" with a null DTE, and one known winning move makes the position
// "win" even when others are unknown.
template <typename E>
Json evaluation_json(const Subject<E>& s, const typename E::Game::Position& p,
                     const tablebase::Evaluation<typename E::Game::Move>& e) {
  std::vector<tablebase::MoveValue> moves;
  for (const auto& m : e.moves)
    moves.push_back({registry::move_text<E>(*s.game, p, m.move), m.value});
  Json j = tablebase::analysis_json(s.variant, E::fen(*s.game, p), e.value(), moves);
  j["value"] = e.value_name();
  j["source"] = e.source;
  if (!e.unsolved.empty()) j["unsolved"] = e.unsolved;
  return j;
}

// The search's limit: --solve-ms from now, or until the client goes.
tablebase::SearchLimit search_limit(const Service& service, const ClientConnection& client) {
  return {Clock::now() + std::chrono::milliseconds(service.options().solve_ms),
          client.stop_check()};
}

// A game valued per coalition: every coalition's value at the position and after each move
// (app/serve_coalitions.h); a solve that does not fit in the server's memory is no fault of the
// request: 503 with the solver's words. The solve stops when the client goes.
template <typename E>
Json coalition_analysis(Service& service, const std::string& variant,
                        const std::shared_ptr<const typename E::Game>& game,
                        const typename E::Game::Position& p, const ClientConnection& client) {
  try {
    return service.coalitions().template analysis<E>(variant, game, p, client.stop_check());
  } catch (const solver::CyclicMemoryError& e) {
    throw ServerFull(std::string(e.what()) + " (the server's memory, --memory-mb " +
                     std::to_string(service.options().memory_mb) + ", cannot hold this solve)");
  }
}

Json handle_analyze(Service& service, const httplib::Request& req) {
  const std::string variant = request_variant(service, req);
  const ClientConnection client(req);
  return registry::visit(variant, [&](auto e) -> Json {
    using E = decltype(e);
    // A dice game's answer is the best play of a roll and its expected points, not a value and
    // a distance (app/dice_player.h), with the player searching one ply and no database.
    if constexpr (E::info.solvers.has(registry::Solver::dice_player)) {
      return dice_player_json<E>(variant, param(req, "fen"), param(req, "roll"), 1);
    } else if constexpr (E::info.family == registry::ValueFamily::coalition_values &&
                         E::info.commands.has(registry::Command::serve)) {
      const auto s = subject_of<E>(req, variant);
      return coalition_analysis<E>(service, s.variant, s.game, s.position, client);
    } else if constexpr (E::info.views.has(registry::View::page)) {
      const auto s = subject_of<E>(req, variant);
      tablebase::Oracle::Claim claim;
      const auto ev = service.oracle().template evaluate<E>(s.variant, s.game, s.position,
                                                            search_limit(service, client), claim);
      return evaluation_json(s, s.position, ev);
    } else {
      throw BadRequest(app::refusal(registry::Command::serve, E::info, variant, "variant"));
    }
  });
}

Json handle_moves(Service& service, const httplib::Request& req) {
  const std::string variant = request_variant(service, req);
  return registry::visit(variant, [&](auto e) -> Json {
    using E = decltype(e);
    if constexpr (E::info.dice) {
      // What `moves --json` prints (a roll's plays, or the rolls still to pick from, or a
      // finished game's points), as the page draws it.
      const auto fen = param(req, "fen");
      auto s = E::setup(variant, fen && !fen->empty() ? fen : std::nullopt);
      set_roll<E>(s, param(req, "roll"));
      Json j = dice_moves_json<E>(s);
      add_drawing<E>(j);
      return j;
    } else {
      return with_subject(service, req,
                          [&](const auto& s) { return position_json(s, s.position); });
    }
  });
}

Json handle_play(Service& service, const httplib::Request& req) {
  return with_subject(service, req, [&](const auto& s) {
    using E = typename std::remove_cvref_t<decltype(s)>::Entry;
    const std::string text = required_param(req, "move");
    auto p = s.position;
    const auto m = E::parse_move(*s.game, p, text);
    s.game->make(p, m);
    Json j = position_json(s, p);
    j["move"] = registry::move_text<E>(*s.game, s.position, m);
    j["previous_fen"] = E::fen(*s.game, s.position);
    return j;
  });
}

// A drawn line has no end: it is played this far, or until a position repeats.
constexpr int kMaxDrawnLinePlies = 24;

// Perfect play from the position (tablebase::Oracle::line): the moves and the positions after
// them, "complete" when played to the end, else the "reason" it stopped.
Json handle_line(Service& service, const httplib::Request& req) {
  return with_subject(service, req, [&](const auto& s) -> Json {
    using E = typename std::remove_cvref_t<decltype(s)>::Entry;
    if constexpr (E::info.family == registry::ValueFamily::coalition_values)
      throw BadRequest("variant " + s.variant + ": " + std::string(E::info.title) +
                       " is valued per coalition of players, with no one perfect line; "
                       "/api/analyze gives every coalition's value of each move");
    else {
      const ClientConnection client(req);
      const auto line = service.oracle().template line<E>(
          s.variant, s.game, s.position, search_limit(service, client), kMaxDrawnLinePlies);
      Json j;
      j["variant"] = s.variant;
      j["fen"] = E::fen(*s.game, s.position);
      Json moves = Json::array(), fens = Json::array();
      for (std::size_t i = 0; i < line.moves.size(); ++i) {
        moves.push_back(registry::move_text<E>(*s.game, i == 0 ? s.position : line.positions[i - 1],
                                               line.moves[i]));
        fens.push_back(E::fen(*s.game, line.positions[i]));
      }
      j.update(tablebase::value_json(line.value));
      j["line"] = moves;
      j["fens"] = fens;
      j["complete"] = line.complete;
      j["reason"] = line.complete ? Json(nullptr) : Json(line.reason);
      j["source"] = line.source;
      return j;
    }
  });
}

Json handle_info(Service& service) {
  Json j;
  const tablebase::Oracle& oracle = service.oracle();
  j["default_variant"] = service.default_variant();
  j["tables_variant"] =
      service.tables_variant().empty() ? Json(nullptr) : Json(service.tables_variant());
  j["solve_ms"] = service.options().solve_ms;
  j["searches"] = oracle.slots().size();
  j["searches_running"] = oracle.slots().running();
  j["searches_waiting"] = oracle.slots().waiting();
  j["start_fen"] = oracle.tables_start_fen();
  if (oracle.tables_variant().empty())
    registry::visit(service.default_variant(), [&](auto e) {
      if constexpr (decltype(e)::info.views.has(registry::View::page))
        j["start_fen"] = decltype(e)::start_fen(service.default_variant());
    });
  return j;
}

void send_json(httplib::Response& res, int status, const Json& j) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(j.dump(), "application/json");
}

// The libraries word bad input as the command line gives it ("--roll: ..."); the page gives it
// as the request's parameters, which bear the same names without the dashes.
std::string in_request_words(const std::string& message) {
  static const std::regex flag("--(variant|fen|roll|moves?)\\b");
  return std::regex_replace(message, flag, "$1");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, status, Json{{"error", in_request_words(message)}});
}

// Runs a handler and answers any failure as JSON: bad input 400, anything else 500.
template <typename Handler>
httplib::Server::Handler guarded(Handler handler) {
  return [handler](const httplib::Request& req, httplib::Response& res) {
    try {
      send_json(res, 200, handler(req));
    } catch (const std::invalid_argument& e) {  // BadRequest, ParseError, bad variants
      send_error(res, 400, e.what());
    } catch (const ServerFull& e) {
      send_error(res, 503, e.what());
    } catch (const solver::StopAsked&) {  // the client has gone: no one reads this
      send_error(res, 503, "the request's client has gone");
    } catch (const std::bad_alloc&) {
      send_error(res, 500, "out of memory");
    } catch (const std::exception& e) {
      send_error(res, 500, e.what());
    }
  };
}

void add_routes(httplib::Server& server, Service& service) {
  for (const web::Asset& asset : web::kAssets) {
    const std::string path = asset.path;
    const auto serve = [asset](const httplib::Request&, httplib::Response& res) {
      res.set_content(reinterpret_cast<const char*>(asset.data), asset.size, asset.type);
    };
    server.Get(path, serve);
    if (path == "/index.html") server.Get("/", serve);
  }
  server.Get("/api/info", guarded([&](const httplib::Request&) { return handle_info(service); }));
  server.Get("/api/moves",
             guarded([&](const httplib::Request& req) { return handle_moves(service, req); }));
  server.Get("/api/analyze",
             guarded([&](const httplib::Request& req) { return handle_analyze(service, req); }));
  const auto play = guarded([&](const httplib::Request& req) { return handle_play(service, req); });
  server.Get("/api/play", play);
  server.Post("/api/play", play);
  server.Get("/api/line",
             guarded([&](const httplib::Request& req) { return handle_line(service, req); }));
  // Unknown paths and methods: JSON like every other error (the body is empty only when no
  // handler answered).
  server.set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request& req, httplib::Response& res) -> httplib::Server::HandlerResponse {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        send_error(res, res.status,
                   res.status == 404 ? "no such page: " + req.path
                                     : "request refused (HTTP " + std::to_string(res.status) + ")");
        return httplib::Server::HandlerResponse::Handled;
      }));
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res,
                                  std::exception_ptr) { send_error(res, 500, "internal error"); });
}

void run_serve(const ServeOptions& o) {
  const std::unique_ptr<Service> opened = open_service(o);
  Service& service = *opened;
  httplib::Server server;
  // Searches hold at most two threads per slot (one searching, one waiting); the others answer
  // everything else. A connection holds its thread while the client keeps it alive (a browser
  // opens up to six), so this many clients are served at once however busy the searches are.
  constexpr int kThreadsBesideSearches = 16;
  const int threads = 2 * o.searches + kThreadsBesideSearches;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(kMaxPayload);
  // A stop waits for every connection's thread, and an idle one (a browser keeps some open) waits
  // for its read to time out: cpp-httplib's 5 s made Ctrl-C take as long. A local page's client
  // sends its request at once and reconnects at no cost.
  server.set_read_timeout(1, 0);
  server.set_keep_alive_timeout(1);
  add_routes(server, service);
  if (!o.quiet)
    server.set_logger([](const httplib::Request& req, const httplib::Response& res) {
      std::fprintf(stderr, "%s %s %d\n", req.method.c_str(), req.path.c_str(), res.status);
    });

  // cpp-httplib listens with a backlog of 5: clients connecting at once beyond that are dropped
  // and retry a second later. The listening socket is caught as it is made and, once bound, given
  // the system's backlog (Linux lets listen() raise it on a listening socket).
  socket_t listening = -1;
  server.set_socket_options([&listening](socket_t sock) {
    httplib::default_socket_options(sock);
    listening = sock;
  });
  const int port = o.port == 0 ? server.bind_to_any_port(o.host)
                               : (server.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port < 0)
    throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port));
  ::listen(listening, SOMAXCONN);

  // SIGINT and SIGTERM stop the server cleanly: blocked here (and so in every thread started
  // from now on), and waited for by one thread that stops the server.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::thread([&server, stop_signals] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server.stop();
  }).detach();

  std::cout << "drop16 serve: http://" << o.host << ":" << port << "/ (variant "
            << service.default_variant()
            << (o.tables.empty() ? std::string(", no tables") : ", tables " + o.tables) << ")"
            << std::endl;
  if (!server.listen_after_bind()) throw std::runtime_error("the server stopped on an error");
}

}  // namespace

void register_serve(CLI::App& app) {
  auto o = std::make_shared<ServeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "serve",
      "a local web page to explore and play positions, with every move's value, over a JSON API");
  cmd->add_option("--tables", o->tables, "directory of solved tables to answer from");
  cmd->add_option("--variant", o->variant,
                  "the variant the page opens (default: the tables', else " +
                      registry::default_variant() +
                      "); a game valued per coalition is solved in memory, under --memory-mb, "
                      "before the server starts");
  cmd->add_option("--host", o->host, "address to listen on")->capture_default_str();
  cmd->add_option("--port", o->port, "port to listen on (0: any free port)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  cmd->add_option("--solve-ms", o->solve_ms,
                  "time limit of the forward search for positions the tables do not cover")
      ->check(CLI::Range(0, 600000))
      ->capture_default_str();
  cmd->add_option("--row-entries", o->row_entries,
                  "a whole variant with loopy tier tables that --tables does not hold, of at most "
                  "this many entries, is solved when a request first asks for it (0: none)")
      ->check(unsigned_64())
      ->capture_default_str();
  cmd->add_option("--memory-mb", o->memory_mb,
                  "the whole server's memory: beyond what it holds at its start, half for the "
                  "searches' tables, a quarter for solves per coalition, a quarter for row solves")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  cmd->add_option("--searches", o->searches,
                  "forward searches that may run at once (default: half the cores); a request "
                  "finding all busy within --solve-ms gets \"source\": \"busy\"")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_flag("--quiet", o->quiet, "no request log on stderr");
  cmd->callback([o] { run_serve(*o); });
}

}  // namespace app
