// The window stage of a SELECT (PostgreSQL's WindowAgg nodes): the calls of one window
// (equal PARTITION BY, ORDER BY and frame) share one WindowOp over their rows sorted by the
// partition keys then the ORDER BY keys; a Sort is skipped when the rows already come in that
// order (a previous window's). A key that is not a column of the row is computed by a
// projection first. The projections then read each call's result from its WindowOp column.
#include <algorithm>

#include "execution/window.h"
#include "planner/plan_internal.h"

namespace meridian::exec {

namespace {

// Calls j and k can share one WindowOp: the same window, key expressions included.
bool SameWindow(const BoundExpr& j, const BoundExpr& k) {
  const WindowClause& a = *j.window;
  const WindowClause& b = *k.window;
  if (!a.SameWindow(b)) return false;
  const size_t keys = j.children.size() - a.num_args;
  if (k.children.size() - b.num_args != keys) return false;
  for (size_t i = 0; i < keys; ++i) {
    if (!j.children[a.num_args + i]->Equals(*k.children[b.num_args + i])) return false;
  }
  return true;
}

bool SameKey(const SortKey& a, const SortKey& b) {
  return a.column == b.column && a.descending == b.descending && a.nulls_first == b.nulls_first;
}

}  // namespace

void NameColumns(BoundExpr* e, int from, const std::vector<std::string>& labels) {
  if (e->kind == BoundKind::kColumn && e->depth == 0 && e->index >= from &&
      static_cast<size_t>(e->index - from) < labels.size()) {
    e->name = labels[static_cast<size_t>(e->index - from)];
  }
  for (BoundExprPtr& c : e->children) NameColumns(c.get(), from, labels);
}

std::string SortKeyText(const std::string& expr, bool descending, bool nulls_first) {
  return expr + (descending ? " DESC" : "") +
         (nulls_first != descending ? (nulls_first ? " NULLS FIRST" : " NULLS LAST") : "");
}

Result<Built> PlanWindows(Built cur, std::vector<BoundExprPtr>* window_calls, int input,
                          std::vector<BoundExprPtr>* set_functions,
                          std::vector<BoundExprPtr>* projections, Builder* b) {
  std::vector<BoundExprPtr>& calls = *window_calls;
  int width = input;
  // Where each column of the binder's window row ends up: the input row's columns stay, call
  // j's result is its WindowOp's column.
  std::vector<int> pos(static_cast<size_t>(input) + calls.size());
  for (int i = 0; i < input; ++i) pos[static_cast<size_t>(i)] = i;
  std::vector<std::string> labels;
  for (const BoundExprPtr& c : calls) labels.push_back("(" + ExprToString(*c) + ")");
  // The calls grouped by window; windows with more sort keys first (as PostgreSQL orders
  // them, so one with a prefix of another's keys after it needs no Sort of its own).
  std::vector<std::vector<size_t>> groups;
  std::vector<bool> done(calls.size(), false);
  for (size_t j = 0; j < calls.size(); ++j) {
    if (done[j]) continue;
    groups.emplace_back();
    for (size_t k = j; k < calls.size(); ++k) {
      if (!done[k] && SameWindow(*calls[j], *calls[k])) {
        groups.back().push_back(k);
        done[k] = true;
      }
    }
  }
  auto key_count = [&](const std::vector<size_t>& g) {
    return calls[g[0]]->children.size() - calls[g[0]]->window->num_args;
  };
  std::stable_sort(groups.begin(), groups.end(),
                   [&](const auto& x, const auto& y) { return key_count(x) > key_count(y); });
  std::vector<SortKey> ordering;  // the order the rows come in so far
  for (const std::vector<size_t>& group : groups) {
    const size_t j = group[0];
    const WindowClause& w = *calls[j]->window;
    // The keys: partition (ascending, NULLs last), then ORDER BY; each a column of the row,
    // or an expression computed by a projection into a column after the row.
    std::vector<BoundExprPtr> computed;
    std::vector<SortKey> keys;
    std::string key_text;
    std::vector<int> partition_cols, order_cols;
    for (size_t i = w.num_args; i < calls[j]->children.size(); ++i) {
      BoundExprPtr& key = calls[j]->children[i];
      const size_t o = i - w.num_args;  // key number
      const bool in_order = o >= w.num_partition;
      const bool desc = in_order && w.descending[o - w.num_partition];
      const bool nulls_first = in_order && w.nulls_first[o - w.num_partition];
      const bool plain = key->kind == BoundKind::kColumn && key->depth == 0;
      // A computed key shows in parentheses, as PostgreSQL shows its hidden column.
      const std::string text = plain ? ExprToString(*key) : "(" + ExprToString(*key) + ")";
      key_text += (key_text.empty() ? "" : ", ") + SortKeyText(text, desc, nulls_first);
      int column;
      if (plain) {
        column = key->index;
      } else {
        column = width + static_cast<int>(computed.size());
        computed.push_back(std::move(key));
      }
      keys.push_back({column, desc, nulls_first});
      (in_order ? order_cols : partition_cols).push_back(column);
    }
    for (size_t k : group) calls[k]->children.resize(calls[k]->window->num_args);
    if (!computed.empty()) {
      std::vector<BoundExprPtr> exprs;
      for (int c = 0; c < width; ++c) exprs.push_back(BoundExpr::Column(0, c, Type::Unknown(), ""));
      for (BoundExprPtr& e : computed) exprs.push_back(std::move(e));
      cur.op = std::make_unique<ProjectOp>(std::move(cur.op), std::move(exprs));
    }
    const bool sorted = keys.size() <= ordering.size() &&
                        std::equal(keys.begin(), keys.end(), ordering.begin(), SameKey);
    const double rows = cur.node->rows;
    if (!keys.empty() && !sorted) {
      auto node = std::make_unique<PlanNode>();
      node->label = "Sort";
      node->details.push_back("Sort Key: " + key_text);
      node->rows = rows;
      node->startup_cost = cur.node->total_cost + SortCost(rows);
      node->total_cost = node->startup_cost + rows * kCpuOperatorCost;
      node->width = cur.node->width;
      cur = b->Make(std::make_unique<SortOp>(std::move(cur.op), keys), std::move(node), {&cur});
      ordering = keys;
    }
    auto node = std::make_unique<PlanNode>();
    node->label = "WindowAgg";
    node->rows = rows;
    node->startup_cost = cur.node->startup_cost;
    node->total_cost =
        cur.node->total_cost +
        rows * (kCpuOperatorCost * static_cast<double>(group.size() + keys.size()) + kCpuTupleCost);
    node->width = cur.node->width + 8 * static_cast<int>(group.size());
    std::vector<BoundExprPtr> functions;
    for (size_t k : group) {
      pos[static_cast<size_t>(input) + k] = width + static_cast<int>(functions.size());
      functions.push_back(std::move(calls[k]));
    }
    auto op = std::make_unique<WindowOp>(std::move(cur.op), width, std::move(partition_cols),
                                         std::move(order_cols), std::move(functions));
    width += static_cast<int>(group.size());
    cur = b->Make(std::move(op), std::move(node), {&cur});
  }
  calls.clear();
  // Set-returning calls read the window row; their columns follow it, where they stay.
  for (size_t j = 0; j < set_functions->size(); ++j) pos.push_back(static_cast<int>(pos.size()));
  for (BoundExprPtr& f : *set_functions) {
    NameColumns(f.get(), input, labels);
    Remap(f.get(), pos);
  }
  for (BoundExprPtr& p : *projections) {
    NameColumns(p.get(), input, labels);
    Remap(p.get(), pos);
  }
  return cur;
}

}  // namespace meridian::exec
