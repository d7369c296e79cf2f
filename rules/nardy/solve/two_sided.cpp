#include "rules/nardy/solve/two_sided.h"

#include "solver/expectimax.h"
#include "solver/progress.h"

namespace nardy::bearoff {

nardy::Position race_position(const HomeBoard& white, const HomeBoard& black, int white_eaten,
                              int black_eaten) {
  nardy::Position p;
  for (int q = 1; q <= kHome; ++q) {
    p.plain[nardy::kWhite][q - 1] = white.plain[q - 1];
    p.royal[nardy::kWhite][q - 1] = white.has_royal(q);
    p.plain[nardy::kBlack][q - 1] = black.plain[q - 1];
    p.royal[nardy::kBlack][q - 1] = black.has_royal(q);
  }
  p.eaten = {std::uint8_t(white_eaten), std::uint8_t(black_eaten)};
  p.off = {std::uint8_t(nardy::kCheckers - white.checkers() - white_eaten),
           std::uint8_t(nardy::kCheckers - black.checkers() - black_eaten)};
  return p;
}

TwoSidedPlain::TwoSidedPlain(int max_checkers, int white_eaten, int black_eaten,
                             solver::Progress* progress) {
  const HomeIndex index(max_checkers);
  for (std::uint64_t i = 0; i < index.size(); ++i) {
    const HomeBoard b = index.board(i);
    if (b.royal == 0 && b.checkers() > 0) boards_.push_back(b);
  }
  const nardy::Game game(12);
  solver::Expectimax<nardy::Game> search(game, std::uint64_t{2} << 30);
  values_.reserve(boards_.size() * boards_.size());
  if (progress) progress->set_total(boards_.size() * boards_.size());
  for (const HomeBoard& w : boards_) {
    for (const HomeBoard& b : boards_)
      values_.push_back(search.value(race_position(w, b, white_eaten, black_eaten))[nardy::kWhite]);
    if (progress) progress->advance(boards_.size()), progress->add_to_rate(boards_.size());
  }
  nodes_ = search.nodes();
}

}  // namespace nardy::bearoff
