// Views in FROM: the stored query of a view is bound where the view is named, like a subquery
// in FROM but on its own (it cannot see the enclosing query's columns or WITH queries), and its
// output takes the view's column names. Also the dependency recording behind CREATE VIEW.
#include <algorithm>

#include "binder/binder.h"
#include "catalog/system_tables.h"

namespace meridian::exec {

namespace {

// Views inside views deeper than this are refused (a cycle cannot be created, but a corrupt
// catalog must not recurse without end).
constexpr int kMaxViewDepth = 100;

}  // namespace

std::shared_ptr<const catalog::ViewSchema> Binder::FindView(const ast::TableRef& ref) const {
  if (ref.schema == "pg_catalog" || ref.schema == "information_schema") return nullptr;
  if (ref.schema.empty() && catalog::SystemTables::Exists("", ref.name)) return nullptr;
  return catalog_->FindView(ast::QualifyName(ref.schema, ref.name), session_);
}

void Binder::NoteRelation(uint32_t id) {
  if (deps_ == nullptr) return;
  auto& r = deps_->relations;
  if (std::find(r.begin(), r.end(), id) == r.end()) r.push_back(id);
}

void Binder::NoteColumn(const ScopeTable& st, int c) {
  if (deps_ == nullptr || st.table == nullptr || st.table->system_rows() != nullptr) return;
  const std::pair<uint32_t, int> use{st.table->id(), c};
  auto& cols = deps_->columns;
  if (std::find(cols.begin(), cols.end(), use) == cols.end()) cols.push_back(use);
}

Status Binder::CannotChangeView(const std::string& name, uint32_t position) const {
  return Status::Error(sqlstate::kObjectNotInPrerequisiteState,
                       std::string("cannot ") + write_verb_ + " view \"" + name + "\"")
      .WithDetail("Views are not updatable in Meridian.")
      .WithHint("Write to the table the view reads from instead.")
      .WithPosition(position);
}

Result<std::unique_ptr<BoundSelect>> Binder::BindView(const catalog::ViewSchema& view,
                                                      uint32_t position) {
  NoteRelation(view.id);
  if (view_depth_ >= kMaxViewDepth) {
    return Status::Error(sqlstate::kStatementTooComplex,
                         "views nested too deeply at view \"" + view.name + "\"")
        .WithPosition(position);
  }
  // Bound at the level a subquery in FROM would be (BindDerived), below a scope with no tables
  // and no parent: the enclosing queries' columns and WITH queries are out of sight.
  Scope barrier;
  barrier.level = scope_ == nullptr ? -1 : scope_->level;
  const size_t level = static_cast<size_t>(barrier.level + 1);
  const bool was_correlated = level < correlated_.size() && correlated_[level];
  std::vector<CteEntry> saved_ctes = std::move(ctes_);
  ctes_.clear();
  ParamTypes* saved_params = std::exchange(params_, nullptr);
  // What the view's own query reads is the view's dependency, not the statement's.
  ViewDependencies* saved_deps = std::exchange(deps_, nullptr);
  ++view_depth_;
  Result<std::unique_ptr<BoundSelect>> bound = [&] {
    ScopeSwitch enter(this, &barrier);
    return BindSelectInScope(*view.query);
  }();
  --view_depth_;
  params_ = saved_params;
  deps_ = saved_deps;
  ctes_ = std::move(saved_ctes);
  if (was_correlated && level < correlated_.size()) correlated_[level] = true;
  // An error inside the view's text points at the view's name in the statement.
  if (!bound.ok()) return Status(bound.status()).WithPosition(position);
  std::unique_ptr<BoundSelect> out = std::move(bound).value();
  const size_t n = view.columns.size();
  // A `*` in the view picks up columns added to its tables since CREATE VIEW; PostgreSQL
  // expanded it then, so the view keeps its first columns (those come first in `*`).
  if (out->columns.size() > n && out->set_op == ast::SetOp::kNone &&
      out->visible == out->columns.size()) {
    out->columns.resize(n);
    out->visible = n;
  }
  bool same = out->columns.size() == n;
  for (size_t i = 0; same && i < n; ++i) same = out->columns[i].type == view.columns[i].type;
  if (!same) {
    return Status::Error(sqlstate::kObjectNotInPrerequisiteState,
                         "view \"" + view.name + "\" no longer matches its definition")
        .WithHint("Recreate the view with CREATE OR REPLACE VIEW.")
        .WithPosition(position);
  }
  for (size_t i = 0; i < n; ++i) out->columns[i].name = view.columns[i].name;
  return out;
}

}  // namespace meridian::exec
