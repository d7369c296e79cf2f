// include/drop16/probe.h over tablebase::TableProbe (any game's tables, through the registry):
// converts text and answers, nothing more.
#include "drop16/probe.h"

#include <type_traits>

#include "tablebase/table_probe.h"

namespace drop16 {

struct Tables::Impl {
  tablebase::AnyTableProbe probe;
};

Tables::Tables(const std::string& dir, std::uint64_t cache_bytes)
    : impl_(std::make_unique<Impl>(Impl{tablebase::open_table_probe(dir, cache_bytes)})) {}
Tables::~Tables() = default;
Tables::Tables(Tables&&) noexcept = default;
Tables& Tables::operator=(Tables&&) noexcept = default;

std::string Tables::variant() const {
  return tablebase::with_probe<std::string>(impl_->probe, [](auto& t) { return t.variant(); });
}

namespace {

// The position's value and DTE, and with_moves every move's, from whichever game's tables.
Answer answer(const tablebase::AnyTableProbe& any, std::string_view fen, bool with_moves) {
  return tablebase::with_probe<Answer>(any, [&](auto& t) {
    using E = typename std::decay_t<decltype(t)>::Entry;
    const auto a = t.probe(E::parse_fen(t.game(), fen), with_moves);
    Answer out{t.variant(),
               E::fen(t.game(), a.position),
               a.value.wdl == solver::Wdl::win,
               a.value.distance,
               {},
               std::string(solver::wdl_name(a.value.wdl))};
    for (const auto& m : a.moves)
      out.moves.push_back({registry::move_text<E>(t.game(), a.position, m.move),
                           m.value.wdl == solver::Wdl::win, m.value.distance,
                           std::string(solver::wdl_name(m.value.wdl))});
    return out;
  });
}

}  // namespace

Answer Tables::probe(std::string_view fen) {
  return answer(impl_->probe, fen, false);
}

Answer Tables::analyze(std::string_view fen) {
  return answer(impl_->probe, fen, true);
}

}  // namespace drop16
