// The tiers the solver holds in memory: their entries (a DTE byte or a value bit each, in 64-bit
// words), which tiers are held and how (whole, or a team member's part), what that costs by the
// memory plan's counts (tier_memory_plan.h), which finished tiers to evict when the current tier
// and the children it reads must fit the cap, and reading finished tiers back from their files.
//
// Every tier's array is in huge pages where it is large (solver::ZeroedArray): children are read
// at random. With no tables directory nothing is written, so nothing is evicted: every tier stays
// in memory (tests and benchmarks).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "solver/zeroed_array.h"
#include "tablebase/index_range.h"
#include "tablebase/tier_files.h"
#include "tablebase/tier_memory_plan.h"
#include "tablebase/tier_solve_options.h"
#include "tablebase/tier_space.h"
#include "tablebase/tier_team_seat.h"

namespace tablebase {

// The held tiers' entries by location, for the inner loops: a copy of the table of the tiers'
// first words, which a loop keeps in a register (reading through the residency costs a load more
// a child).
class HeldEntries {
 public:
  explicit HeldEntries(std::uint64_t* const* words) : words_(words) {}
  // A DTE entry's byte (bytes may be read through any object's words).
  const std::uint8_t* byte_at(Location at) const {
    return reinterpret_cast<const std::uint8_t*>(words_[at.tier]) + at.index;
  }
  // A value-only entry's bit. Words of the tier being swept also change while it is read (a
  // boundary word shared with the pass before), so every access is atomic; relaxed is enough, as
  // a child's own bit is final before the sweep reading it starts.
  bool value_bit(Location at) const {
    const std::atomic_ref<std::uint64_t> word(words_[at.tier][at.index >> 6]);
    return (word.load(std::memory_order_relaxed) >> (at.index & 63) & 1) != 0;
  }

 private:
  std::uint64_t* const* words_;
};

template <TierSpace S>
class TierResidency {
 public:
  // `seat` is the solver's, which says while a team solves a tier what this member holds of it.
  TierResidency(const S& space, const TierSolveOptions& options, const TierTeamSeat& seat)
      : space_(space),
        options_(options),
        seat_(seat),
        index_bytes_(space.memory_bytes()),
        data_(space.tier_count()),
        words_(space.tier_count(), nullptr),
        in_part_(space.tier_count(), 0) {}

  // --- The entries held.
  bool value_only() const { return options_.value_only; }
  int entry_bits() const { return tablebase::entry_bits(value_only()); }
  bool held(int t) const { return !data_[t].empty(); }
  // Tier t holds only this member's part (a child of a team's tier, read by load).
  bool in_part(int t) const { return in_part_[t] != 0; }
  // A tier's bytes live in 64-bit words, so a checkpoint can hand them to the file layer as they
  // are (bytes may be read through any object; the reverse would break aliasing rules).
  std::span<std::uint8_t> bytes(int t) {
    return {reinterpret_cast<std::uint8_t*>(data_[t].data()), space_.tier_size(t)};
  }
  solver::ZeroedArray<std::uint64_t>& array(int t) { return data_[t]; }
  // Its first word, for the inner loops.
  std::uint64_t* words(int t) { return words_[t]; }
  const std::uint64_t* words(int t) const { return words_[t]; }
  HeldEntries entries() const { return HeldEntries(words_.data()); }
  const std::uint8_t* byte_at(Location at) const { return entries().byte_at(at); }
  bool value_bit(Location at) const { return entries().value_bit(at); }
  // The entry of tier t at `index` that this process holds (a DTE, or 0/1 for a value).
  std::uint8_t entry(int t, std::uint64_t index) const {
    return value_only() ? std::uint8_t(value_bit({t, index})) : *byte_at({t, index});
  }

  // Tier t's entries, all zero (a value-only loss; for DTEs, a group fold's marker is set by
  // the solver).
  void allocate(int t) {
    data_[t] = solver::ZeroedArray<std::uint64_t>(entry_words(space_.tier_size(t), value_only()));
    words_[t] = data_[t].data();
  }
  void release(int t) {
    data_[t] = {};
    words_[t] = nullptr;
    in_part_[t] = 0;
  }
  // Gives back the pages wholly inside entries r of tier t.
  void discard(int t, IndexRange r) {
    if (r.begin >= r.end) return;
    const auto bits = std::uint64_t(entry_bits());
    data_[t].discard(r.begin * bits / 8, r.end * bits / 8);
  }

  // --- What they cost.
  std::uint64_t memory(int t) const { return tier_memory(space_, t, value_only()); }
  // What tier t holds in memory once solved or read: all of it, or a team member's share.
  std::uint64_t held_memory(int t) const {
    if (t == seat_.tier()) return team_share_memory(space_, t, value_only(), seat_.members());
    if (in_part_[t]) return team_child_memory(space_, t, value_only(), parts_for_.members);
    return memory(t);
  }
  // What child tier c takes while this solve reads it: as held now, or as load(c) reads it.
  std::uint64_t child_memory(int c) const {
    if (held_as_read(c)) return held_memory(c);
    return seat_.reading_parts() ? team_child_memory(space_, c, value_only(), seat_.members())
                                 : memory(c);
  }
  // What the cap leaves for tiers and I/O buffers beside the space's own index.
  std::uint64_t budget() const {
    return options_.memory_bytes > index_bytes_ ? options_.memory_bytes - index_bytes_ : 0;
  }
  // Whether the team's tier t (this member's share) and all its children, whole, fit the cap;
  // when not, the members read the children in parts.
  bool children_fit_whole(int t) const {
    if (options_.dir.empty()) return true;
    std::uint64_t whole = held_memory(t) + kIoBufferBytes;
    for (int c : space_.tier_children(t)) whole += memory(c);
    return whole <= budget();
  }

  // --- Which are held.
  // Evicts finished tiers other than t and `children`, oldest first, until t and the children
  // fit in memory together, with `scratch` bytes more.
  void make_room(int t, const std::vector<int>& children, std::uint64_t scratch = 0) {
    if (options_.dir.empty()) return;  // everything stays in memory
    std::vector<bool> needed(space_.tier_count(), false);
    needed[t] = true;
    std::uint64_t to_add = kIoBufferBytes + scratch + (data_[t].empty() ? held_memory(t) : 0);
    for (int c : children) {
      needed[c] = true;
      if (!held_as_read(c)) to_add += child_memory(c);
    }
    for (int old = 0; old < space_.tier_count(); ++old) {
      if (resident_bytes() + to_add <= budget()) break;
      if (!needed[old]) release(old);
    }
  }

  // Tier t's children in the groups that are read together: one group when they all fit beside
  // t under the cap (or nothing goes to disk), else as few groups as fit, each within the cap,
  // with `window` bytes set aside when there is more than one group (a fold's address-ordered
  // reads, tier_sweeps.h).
  std::vector<std::vector<int>> child_groups(int t, const std::vector<int>& children,
                                             std::uint64_t window) const {
    if (options_.dir.empty()) return {children};
    const auto within = [&](std::uint64_t used) {
      const std::uint64_t room = budget() > used ? budget() - used : 0;
      std::vector<std::vector<int>> groups(1);
      std::uint64_t in_group = 0;
      for (int c : children) {
        if (!groups.back().empty() && in_group + child_memory(c) > room) {
          groups.emplace_back();
          in_group = 0;
        }
        groups.back().push_back(c);
        in_group += child_memory(c);
      }
      return groups;
    };
    const std::uint64_t used = held_memory(t) + kIoBufferBytes;
    auto groups = within(used);
    if (groups.size() > 1 && window > 0) groups = within(used + window);
    return groups;
  }

  // Reads a finished tier back from disk: all of it, or this team member's part of it when it
  // reads its children in parts (the other members answer for the rest).
  void load(int t) {
    if (space_.tier_size(t) == 0 || held_as_read(t)) return;
    release(t);
    allocate(t);
    std::vector<IndexRange> only;
    if (seat_.reading_parts()) {
      only.push_back(seat_.child_part(space_.tier_size(t), seat_.team().member()));
      in_part_[t] = 1;
    }
    if (value_only())
      read_value_file(options_.dir, space_.variant_name(), space_.tier_name(t), space_.tier_size(t),
                      data_[t], only);
    else
      read_tier_files(options_.dir, space_.variant_name(), space_.tier_name(t), bytes(t), only);
  }

  // A team seat starts: the parts held for another seat (another team, or another place in one)
  // are released, as this member's part of a child differs there.
  void hold_parts_for(int member, int members) {
    if (parts_for_ == PartsFor{member, members}) return;
    for (int c = 0; c < space_.tier_count(); ++c)
      if (in_part_[c]) release(c);
    parts_for_ = {member, members};
  }

 private:
  // Whether tier c, if held, is held as this solve reads it (whole, or in part for this team).
  bool held_as_read(int c) const {
    return !data_[c].empty() && (!in_part_[c] || seat_.reading_parts());
  }
  std::uint64_t resident_bytes() const {
    std::uint64_t n = 0;
    for (int t = 0; t < space_.tier_count(); ++t)
      if (!data_[t].empty()) n += held_memory(t);
    return n;
  }

  const S& space_;
  const TierSolveOptions& options_;
  const TierTeamSeat& seat_;
  std::uint64_t index_bytes_;  // the space's own (S::memory_bytes)
  // Per tier, its bytes (empty when not in memory), in huge pages: children are read at random.
  std::vector<solver::ZeroedArray<std::uint64_t>> data_;
  std::vector<std::uint64_t*> words_;  // each tier's first word, for the inner loops
  // Per tier, whether it holds only this member's part, and the team seat those parts were read
  // for (member, members).
  std::vector<char> in_part_;
  struct PartsFor {
    int member = 0, members = 0;
    bool operator==(const PartsFor&) const = default;
  } parts_for_;
};

}  // namespace tablebase
