// The proof checker: replays a certificate (solver/proof_format.h) with nothing but the rules
// engine and accepts it only if every position is proven: the winner's move is legal and leads
// to a proven loss, the loser's every legal move is listed once and leads to a proven win, and
// every leaf, solved here by a plain memoized negamax or read from endgame tables, has the value
// its parent needs. It shares no code with the proof search, so a bug there cannot vouch for
// itself.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>

namespace drop {

// The certificate does not prove its claim; what() says where and why.
class ProofRejected : public std::runtime_error {
 public:
  explicit ProofRejected(const std::string& what) : std::runtime_error(what) {}
};

// The memory cap is too small for what the check cannot let go of: the tables' value bits and
// the certificate's proven positions (which later records may refer back to).
class CheckMemoryError : public std::runtime_error {
 public:
  explicit CheckMemoryError(const std::string& what) : std::runtime_error(what) {}
};

struct ProofCheck {
  std::string variant, fen;
  bool win = false;  // the proven value, for the root's side to move
  int leaf_hand_pieces = 0;
  int leaf_pieces_in_play = 0;
  std::uint64_t positions = 0;        // records checked
  std::uint64_t leaves = 0;           // of which leaves: solved by the checker
  std::uint64_t table_leaves = 0;     // of the leaves, read from endgame tables
  std::uint64_t back_references = 0;  // of which proven earlier in the stream
  // Positions the leaf negamax solved (one solved again after a memo clear counts again), and
  // those inside it that the tables decided, with no search below them.
  std::uint64_t leaf_search_positions = 0;
  std::uint64_t leaf_search_table_probes = 0;
  std::uint64_t memo_clears = 0;         // times the leaf negamax's memo was emptied for the cap
  std::uint64_t table_bytes_loaded = 0;  // the tables' value bits held in memory
};

// Throws ProofRejected when the proof is wrong and solver::ProofFormatError (or a ParseError for
// a bad variant or FEN in the header) when the file is not a readable certificate. With
// `tables` (a directory of the same variant's tables, endgame ones included), every position
// they cover, at a leaf or inside a leaf's search, is read from them; every other leaf is solved
// by the checker's own negamax. The tables' value bits, the proven positions and the negamax's
// memo stay within `memory_bytes` (the memo is emptied when it would pass it); CheckMemoryError
// when the first two alone do not fit. With show_progress, a long check reports on stderr how many
// of the replies of the first position that lists them all are checked.
ProofCheck check_proof(const std::filesystem::path& file, const std::filesystem::path& tables = {},
                       std::uint64_t memory_bytes = std::numeric_limits<std::uint64_t>::max(),
                       bool show_progress = false);

}  // namespace drop
