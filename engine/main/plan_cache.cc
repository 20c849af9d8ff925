// PlanSlot: one prepared statement's idle cached plan (plan_cache.h).
#include "main/plan_cache.h"

#include <utility>

namespace meridian::exec {

std::unique_ptr<CachedPlan> PlanSlot::Take(uint64_t schema_version, const StatementParams& params) {
  std::lock_guard lock(mu_);
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

bool PlanSlot::HoldsQuickRead(uint64_t schema_version) {
  std::lock_guard lock(mu_);
  return idle_ != nullptr && idle_->schema_version == schema_version && idle_->quick_read;
}

void PlanSlot::Give(std::unique_ptr<CachedPlan> plan) {
  std::lock_guard lock(mu_);
  if (idle_ != nullptr && idle_->schema_version >= plan->schema_version) return;
  idle_ = std::move(plan);
}

}  // namespace meridian::exec
