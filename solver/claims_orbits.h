// Colourings of a set of points (a board's squares) with a prescribed number of points of each
// colour (each kind of piece, and empty), and their orbits under a group of permutations of the
// points (the board's symmetries). Orbits are counted two independent ways:
//  - Burnside's lemma: the mean over the group of the number of colourings each element fixes;
//  - enumeration of canonical forms: each orbit's least member (as a word read in a fixed order of
//    the points), built point by point. A prefix is dropped as soon as some symmetry maps it to a
//    smaller word; once every symmetry is known to map it to a larger one, all its completions are
//    canonical, and they are counted in bulk with a multinomial (or, on request, visited one by
//    one, which is the slow literal check of the bulk count).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "solver/claims_count.h"
#include "solver/progress.h"

namespace solver {

using Permutation = std::vector<int>;  // image[point]

// Colourings with multiplicity[c] points of colour c that g maps to themselves: each cycle of g
// must be of one colour.
Count count_fixed_colourings(const Permutation& g, std::span<const int> multiplicity);
Count count_orbits_burnside(std::span<const Permutation> group, std::span<const int> multiplicity);

struct OrbitCounts {
  Count orbits = 0;
  Count colourings = 0;  // the sum of the orbits' sizes: every colouring once
  Count weight_sum = 0;  // the sum over every colouring of its weight
  Count visited = 0;     // canonical forms visited one at a time (0 unless visit_every_form)

  OrbitCounts& operator+=(const OrbitCounts& o);
};

struct CanonicalEnumerationOptions {
  bool visit_every_form = false;  // no bulk counting: reach every canonical colouring
  int threads = 1;
  // Advanced per work item (its total set to the items when all are run); its rate counts
  // visited forms.
  Progress* progress = nullptr;
  // The search splits into work items (prefixes of a few points, in a fixed order); only items
  // [first_item, first_item + item_count) are counted, plus, with item 0, what the split itself
  // settles. Lets a long visit run in rounds that can be resumed; the rounds' counts add up.
  std::size_t first_item = 0;
  std::size_t item_count = SIZE_MAX;
};

// Weights per point and colour: a colouring weighs the sum over its points of
// weight[point][colour]. Empty means no weights. Must be invariant under the group (checked),
// so that an orbit's members all weigh the same.
using PointWeights = std::vector<std::vector<std::uint32_t>>;

// Throws std::invalid_argument if the group is not a set of permutations of the points containing
// the identity, the multiplicities do not add up to the number of points, or a limit is exceeded
// (64 points, 16 colours, 16 group elements).
OrbitCounts enumerate_canonical_colourings(std::span<const Permutation> group,
                                           std::span<const int> multiplicity,
                                           const PointWeights& weight,
                                           const CanonicalEnumerationOptions& options);
// The number of work items enumerate_canonical_colourings splits the search into.
std::size_t canonical_work_items(std::span<const Permutation> group,
                                 std::span<const int> multiplicity);

}  // namespace solver
