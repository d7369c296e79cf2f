// The proof checker: replays a certificate (solver/proof_format.h) with nothing but the rules
// engine and accepts it only if every position is proven: the winner's move is legal and leads
// to a proven loss, the loser's every legal move is listed once and leads to a proven win, and
// every leaf, solved here by a plain memoized negamax or read from endgame tables, has the value
// its parent needs. It shares no code with the proof search, so a bug there cannot vouch for
// itself.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace tablebase {

// The certificate does not prove its claim; what() says where and why.
class ProofRejected : public std::runtime_error {
 public:
  explicit ProofRejected(const std::string& what) : std::runtime_error(what) {}
};

struct ProofCheck {
  std::string variant, fen;
  bool win = false;  // the proven value, for the root's side to move
  int leaf_hand_pieces = 0;
  int leaf_pieces_in_play = 0;
  std::uint64_t positions = 0;              // records checked
  std::uint64_t leaves = 0;                 // of which leaves: solved by the checker
  std::uint64_t table_leaves = 0;           // of the leaves, read from endgame tables
  std::uint64_t back_references = 0;        // of which proven earlier in the stream
  std::uint64_t leaf_search_positions = 0;  // distinct positions the leaf negamax visited
};

// Throws ProofRejected when the proof is wrong and solver::ProofFormatError (or a ParseError for
// a bad variant or FEN in the header) when the file is not a readable certificate. With
// `tables` (a directory of the same variant's tables, endgame ones included), leaves they cover
// are read from them; every other leaf is solved by the checker's own negamax.
ProofCheck check_proof(const std::filesystem::path& file, const std::filesystem::path& tables = {});

}  // namespace tablebase
