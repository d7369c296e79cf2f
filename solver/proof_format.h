// The proof certificate's byte format, shared by the writer (proof_certificate.h) and the checker,
// which share nothing else. A certificate is one byte stream (compressed on disk by
// tablebase/proof_file.h):
//
//   header   magic "D16PROOF", varint version, string variant, string FEN of the root,
//            byte claim (1 = the side to move wins), varint leaf_hand_pieces,
//            varint leaf_pieces_in_play (version 2; 0 = none)
//   record   the proof of one position, whose expected value is known from its parent (the
//            root's is the claim; a winner's child is a loss, a loser's children are wins):
//     kLeaf          nothing follows; the checker solves the position itself (with endgame
//                    tables if it has them). Allowed only when both hands together hold at most
//                    leaf_hand_pieces pieces, or when at most leaf_pieces_in_play pieces are in
//                    play (hands and board: what endgame tables of that many pieces decide).
//     kSeen          nothing follows; a position with the same canonical key was proven earlier
//                    in the stream with the same value.
//     kWinningMove   u16 move, then the record of the position after it (expected a loss).
//     kEveryReply    varint n, then n times: u16 move and the record after it (expected wins);
//                    n must be the number of legal moves, each listed once.
//
// Integers: u16 little-endian; varints 7 bits a byte, low first; strings a varint length and bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace solver {

enum ProofRecord : std::uint8_t { kLeaf = 0, kSeen = 1, kWinningMove = 2, kEveryReply = 3 };

inline constexpr char kProofMagic[] = "D16PROOF";  // written without its terminating zero
inline constexpr std::uint64_t kProofVersion = 2;  // version 1: no leaf_pieces_in_play

struct ProofHeader {
  std::string variant;
  std::string fen;
  bool win = false;
  int leaf_hand_pieces = 0;
  int leaf_pieces_in_play = 0;  // 0: no leaves by pieces in play
};

// A damaged, truncated or malformed certificate stream.
class ProofFormatError : public std::runtime_error {
 public:
  explicit ProofFormatError(const std::string& what) : std::runtime_error(what) {}
};

// Sink: put(std::uint8_t). Source: get() -> std::uint8_t, throwing at the end of the stream.
template <typename Sink>
void put_u16(Sink& out, std::uint16_t v) {
  out.put(std::uint8_t(v));
  out.put(std::uint8_t(v >> 8));
}
template <typename Sink>
void put_varint(Sink& out, std::uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.put(std::uint8_t(v | 0x80));
  out.put(std::uint8_t(v));
}
template <typename Sink>
void put_string(Sink& out, const std::string& s) {
  put_varint(out, s.size());
  for (char c : s) out.put(std::uint8_t(c));
}
template <typename Sink>
void put_header(Sink& out, const ProofHeader& h) {
  for (const char* c = kProofMagic; *c; ++c) out.put(std::uint8_t(*c));
  put_varint(out, kProofVersion);
  put_string(out, h.variant);
  put_string(out, h.fen);
  out.put(h.win ? 1 : 0);
  put_varint(out, std::uint64_t(h.leaf_hand_pieces));
  put_varint(out, std::uint64_t(h.leaf_pieces_in_play));
}

template <typename Source>
std::uint16_t get_u16(Source& in) {
  const std::uint16_t low = in.get();
  return std::uint16_t(low | in.get() << 8);
}
template <typename Source>
std::uint64_t get_varint(Source& in) {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const std::uint8_t byte = in.get();
    v |= std::uint64_t(byte & 0x7F) << shift;
    if (!(byte & 0x80)) return v;
  }
  throw ProofFormatError("a varint runs past 64 bits");
}
template <typename Source>
std::string get_string(Source& in) {
  const std::uint64_t size = get_varint(in);
  if (size > 4096) throw ProofFormatError("a header string is longer than 4096 bytes");
  std::string s;
  for (std::uint64_t i = 0; i < size; ++i) s.push_back(char(in.get()));
  return s;
}
template <typename Source>
ProofHeader get_header(Source& in) {
  for (const char* c = kProofMagic; *c; ++c)
    if (in.get() != std::uint8_t(*c)) throw ProofFormatError("not a Drop 16 proof certificate");
  const auto version = get_varint(in);
  if (version < 1 || version > kProofVersion)
    throw ProofFormatError("certificate format version " + std::to_string(version) +
                           " is not one of the supported 1 to " + std::to_string(kProofVersion));
  ProofHeader h;
  h.variant = get_string(in);
  h.fen = get_string(in);
  const std::uint8_t claim = in.get();
  if (claim > 1) throw ProofFormatError("the claimed value is neither win nor loss");
  h.win = claim == 1;
  h.leaf_hand_pieces = int(std::min<std::uint64_t>(get_varint(in), 1 << 20));
  if (version >= 2) h.leaf_pieces_in_play = int(std::min<std::uint64_t>(get_varint(in), 1 << 20));
  return h;
}

}  // namespace solver
