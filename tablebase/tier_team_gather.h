// Writing a file of a tier that a team holds in parts (tier_team.h): member 0 writes it through
// the table writer's batch hook (BeforeBatch, table_file.h), bringing each batch's entries from
// their owners before the batch and dropping the pages it does not own after it, while the other
// members answer its requests until it says it is done. So no member ever holds more than its
// share of the tier and a batch; the file is the one a process alone writes, byte for byte.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "tablebase/index_range.h"
#include "tablebase/table_file.h"
#include "tablebase/tier_residency.h"
#include "tablebase/tier_space.h"
#include "tablebase/tier_team.h"
#include "tablebase/tier_team_seat.h"

namespace tablebase {

template <TierSpace S>
class TeamGather {
 public:
  // For the team's tier t, which `tiers` holds this member's parts of.
  TeamGather(TierResidency<S>& tiers, const TierTeamSeat& seat, int t)
      : tiers_(tiers), seat_(seat), t_(t) {}

  // Runs write(before_batch), which writes a file of the tier's entries from its array: on
  // member 0, bringing each batch's entries from their owners first; on the others, answering
  // until member 0 is done.
  template <typename Write>
  void write(const Write& write) {
    if (!seat_.writes()) return serve();
    Window window(*this);
    write(BeforeBatch([&](std::uint64_t first, std::uint64_t end) { window.bring({first, end}); }));
  }

 private:
  // Member 0's batch of another member's entries: the words (value bits) or bytes of each of its
  // owned ranges met by the batch, in index order.
  struct Window {
    TeamGather& gather;
    IndexRange held{};  // the batch brought in last
    explicit Window(TeamGather& g) : gather(g) {}
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;
    // Tells the others the writes are done (also when one failed: they must not wait for ever).
    ~Window() {
      try {
        drop_held();
        TierTeam& team = gather.seat_.team();
        team.exchange(std::vector<TierTeam::Bytes>(team.members()));
      } catch (...) {  // a destructor must not throw; the write's own error is the report
      }
    }
    void bring(IndexRange batch) {
      drop_held();
      TierTeam& team = gather.seat_.team();
      TierTeam::Bytes asked(sizeof batch);
      std::memcpy(asked.data(), &batch, sizeof batch);
      std::vector<TierTeam::Bytes> to_each(team.members(), asked);
      to_each[0].clear();
      team.exchange(to_each);
      const auto from = team.exchange(std::vector<TierTeam::Bytes>(team.members()));
      for (int m = 1; m < team.members(); ++m) gather.place(batch, m, from[m]);
      held = batch;
    }
    // The pages of the last batch outside member 0's own parts.
    void drop_held() {
      std::uint64_t at = held.begin;
      for (const IndexRange& r : gather.seat_.owned()) {
        if (r.end <= at) continue;
        gather.tiers_.discard(gather.t_, {at, std::min(r.begin, held.end)});
        at = std::max(at, r.end);
        if (at >= held.end) break;
      }
      if (at < held.end) gather.tiers_.discard(gather.t_, {at, held.end});
      held = {};
    }
  };

  // A member other than 0 while member 0 writes: sends it its entries of each batch it asks for,
  // until it says it is done (an empty request).
  void serve() {
    TierTeam& team = seat_.team();
    for (;;) {
      const auto asked = team.exchange(std::vector<TierTeam::Bytes>(team.members()));
      if (asked[0].empty()) return;
      IndexRange batch;
      std::memcpy(&batch, asked[0].data(), sizeof batch);
      std::vector<TierTeam::Bytes> reply(team.members());
      reply[0] = pack_owned(batch, team.member());
      team.exchange(reply);
    }
  }

  // The tier's entries that member m owns within `batch`, as its words (value bits: whole words
  // holding the range) or bytes, range after range.
  TierTeam::Bytes pack_owned(IndexRange batch, int m) const {
    TierTeam::Bytes out;
    const auto* from = reinterpret_cast<const std::uint8_t*>(std::as_const(tiers_).words(t_));
    for (const IndexRange& r : seat_.owned_within(batch, m)) {
      const auto [first, end] = packed_bytes(r);
      out.insert(out.end(), from + first, from + end);
    }
    return out;
  }
  // Places what pack_owned(batch, m) gave on member m into this member's tier.
  void place(IndexRange batch, int m, const TierTeam::Bytes& packed) {
    std::size_t at = 0;
    solver::ZeroedArray<std::uint64_t>& array = tiers_.array(t_);
    const std::span<std::uint64_t> words(array.data(), array.size());
    for (const IndexRange& r : seat_.owned_within(batch, m)) {
      const auto [first, end] = packed_bytes(r);
      if (at + (end - first) > packed.size())
        throw std::runtime_error("a team member sent fewer entries than asked for");
      std::vector<std::uint64_t> block((end - first + 7) / 8);
      std::memcpy(block.data(), packed.data() + at, end - first);
      copy_entries(block, first * 8 / std::uint64_t(tiers_.entry_bits()), words, r,
                   tiers_.entry_bits());
      at += end - first;
    }
  }
  // The bytes that hold entries r in memory: whole words for value bits (copy_entries' layout).
  std::pair<std::uint64_t, std::uint64_t> packed_bytes(IndexRange r) const {
    if (!tiers_.value_only()) return {r.begin, r.end};
    return {r.begin / 64 * 8, (r.end + 63) / 64 * 8};
  }

  TierResidency<S>& tiers_;
  const TierTeamSeat& seat_;
  int t_;
};

// Runs write(before_batch), which writes a file of tier t's entries from its array in `tiers`.
// Alone the entries are all there (before_batch empty); in a team, TeamGather::write.
template <TierSpace S, typename Write>
void write_gathered(TierResidency<S>& tiers, const TierTeamSeat& seat, int t, const Write& write) {
  if (seat.alone()) return write(BeforeBatch{});
  TeamGather<S>(tiers, seat, t).write(write);
}

}  // namespace tablebase
