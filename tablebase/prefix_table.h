// Placements stored once per symmetry class by their prefix (index.h): the first two groups with
// pieces on the board are a placement's most significant digits, its prefix, and only prefixes
// that are their own least image are stored, so a slice stores (canonical prefixes) x
// (placements of the other groups) entries. The table maps every prefix rank to the ordinal of
// its least image among the canonical prefixes and the symmetry that maps it there; it depends
// only on the two groups' piece counts, so slices share it. Used by the drop family's tier space
// (drop_space.h, SOLVER.md "Symmetry") and Spock's (rules/spock/tier_space.h).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "tablebase/index.h"

namespace tablebase {

inline constexpr int kPrefixGroups = 2;

struct PrefixEntry {
  std::uint32_t ordinal = 0;
  std::uint32_t symmetry = 0;
};
struct PrefixTable {
  std::vector<PrefixEntry> entries;  // by prefix rank
  std::vector<std::uint32_t> ranks;  // prefix rank of each canonical prefix, by ordinal
  // By ordinal, 1 when a symmetry other than the identity maps the canonical prefix to itself:
  // its placements' classes may then be stored more than once.
  std::vector<std::uint8_t> fixed;
};

// The table of the prefixes of first_count then second_count pieces on `squares` squares under
// `symmetries` symmetries (the identity first; 1: none), map(s, squares) being the image of a set
// of squares under symmetry s. An image is less than another when its first group is, or the
// first groups are equal and its second is. Throws std::invalid_argument, naming `what`, for more
// than 2^26 prefixes.
template <typename Map>
PrefixTable make_prefix_table(int squares, int first_count, int second_count, int symmetries,
                              const Map& map, const std::string& what) {
  std::array<int, kGroups> counts{};
  counts[0] = first_count;
  counts[1] = second_count;
  const PlacementIndex prefix_index(squares, counts);
  if (prefix_index.size() > (std::uint64_t{1} << 26))
    throw std::invalid_argument(what + " is too large to index (" +
                                std::to_string(prefix_index.size()) + " leading placements)");
  const auto image = [&](int s, const Groups& groups) {
    Groups out{};
    out[0] = map(s, groups[0]);
    out[1] = map(s, groups[1]);
    return out;
  };
  // The symmetry whose image is least; 0 when the placement already is its least image.
  const auto least = [&](const Groups& groups) {
    int best = 0;
    Groups lowest = groups;
    for (int s = 1; s < symmetries; ++s) {
      const Groups g = image(s, groups);
      if (g[0] < lowest[0] || (g[0] == lowest[0] && g[1] < lowest[1])) {
        lowest = g;
        best = s;
      }
    }
    return best;
  };
  PrefixTable table;
  table.entries.resize(prefix_index.size());
  std::vector<int> to_least(prefix_index.size());
  for (std::uint64_t k = 0; k < prefix_index.size(); ++k) {
    to_least[k] = least(prefix_index.unrank(k));
    if (to_least[k] == 0) {
      table.entries[k] = {std::uint32_t(table.ranks.size()), 0};
      table.ranks.push_back(std::uint32_t(k));
      const Groups groups = prefix_index.unrank(k);
      std::uint8_t fixed = 0;
      for (int s = 1; s < symmetries && !fixed; ++s) {
        const Groups g = image(s, groups);
        fixed = g[0] == groups[0] && g[1] == groups[1];
      }
      table.fixed.push_back(fixed);
    }
  }
  for (std::uint64_t k = 0; k < prefix_index.size(); ++k)
    if (to_least[k] != 0) {
      const Groups least_image = image(to_least[k], prefix_index.unrank(k));
      table.entries[k] = {table.entries[prefix_index.rank(least_image)].ordinal,
                          std::uint32_t(to_least[k])};
    }
  return table;
}

}  // namespace tablebase
