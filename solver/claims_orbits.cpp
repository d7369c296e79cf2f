#include "solver/claims_orbits.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <numeric>
#include <stdexcept>

#include "solver/parallel_for.h"

namespace solver {

OrbitCounts& OrbitCounts::operator+=(const OrbitCounts& o) {
  orbits = checked_add(orbits, o.orbits);
  colourings = checked_add(colourings, o.colourings);
  weight_sum = checked_add(weight_sum, o.weight_sum);
  visited = checked_add(visited, o.visited);
  return *this;
}

namespace {

std::vector<int> cycle_lengths(const Permutation& g) {
  std::vector<int> lengths;
  std::vector<bool> seen(g.size(), false);
  for (std::size_t start = 0; start < g.size(); ++start) {
    int length = 0;
    for (std::size_t p = start; !seen[p]; p = std::size_t(g[p])) {
      seen[p] = true;
      ++length;
    }
    if (length) lengths.push_back(length);
  }
  return lengths;
}

// Ways to colour `groups[i..]` (cycle length, number of such cycles) with `remaining` points of
// each colour left. The last group has no choice left: its colours are what remains.
Count colour_cycles(const std::vector<std::pair<int, int>>& groups, std::size_t i,
                    std::vector<int>& remaining) {
  const auto [length, cycles] = groups[i];
  if (i + 1 == groups.size()) {
    std::vector<int> per_colour;
    int total = 0;
    for (int r : remaining) {
      if (r % length) return 0;
      per_colour.push_back(r / length);
      total += r / length;
    }
    return total == cycles ? multinomial(per_colour) : 0;
  }
  // Choose how many of these cycles take each colour, colour by colour.
  Count ways = 0;
  std::vector<int> taken(remaining.size(), 0);
  auto choose = [&](auto& self, std::size_t colour, int left) -> void {
    if (colour == remaining.size()) {
      if (left) return;
      ways = checked_add(ways,
                         checked_mul(multinomial(taken), colour_cycles(groups, i + 1, remaining)));
      return;
    }
    for (int a = 0; a <= left && a * length <= remaining[colour]; ++a) {
      taken[colour] = a;
      remaining[colour] -= a * length;
      self(self, colour + 1, left - a);
      remaining[colour] += a * length;
    }
    taken[colour] = 0;
  };
  choose(choose, 0, cycles);
  return ways;
}

void check_multiplicities(std::size_t points, std::span<const int> multiplicity) {
  if (std::any_of(multiplicity.begin(), multiplicity.end(), [](int m) { return m < 0; }) ||
      std::accumulate(multiplicity.begin(), multiplicity.end(), std::size_t{0}) != points)
    throw std::invalid_argument("colour multiplicities must be >= 0 and add up to the points");
}

}  // namespace

Count count_fixed_colourings(const Permutation& g, std::span<const int> multiplicity) {
  check_multiplicities(g.size(), multiplicity);
  std::map<int, int> cycles_of_length;
  for (int length : cycle_lengths(g)) ++cycles_of_length[length];
  const std::vector<std::pair<int, int>> groups(cycles_of_length.begin(), cycles_of_length.end());
  std::vector<int> remaining(multiplicity.begin(), multiplicity.end());
  return groups.empty() ? 1 : colour_cycles(groups, 0, remaining);
}

Count count_orbits_burnside(std::span<const Permutation> group, std::span<const int> multiplicity) {
  Count fixed = 0;
  for (const Permutation& g : group)
    fixed = checked_add(fixed, count_fixed_colourings(g, multiplicity));
  if (fixed % group.size())
    throw std::logic_error("Burnside: fixed colourings not divisible by |G|");
  return fixed / group.size();
}

namespace {

constexpr int kMaxPoints = 64;
constexpr int kMaxColours = 16;
constexpr int kMaxElements = 16;
constexpr std::uint8_t kUnread = 0xFF;

// The canonical form of an orbit is its least member in the order of the words its colourings
// read. Which point is read next may depend on the colours read so far: a colouring and its
// image under a symmetry then follow the same reading order while their words agree, so the
// comparison is still a total order with one least member per orbit. The rule used reads next
// the point that settles the earliest open comparison with some image, so a prefix is either
// dropped or freed of that symmetry within two points, instead of after a whole orbit.
class CanonicalEnumerator {
 public:
  CanonicalEnumerator(std::span<const Permutation> group, std::span<const int> multiplicity,
                      const PointWeights& weight, bool visit_every_form);

  OrbitCounts run(const CanonicalEnumerationOptions& options) const;
  std::size_t work_items() const;

 private:
  // A symmetry not yet known to map the prefix to a larger word, and the first word position
  // where the prefix and its image have not yet been compared.
  struct Pending {
    std::uint8_t element;
    std::uint8_t next;
  };
  struct Prefix {
    std::array<std::uint8_t, kMaxPoints> colour;  // by point; kUnread until read
    std::array<std::uint8_t, kMaxPoints> read;    // read[i]: the point read i-th
    std::array<std::uint8_t, kMaxColours> remaining{};
    std::array<Pending, kMaxElements> pending{};
    // The weights of each colour summed over the points not yet read.
    std::array<std::uint64_t, kMaxColours> unread_weight{};
    int pending_count = 0;
    int depth = 0;
    std::uint64_t weight = 0;
    Count completions = 0;  // of the prefix: the multinomial of `remaining`
  };

  // The work items, and in `settled` what the search settles before reaching them.
  std::vector<Prefix> split(OrbitCounts& settled) const;
  bool resolve(Prefix& p) const;
  int next_point(const Prefix& p) const;
  void explore(Prefix& p, OrbitCounts& out, std::uint64_t& visited,
               std::vector<Prefix>* items) const;
  void count_completions(const Prefix& p, OrbitCounts& out) const;
  // Every arrangement of the remaining colours over the unread points, one at a time.
  struct Visit {
    std::array<const std::uint32_t*, kMaxPoints> weights;  // of the i-th unread point
    int points;
    std::array<std::uint8_t, kMaxColours> remaining;
    std::uint64_t leaves = 0, weight_sum = 0;
  };
  static void visit_completions(Visit& v, int i, unsigned available, std::uint64_t weight);

  int points_ = 0, colours_ = 0, group_size_ = 0;
  bool visit_ = false, weighted_ = false;
  std::vector<int> default_order_;    // read when no comparison is waiting: small orbits first
  std::vector<Permutation> inverse_;  // of each non-identity element
  std::vector<std::vector<std::uint32_t>> weight_;  // by point, then colour
  std::vector<int> active_colours_;                 // colours with a non-zero multiplicity
  Prefix root_;
  // Work items for the threads: the surviving prefixes of this many points (a few thousand).
  static constexpr int kSplitDepth = 4;
};

CanonicalEnumerator::CanonicalEnumerator(std::span<const Permutation> group,
                                         std::span<const int> multiplicity,
                                         const PointWeights& weight, bool visit_every_form)
    : visit_(visit_every_form), weighted_(!weight.empty()) {
  if (group.empty()) throw std::invalid_argument("empty group");
  points_ = int(group[0].size());
  colours_ = int(multiplicity.size());
  group_size_ = int(group.size());
  if (points_ > kMaxPoints || colours_ > kMaxColours || group_size_ > kMaxElements)
    throw std::invalid_argument(
        "canonical enumeration: at most 64 points, 16 colours, 16 elements");
  check_multiplicities(std::size_t(points_), multiplicity);
  Permutation identity(points_);
  std::iota(identity.begin(), identity.end(), 0);
  bool has_identity = false;
  for (const Permutation& g : group) {
    Permutation sorted = g;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != identity) throw std::invalid_argument("group element is not a permutation");
    has_identity |= g == identity;
    if (g == identity) continue;
    Permutation inverse(points_);
    for (int p = 0; p < points_; ++p) inverse[g[p]] = p;
    inverse_.push_back(inverse);
  }
  if (!has_identity) throw std::invalid_argument("group lacks the identity");

  // Small orbits first: a symmetry is settled sooner by comparing within a small orbit.
  std::vector<std::vector<int>> orbits;
  std::vector<bool> placed(points_, false);
  for (int p = 0; p < points_; ++p) {
    if (placed[p]) continue;
    std::vector<int> orbit;
    for (const Permutation& g : group)
      if (!placed[g[p]]) {
        placed[g[p]] = true;
        orbit.push_back(g[p]);
      }
    std::sort(orbit.begin(), orbit.end());
    orbits.push_back(orbit);
  }
  std::stable_sort(orbits.begin(), orbits.end(),
                   [](const auto& a, const auto& b) { return a.size() < b.size(); });
  for (const auto& orbit : orbits)
    default_order_.insert(default_order_.end(), orbit.begin(), orbit.end());

  weight_.assign(points_, std::vector<std::uint32_t>(colours_, 0));
  if (weighted_) {
    if (int(weight.size()) != points_) throw std::invalid_argument("one weight row per point");
    for (const auto& row : weight)
      if (int(row.size()) != colours_) throw std::invalid_argument("one weight per colour");
    for (const Permutation& g : group)
      for (int p = 0; p < points_; ++p)
        if (weight[g[p]] != weight[p])
          throw std::invalid_argument("weights are not invariant under the group");
    weight_ = weight;
  }

  root_.colour.fill(kUnread);
  root_.completions = multinomial(multiplicity);
  for (int c = 0; c < colours_; ++c) {
    root_.remaining[c] = std::uint8_t(multiplicity[c]);
    if (multiplicity[c]) active_colours_.push_back(c);
    for (int p = 0; p < points_; ++p) root_.unread_weight[c] += weight_[p][c];
  }
  for (int e = 0; e < int(inverse_.size()); ++e)
    root_.pending[root_.pending_count++] = {std::uint8_t(e), 0};
}

// Compares the prefix with each pending image as far as both are known. False: some symmetry
// maps the prefix to a smaller word, so no completion is canonical.
bool CanonicalEnumerator::resolve(Prefix& p) const {
  int kept = 0;
  for (int k = 0; k < p.pending_count; ++k) {
    Pending e = p.pending[k];
    const Permutation& inverse = inverse_[e.element];
    bool larger_image = false;
    // The image has at point x the colour the prefix has at inverse[x].
    while (e.next < p.depth) {
      const int x = p.read[e.next];
      const auto mine = p.colour[x], image = p.colour[inverse[x]];
      if (image == kUnread) break;
      if (mine > image) return false;
      if (mine < image) {
        larger_image = true;
        break;
      }
      ++e.next;
    }
    if (!larger_image) p.pending[kept++] = e;
  }
  p.pending_count = kept;
  return true;
}

int CanonicalEnumerator::next_point(const Prefix& p) const {
  for (int k = 0; k < p.pending_count; ++k) {
    const Pending e = p.pending[k];
    if (e.next < p.depth) return inverse_[e.element][p.read[e.next]];
  }
  // Nothing waits: a point the first pending symmetry moves can settle it, a fixed one cannot.
  if (p.pending_count)
    for (int x : default_order_)
      if (p.colour[x] == kUnread && inverse_[p.pending[0].element][x] != x) return x;
  for (int x : default_order_)
    if (p.colour[x] == kUnread) return x;
  return -1;
}

// The completions of a prefix that reads colour c next: multinomial(remaining - e_c) =
// multinomial(remaining) * remaining[c] / (points left). Exact, and in 64 bits when it fits,
// because this runs once per node and a 128-bit division costs as much as the rest of the node.
Count completions_after(Count completions, int of_colour, int points_left) {
  if (completions >> 57 == 0)
    return std::uint64_t(completions) * std::uint64_t(of_colour) / std::uint64_t(points_left);
  return checked_mul(completions, Count(of_colour)) / Count(points_left);
}

void CanonicalEnumerator::count_completions(const Prefix& p, OrbitCounts& out) const {
  // Every completion is canonical with a trivial stabiliser: its orbit has |G| members.
  const Count completions = p.completions;
  out.orbits = checked_add(out.orbits, completions);
  out.colourings = checked_add(out.colourings, checked_mul(completions, Count(group_size_)));
  if (!weighted_) return;
  // Weight of all completions: the prefix's weight each time, plus, for each unread point and
  // colour, its weight times the completions that give that point that colour.
  Count total = checked_mul(completions, Count(p.weight));
  for (int c : active_colours_) {
    if (!p.remaining[c]) continue;
    const Count with_c_at_one_point =
        completions_after(completions, p.remaining[c], points_ - p.depth);
    total = checked_add(total, checked_mul(with_c_at_one_point, Count(p.unread_weight[c])));
  }
  out.weight_sum = checked_add(out.weight_sum, checked_mul(total, Count(group_size_)));
}

// `available`: the colours with copies left, as bits. The inner loop of --visit-all, so it
// iterates over those bits only and places the last two points without recursing.
void CanonicalEnumerator::visit_completions(Visit& v, int i, unsigned available,
                                            std::uint64_t weight) {
  if (i + 1 == v.points) {
    ++v.leaves;
    v.weight_sum += weight + v.weights[i][std::countr_zero(available)];
    return;
  }
  if (i + 2 == v.points) {  // two copies of one colour, or one each of two colours
    const int a = std::countr_zero(available);
    const unsigned others = available & (available - 1);
    const auto* w = &v.weights[i];
    if (!others) {
      ++v.leaves;
      v.weight_sum += weight + w[0][a] + w[1][a];
    } else {
      const int b = std::countr_zero(others);
      v.leaves += 2;
      v.weight_sum += 2 * weight + w[0][a] + w[1][b] + w[0][b] + w[1][a];
    }
    return;
  }
  for (unsigned rest = available; rest; rest &= rest - 1) {
    const int c = std::countr_zero(rest);
    const unsigned next = --v.remaining[c] ? available : available & ~(1u << c);
    visit_completions(v, i + 1, next, weight + v.weights[i][c]);
    ++v.remaining[c];
  }
}

void CanonicalEnumerator::explore(Prefix& p, OrbitCounts& out, std::uint64_t& visited,
                                  std::vector<Prefix>* items) const {
  if (items && (p.depth == kSplitDepth || p.pending_count == 0)) {
    items->push_back(p);
    return;
  }
  if (p.pending_count == 0) {
    if (!visit_) return count_completions(p, out);
    Visit v;
    v.points = 0;
    for (int x : default_order_)
      if (p.colour[x] == kUnread) v.weights[v.points++] = weight_[x].data();
    v.remaining = p.remaining;
    unsigned available = 0;
    for (int c : active_colours_)
      if (p.remaining[c]) available |= 1u << c;
    if (v.points) {
      visit_completions(v, 0, available, p.weight);
    } else {
      v.leaves = 1;
      v.weight_sum = p.weight;
    }
    const std::uint64_t leaves = v.leaves, weight_sum = v.weight_sum;
    visited += leaves;
    out.orbits = checked_add(out.orbits, leaves);
    out.visited = checked_add(out.visited, leaves);
    out.colourings = checked_add(out.colourings, checked_mul(leaves, Count(group_size_)));
    out.weight_sum = checked_add(out.weight_sum, checked_mul(weight_sum, Count(group_size_)));
    return;
  }
  if (p.depth == points_) {
    // Still pending at the end: those symmetries fix the colouring; with the identity they are
    // its stabiliser.
    const Count orbit_size = Count(group_size_ / (p.pending_count + 1));
    ++visited;
    out.orbits = checked_add(out.orbits, 1);
    if (visit_) out.visited = checked_add(out.visited, 1);
    out.colourings = checked_add(out.colourings, orbit_size);
    out.weight_sum = checked_add(out.weight_sum, checked_mul(orbit_size, Count(p.weight)));
    return;
  }
  // Children are explored in place (undoing each), as copying a prefix costs more than a node.
  const int x = next_point(p);
  const auto pending = p.pending;
  const int pending_count = p.pending_count;
  const Count completions = p.completions;
  const std::uint64_t weight = p.weight;
  p.read[p.depth++] = std::uint8_t(x);
  if (weighted_)
    for (int d : active_colours_) p.unread_weight[d] -= weight_[x][d];
  for (int c : active_colours_) {
    if (!p.remaining[c]) continue;
    p.completions = completions_after(completions, p.remaining[c], points_ - p.depth + 1);
    p.colour[x] = std::uint8_t(c);
    --p.remaining[c];
    p.weight = weight + weight_[x][c];
    if (resolve(p)) explore(p, out, visited, items);
    ++p.remaining[c];
    p.pending = pending;
    p.pending_count = pending_count;
  }
  --p.depth;
  p.colour[x] = kUnread;
  if (weighted_)
    for (int d : active_colours_) p.unread_weight[d] += weight_[x][d];
  p.completions = completions;
  p.weight = weight;
}

std::vector<CanonicalEnumerator::Prefix> CanonicalEnumerator::split(OrbitCounts& settled) const {
  std::uint64_t visited = 0;
  std::vector<Prefix> items;
  Prefix root = root_;
  if (resolve(root)) explore(root, settled, visited, &items);
  return items;
}

std::size_t CanonicalEnumerator::work_items() const {
  OrbitCounts settled;
  return split(settled).size();
}

OrbitCounts CanonicalEnumerator::run(const CanonicalEnumerationOptions& options) const {
  OrbitCounts settled_by_split;
  const std::vector<Prefix> items = split(settled_by_split);
  const std::size_t first = std::min(options.first_item, items.size());
  const std::size_t count = std::min(options.item_count, items.size() - first);
  // A range of items is one round of a larger run, whose caller knows the whole.
  if (options.progress && count == items.size()) options.progress->set_total(count);
  std::vector<OrbitCounts> results(count);
  tbb::task_arena arena(options.threads);
  arena.execute([&] {
    solver::parallel_for(std::size_t{0}, count, [&](std::size_t i) {
      Prefix p = items[first + i];
      std::uint64_t item_visited = 0;
      explore(p, results[i], item_visited, nullptr);
      if (options.progress) {
        options.progress->add_to_rate(item_visited);
        options.progress->advance();
      }
    });
  });
  OrbitCounts total = options.first_item == 0 ? settled_by_split : OrbitCounts{};
  for (const OrbitCounts& r : results) total += r;
  return total;
}

}  // namespace

OrbitCounts enumerate_canonical_colourings(std::span<const Permutation> group,
                                           std::span<const int> multiplicity,
                                           const PointWeights& weight,
                                           const CanonicalEnumerationOptions& options) {
  const CanonicalEnumerator enumerator(group, multiplicity, weight, options.visit_every_form);
  return enumerator.run(options);
}

std::size_t canonical_work_items(std::span<const Permutation> group,
                                 std::span<const int> multiplicity) {
  return CanonicalEnumerator(group, multiplicity, {}, false).work_items();
}

}  // namespace solver
