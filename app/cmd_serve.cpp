// drop16 serve: a local web page that shows what the solver knows about a position, and the small
// JSON API it runs on, for the Drop 16 family, Spock and the rook race. The handlers are templates
// over the game (a request's `variant` picks it: app/games.h), with one overload per game where
// they differ (the position's JSON, where an analysis comes from). Drop 16: answers come from the
// same calls as `query` (tables) and `solve` (forward search); positions the tables do not cover
// are searched within --solve-ms, else reported as "unknown", never guessed. Spock: answers come
// from the ladder row's table in --tables (DIR/spock.wdl), "draw" with a null DTE where play never
// ends; other positions get the wins and losses a bounded forward search (solver/cyclic_search.h)
// proves within --solve-ms, the rest "unknown" (it never proves a draw). The rook race: always
// that search (it has no tables). At most --searches searches run at once
// (solver/search_slots.h); a request that finds no search slot free within its time limit gets
// "unknown" for what it would have searched, with "source": "busy", and requests that need no
// search never queue behind searches. Every handler turns bad input into HTTP 400 {"error":
// message} and any other failure into 500, so one bad request never stops the server.
//
//   GET /                     the page (web/index.html, app.js, style.css, compiled in)
//   GET /api/info             default variant, the tables' variant, the search limits
//   GET /api/moves    variant, fen          the position (board, hands, side) and its legal moves
//   GET /api/analyze  variant, fen          the contract object of `query`, plus "source"
//                     (variant=nardy: fen, roll; the best play and its expected points)
//   GET|POST /api/play variant, fen, move   the position after a legal move
//   GET /api/line     variant, fen          the principal line: perfect play to the end
// `variant` defaults to the tables' variant (else drop16) and `fen` to the variant's start (for a
// Spock row, its pieces on the back ranks).
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
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "app/analysis.h"
#include "app/command.h"
#include "app/games.h"
#include "app/nardy_query.h"
#include "app/spock_tables.h"
#include "rules/drop/notation.h"
#include "rules/drop/parse_error.h"
#include "rules/spock/material.h"
#include "rules/spock/notation.h"
#include "solver/cyclic_search.h"
#include "solver/forward_solver.h"
#include "solver/search_slots.h"
#include "tablebase/drop_space.h"
#include "tablebase/tablebase.h"
#include "tablebase/wdl_analysis.h"
#include "web_assets.h"

namespace app {

namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

struct ServeOptions {
  std::string tables;
  std::string host = "127.0.0.1";
  int port = 8016;
  int solve_ms = 2000;
  int memory_mb = 512;
  // Half the cores: the other half stays free for the requests that need no search.
  int searches = std::max(1, int(std::thread::hardware_concurrency()) / 2);
  bool quiet = false;
};

// The client's mistake: answered with 400 and the message.
class BadRequest : public std::invalid_argument {
 public:
  explicit BadRequest(const std::string& what) : std::invalid_argument(what) {}
};

// No parameter this API takes is longer; anything longer is refused before it is parsed.
constexpr std::size_t kMaxParamLength = 256;
constexpr std::size_t kMaxPayload = 64 * 1024;

// --- forward search with a time limit ---

class SearchTimeout : public std::runtime_error {
 public:
  SearchTimeout() : std::runtime_error("search time limit reached") {}
};

using DropTables = tablebase::Tablebase<tablebase::DropTierSpace>;

// Called by the forward solver before it expands a position: stops the search at the deadline
// (checked every 1024 calls) and answers from the tables where they have the position.
struct SearchProbe {
  struct State {
    Clock::time_point deadline;
    std::uint32_t calls = 0;
    DropTables* tables = nullptr;  // only when they hold this variant
  };
  State* state;

  std::optional<int> operator()(const drop::Position& p) const {
    if ((++state->calls & 1023) == 0 && Clock::now() > state->deadline) throw SearchTimeout();
    if (state->tables && state->tables->covers(p)) {  // beyond endgame tables: search it
      try {
        return state->tables->dte(p);
      } catch (const tablebase::TableError&) {  // a tier not on disk: search it
      }
    }
    return std::nullopt;
  }
};

using Search = solver::ForwardSolver<drop::Game, SearchProbe>;

// What is known of one position, in any game: each move's value for the side that plays it, where
// known. Drop 16's DTEs become win/loss values here (solver::move_outcome), so one evaluation type,
// one JSON form and one principal line serve every game.
template <typename Move>
struct Evaluation {
  struct MoveResult {
    Move move;
    std::optional<solver::WdlValue> value;  // for the mover
  };
  std::vector<MoveResult> moves;
  // "tables", "search", "none" (nothing found in time) or "busy" (no search slot was free in time)
  std::string source;

  bool complete() const {
    for (const auto& m : moves)
      if (!m.value) return false;
    return true;
  }
  // The position's value when every move is known: its best move's (the quickest win, else a
  // draw, else the slowest loss); a position without moves is a loss in 0.
  std::optional<solver::WdlValue> value() const {
    if (!complete()) return std::nullopt;
    solver::WdlValue best{solver::Wdl::loss, 0};
    for (std::size_t i = 0; i < moves.size(); ++i)
      if (i == 0 || better(*moves[i].value, best)) best = *moves[i].value;
    return best;
  }
  // "win", "draw", "loss" or "unknown": one known winning move proves a win even when others are
  // unknown.
  std::string value_name() const {
    if (const auto v = value()) return std::string(solver::wdl_name(v->wdl));
    for (const auto& m : moves)
      if (m.value && m.value->wdl == solver::Wdl::win) return "win";
    return "unknown";
  }

  static bool better(solver::WdlValue a, solver::WdlValue b) {
    if (a.wdl != b.wdl) return a.wdl > b.wdl;
    if (a.wdl == solver::Wdl::win) return a.distance < b.distance;
    return a.wdl == solver::Wdl::loss && a.distance > b.distance;
  }
};
using DropEvaluation = Evaluation<drop::Move>;
using SpockEvaluation = Evaluation<spock::Move>;
using RookraceEvaluation = Evaluation<rookrace::Move>;

// One search slot's solver, kept for the variant it last searched, so that playing on through a
// game reuses its work.
struct SearchSlot {
  std::shared_ptr<const drop::Game> game;
  SearchProbe::State probe_state;
  std::unique_ptr<Search> search;
  // Spock's bounded forward search (solver/cyclic_search.h), kept for its board like Drop's.
  std::shared_ptr<const spock::Game> spock_game;
  std::unique_ptr<solver::CyclicSearch<spock::Game>> spock_search;
  // The rook race's, kept for its variant.
  std::shared_ptr<const rookrace::Game> rookrace_game;
  std::unique_ptr<solver::CyclicSearch<rookrace::Game>> rookrace_search;
};
using Slots = solver::SearchSlots<SearchSlot>;

// A request's search slot: taken at its first search and kept to its end (a principal line
// searches ply after ply with the same solver), or refused once for the whole request.
struct SearchClaim {
  std::optional<Slots::Lease> lease;
  bool refused = false;
};

class Service {
 public:
  // As many requests may wait for a slot as there are slots, each for one search at most.
  explicit Service(const ServeOptions& o) : options_(o), slots_(o.searches, o.searches) {
    if (o.memory_mb < o.searches)
      throw UsageError("--memory-mb " + std::to_string(o.memory_mb) + " cannot give each of " +
                       std::to_string(o.searches) + " searches 1 MB");
    if (o.tables.empty()) return;
    if (holds_spock_table(o.tables)) {
      try {
        spock_table_.emplace(open_spock_table(o.tables));
      } catch (const tablebase::TableError& e) {
        throw UsageError(e.what());
      }
      tables_variant_ = spock_table_->info().name;
      spock_row_ = spock::parse_material(tables_variant_);
      return;
    }
    int max_pieces = 0;
    try {
      tables_variant_ = tablebase::tables_variant(o.tables);
      max_pieces = tablebase::tables_max_pieces(o.tables);
    } catch (const tablebase::TableError& e) {
      throw UsageError(e.what());
    }
    tables_game_ = game(tables_variant_);
    // Endgame tables (solve --max-pieces) cover positions of few pieces; the search, which
    // probes them at its leaves, answers the rest.
    space_ = std::make_unique<tablebase::DropTierSpace>(*tables_game_, true, max_pieces);
    tables_ = std::make_unique<DropTables>(*space_, o.tables);
  }

  std::string default_variant() const {
    return tables_variant_.empty() ? std::string("drop16") : tables_variant_;
  }
  const std::string& tables_variant() const { return tables_variant_; }

  // The game of a variant's text; games are kept, so each is built once.
  std::shared_ptr<const drop::Game> game(const std::string& text) {
    const drop::Variant v = drop::parse_variant(text);
    const std::string name = v.name();
    std::lock_guard lock(games_mutex_);
    if (auto it = games_.find(name); it != games_.end()) return it->second;
    if (games_.size() >= 64) games_.clear();  // a bound on what strangers' requests can pin
    auto g = std::make_shared<const drop::Game>(v);
    games_.emplace(name, g);
    return g;
  }

  // The Spock row the tables hold, if they hold one.
  const std::optional<spock::Material>& spock_row() const { return spock_row_; }

  // Everything known about p within the time limit that ends at `deadline`.
  DropEvaluation evaluate(const std::shared_ptr<const drop::Game>& game, const drop::Position& p,
                          Clock::time_point deadline, SearchClaim& claim) {
    DropEvaluation e;
    drop::MoveList moves;
    game->generate(p, moves);
    for (const drop::Move m : moves) e.moves.push_back({m, std::nullopt});
    if (e.moves.empty()) {
      e.source = tables_for(*game) ? "tables" : "search";
      return e;
    }
    if (DropTables* t = tables_for(*game)) {
      try {
        const auto a = t->analyze(p);
        for (std::size_t i = 0; i < a.moves.size(); ++i)
          e.moves[i].value = from_child_dte(a.moves[i].outcome.dte - 1);
        e.source = "tables";
        return e;
      } catch (const tablebase::TableError&) {  // a tier is missing: search below
      } catch (const tablebase::NotCovered&) {  // beyond endgame tables: search below
      }
    }
    e.source = search_children(game, p, deadline, claim, e);
    return e;
  }

  // Spock: what the row's table holds; for a position outside it, the wins and losses a bounded
  // forward search proves before the deadline (a draw is never proven that way: "unknown").
  SpockEvaluation evaluate(const std::shared_ptr<const spock::Game>& game, const spock::Position& p,
                           Clock::time_point deadline, SearchClaim& claim) {
    SpockEvaluation e;
    spock::MoveList moves;
    game->generate(p, moves);
    for (int i = 0; i < moves.size(); ++i) e.moves.push_back({moves[i], std::nullopt});
    if (spock_table_ && game->width() == spock_row_->width &&
        game->height() == spock_row_->height) {
      const auto a = tablebase::analyze_wdl(
          *game, p, [&](const spock::Key& k) { return spock_table_->probe(k); });
      if (a) {
        for (std::size_t i = 0; i < a->moves.size(); ++i) e.moves[i].value = a->moves[i].value;
        e.source = "tables";
        return e;
      }
    }
    e.source = e.moves.empty() ? "search" : search_children(game, p, deadline, claim, e);
    return e;
  }

  // The rook race: no tables; the wins and losses a bounded forward search proves before the
  // deadline.
  RookraceEvaluation evaluate(const std::shared_ptr<const rookrace::Game>& game,
                              const rookrace::Position& p, Clock::time_point deadline,
                              SearchClaim& claim) {
    RookraceEvaluation e;
    rookrace::MoveList moves;
    game->generate(p, moves);
    for (int i = 0; i < moves.size(); ++i) e.moves.push_back({moves[i], std::nullopt});
    e.source = e.moves.empty() ? "search" : search_children(game, p, deadline, claim, e);
    return e;
  }

  const ServeOptions& options() const { return options_; }
  const Slots& slots() const { return slots_; }

 private:
  // A move's value for its mover from its child's DTE (outcome.h: odd wins, even losses).
  static solver::WdlValue from_child_dte(int child_dte) {
    const solver::MoveOutcome o = solver::move_outcome(child_dte);
    return {o.win ? solver::Wdl::win : solver::Wdl::loss, o.dte};
  }

  DropTables* tables_for(const drop::Game& game) const {
    return tables_ && game.variant() == tables_game_->variant() ? tables_.get() : nullptr;
  }

  // Fills what the forward solver finds before the deadline; the evaluation's source.
  std::string search_children(const std::shared_ptr<const drop::Game>& game,
                              const drop::Position& p, Clock::time_point deadline,
                              SearchClaim& claim, DropEvaluation& e) {
    const drop::Variant& v = game->variant();
    // The solver keeps DTEs in a byte; games that could last longer are not searched.
    const int pieces = v.hand_size(drop::kWhite) + v.hand_size(drop::kBlack);
    if (!game->keys_fit() || 2 * pieces - 1 > 255) return "none";
    SearchSlot* leased = lease(claim, deadline);
    if (!leased) return "busy";
    SearchSlot& slot = *leased;
    if (!slot.search || slot.game->variant() != v) {
      slot.search.reset();
      slot.game = game;
      slot.probe_state.tables = tables_for(*game);
      slot.search = std::make_unique<Search>(*game, slot_memory(), SearchProbe{&slot.probe_state});
    }
    slot.probe_state.deadline = deadline;
    bool found = false;
    for (auto& m : e.moves) {
      drop::Position child = p;
      game->make(child, m.move);
      try {
        m.value = from_child_dte(slot.search->dte(child));
        found = true;
      } catch (const SearchTimeout&) {
        break;
      } catch (const solver::SearchMemoryError&) {
        slot.search.reset();  // frees its table; the next search in this slot starts afresh
        break;
      }
    }
    return found ? "search" : "none";
  }

  // The games with cycles: the bounded forward search, as Drop's above, what it proves before the
  // deadline. A slot keeps one search per game, for the board (Spock) or variant it last served.
  std::string search_children(const std::shared_ptr<const spock::Game>& game,
                              const spock::Position& p, Clock::time_point deadline,
                              SearchClaim& claim, SpockEvaluation& e) {
    return cyclic_search_children(game, p, deadline, claim, e, &SearchSlot::spock_game,
                                  &SearchSlot::spock_search, [&](const spock::Game& kept) {
                                    return kept.width() == game->width() &&
                                           kept.height() == game->height();
                                  });
  }
  std::string search_children(const std::shared_ptr<const rookrace::Game>& game,
                              const rookrace::Position& p, Clock::time_point deadline,
                              SearchClaim& claim, RookraceEvaluation& e) {
    return cyclic_search_children(
        game, p, deadline, claim, e, &SearchSlot::rookrace_game, &SearchSlot::rookrace_search,
        [&](const rookrace::Game& kept) { return kept.variant() == game->variant(); });
  }
  template <typename G, typename Same>
  std::string cyclic_search_children(const std::shared_ptr<const G>& game,
                                     const typename G::Position& p, Clock::time_point deadline,
                                     SearchClaim& claim, Evaluation<typename G::Move>& e,
                                     std::shared_ptr<const G> SearchSlot::*kept_game,
                                     std::unique_ptr<solver::CyclicSearch<G>> SearchSlot::*kept,
                                     Same&& same) {
    if (!game->keys_fit()) return "none";
    SearchSlot* slot = lease(claim, deadline);
    if (!slot) return "busy";
    auto& search = slot->*kept;
    if (!search || !same(*(slot->*kept_game))) {
      search.reset();
      slot->*kept_game = game;
      search = std::make_unique<solver::CyclicSearch<G>>(*(slot->*kept_game), slot_memory());
    }
    const double seconds = std::chrono::duration<double>(deadline - Clock::now()).count();
    if (seconds <= 0) return "none";
    const auto a = search->analyze(p, {solver::kCyclicSearchMaxDepth, seconds});
    if (a.stop == solver::SearchStop::memory) search.reset();
    bool found = false;
    for (std::size_t i = 0; i < a.moves.size(); ++i)
      if (a.moves[i].value) {
        e.moves[i].value = a.moves[i].value;
        found = true;
      }
    return found ? "search" : "none";
  }

  // The request's search slot, taken at its first search; null when none came free in time.
  SearchSlot* lease(SearchClaim& claim, Clock::time_point deadline) {
    if (!claim.lease && !claim.refused) {
      claim.lease = slots_.acquire(deadline);
      claim.refused = !claim.lease;
    }
    return claim.refused ? nullptr : &**claim.lease;
  }
  // --memory-mb bounds all searches together: each slot's table gets its share.
  std::uint64_t slot_memory() const {
    return (std::uint64_t(options_.memory_mb) << 20) / slots_.size();
  }

  ServeOptions options_;
  std::string tables_variant_;
  std::shared_ptr<const drop::Game> tables_game_;
  std::unique_ptr<tablebase::DropTierSpace> space_;
  std::unique_ptr<DropTables> tables_;
  std::optional<tablebase::WdlTable> spock_table_;
  std::optional<spock::Material> spock_row_;

  std::mutex games_mutex_;
  std::map<std::string, std::shared_ptr<const drop::Game>> games_;

  Slots slots_;
};

// --- requests ---

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

// The variant and position a request names, in either game.
template <typename G>
struct Subject {
  std::shared_ptr<const G> game;
  typename G::Position position;
  std::string variant;  // as answers name it
};

// Where a Spock row's page opens: Blue's pieces along the first rank and Red's along the last, in
// R S L P K order (as the 5x5 start has them on its back ranks), Blue to move; the row's first
// placement when a side's pieces do not fit on one rank.
std::string spock_row_start(const spock::Material& m) {
  const spock::Game game(m.width, m.height);
  if (int(m.pieces[spock::kBlue].size()) > m.width || int(m.pieces[spock::kRed].size()) > m.width)
    return spock::to_fen(game, spock::placements(m).front());
  spock::Position p;
  for (const spock::Color c : {spock::kBlue, spock::kRed})
    for (std::size_t i = 0; i < m.pieces[c].size(); ++i) {
      const spock::Bitboard b =
          spock::square_bit(game.geometry().square(int(i), c == spock::kBlue ? 0 : m.height - 1));
      p.by_color[c] |= b;
      p.by_type[m.pieces[c][i]] |= b;
    }
  return spock::to_fen(game, p);
}

Subject<spock::Game> spock_subject(const httplib::Request& req, const std::string& variant) {
  const auto fen = param(req, "fen");
  const bool given = fen && !fen->empty();
  std::optional<spock::Material> row;
  if (variant != kSpockVariant) row = spock::parse_material(variant);
  spock::Setup s = spock::parse_fen(given ? *fen
                                    : row ? spock_row_start(*row)
                                          : spock::start_fen());
  if (row && (s.game.width() != row->width || s.game.height() != row->height))
    throw BadRequest("fen: a " + std::to_string(s.game.width()) + "x" +
                     std::to_string(s.game.height()) + " board, not " + row->name() + "'s");
  return {std::make_shared<const spock::Game>(s.game), s.position,
          row ? row->name() : std::string(kSpockVariant)};
}

Subject<rookrace::Game> rookrace_subject(const httplib::Request& req, const std::string& variant) {
  const auto fen = param(req, "fen");
  auto s = games::rookrace_setup(variant, fen && !fen->empty() ? fen : std::nullopt);
  const std::string name = s.game->variant().name();
  return {std::shared_ptr<const rookrace::Game>(std::move(s.game)), s.position, name};
}

Subject<drop::Game> drop_subject(Service& service, const httplib::Request& req,
                                 const std::string& variant) {
  Subject<drop::Game> s;
  s.game = service.game(variant);
  const auto fen = param(req, "fen");
  s.position = fen && !fen->empty() ? drop::parse_fen(*s.game, *fen) : s.game->start();
  s.variant = s.game->variant().name();
  return s;
}

// Calls f(subject) with the request's game and position; f is generic over the game.
template <typename F>
Json with_subject(Service& service, const httplib::Request& req, F&& f) {
  const auto given = param(req, "variant");
  const std::string variant = given && !given->empty() ? *given : service.default_variant();
  if (names_nardy(variant))  // handle_analyze answers it before coming here
    throw BadRequest(
        "variant nardy: Royal Nardy, a dice game, is served by /api/analyze only (variant=nardy, "
        "fen, roll: the best play and its expected points)");
  if (names_spock(variant)) return f(spock_subject(req, variant));
  if (games::names_rookrace(variant)) return f(rookrace_subject(req, variant));
  return f(drop_subject(service, req, variant));
}

// --- the position as the page draws it, one overload per game ---

Json position_json(const Subject<drop::Game>& s, const drop::Position& p) {
  const drop::Game& game = *s.game;
  const drop::Geometry& g = game.geometry();
  Json j;
  j["variant"] = game.variant().name();
  j["game"] = "drop16";
  j["fen"] = drop::to_fen(game, p);
  j["width"] = g.width();
  j["height"] = g.height();
  j["side_to_move"] = p.side_to_move == drop::kWhite ? "white" : "black";
  Json board = Json::object();
  for (int sq = 0; sq < g.squares(); ++sq)
    if (const auto piece = p.piece_on(sq))
      board[drop::square_name(g, sq)] =
          std::string(1, drop::piece_letter(piece->type, piece->color));
  j["board"] = board;
  Json hands = Json::object();
  for (const drop::Color c : {drop::kWhite, drop::kBlack}) {
    Json hand = Json::object();
    for (const drop::PieceType t : drop::kAllPieceTypes)
      if (p.hand[c][t]) hand[std::string(1, drop::piece_letter(t))] = p.hand[c][t];
    hands[c == drop::kWhite ? "white" : "black"] = hand;
  }
  j["hands"] = hands;
  drop::MoveList moves;
  game.generate(p, moves);
  j["moves"] = Json::array();
  for (const drop::Move m : moves) j["moves"].push_back(drop::move_name(g, m));
  j["terminal"] = moves.size() == 0;
  return j;
}

// Spock: the board (Blue upper case, Red lower case), the side to move, no hands.
Json position_json(const Subject<spock::Game>& s, const spock::Position& p) {
  const spock::Game& game = *s.game;
  Json j;
  j["variant"] = s.variant;
  j["game"] = "spock";
  j["fen"] = spock::to_fen(game, p);
  j["width"] = game.width();
  j["height"] = game.height();
  j["side_to_move"] = p.side_to_move == spock::kBlue ? "blue" : "red";
  Json board = Json::object();
  for (int sq = 0; sq < game.geometry().squares(); ++sq)
    if (const auto piece = p.piece_on(sq))
      board[spock::square_name(game, sq)] =
          std::string(1, spock::piece_letter(piece->type, piece->color));
  j["board"] = board;
  spock::MoveList moves;
  game.generate(p, moves);
  j["moves"] = Json::array();
  for (int i = 0; i < moves.size(); ++i) j["moves"].push_back(spock::move_name(game, moves[i]));
  j["terminal"] = moves.size() == 0;
  return j;
}

// The rook race: rooks and pawns (White upper case), the reserves as hands of pawns (so the page
// drops them as Drop 16's pieces, "P@c3"), the block counters, the side to move.
Json position_json(const Subject<rookrace::Game>& s, const rookrace::Position& p) {
  const rookrace::Game& game = *s.game;
  Json j;
  j["variant"] = s.variant;
  j["game"] = "rookrace";
  j["fen"] = rookrace::to_fen(game, p);
  j["width"] = game.size();
  j["height"] = game.size();
  j["side_to_move"] = p.side_to_move == rookrace::kWhite ? "white" : "black";
  Json board = Json::object();
  for (const rookrace::Color c : {rookrace::kWhite, rookrace::kBlack}) {
    const bool white = c == rookrace::kWhite;
    board[rookrace::square_name(game, p.rook[c])] = white ? "R" : "r";
    for (rookrace::Bitboard b = p.pawns[c]; b; b &= b - 1)
      board[rookrace::square_name(game, std::countr_zero(b))] = white ? "P" : "p";
  }
  j["board"] = board;
  Json hands = Json::object();
  for (const rookrace::Color c : {rookrace::kWhite, rookrace::kBlack}) {
    Json hand = Json::object();
    if (p.reserve[c]) hand["P"] = p.reserve[c];
    hands[c == rookrace::kWhite ? "white" : "black"] = hand;
  }
  j["hands"] = hands;
  j["inside"] = {{"white", p.inside[rookrace::kWhite]}, {"black", p.inside[rookrace::kBlack]}};
  rookrace::MoveList moves;
  game.generate(p, moves);
  j["moves"] = Json::array();
  for (const rookrace::Move m : moves) j["moves"].push_back(rookrace::move_name(game, m));
  j["terminal"] = moves.size() == 0;
  return j;
}

// --- answers every game shares ---

// A value as the contract prints it: a draw has no distance.
Json dte_json(const std::optional<solver::WdlValue>& v) {
  return v && v->wdl != solver::Wdl::draw ? Json(v->distance) : Json(nullptr);
}

// The contract object of `query` when everything is known; unknown values are "unknown" with a
// null DTE.
template <typename G, typename E>
Json evaluation_json(const Subject<G>& s, const typename G::Position& p, const E& e) {
  Json j;
  j["variant"] = s.variant;
  j["fen"] = fen_text(*s.game, p);
  j["value"] = e.value_name();
  j["dte"] = dte_json(e.value());
  j["moves"] = Json::array();
  for (const auto& m : e.moves)
    j["moves"].push_back({{"move", move_text(*s.game, m.move)},
                          {"value", m.value ? solver::wdl_name(m.value->wdl) : "unknown"},
                          {"dte", dte_json(m.value)}});
  j["source"] = e.source;
  return j;
}

Clock::time_point deadline_from_now(const Service& service) {
  return Clock::now() + std::chrono::milliseconds(service.options().solve_ms);
}

Json handle_analyze(Service& service, const httplib::Request& req) {
  // Royal Nardy is a dice game: the best play of a roll and its expected points, not a value and
  // a distance (app/nardy_query.h), with the player searching one ply and no database.
  if (const auto variant = param(req, "variant"); variant && names_nardy(*variant))
    return nardy_query_json(param(req, "fen"), param(req, "roll"), nullptr, 1);
  return with_subject(service, req, [&](const auto& s) {
    SearchClaim claim;
    const auto e = service.evaluate(s.game, s.position, deadline_from_now(service), claim);
    return evaluation_json(s, s.position, e);
  });
}

Json handle_moves(Service& service, const httplib::Request& req) {
  return with_subject(service, req, [&](const auto& s) { return position_json(s, s.position); });
}

Json handle_play(Service& service, const httplib::Request& req) {
  return with_subject(service, req, [&](const auto& s) {
    const std::string text = required_param(req, "move");
    auto p = s.position;
    const auto m = parse_move_text(*s.game, p, text);
    s.game->make(p, m);
    Json j = position_json(s, p);
    j["move"] = move_text(*s.game, m);
    j["previous_fen"] = fen_text(*s.game, s.position);
    return j;
  });
}

// A drawn line has no end: it is played this far, or until a position repeats.
constexpr int kMaxDrawnLinePlies = 24;

// Perfect play from the position: the winner takes the quickest win, the loser the slowest loss,
// a side that can only draw a drawing move, the first such move in generation order on ties (so
// the line is the same on every request). A won or lost line runs to the end ("complete": true);
// one stops with "complete": false and a "reason" where values are no longer known ("unknown"),
// or, in a draw, at a repetition ("repetition") or after kMaxDrawnLinePlies ("ply limit").
Json handle_line(Service& service, const httplib::Request& req) {
  return with_subject(service, req, [&](const auto& s) {
    const auto deadline = deadline_from_now(service);
    SearchClaim claim;
    Json j;
    j["variant"] = s.variant;
    j["fen"] = fen_text(*s.game, s.position);
    Json line = Json::array(), fens = Json::array();
    auto p = s.position;
    bool complete = false;
    std::string reason = "unknown";
    std::optional<solver::WdlValue> first;
    std::string source;
    std::set<std::string> seen = {fen_text(*s.game, p)};
    for (int ply = 0; ply <= 255; ++ply) {
      const auto e = service.evaluate(s.game, p, deadline, claim);
      if (ply == 0) source = e.source;
      const auto value = e.value();
      if (!value) break;
      if (ply == 0) first = value;
      if (e.moves.empty()) {
        complete = true;
        break;
      }
      if (value->wdl == solver::Wdl::draw && ply == kMaxDrawnLinePlies) {
        reason = "ply limit";
        break;
      }
      const auto best = std::find_if(e.moves.begin(), e.moves.end(),
                                     [&](const auto& m) { return *m.value == *value; });
      line.push_back(move_text(*s.game, best->move));  // there is one: the value is a move's
      s.game->make(p, best->move);
      fens.push_back(fen_text(*s.game, p));
      if (!seen.insert(fens.back().template get<std::string>()).second) {
        reason = "repetition";
        break;
      }
    }
    j["value"] = first ? Json(solver::wdl_name(first->wdl)) : Json("unknown");
    j["dte"] = dte_json(first);
    j["line"] = line;
    j["fens"] = fens;
    j["complete"] = complete;
    j["reason"] = complete ? Json(nullptr) : Json(reason);
    j["source"] = source;
    return j;
  });
}

Json handle_info(Service& service) {
  Json j;
  j["default_variant"] = service.default_variant();
  j["tables_variant"] =
      service.tables_variant().empty() ? Json(nullptr) : Json(service.tables_variant());
  j["solve_ms"] = service.options().solve_ms;
  j["searches"] = service.slots().size();
  j["searches_running"] = service.slots().running();
  j["searches_waiting"] = service.slots().waiting();
  if (const auto& row = service.spock_row())
    j["start_fen"] = spock_row_start(*row);
  else
    j["start_fen"] = drop::to_fen(*service.game(service.default_variant()),
                                  service.game(service.default_variant())->start());
  return j;
}

void send_json(httplib::Response& res, int status, const Json& j) {
  res.status = status;
  res.set_header("Cache-Control", "no-store");
  res.set_content(j.dump(), "application/json");
}

void send_error(httplib::Response& res, int status, const std::string& message) {
  send_json(res, status, Json{{"error", message}});
}

// Runs a handler and answers any failure as JSON: bad input 400, anything else 500.
template <typename Handler>
httplib::Server::Handler guarded(Handler handler) {
  return [handler](const httplib::Request& req, httplib::Response& res) {
    try {
      send_json(res, 200, handler(req));
    } catch (const std::invalid_argument& e) {  // BadRequest, ParseError, bad variants
      send_error(res, 400, e.what());
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
  Service service(o);
  httplib::Server server;
  // Searches hold at most two threads per slot (one searching, one waiting); the others answer
  // everything else. A connection holds its thread while the client keeps it alive (a browser
  // opens up to six), so this many clients are served at once however busy the searches are.
  constexpr int kThreadsBesideSearches = 16;
  const int threads = 2 * o.searches + kThreadsBesideSearches;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(kMaxPayload);
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
  cmd->add_option("--host", o->host, "address to listen on")->capture_default_str();
  cmd->add_option("--port", o->port, "port to listen on (0: any free port)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  cmd->add_option("--solve-ms", o->solve_ms,
                  "time limit of the forward search for positions the tables do not cover")
      ->check(CLI::Range(0, 600000))
      ->capture_default_str();
  cmd->add_option("--memory-mb", o->memory_mb,
                  "memory cap of the forward searches' tables, shared evenly among --searches")
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
