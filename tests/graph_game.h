// A toy keyed game for the cyclic solver's tests: the positions are the nodes of an explicit
// directed graph, a move goes along an edge, and the side to move loses on a node marked terminal
// (even one with edges out: the game is over there) or on a node without edges. Any graph is a
// game, so tests can build cycles, self-loops and draws by hand or at random.
//
// Each node of the graph is played in two copies, as a colour swap would give: the copy of a
// child is chosen by a fixed scramble of the edge, and both copies have the node as canonical key.
// The copies' game trees are the same graph's unfolding, so a solver must treat them as one
// position (one keyed on raw keys would count each node twice), and from_key refuses canonical
// keys, as a real game's may (it only has to invert raw_key).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "tests/small_key.h"

namespace test_support {

struct Graph {
  std::vector<std::vector<int>> children;  // edges out of each node, in order, repeats allowed
  std::vector<bool> terminal;
  int size() const { return int(children.size()); }
  int add_node(bool is_terminal = false) {
    children.emplace_back();
    terminal.push_back(is_terminal);
    return size() - 1;
  }
  void add_edge(int from, int to) { children[from].push_back(to); }
};

// Adds to g a long forced win through cycles above `bottom`, a node lost for the side to move, and
// returns its top rung, lost: loser rungs l[k] (l[0] is bottom) and winner rungs w[k], k = 1 ..
// rungs. w[k] wins by going down to l[k - 1], or goes back up to l[k + 1] (a cycle
// w[k] -> l[k + 1] -> w[k + 1] -> l[k] -> w[k]); l[k] may go to w[k] or w[k - 1], both lost for it.
inline int add_cycle_ladder(Graph& g, int bottom, int rungs) {
  std::vector<int> l{bottom}, w{-1};
  for (int k = 1; k <= rungs; ++k) {
    l.push_back(g.add_node());
    w.push_back(g.add_node());
  }
  for (int k = 1; k <= rungs; ++k) {
    g.add_edge(w[k], l[k - 1]);
    if (k < rungs) g.add_edge(w[k], l[k + 1]);
    g.add_edge(l[k], w[k]);
    if (k > 1) g.add_edge(l[k], w[k - 1]);
  }
  return l[rungs];
}

class GraphGame {
 public:
  struct Position {
    int node;  // of the graph
    int copy;  // 0 or 1
  };
  using Move = int;  // the index of the edge among the node's
  struct Undo {
    Position from;
  };
  using Key = SmallKey;
  class MoveList {
   public:
    void clear() { moves_.clear(); }
    void push(Move m) { moves_.push_back(m); }
    int size() const { return int(moves_.size()); }
    bool empty() const { return moves_.empty(); }
    Move operator[](int i) const { return moves_[i]; }

   private:
    std::vector<Move> moves_;
  };

  explicit GraphGame(const Graph& graph) : graph_(graph) {}

  void generate(const Position& p, MoveList& out) const {
    out.clear();
    for (int i = 0; i < int(graph_.children[p.node].size()); ++i) out.push(i);
  }
  std::uint64_t count_moves(const Position& p) const { return graph_.children[p.node].size(); }
  Undo make(Position& p, Move m) const {
    const Undo u{p};
    p = {graph_.children[p.node][m], int((p.node * 7 + p.copy * 3 + m) % 5 % 2)};
    return u;
  }
  void unmake(Position& p, Move, Undo u) const { p = u.from; }
  bool is_terminal(const Position& p) const { return graph_.terminal[p.node]; }

  bool keys_fit() const { return true; }
  // Not a raw key of either copy, so it cannot be taken for one.
  Key canonical_key(const Position& p) const { return {std::uint64_t(p.node), 2}; }
  Key raw_key(const Position& p) const { return {std::uint64_t(p.node), std::uint64_t(p.copy)}; }
  Key symmetric_key(const Position& p) const { return raw_key(p); }
  Position from_key(Key k) const {
    if (k.hi > 1) throw std::invalid_argument("from_key: not a raw key");
    return {int(k.lo), int(k.hi)};
  }

 private:
  const Graph& graph_;
};

// A random graph of 1 to 40 nodes, a seventh of them terminal, up to 3 edges out of each; half
// the graphs link mostly to nearby nodes, which makes long chains and long distances.
inline Graph random_graph(std::mt19937& rng) {
  Graph g;
  const int n = 1 + int(rng() % 40);
  const bool local = rng() % 2;
  for (int v = 0; v < n; ++v) g.add_node(rng() % 7 == 0);
  for (int v = 0; v < n; ++v) {
    const int degree = int(rng() % 4);
    for (int e = 0; e < degree; ++e) {
      const int to = local ? std::clamp(v - 3 + int(rng() % 5), 0, n - 1) : int(rng() % n);
      g.add_edge(v, to);
    }
  }
  return g;
}

}  // namespace test_support
