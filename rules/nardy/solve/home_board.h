// One side's home board in a Royal Nardy bear-off: plain checkers on its points 1..6, and at most
// one royal checker a point. A royal checker never lands on a point holding its own checkers, so
// in a home board reached by play no point holds two royal ones (the start's royal stacks are on
// the 24- and 13-points, and a stack can only shrink); a plain checker may join a royal one.
// HomeIndex numbers every such board of at most `max` checkers densely, 0..size()-1.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <vector>

namespace nardy::bearoff {

inline constexpr int kHome = 6;

struct HomeBoard {
  std::array<std::uint8_t, kHome> plain{};  // [q - 1]: plain checkers on point q
  std::uint8_t royal = 0;                   // bit q - 1: a royal checker on point q

  bool has_royal(int q) const { return royal >> (q - 1) & 1; }
  int on_point(int q) const { return plain[q - 1] + has_royal(q); }
  int checkers() const {
    int n = __builtin_popcount(royal);
    for (int c : plain) n += c;
    return n;
  }
  int pips() const {
    int n = 0;
    for (int q = 1; q <= kHome; ++q) n += q * on_point(q);
    return n;
  }
  friend auto operator<=>(const HomeBoard&, const HomeBoard&) = default;
};

// The boards ordered by royal mask, then by the plain counts in the combinatorial number system:
// the rank of (c1..c6) among 6-tuples of sum at most n is a sum of binomial counts of the tuples
// before it, so index and board are each a few dozen additions.
class HomeIndex {
 public:
  explicit HomeIndex(int max_checkers);
  int max_checkers() const { return max_; }
  std::uint64_t size() const { return offset_[64]; }
  // The board must have at most max_checkers() checkers.
  std::uint64_t index(const HomeBoard& b) const;
  HomeBoard board(std::uint64_t index) const;

 private:
  // Tuples of k values, each >= 0, of sum at most n: C(n + k, k).
  std::uint64_t tuples(int k, int n) const { return n < 0 ? 0 : binomial_[n + k][k]; }

  int max_;
  std::array<std::uint64_t, 65> offset_{};
  std::vector<std::vector<std::uint64_t>> binomial_;
};

}  // namespace nardy::bearoff
