#include "rules/drop/solve/proof_session.h"

#include <algorithm>
#include <csignal>
#include <filesystem>

namespace drop {

namespace {

// Set by SIGINT/SIGTERM while a StopOnSignals is alive; a lock-free atomic store is all a signal
// handler may do.
std::atomic<bool> interrupted{false};
void on_interrupt(int) {
  interrupted.store(true);
}

}  // namespace

StopOnSignals::StopOnSignals() {
  interrupted.store(false);
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
}

StopOnSignals::~StopOnSignals() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

bool StopOnSignals::requested() {
  return interrupted.load();
}

ProofHistory resume_proof(const ProofSessionOptions& o, const drop::Game& game,
                          const drop::Position& root, solver::ProofTable<drop::Key>& table) {
  ProofHistory h;
  if (o.checkpoint.empty() || !std::filesystem::exists(o.checkpoint)) return h;
  solver::Checkpoint c;
  try {
    c = solver::load_checkpoint(o.checkpoint);
  } catch (const solver::CheckpointError& e) {
    throw ProofCheckpointRefused(e.what());
  }
  if (c.key_format != drop::kKeyFormat)
    throw ProofCheckpointRefused(
        "--checkpoint " + o.checkpoint + " holds keys of format " + std::to_string(c.key_format) +
        ", this binary packs them in format " + std::to_string(drop::kKeyFormat) +
        ": its entries would name other positions; remove it, or resume with the binary that "
        "wrote it");
  if (c.variant != game.variant().name() || c.fen != drop::to_fen(game, root))
    throw ProofCheckpointRefused("--checkpoint " + o.checkpoint + " belongs to " + c.variant +
                                 " at " + c.fen + ", not to this position");
  for (const solver::ProvenEntry& e : c.entries)
    table.store(drop::Key{e.lo, e.hi}, e.win, e.work_log2);
  return {c.nodes, c.seconds, c.entries.size()};
}

const char* proof_name(solver::Proof p) {
  return p == solver::Proof::kWin ? "win" : p == solver::Proof::kLoss ? "loss" : "unknown";
}

std::function<bool(const drop::Position&)> leaf_rule(int leaf_hand_pieces,
                                                     const EndgameOracle& oracle) {
  const int leaf_in_play = std::max(0, oracle.max_pieces());
  return [leaf_hand = leaf_hand_pieces, leaf_in_play](const drop::Position& p) {
    return p.pieces_in_hands() <= leaf_hand || p.pieces_in_play() <= leaf_in_play;
  };
}

}  // namespace drop
