// Iterative depth measurement and destruction of expression trees (see expr_depth.h). Both walk
// the same edges: Expr children (with an aggregate's ORDER BY keys and FILTER), the expressions
// of an Expr's subquery and of its OVER window.

#include "expr_depth.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace meridian::parser {
namespace {

template <typename F>
void ForEachSelectExpr(ast::SelectStmt& s, F&& f);

template <typename F>
void ForEachWindowExpr(ast::WindowSpec& w, F&& f) {
  for (auto& p : w.partition_by) f(p);
  for (auto& o : w.order_by) f(o.expr);
  if (w.frame) {
    f(w.frame->start_offset);
    f(w.frame->end_offset);
  }
}

template <typename F>
void ForEachFromExpr(std::vector<ast::TableRef>& from, F&& f) {
  for (auto& ref : from) {
    f(ref.on);
    f(ref.function);
    if (ref.subquery) ForEachSelectExpr(*ref.subquery, f);
  }
}

template <typename F>
void ForEachSelectExpr(ast::SelectStmt& s, F&& f) {
  for (auto& item : s.items) f(item.expr);
  ForEachFromExpr(s.from, f);
  for (auto& cte : s.with) {
    if (cte.query) ForEachSelectExpr(*cte.query, f);
  }
  f(s.where);
  for (auto& e : s.group_by) f(e);
  f(s.having);
  for (auto& w : s.windows) ForEachWindowExpr(w, f);
  for (auto& o : s.order_by) f(o.expr);
  f(s.limit);
  f(s.offset);
  if (s.set_left) ForEachSelectExpr(*s.set_left, f);
  if (s.set_right) ForEachSelectExpr(*s.set_right, f);
}

template <typename F>
void ForEachStatementExpr(ast::Statement& stmt, F&& f) {
  if (stmt.select) ForEachSelectExpr(*stmt.select, f);
  if (stmt.insert) {
    for (auto& row : stmt.insert->values) {
      for (auto& e : row) f(e);
    }
    if (stmt.insert->select) ForEachSelectExpr(*stmt.insert->select, f);
  }
  if (stmt.update) {
    for (auto& a : stmt.update->assignments) f(a.value);
    ForEachFromExpr(stmt.update->from, f);
    f(stmt.update->where);
  }
  if (stmt.del) {
    ForEachFromExpr(stmt.del->using_from, f);
    f(stmt.del->where);
  }
  if (stmt.create_table) {
    for (auto& c : stmt.create_table->columns) {
      f(c.default_expr);
      for (auto& check : c.checks) f(check.expr);
    }
    for (auto& check : stmt.create_table->checks) f(check.expr);
  }
  if (stmt.create_table_as && stmt.create_table_as->query) {
    ForEachSelectExpr(*stmt.create_table_as->query, f);
  }
  if (stmt.alter_table) {
    for (auto& cmd : stmt.alter_table->cmds) {
      f(cmd.default_expr);
      f(cmd.check.expr);
      f(cmd.column.default_expr);
      for (auto& check : cmd.column.checks) f(check.expr);
    }
  }
  if (stmt.explained) ForEachStatementExpr(*stmt.explained, f);
  if (stmt.prepare && stmt.prepare->statement) ForEachStatementExpr(*stmt.prepare->statement, f);
  if (stmt.execute) {
    for (auto& e : stmt.execute->args) f(e);
  }
}

template <typename F>
void ForEachChild(ast::Expr& e, F&& f) {
  for (auto& c : e.children) f(c);
  for (auto& o : e.agg_order) f(o.expr);
  f(e.filter);
  if (e.subquery) ForEachSelectExpr(*e.subquery, f);
  if (e.over) ForEachWindowExpr(*e.over, f);
}

int DepthOf(ast::ExprPtr& root) {
  if (!root) return 0;
  int max_depth = 0;
  std::vector<std::pair<ast::Expr*, int>> stack{{root.get(), 1}};
  while (!stack.empty()) {
    ast::Expr* e = stack.back().first;
    const int d = stack.back().second;  // not a structured binding: clang 14 cannot capture one
    stack.pop_back();
    max_depth = std::max(max_depth, d);
    ForEachChild(*e, [&](ast::ExprPtr& c) {
      if (c) stack.emplace_back(c.get(), d + 1);
    });
  }
  return max_depth;
}

}  // namespace

int MaxExprDepth(ast::ExprPtr& expr) { return DepthOf(expr); }

int MaxExprDepth(ast::Statement& stmt) {
  int max_depth = 0;
  ForEachStatementExpr(stmt, [&](ast::ExprPtr& e) { max_depth = std::max(max_depth, DepthOf(e)); });
  return max_depth;
}

void DestroyIteratively(ast::ExprPtr& expr) {
  std::vector<ast::ExprPtr> stack;
  stack.push_back(std::move(expr));
  while (!stack.empty()) {
    ast::ExprPtr e = std::move(stack.back());
    stack.pop_back();
    if (!e) continue;
    ForEachChild(*e, [&](ast::ExprPtr& c) { stack.push_back(std::move(c)); });
  }
}

void DestroyIteratively(ast::Statement& stmt) {
  ForEachStatementExpr(stmt, [](ast::ExprPtr& e) { DestroyIteratively(e); });
}

}  // namespace meridian::parser
