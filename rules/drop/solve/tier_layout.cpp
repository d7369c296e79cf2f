#include "rules/drop/solve/tier_layout.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "tablebase/held_bytes.h"
#include "tablebase/index.h"

namespace drop {

namespace {

using drop::kPieceTypes;

int total(const drop::Hand& h) {
  int n = 0;
  for (auto c : h) n += c;
  return n;
}

// Every material (or board count) m with 0 <= m[t] <= limit[t].
std::vector<Material> sub_materials(const Material& limit) {
  std::vector<Material> out{Material{}};
  for (int t = 0; t < kPieceTypes; ++t) {
    std::vector<Material> next;
    for (const Material& m : out)
      for (int c = 0; c <= limit[t]; ++c) {
        Material x = m;
        x[t] = std::uint8_t(c);
        next.push_back(x);
      }
    out = std::move(next);
  }
  return out;
}

// The order that names a tier: more pieces first, then the larger counts of the strongest type.
bool material_less(const Material& a, const Material& b) {
  if (total(a) != total(b)) return total(a) < total(b);
  return std::lexicographical_compare(a.rbegin(), a.rend(), b.rbegin(), b.rend());
}

}  // namespace

std::string material_name(const Material& m) {
  std::string s;
  for (drop::PieceType t : drop::kAllPieceTypes) s.append(m[t], drop::piece_letter(t));
  return s;
}

TierLayout::TierLayout(const drop::Variant& v, int max_pieces)
    : variant_(v),
      max_pieces_(std::min(max_pieces,
                           total(v.start_hand[drop::kWhite]) + total(v.start_hand[drop::kBlack]))) {
  if (max_pieces < 0) throw std::invalid_argument("a piece limit cannot be negative");
  const int squares = v.squares();
  for (int t = 0; t < kPieceTypes; ++t) {
    max_count_[t] = std::max(v.max_count(drop::kWhite, drop::PieceType(t)),
                             v.max_count(drop::kBlack, drop::PieceType(t)));
    int code = 0;
    for (int b = 0; b <= max_count_[t]; ++b)
      for (int h = 0; b + h <= max_count_[t]; ++h) pair_code_[t][b][h] = code++;
  }
  std::int64_t weight = 1;
  for (int g = 0; g < 2 * kPieceTypes; ++g) {
    radix_weight_[g] = weight;
    const int m = max_count_[g % kPieceTypes];
    weight *= (m + 1) * (m + 2) / 2;
    if (weight > (std::int64_t{1} << 27))
      throw std::invalid_argument("variant " + v.name() + " has too many materials to tabulate");
  }
  slice_by_code_.assign(std::size_t(weight), -1);

  // Tiers: unordered pairs of materials one side or the other can own.
  const Material white = v.start_hand[drop::kWhite], black = v.start_hand[drop::kBlack];
  std::map<std::pair<Material, Material>, bool> pairs;  // (larger, smaller) by material_less
  for (const Material& a : sub_materials(white))
    for (const Material& b : sub_materials(black))
      if (total(a) + total(b) <= max_pieces_)
        pairs[material_less(a, b) ? std::pair{b, a} : std::pair{a, b}] = true;
  // Fewest pieces first (a capture leads to a tier of one piece fewer), in map order among equals.
  std::vector<std::vector<std::array<Material, 2>>> by_pieces(max_pieces_ + 1);
  for (const auto& [pair, unused] : pairs)
    by_pieces[total(pair.first) + total(pair.second)].push_back({pair.first, pair.second});
  std::vector<std::array<Material, 2>> order;
  for (const auto& same : by_pieces) order.insert(order.end(), same.begin(), same.end());
  std::map<std::array<Material, 2>, int> tier_of;
  for (const auto& mats : order) {
    Tier tier;
    tier.materials = mats;
    tier.name = material_name(mats[0]) + "v" + material_name(mats[1]);
    tier.pieces = total(mats[0]) + total(mats[1]);
    const int id = int(tiers_.size());
    tier_of[mats] = id;
    // Both orientations (unless they coincide), every board count, most on the board first.
    std::vector<Slice> slices;
    for (int side = 0; side < (mats[0] == mats[1] ? 1 : 2); ++side) {
      const Material& us = mats[side];
      const Material& them = mats[1 - side];
      for (const Material& bu : sub_materials(us))
        for (const Material& bt : sub_materials(them)) {
          Slice s;
          s.board = {bu, bt};
          for (int t = 0; t < kPieceTypes; ++t) {
            s.hand[0][t] = std::uint8_t(us[t] - bu[t]);
            s.hand[1][t] = std::uint8_t(them[t] - bt[t]);
          }
          s.on_board = total(bu) + total(bt);
          if (s.on_board > squares) continue;
          std::array<int, tablebase::kGroups> counts;
          for (int g = 0; g < tablebase::kGroups; ++g)
            counts[g] = s.board[g / kPieceTypes][g % kPieceTypes];
          s.size = tablebase::PlacementIndex(squares, counts).size();
          s.tier = id;
          slices.push_back(s);
        }
    }
    std::stable_sort(slices.begin(), slices.end(),
                     [](const Slice& x, const Slice& y) { return x.on_board > y.on_board; });
    for (Slice& s : slices) {
      s.offset = tier.size;
      if (tier.passes.empty() || slices_[tier.slices.back()].on_board != s.on_board)
        tier.passes.push_back({tier.size, tier.size});
      tier.size += s.size;
      tier.passes.back().end = tier.size;
      slice_by_code_[std::size_t(counts_code(s.board, s.hand))] = int(slices_.size());
      tier.slices.push_back(int(slices_.size()));
      slices_.push_back(s);
    }
    total_ += tier.size;
    tiers_.push_back(std::move(tier));
  }
  // Children: one piece fewer on either side (a capture of a piece of that type).
  for (Tier& tier : tiers_)
    for (int side = 0; side < 2; ++side)
      for (int t = 0; t < kPieceTypes; ++t) {
        if (tier.materials[side][t] == 0) continue;
        std::array<Material, 2> m = tier.materials;
        --m[side][t];
        if (material_less(m[0], m[1])) std::swap(m[0], m[1]);
        const auto it = tier_of.find(m);
        if (it != tier_of.end() && std::find(tier.children.begin(), tier.children.end(),
                                             it->second) == tier.children.end())
          tier.children.push_back(it->second);
      }
}

std::int64_t TierLayout::counts_code(const std::array<drop::Hand, 2>& board,
                                     const std::array<drop::Hand, 2>& hand) const {
  std::int64_t code = 0;
  for (int g = 0; g < tablebase::kGroups; ++g) {
    const int side = g / kPieceTypes, t = g % kPieceTypes;
    if (board[side][t] + hand[side][t] > max_count_[t]) return -1;
    code += radix_weight_[g] * pair_code_[t][board[side][t]][hand[side][t]];
  }
  return code;
}

int TierLayout::slice_of(const drop::Position& p) const {
  std::array<drop::Hand, 2> board, hand;
  const drop::Color us = p.side_to_move;
  for (int side = 0; side < 2; ++side) {
    const drop::Color c = side == 0 ? us : drop::opposite(us);
    hand[side] = p.hand[c];
    for (drop::PieceType t : drop::kAllPieceTypes)
      board[side][t] = std::uint8_t(drop::popcount(p.pieces(c, t)));
  }
  return slice_with(board, hand);
}

std::uint64_t TierLayout::memory_bytes() const {
  std::uint64_t n = tablebase::held_bytes(tiers_) + tablebase::held_bytes(slices_) +
                    tablebase::held_bytes(slice_by_code_);
  for (const Tier& t : tiers_)
    n += t.name.capacity() + tablebase::held_bytes(t.slices) + tablebase::held_bytes(t.passes) +
         tablebase::held_bytes(t.children);
  return n;
}

int TierLayout::tier_named(const std::string& name) const {
  for (int i = 0; i < int(tiers_.size()); ++i)
    if (tiers_[i].name == name) return i;
  return -1;
}

}  // namespace drop
