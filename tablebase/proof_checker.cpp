#include "tablebase/proof_checker.h"

#include <absl/container/flat_hash_map.h>

#include <memory>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "solver/outcome.h"
#include "tablebase/drop_space.h"
#include "tablebase/proof_file.h"
#include "tablebase/tablebase.h"
#include "tablebase/tier_files.h"

namespace tablebase {

namespace {

using DropTables = Tablebase<DropTierSpace>;

class Checker {
 public:
  Checker(const drop::Game& game, ProofFileReader& in, ProofCheck& report, DropTables* tables)
      : game_(game), in_(in), report_(report), tables_(tables) {}

  // Checks the record of p, which must prove that p is a win (or a loss) for its side to move.
  void check(drop::Position& p, bool win) {
    ++report_.positions;
    const std::uint8_t record = in_.get();
    if (record == solver::kLeaf) {
      const int in_play = p.pieces_in_play();
      if (p.pieces_in_hands() > report_.leaf_hand_pieces && in_play > report_.leaf_pieces_in_play)
        reject(p, "a leaf with " + std::to_string(p.pieces_in_hands()) + " pieces in hand and " +
                      std::to_string(in_play) + " in play, more than the header's " +
                      std::to_string(report_.leaf_hand_pieces) + " and " +
                      std::to_string(report_.leaf_pieces_in_play));
      ++report_.leaves;
      if (leaf_value(p) != win)
        reject(p, "the leaf is a " + value_name(!win) + ", not a " + value_name(win));
      return;
    }
    if (record == solver::kSeen) {
      const auto it = proven_.find(game_.canonical_key(p));
      if (it == proven_.end()) reject(p, "refers back to a position that was not proven before");
      if (it->second != win)
        reject(p, "refers back to a " + value_name(it->second) + " where a " + value_name(win) +
                      " is needed");
      ++report_.back_references;
      return;
    }
    drop::MoveList moves;
    game_.generate(p, moves);
    if (record == solver::kWinningMove) {
      if (!win) reject(p, "gives one move where the side to move must lose against every move");
      const int i = find(moves, solver::get_u16(in_));
      if (i < 0) reject(p, "the winning move is not a legal move");
      play_and_check(p, moves[i], false);
    } else if (record == solver::kEveryReply) {
      if (win) reject(p, "lists every reply where the side to move must have a winning move");
      const std::uint64_t listed = solver::get_varint(in_);
      if (listed != std::uint64_t(moves.size()))
        reject(p, "lists " + std::to_string(listed) + " replies of the " +
                      std::to_string(moves.size()) + " legal moves");
      std::vector<bool> seen(moves.size());
      for (std::uint64_t n = 0; n < listed; ++n) {
        const int i = find(moves, solver::get_u16(in_));
        if (i < 0) reject(p, "a listed reply is not a legal move");
        if (seen[i]) reject(p, "lists the reply " + move_name(moves[i]) + " twice");
        seen[i] = true;
        play_and_check(p, moves[i], true);
      }
    } else {
      reject(p, "unknown record type " + std::to_string(record));
    }
    proven_[game_.canonical_key(p)] = win;
  }

  std::uint64_t leaf_positions() const { return solved_.size(); }

 private:
  void play_and_check(drop::Position& p, drop::Move m, bool win) {
    line_.push_back(m);
    const drop::Undo undo = game_.make(p, m);
    check(p, win);
    game_.unmake(p, m, undo);
    line_.pop_back();
  }

  // A leaf's value: from the tables where they cover it, else by the checker's own search.
  bool leaf_value(drop::Position& p) {
    if (tables_ && tables_->covers(p)) {
      ++report_.table_leaves;
      return solver::is_win(tables_->dte(p));
    }
    return solve(p);
  }

  // Plain negamax with memoization: a leaf is small by the header's rule, so this stays cheap.
  bool solve(drop::Position& p) {
    drop::MoveList moves;
    game_.generate(p, moves);
    if (moves.empty()) return false;
    const drop::Key key = game_.canonical_key(p);
    if (const auto it = solved_.find(key); it != solved_.end()) return it->second;
    bool win = false;
    for (int i = 0; i < moves.size() && !win; ++i) {
      const drop::Undo undo = game_.make(p, moves[i]);
      win = !solve(p);
      game_.unmake(p, moves[i], undo);
    }
    solved_[key] = win;
    return win;
  }

  static int find(const drop::MoveList& moves, std::uint16_t raw) {
    for (int i = 0; i < moves.size(); ++i)
      if (moves[i].raw() == raw) return i;
    return -1;
  }

  static std::string value_name(bool win) { return win ? "win" : "loss"; }
  std::string move_name(drop::Move m) const { return drop::move_name(game_.geometry(), m); }

  [[noreturn]] void reject(const drop::Position& p, const std::string& why) const {
    std::string line;
    for (drop::Move m : line_) {
      if (!line.empty()) line += ' ';
      line += move_name(m);
    }
    throw ProofRejected("certificate rejected at " + drop::to_fen(game_, p) +
                        (line.empty() ? " (the root)" : " (after " + line + ")") + ": " + why);
  }

  const drop::Game& game_;
  ProofFileReader& in_;
  ProofCheck& report_;
  DropTables* tables_;            // may be null
  std::vector<drop::Move> line_;  // the moves from the root, for messages
  absl::flat_hash_map<drop::Key, bool> proven_, solved_;
};

}  // namespace

ProofCheck check_proof(const std::filesystem::path& file, const std::filesystem::path& tables) {
  ProofFileReader in(file);
  const solver::ProofHeader header = solver::get_header(in);
  const drop::Game game(drop::parse_variant(header.variant));
  if (!game.keys_fit())
    throw ProofRejected("variant " + header.variant + " does not fit exact 128-bit keys");
  drop::Position root = drop::parse_fen(game, header.fen);
  ProofCheck report;
  report.variant = game.variant().name();
  report.fen = drop::to_fen(game, root);
  report.win = header.win;
  report.leaf_hand_pieces = header.leaf_hand_pieces;
  report.leaf_pieces_in_play = header.leaf_pieces_in_play;
  std::unique_ptr<DropTierSpace> space;
  std::unique_ptr<DropTables> probe;
  if (!tables.empty()) {
    space = std::make_unique<DropTierSpace>(game, true, tables_max_pieces(tables));
    probe = std::make_unique<DropTables>(*space, tables);
  }
  Checker checker(game, in, report, probe.get());
  checker.check(root, header.win);
  if (!in.at_end()) throw ProofRejected("certificate has records after the end of the proof");
  report.leaf_search_positions = checker.leaf_positions();
  return report;
}

}  // namespace tablebase
