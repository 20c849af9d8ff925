// PlanSlot: one prepared statement's idle cached plan (plan_cache.h).
#include "main/plan_cache.h"

#include <algorithm>
#include <utility>

#include "execution/operators.h"

namespace meridian::exec {

std::unique_ptr<CachedPlan> PlanSlot::Take(uint64_t schema_version, const StatementParams& params) {
  MutexLock lock(mu_);
  if (idle_ == nullptr) return nullptr;
  if (idle_->schema_version != schema_version) {
    idle_.reset();  // DDL or ANALYZE since: plan anew
    return nullptr;
  }
  if (idle_->declared != params.types || idle_->supplied != params.values.size()) return nullptr;
  reused_.fetch_add(1, std::memory_order_relaxed);
  return std::move(idle_);
}

bool PlanIsQuickRead(const CachedPlan& plan) {
  return !plan.locks_rows && plan.root != nullptr && plan.root->QuickRead();
}

namespace {

bool QuickChecks(const std::vector<BoundCheck>& checks, const BoundReturning& returning) {
  return NoSubquery(returning.exprs) &&
         std::all_of(checks.begin(), checks.end(),
                     [](const BoundCheck& c) { return NoSubquery(c.expr); });
}

bool QuickMatch(const BoundMatch& m) {
  const auto* heap_scan = dynamic_cast<const SeqScanOp*>(m.scan.get());
  const bool bounded = m.scan != nullptr &&
                       (m.scan->QuickRead() || (heap_scan != nullptr && heap_scan->SmallTable()));
  return bounded && NoSubquery(m.where) && NoSubquery(m.recheck) && NoSubquery(m.residual) &&
         NoSubquery(m.returning.exprs);
}

}  // namespace

bool PlanIsQuickWrite(const CachedPlan& plan) {
  if (plan.root != nullptr) {
    // A SELECT ... FOR UPDATE/SHARE: its lock marks are its writes.
    return plan.locks_rows && plan.root->QuickRead();
  }
  if (const auto* ins = std::get_if<std::unique_ptr<BoundInsert>>(&plan.modify)) {
    const BoundInsert& b = **ins;
    const auto* values = dynamic_cast<const ValuesOp*>(b.source.get());
    return b.on_conflict == nullptr && values != nullptr && values->OneRowWithoutSubquery() &&
           NoSubquery(b.defaults) && QuickChecks(b.checks, b.returning);
  }
  if (const auto* upd = std::get_if<std::unique_ptr<BoundUpdate>>(&plan.modify)) {
    const BoundUpdate& b = **upd;
    return QuickMatch(b) && QuickChecks(b.checks, b.returning) &&
           std::all_of(b.assignments.begin(), b.assignments.end(),
                       [](const BoundAssignment& a) { return NoSubquery(a.value); });
  }
  if (const auto* del = std::get_if<std::unique_ptr<BoundDelete>>(&plan.modify)) {
    return QuickMatch(**del);
  }
  return false;
}

bool PlanSlot::HoldsQuickWrite(uint64_t schema_version) {
  MutexLock lock(mu_);
  return idle_ != nullptr && idle_->schema_version == schema_version && idle_->quick_write;
}

bool PlanSlot::HoldsQuickRead(uint64_t schema_version) {
  MutexLock lock(mu_);
  return idle_ != nullptr && idle_->schema_version == schema_version && idle_->quick_read;
}

void PlanSlot::Give(std::unique_ptr<CachedPlan> plan) {
  MutexLock lock(mu_);
  if (idle_ != nullptr && idle_->schema_version >= plan->schema_version) return;
  idle_ = std::move(plan);
}

}  // namespace meridian::exec
