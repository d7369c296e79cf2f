#include "rules/drop/solve/proof_checker.h"

#include <absl/container/flat_hash_map.h>

#include <memory>
#include <optional>
#include <vector>

#include "rules/drop/game.h"
#include "rules/drop/notation.h"
#include "rules/drop/solve/tier_space.h"
#include "solver/progress.h"
#include "solver/size_text.h"
#include "tablebase/proof_file.h"
#include "tablebase/tier_files.h"
#include "tablebase/value_tables.h"

namespace drop {

namespace {

using ValueBits = tablebase::ValueTables<TierSpace>;
using KeyMap = absl::flat_hash_map<drop::Key, bool>;

// A map's slot holds one entry and has one control byte.
constexpr std::uint64_t kSlotBytes = sizeof(KeyMap::value_type) + 1;

std::uint64_t map_bytes(const KeyMap& m) {
  return m.capacity() * kSlotBytes;
}

// What one more entry adds to a map at its largest: nothing while it has room; when it is full
// (absl fills at most 7/8 of the slots) an array of twice the slots, held beside the old one
// while the entries move over.
std::uint64_t growth_bytes(const KeyMap& m) {
  const std::uint64_t capacity = m.capacity();
  return m.size() < capacity * 7 / 8 ? 0 : (2 * capacity + 1) * kSlotBytes;
}

// What tablebase::ValueTables holds once it has loaded every tier on disk: a bit a stored position,
// in 64-bit words.
std::uint64_t value_bits_on_disk(const TierSpace& space, const std::filesystem::path& dir) {
  std::uint64_t bytes = 0;
  for (int t = 0; t < space.tier_count(); ++t)
    if (std::filesystem::exists(tablebase::value_path(dir, space.tier_name(t))))
      bytes += 8 * ((space.tier_size(t) + 63) / 64);
  return bytes;
}

class Checker {
 public:
  // `tables` may be null; it decides positions of at most `table_max_pieces` pieces in play.
  Checker(const drop::Game& game, tablebase::ProofFileReader& in, ProofCheck& report,
          ValueBits* tables, int table_max_pieces, std::uint64_t memory_bytes,
          solver::Progress& progress)
      : game_(game),
        in_(in),
        report_(report),
        tables_(tables),
        table_max_pieces_(table_max_pieces),
        memory_bytes_(memory_bytes),
        progress_(progress) {}

  // Checks the record of p, which must prove that p is a win (or a loss) for its side to move.
  void check(drop::Position& p, bool win) {
    ++report_.positions;
    progress_.add_to_rate(1);
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
      // Progress counts the replies of the first position that lists them all (the root, when
      // it loses): the natural unit of a long check.
      const bool counts_progress = !progress_level_taken_;
      if (counts_progress) {
        progress_level_taken_ = true;
        progress_.set_total(listed);
      }
      std::vector<bool> seen(moves.size());
      for (std::uint64_t n = 0; n < listed; ++n) {
        const int i = find(moves, solver::get_u16(in_));
        if (i < 0) reject(p, "a listed reply is not a legal move");
        if (seen[i]) reject(p, "lists the reply " + move_name(moves[i]) + " twice");
        seen[i] = true;
        play_and_check(p, moves[i], true);
        if (counts_progress) progress_.advance();
      }
    } else {
      reject(p, "unknown record type " + std::to_string(record));
    }
    make_room(proven_);
    proven_[game_.canonical_key(p)] = win;
  }

  std::uint64_t table_bytes() const { return tables_ ? tables_->bytes_loaded() : 0; }

 private:
  void play_and_check(drop::Position& p, drop::Move m, bool win) {
    line_.push_back(m);
    const drop::Undo undo = game_.make(p, m);
    check(p, win);
    game_.unmake(p, m, undo);
    line_.pop_back();
  }

  // Whether the side to move wins p, when the tables cover it.
  std::optional<bool> from_tables(const drop::Position& p) {
    if (!tables_ || p.pieces_in_play() > table_max_pieces_) return std::nullopt;
    return tables_->win(p);
  }

  bool leaf_value(drop::Position& p) {
    if (const auto win = from_tables(p)) {
      ++report_.table_leaves;
      return *win;
    }
    return solve(p);
  }

  // Plain negamax with memoization, for a position the tables do not cover: a leaf is small by
  // the header's rule, and every position below it that the tables cover ends the search there.
  bool solve(drop::Position& p) {
    const drop::Key key = game_.canonical_key(p);
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    drop::MoveList moves;
    game_.generate(p, moves);
    if (moves.empty()) return false;
    bool win = false;
    for (int i = 0; i < moves.size() && !win; ++i) {
      const drop::Undo undo = game_.make(p, moves[i]);
      if (const auto reply = from_tables(p)) {
        ++report_.leaf_search_table_probes;
        win = !*reply;
      } else {
        win = !solve(p);
      }
      game_.unmake(p, moves[i], undo);
    }
    make_room(memo_);
    memo_[key] = win;
    ++report_.leaf_search_positions;
    return win;
  }

  // Makes room under the cap for one more entry in `map` (memo_ or proven_): empties the memo
  // when the tables' bits loaded so far and both maps, at their largest while the entry goes
  // in, would pass the cap. The memo holds exact values, so emptying it costs only the time to
  // solve its positions again. (A tier the tables load between two entries can pass the cap
  // until the next entry empties the memo.)
  void make_room(const KeyMap& map) {
    if (bytes_with_one_more(map) <= memory_bytes_) return;
    if (!memo_.empty()) {
      memo_.clear();
      ++report_.memo_clears;
    }
    if (bytes_with_one_more(map) > memory_bytes_)
      throw CheckMemoryError("the memory cap of " + solver::size_text(memory_bytes_) +
                             " is too small: the tables' value bits take " +
                             solver::size_text(table_bytes()) + " and the certificate's " +
                             std::to_string(proven_.size()) + " proven positions " +
                             solver::size_text(map_bytes(proven_) + growth_bytes(proven_)));
  }

  std::uint64_t bytes_with_one_more(const KeyMap& map) const {
    return table_bytes() + map_bytes(proven_) + map_bytes(memo_) + growth_bytes(map);
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
  tablebase::ProofFileReader& in_;
  ProofCheck& report_;
  ValueBits* tables_;  // may be null
  int table_max_pieces_;
  std::uint64_t memory_bytes_;
  std::vector<drop::Move> line_;  // the moves from the root, for messages
  KeyMap proven_;                 // the certificate's positions, for its back references
  KeyMap memo_;                   // the leaf negamax's
  solver::Progress& progress_;
  bool progress_level_taken_ = false;
};

}  // namespace

ProofCheck check_proof(const std::filesystem::path& file, const std::filesystem::path& tables,
                       std::uint64_t memory_bytes, bool show_progress) {
  tablebase::ProofFileReader in(file);
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
  std::unique_ptr<TierSpace> space;
  std::unique_ptr<ValueBits> bits;
  int table_max_pieces = -1;
  if (!tables.empty()) {
    space = std::make_unique<TierSpace>(game, true, tablebase::tables_max_pieces(tables));
    bits = std::make_unique<ValueBits>(*space, tables);
    table_max_pieces = space->layout().max_pieces();
    // Checked before the start rather than when a tier loads, hours into the check.
    const std::uint64_t needed = value_bits_on_disk(*space, tables);
    if (needed > memory_bytes)
      throw CheckMemoryError("the value bits of the tables in " + tables.string() + " take " +
                             solver::size_text(needed) + ", more than the memory cap of " +
                             solver::size_text(memory_bytes));
  }
  solver::Progress progress("check-proof " + report.variant + ", replies at the top", 0,
                            "positions", show_progress);
  Checker checker(game, in, report, bits.get(), table_max_pieces, memory_bytes, progress);
  checker.check(root, header.win);
  if (!in.at_end()) throw ProofRejected("certificate has records after the end of the proof");
  report.table_bytes_loaded = checker.table_bytes();
  return report;
}

}  // namespace drop
