// The top of a proof search's tree, held by one process (the coordinator of
// mpi/mpi_proof_search.h) that hands the positions `split_plies` plies below the root (jobs) to
// other processes and combines their values by the AND/OR rule: a node is a win as soon as one
// child is a loss (its other children are no longer needed: the jobs under them are cancelled),
// and a loss once every child is a win. It knows nothing of how jobs are sent or searched.
//
// Order: the children of a node are the moves the search tries, in its order (moves_in_order of
// proof_search.h), and jobs are handed out depth first in that order, so the best-ordered moves
// start first. A node's younger children wait until its eldest is decided (the "young brothers
// wait" rule of parallel alpha-beta): with good ordering the eldest usually decides a winner's
// node alone, and the others would be searched for nothing. Positions are expanded as the walk
// first reaches them; terminal positions and those the oracle decides are settled at once, and a
// job whose position (canonical key) another job already answered takes that answer. Class of
// game: two players taking turns (TwoPlayerGame, turn_order.h), win/loss, acyclic, keyed.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "solver/game_concept.h"
#include "solver/proof_search.h"
#include "solver/turn_order.h"

namespace solver {

template <KeyedGame G>
requires TwoPlayerGame<G>
class SplitProofTree {
 public:
  using Position = typename G::Position;
  using Move = typename G::Move;
  using Key = typename G::Key;
  // The moves to search in a position reached by the move given (none at the root), in order.
  using Order = std::function<std::vector<Move>(const Position&, std::optional<Move>)>;
  // What is known of a position before it is searched (for example endgame tables).
  using Oracle = std::function<std::optional<bool>(const Position&)>;

  // all_moves: the root waits for every child's value, as `drop16 prove --all-moves` does.
  SplitProofTree(const G& game, const Position& root, int split_plies, bool all_moves, Order order,
                 Oracle oracle = {})
      : game_(game),
        split_plies_(split_plies),
        all_moves_(all_moves),
        order_(std::move(order)),
        oracle_(std::move(oracle)) {
    nodes_.push_back(make_node(root, -1, Move()));
    settle(0);
  }

  bool decided() const { return nodes_[0].value != Proof::kUnknown; }
  Proof value() const { return nodes_[0].value; }

  // The next job to hand out, now marked under way; nullopt when none can start before an
  // answer comes back (or the root is decided).
  std::optional<int> next_job() {
    const int job = find_job(0);
    if (job < 0) return std::nullopt;
    nodes_[job].job = JobState::kRunning;
    return job;
  }

  const Position& position(int job) const { return nodes_[job].position; }
  // The moves from the root to a job's position.
  std::vector<Move> path(int job) const {
    std::vector<Move> moves;
    for (int n = job; nodes_[n].parent >= 0; n = nodes_[n].parent) moves.push_back(nodes_[n].move);
    std::reverse(moves.begin(), moves.end());
    return moves;
  }

  // A job's answer; kUnknown when it was stopped. An answer that came after the job was
  // cancelled still settles every other job of its position.
  void finish(int job, Proof value) {
    nodes_[job].job = JobState::kDone;
    if (value == Proof::kUnknown) return;
    answered_by_.try_emplace(nodes_[job].key, job);
    for (const int n : jobs_of_[nodes_[job].key]) decide(n, value);
  }

  // The jobs under way whose answers stopped mattering since the last call (each once).
  std::vector<int> take_cancelled() { return std::exchange(cancelled_, {}); }

  // visit(key, win) for every decided position searched (not terminal, not the oracle's).
  template <typename Visit>
  void for_each_decided(Visit visit) const {
    for (const Node& n : nodes_)
      if (n.value != Proof::kUnknown && !n.settled) visit(n.key, n.value == Proof::kWin);
  }

  // The jobs whose proofs a certificate of the root needs, walking it as CertificateWriter
  // will: nothing below a leaf or a position already walked, one child of a win (the move
  // choose(p) picks), every child of a loss; each job's position answered once, by the job
  // that answered it.
  std::vector<int> proof_jobs(const std::function<bool(const Position&)>& is_leaf,
                              const std::function<std::optional<Move>(const Position&)>& choose) {
    std::vector<int> jobs;
    absl::flat_hash_set<Key> walked;
    collect(0, is_leaf, choose, walked, jobs);
    return jobs;
  }

  std::size_t size() const { return nodes_.size(); }

 private:
  enum class JobState : std::uint8_t { kFresh, kRunning, kCancelled, kDone };

  struct Node {
    Position position;
    Key key;
    int parent = -1;
    int ply = 0;
    Move move{};  // from the parent
    Proof value = Proof::kUnknown;
    bool settled = false;  // terminal, or decided by the oracle
    bool expanded = false;
    int wins = 0, losses = 0;  // children decided
    JobState job = JobState::kFresh;
    std::vector<int> children;
  };

  Node make_node(const Position& p, int parent, Move move) const {
    Node n;
    n.position = p;
    n.key = game_.canonical_key(p);
    n.parent = parent;
    n.ply = parent < 0 ? 0 : nodes_[parent].ply + 1;
    n.move = move;
    return n;
  }

  // What is known of a new node before any search.
  void settle(int n) {
    const Position& p = nodes_[n].position;
    std::optional<bool> known;
    if (game_.is_terminal(p)) {
      known = false;
    } else if (oracle_) {
      known = oracle_(p);
    }
    if (known) {
      nodes_[n].settled = true;
      decide(n, *known ? Proof::kWin : Proof::kLoss);
      return;
    }
    if (nodes_[n].ply < split_plies_) return;
    jobs_of_[nodes_[n].key].push_back(n);
    if (const auto it = answered_by_.find(nodes_[n].key); it != answered_by_.end())
      decide(n, nodes_[it->second].value);
  }

  void expand(int n) {
    nodes_[n].expanded = true;
    const std::optional<Move> last =
        nodes_[n].parent < 0 ? std::nullopt : std::optional<Move>(nodes_[n].move);
    const std::vector<Move> moves = order_(nodes_[n].position, last);
    const int first = int(nodes_.size());
    for (const Move m : moves) {
      Position p = nodes_[n].position;
      game_.make(p, m);
      nodes_[n].children.push_back(int(nodes_.size()));
      nodes_.push_back(make_node(p, n, m));
    }
    for (int c = first; c < int(nodes_.size()) && nodes_[n].value == Proof::kUnknown; ++c)
      settle(c);
  }

  void decide(int n, Proof value) {
    if (nodes_[n].value != Proof::kUnknown) return;
    nodes_[n].value = value;
    cancel_below(n);
    const int p = nodes_[n].parent;
    if (p < 0 || nodes_[p].value != Proof::kUnknown) return;
    Node& parent = nodes_[p];
    ++(value == Proof::kLoss ? parent.losses : parent.wins);
    const bool every_child = parent.wins + parent.losses == int(parent.children.size());
    if (p == 0 && all_moves_) {
      if (every_child) decide(p, parent.losses > 0 ? Proof::kWin : Proof::kLoss);
    } else if (value == Proof::kLoss) {
      decide(p, Proof::kWin);
    } else if (every_child) {
      decide(p, Proof::kLoss);
    }
  }

  // The jobs under way below a node just decided are no longer needed.
  void cancel_below(int n) {
    if (nodes_[n].job == JobState::kRunning) {
      nodes_[n].job = JobState::kCancelled;
      cancelled_.push_back(n);
    }
    for (const int c : nodes_[n].children)
      if (nodes_[c].value == Proof::kUnknown) cancel_below(c);
  }

  // Depth first in the search's order, the eldest child before its brothers.
  int find_job(int n) {
    if (nodes_[n].value != Proof::kUnknown) return -1;
    if (nodes_[n].ply >= split_plies_)
      return nodes_[n].job == JobState::kFresh && !answer_under_way(n) ? n : -1;
    if (!nodes_[n].expanded) expand(n);
    for (std::size_t i = 0; i < nodes_[n].children.size() && nodes_[n].value == Proof::kUnknown;
         ++i) {
      if (i > 0 && nodes_[nodes_[n].children[0]].value == Proof::kUnknown) break;
      if (const int job = find_job(nodes_[n].children[i]); job >= 0) return job;
    }
    return -1;
  }

  // Whether another job of the same position is under way and still needed: then this one
  // waits for its answer rather than searching the same subtree a second time.
  bool answer_under_way(int n) const {
    for (const int other : jobs_of_.at(nodes_[n].key))
      if (other != n && nodes_[other].job == JobState::kRunning) return true;
    return false;
  }

  void collect(int n, const std::function<bool(const Position&)>& is_leaf,
               const std::function<std::optional<Move>(const Position&)>& choose,
               absl::flat_hash_set<Key>& walked, std::vector<int>& jobs) const {
    const Node& node = nodes_[n];
    if (is_leaf(node.position) || node.settled || !walked.insert(node.key).second) return;
    if (node.ply >= split_plies_) {
      jobs.push_back(answered_by_.at(node.key));  // once: `walked` holds its key now
      return;
    }
    if (node.value == Proof::kLoss) {
      for (const int c : node.children) collect(c, is_leaf, choose, walked, jobs);
      return;
    }
    const std::optional<Move> move = choose(node.position);
    if (!move) return;  // the certificate's writer will search for one
    Position p = node.position;
    game_.make(p, *move);
    const Key key = game_.canonical_key(p);
    for (const int c : node.children)
      if (nodes_[c].key == key) return collect(c, is_leaf, choose, walked, jobs);
  }

  const G& game_;
  int split_plies_;
  bool all_moves_;
  Order order_;
  Oracle oracle_;
  std::vector<Node> nodes_;
  absl::flat_hash_map<Key, std::vector<int>> jobs_of_;  // the job nodes of each position
  absl::flat_hash_map<Key, int> answered_by_;           // the job that answered it first
  std::vector<int> cancelled_;
};

}  // namespace solver
