// include/drop16/probe.h over tablebase::TableProbe (any game's tables, through the registry):
// converts text and answers, nothing more.
#include "drop16/probe.h"

#include <type_traits>

#include "tablebase/analysis_json.h"
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

Value value_of(solver::Wdl v) {
  return v == solver::Wdl::win ? Value::win : v == solver::Wdl::draw ? Value::draw : Value::loss;
}
int dte_of(const solver::WdlValue& v) {
  return v.wdl == solver::Wdl::draw ? 0 : v.distance;
}

// The position's value and DTE, and with_moves every move's (best first, as the analysis object
// of drop16 query lists them), from whichever game's tables.
Answer answer(const tablebase::AnyTableProbe& any, std::string_view fen, bool with_moves) {
  return tablebase::with_probe<Answer>(any, [&](auto& t) {
    using E = typename std::decay_t<decltype(t)>::Entry;
    const auto a = t.probe(E::parse_fen(t.game(), fen), with_moves);
    Answer out{
        t.variant(), E::fen(t.game(), a.position), value_of(a.value.wdl), dte_of(a.value), {}};
    std::vector<tablebase::MoveValue> moves;
    for (const auto& m : a.moves)
      moves.push_back({registry::move_text<E>(t.game(), a.position, m.move), m.value});
    for (const auto& m : tablebase::best_first(moves))
      out.moves.push_back({m.move, value_of(m.value->wdl), dte_of(*m.value)});
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
