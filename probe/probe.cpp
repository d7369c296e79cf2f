// include/drop16/probe.h over tablebase::Prober: converts text and answers, nothing more.
#include "drop16/probe.h"

#include "rules/drop/notation.h"
#include "rules/drop/variant.h"
#include "solver/outcome.h"
#include "tablebase/prober.h"
#include "tablebase/tier_files.h"

namespace drop16 {

struct Tables::Impl {
  drop::Game game;
  tablebase::Prober prober;
  Impl(const std::string& dir, std::uint64_t cache_bytes)
      : game(drop::parse_variant(tablebase::tables_variant(dir))), prober(game, dir, cache_bytes) {}

  Answer answer(std::string_view fen, bool with_moves) {
    const tablebase::Prober::Answer a = prober.probe_fen(fen, with_moves);
    Answer out{
        game.variant().name(), drop::to_fen(game, a.position), solver::is_win(a.dte), a.dte, {}};
    for (const auto& m : a.moves)
      out.moves.push_back({drop::move_name(game.geometry(), m.move), m.outcome.win, m.outcome.dte});
    return out;
  }
};

Tables::Tables(const std::string& dir, std::uint64_t cache_bytes)
    : impl_(std::make_unique<Impl>(dir, cache_bytes)) {}
Tables::~Tables() = default;
Tables::Tables(Tables&&) noexcept = default;
Tables& Tables::operator=(Tables&&) noexcept = default;

std::string Tables::variant() const {
  return impl_->game.variant().name();
}

Answer Tables::probe(std::string_view fen) {
  return impl_->answer(fen, false);
}

Answer Tables::analyze(std::string_view fen) {
  return impl_->answer(fen, true);
}

}  // namespace drop16
