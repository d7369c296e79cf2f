// The children a bounded score search keeps for its deep pass (DteSearch, CyclicSearch): both
// ask "does some child c of p have s(c) < w?" in two passes. The cheap pass decides what it can
// without searching (terminal children, probes, bounds in the table) and keeps the rest here;
// the deep pass searches the kept children fewest replies first (a child with few replies is
// quickest to prove or refute), generation order on ties so runs repeat exactly.
// One stack for the whole path rather than a vector a node: a node's children sit above its
// ancestors', and a deep search allocates once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace solver {

template <typename Move, typename Key>
class KeptChildren {
 public:
  struct Child {
    Move move;
    std::uint32_t replies;
    std::uint32_t order;  // in generation, so ties keep it
    Key key;
  };

  // Where the children of the node about to be expanded start.
  std::size_t mark() const { return children_.size(); }
  // Forgets everything (what a search stopped by an exception left).
  void clear() { children_.clear(); }

  // The cheap pass on a child whose score's bounds are `b` (null: none known): true when they
  // prove s(c) < w; otherwise the child is kept unless they prove s(c) >= w.
  template <typename Bounds>
  bool below_or_keep(const Bounds* b, int w, Child child) {
    if (b && b->upper < w) return true;
    if (!b || b->lower < w) children_.push_back(std::move(child));
    return false;
  }

  // The deep pass over the children kept since `first`: whether `below(p, key)` holds for one,
  // asked with p moved to each in turn (p is restored). The kept children are popped either way;
  // with `decided` (the cheap pass found one already) none is searched.
  template <typename G, typename Position, typename Below>
  bool search(std::size_t first, bool decided, const G& game, Position& p, Below below) {
    bool yes = decided;
    if (!yes) {
      std::sort(children_.begin() + std::ptrdiff_t(first), children_.end(),
                [](const Child& a, const Child& c) {
                  return std::pair(a.replies, a.order) < std::pair(c.replies, c.order);
                });
      // By index: the searches below push onto children_ and may move it.
      for (std::size_t i = first; i < children_.size() && !yes; ++i) {
        const Child c = children_[i];
        const auto undo = game.make(p, c.move);
        yes = below(p, c.key);
        game.unmake(p, c.move, undo);
      }
    }
    children_.resize(first);
    return yes;
  }

 private:
  std::vector<Child> children_;
};

}  // namespace solver
