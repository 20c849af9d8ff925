// SELECT: set operations (UNION/INTERSECT/EXCEPT [ALL]) over SELECT cores — select list (*, t.*,
// expr [AS] alias), FROM with aliases and joins, WHERE, GROUP BY, HAVING — then ORDER BY with
// ASC/DESC and NULLS FIRST/LAST, LIMIT (ALL) and OFFSET in either order, and the row-locking
// clauses FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE [OF ...] [NOWAIT | SKIP LOCKED];
// WITH lists (also those of INSERT / UPDATE / DELETE), their queries SELECTs or, at the top
// level only, data-modifying INSERT / UPDATE / DELETE.

#include <algorithm>

#include "syntax_error.h"
#include "transformer.h"

namespace meridian::parser {

std::unique_ptr<ast::SelectStmt> Transformer::TransformSelect(P::SelectStmtContext* ctx) {
  std::unique_ptr<ast::SelectStmt> stmt = TransformSelectSet(ctx->selectSet());
  TransformWith(ctx->withClause(), &stmt->with);
  // "(SELECT ... ORDER BY x) LIMIT 1" merges into one query; a clause given both inside and
  // outside the parentheses is an error, as in PostgreSQL.
  auto twice = [&](antlr4::ParserRuleContext* at, const char* what) {
    Fail(ErrorAt(at, sqlstate::kSyntaxError,
                 std::string("multiple ") + what + " clauses not allowed"));
  };
  if (!ctx->orderItem().empty() && !stmt->order_by.empty()) twice(ctx, "ORDER BY");
  if (ctx->limitClause() != nullptr && stmt->limit) twice(ctx->limitClause(), "LIMIT");
  if (ctx->offsetClause() != nullptr && stmt->offset) twice(ctx->offsetClause(), "OFFSET");
  for (P::OrderItemContext* order_ctx : ctx->orderItem()) {
    stmt->order_by.push_back(TransformOrderItem(order_ctx));
  }
  if (P::LimitClauseContext* limit = ctx->limitClause(); limit && limit->expr()) {
    stmt->limit = TransformExpr(limit->expr());
  }
  if (P::OffsetClauseContext* offset = ctx->offsetClause()) {
    stmt->offset = TransformExpr(offset->expr());
  }
  if (P::LockingClauseContext* locking = ctx->lockingClause()) {
    TransformLocking(locking, stmt.get());
  }
  return stmt;
}

P::WithClauseContext* Transformer::TopWith(P::SelectStmtContext* select,
                                           P::InsertStmtContext* insert,
                                           P::UpdateStmtContext* update,
                                           P::DeleteStmtContext* del) {
  if (select != nullptr) return select->withClause();
  if (insert != nullptr) return insert->withClause();
  if (update != nullptr) return update->withClause();
  if (del != nullptr) return del->withClause();
  return nullptr;
}

void Transformer::TransformWith(P::WithClauseContext* with,
                                std::vector<ast::CommonTableExpr>* out) {
  if (with == nullptr) return;
  for (P::CommonTableExprContext* cte_ctx : with->commonTableExpr()) {
    ast::CommonTableExpr cte;
    cte.loc = Loc(cte_ctx);
    cte.recursive = with->K_RECURSIVE() != nullptr;
    std::vector<P::IdentifierContext*> ids = cte_ctx->identifier();
    cte.name = Identifier(ids[0]);
    for (size_t i = 1; i < ids.size(); ++i) cte.columns.push_back(Identifier(ids[i]));
    if (cte_ctx->selectStmt() != nullptr) {
      cte.query = TransformSelect(cte_ctx->selectStmt());
    } else {
      // INSERT / UPDATE / DELETE: only in the WITH list of the top-level statement, as in
      // PostgreSQL (not in a subquery, another WITH query or a CREATE TABLE AS / VIEW / COPY).
      if (with != top_with_) {
        Fail(ErrorAt(cte_ctx, sqlstate::kFeatureNotSupported,
                     "WITH clause containing a data-modifying statement must be at the top "
                     "level"));
      }
      auto inner = std::make_unique<ast::Statement>();
      antlr4::ParserRuleContext* body = nullptr;
      if (auto* s = cte_ctx->insertStmt()) {
        inner->kind = ast::StatementKind::kInsert;
        inner->insert = TransformInsert(s);
        body = s;
      } else if (auto* s = cte_ctx->updateStmt()) {
        inner->kind = ast::StatementKind::kUpdate;
        inner->update = TransformUpdate(s);
        body = s;
      } else {
        auto* d = cte_ctx->deleteStmt();
        inner->kind = ast::StatementKind::kDelete;
        inner->del = TransformDelete(d);
        body = d;
      }
      inner->loc = Loc(body);
      inner->text = std::string(SourceOf(body));
      cte.statement = std::move(inner);
    }
    for (const ast::CommonTableExpr& earlier : *out) {
      if (earlier.name == cte.name) {
        Fail(ErrorAt(cte_ctx, "42712",
                     "WITH query name \"" + cte.name + "\" specified more than once"));
      }
    }
    out->push_back(std::move(cte));
  }
}

void Transformer::TransformLocking(P::LockingClauseContext* ctx, ast::SelectStmt* stmt) {
  using Strength = ast::LockingClause::Strength;
  for (P::LockingItemContext* item : ctx->lockingItem()) {  // none for FOR READ ONLY
    ast::LockingClause clause;
    clause.loc = Loc(item);
    P::LockingStrengthContext* strength = item->lockingStrength();
    clause.strength = strength->K_NO() != nullptr      ? Strength::kNoKeyUpdate
                      : strength->K_KEY() != nullptr   ? Strength::kKeyShare
                      : strength->K_SHARE() != nullptr ? Strength::kShare
                                                       : Strength::kUpdate;
    for (P::QualifiedNameContext* name : item->qualifiedName()) {
      std::string schema;
      std::string table;
      QualifiedName(name, &schema, &table);
      if (!schema.empty()) {  // PostgreSQL matches OF names against FROM aliases only
        Fail(ErrorAt(name, sqlstate::kSyntaxError,
                     std::string(ast::LockingStrengthName(clause.strength)) +
                         " must specify unqualified relation names"));
      }
      clause.of_tables.push_back(std::move(table));
      clause.of_table_locs.push_back(Loc(name));
    }
    clause.nowait = item->K_NOWAIT() != nullptr;
    clause.skip_locked = item->K_SKIP() != nullptr;
    stmt->locking.push_back(std::move(clause));
  }
  if (stmt->set_op != ast::SetOp::kNone) RejectLockingInSetOperation(*stmt);
}

void Transformer::RejectLockingInSetOperation(const ast::SelectStmt& operand) {
  if (operand.locking.empty()) return;
  const ast::LockingClause& first = operand.locking.front();
  Fail(Status::Error(sqlstate::kFeatureNotSupported,
                     std::string(ast::LockingStrengthName(first.strength)) +
                         " is not allowed with UNION/INTERSECT/EXCEPT")
           .WithPosition(first.loc.position)
           .WithDetail("line " + std::to_string(first.loc.line) + ", column " +
                       std::to_string(first.loc.column)));
}

namespace {

std::unique_ptr<ast::SelectStmt> SetNode(ast::SetOp op, bool all,
                                         std::unique_ptr<ast::SelectStmt> left,
                                         std::unique_ptr<ast::SelectStmt> right,
                                         ast::Location loc) {
  auto node = std::make_unique<ast::SelectStmt>();
  node->loc = loc;
  node->set_op = op;
  node->set_all = all;
  node->set_left = std::move(left);
  node->set_right = std::move(right);
  return node;
}

}  // namespace

std::unique_ptr<ast::SelectStmt> Transformer::TransformSelectSet(P::SelectSetContext* ctx) {
  std::vector<P::SelectTermContext*> terms = ctx->selectTerm();
  std::unique_ptr<ast::SelectStmt> result = TransformSelectTerm(terms[0]);
  std::vector<P::SetOperatorContext*> ops = ctx->setOperator();
  if (!ops.empty()) RejectLockingInSetOperation(*result);
  for (size_t i = 0; i < ops.size(); ++i) {
    const ast::SetOp op = ops[i]->K_UNION() ? ast::SetOp::kUnion : ast::SetOp::kExcept;
    std::unique_ptr<ast::SelectStmt> right = TransformSelectTerm(terms[i + 1]);
    RejectLockingInSetOperation(*right);
    result =
        SetNode(op, ops[i]->K_ALL() != nullptr, std::move(result), std::move(right), Loc(ops[i]));
  }
  return result;
}

std::unique_ptr<ast::SelectStmt> Transformer::TransformSelectTerm(P::SelectTermContext* ctx) {
  std::vector<P::SelectPrimaryContext*> prims = ctx->selectPrimary();
  std::unique_ptr<ast::SelectStmt> result = TransformSelectPrimary(prims[0]);
  if (prims.size() > 1) RejectLockingInSetOperation(*result);
  // INTERSECT [ALL|DISTINCT] tokens in order: each K_INTERSECT is followed by an optional
  // ALL/DISTINCT before the next primary.
  size_t next = 1;
  for (size_t i = 0; i < ctx->children.size() && next < prims.size(); ++i) {
    auto* term = dynamic_cast<antlr4::tree::TerminalNode*>(ctx->children[i]);
    if (term == nullptr || term->getSymbol()->getType() != P::K_INTERSECT) continue;
    bool all = false;
    if (i + 1 < ctx->children.size()) {
      auto* after = dynamic_cast<antlr4::tree::TerminalNode*>(ctx->children[i + 1]);
      all = after != nullptr && after->getSymbol()->getType() == P::K_ALL;
    }
    std::unique_ptr<ast::SelectStmt> right = TransformSelectPrimary(prims[next++]);
    RejectLockingInSetOperation(*right);
    result = SetNode(ast::SetOp::kIntersect, all, std::move(result), std::move(right), Loc(term));
  }
  return result;
}

std::unique_ptr<ast::SelectStmt> Transformer::TransformSelectPrimary(P::SelectPrimaryContext* ctx) {
  if (ctx->selectStmt() != nullptr) return TransformSelect(ctx->selectStmt());
  if (ctx->valuesClause() != nullptr) return TransformValues(ctx->valuesClause());
  return TransformSelectCore(ctx->selectCore());
}

// VALUES (a, b), (c, d) becomes SELECT a AS column1, b AS column2 UNION ALL SELECT c, d (the
// same column names and common-type rules as PostgreSQL's VALUES), as a balanced tree of
// UNION ALL so that long lists stay shallow.
std::unique_ptr<ast::SelectStmt> Transformer::TransformValues(P::ValuesClauseContext* ctx) {
  std::vector<std::unique_ptr<ast::SelectStmt>> rows;
  size_t width = 0;
  for (P::ValuesRowContext* row_ctx : ctx->valuesRow()) {
    auto row = std::make_unique<ast::SelectStmt>();
    row->loc = Loc(row_ctx);
    for (P::ValueItemContext* item : row_ctx->valueItem()) {
      if (item->K_DEFAULT() != nullptr) {
        Fail(ErrorAt(item, sqlstate::kSyntaxError, "DEFAULT is not allowed in this context"));
        return row;
      }
      ast::SelectItem select_item;
      select_item.loc = Loc(item);
      select_item.expr = TransformValueItem(item);
      select_item.alias = "column" + std::to_string(row->items.size() + 1);
      row->items.push_back(std::move(select_item));
    }
    if (!rows.empty() && row->items.size() != width) {
      Fail(ErrorAt(row_ctx, sqlstate::kSyntaxError, "VALUES lists must all be the same length"));
    }
    width = row->items.size();
    rows.push_back(std::move(row));
  }
  // Pairs adjacent queries level by level: order is kept, depth is log2 of the row count.
  while (rows.size() > 1) {
    std::vector<std::unique_ptr<ast::SelectStmt>> next;
    for (size_t i = 0; i < rows.size(); i += 2) {
      if (i + 1 == rows.size()) {
        next.push_back(std::move(rows[i]));
        continue;
      }
      const ast::Location loc = rows[i + 1]->loc;
      next.push_back(
          SetNode(ast::SetOp::kUnion, true, std::move(rows[i]), std::move(rows[i + 1]), loc));
    }
    rows = std::move(next);
  }
  return std::move(rows[0]);
}

ast::SelectItem Transformer::TransformSelectItem(P::SelectItemContext* item_ctx) {
  ast::SelectItem item;
  item.loc = Loc(item_ctx);
  if (auto* expr_item = dynamic_cast<P::SelectExprContext*>(item_ctx)) {
    item.expr = TransformExpr(expr_item->expr());
    if (expr_item->columnLabel() != nullptr) {
      item.alias = ColumnLabel(expr_item->columnLabel());
    } else if (expr_item->identifier() != nullptr) {
      item.alias = Identifier(expr_item->identifier());
    }
  } else {
    item.expr = std::make_unique<ast::Expr>();
    item.expr->kind = ast::ExprKind::kStar;
    item.expr->loc = item.loc;
    if (auto* qualified = dynamic_cast<P::SelectQualifiedStarContext*>(item_ctx)) {
      item.expr->table = Identifier(qualified->identifier());
    }
  }
  return item;
}

std::unique_ptr<ast::SelectStmt> Transformer::TransformSelectCore(P::SelectCoreContext* ctx) {
  auto stmt = std::make_unique<ast::SelectStmt>();
  stmt->loc = Loc(ctx);
  if (P::DistinctClauseContext* d = ctx->distinctClause()) {
    if (d->K_ON() != nullptr) {
      for (P::ExprContext* e : d->expr()) stmt->distinct_on.push_back(TransformExpr(e));
    } else {
      stmt->distinct = true;
    }
  }

  for (P::SelectItemContext* item_ctx : ctx->selectItem()) {
    stmt->items.push_back(TransformSelectItem(item_ctx));
  }

  for (P::FromItemContext* item : ctx->fromItem()) {
    AppendJoinChain(item->tableRef(), item->joinClause(), &stmt->from);
  }

  if (ctx->where != nullptr) stmt->where = TransformExpr(ctx->where);
  if (ctx->groupByList() != nullptr) TransformGroupBy(ctx->groupByList(), stmt.get());
  if (ctx->having != nullptr) stmt->having = TransformExpr(ctx->having);
  TransformWindowDefs(ctx, stmt.get());
  return stmt;
}

// GROUP BY: a plain list of expressions fills group_by only; with ROLLUP, CUBE, GROUPING SETS
// or () every element also goes to grouping, naming its expressions by index.
void Transformer::TransformGroupBy(P::GroupByListContext* ctx, ast::SelectStmt* stmt) {
  stmt->group_distinct = ctx->K_DISTINCT() != nullptr;
  std::vector<ast::GroupingElement> elements;
  bool plain = !stmt->group_distinct;
  for (P::GroupingElementContext* e : ctx->groupingElement()) {
    elements.push_back(TransformGroupingElement(e, stmt));
    plain = plain && elements.back().kind == ast::GroupingElement::Kind::kExpr;
  }
  if (!plain) stmt->grouping = std::move(elements);
}

ast::GroupingElement Transformer::GroupingExprs(const std::vector<P::ExprContext*>& exprs,
                                                antlr4::ParserRuleContext* at,
                                                ast::SelectStmt* stmt) {
  ast::GroupingElement g;
  g.loc = Loc(at);
  g.kind =
      exprs.size() == 1 ? ast::GroupingElement::Kind::kExpr : ast::GroupingElement::Kind::kList;
  for (P::ExprContext* e : exprs) {
    g.exprs.push_back(stmt->group_by.size());
    stmt->group_by.push_back(TransformExpr(e));
    // `ROLLUP ()` / `CUBE ()` are not function calls here but empty lists, which PostgreSQL's
    // grammar refuses at the ")".
    const ast::Expr& x = *stmt->group_by.back();
    if (x.kind == ast::ExprKind::kFunction && x.children.empty() && !x.star && x.over == nullptr &&
        (x.name == "rollup" || x.name == "cube") && e->getStop() != nullptr) {
      Fail(ErrorAtToken(*e->getStop(), "syntax error"));
    }
  }
  return g;
}

ast::GroupingElement Transformer::TransformGroupingElement(P::GroupingElementContext* ctx,
                                                           ast::SelectStmt* stmt) {
  using Kind = ast::GroupingElement::Kind;
  if (ctx->K_ROLLUP() != nullptr || ctx->K_CUBE() != nullptr) {
    ast::GroupingElement g;
    g.loc = Loc(ctx);
    g.kind = ctx->K_ROLLUP() != nullptr ? Kind::kRollup : Kind::kCube;
    for (P::GroupingItemContext* item : ctx->groupingItem()) {
      g.children.push_back(GroupingExprs(item->expr(), item, stmt));
    }
    return g;
  }
  if (ctx->K_SETS() != nullptr) {
    ast::GroupingElement g;
    g.loc = Loc(ctx);
    g.kind = Kind::kSets;
    for (P::GroupingElementContext* e : ctx->groupingElement()) {
      g.children.push_back(TransformGroupingElement(e, stmt));
    }
    return g;
  }
  if (ctx->expr().empty()) {
    ast::GroupingElement g;
    g.loc = Loc(ctx);
    g.kind = Kind::kEmpty;
    return g;
  }
  return GroupingExprs(ctx->expr(), ctx, stmt);
}

ast::TableRef Transformer::TransformTableRef(P::TableRefContext* ref_ctx) {
  ast::TableRef ref;
  ref.loc = Loc(ref_ctx);
  if (auto* named = dynamic_cast<P::NamedTableRefContext*>(ref_ctx)) {
    QualifiedName(named->qualifiedName(), &ref.schema, &ref.name);
    std::vector<P::IdentifierContext*> ids = named->identifier();
    if (!ids.empty()) ref.alias = Identifier(ids[0]);
    for (size_t i = 1; i < ids.size(); ++i) ref.column_aliases.push_back(Identifier(ids[i]));
    return ref;
  }
  if (auto* fn = dynamic_cast<P::FunctionTableRefContext*>(ref_ctx)) {
    // A function in FROM may always refer to the FROM items before it (PostgreSQL: LATERAL
    // is implied), with or without the keyword; also through WITH ORDINALITY's subquery.
    ref.lateral = true;
    // f(args) [AS] alias [(column)]: a set-returning function in FROM; without an alias the
    // function's name names it.
    ref.function = std::make_unique<ast::Expr>();
    ref.function->kind = ast::ExprKind::kFunction;
    ref.function->loc = ref.loc;
    std::string schema;
    QualifiedName(fn->qualifiedName(), &schema, &ref.function->name);
    if (!schema.empty() && schema != "pg_catalog") {
      ref.function->name = schema + "." + ref.function->name;
    }
    for (P::ExprContext* arg : fn->expr()) ref.function->children.push_back(TransformExpr(arg));
    std::vector<P::IdentifierContext*> ids = fn->identifier();
    ref.alias = ids.empty() ? ref.function->name : Identifier(ids[0]);
    for (size_t i = 1; i < ids.size(); ++i) ref.column_aliases.push_back(Identifier(ids[i]));
    if (fn->K_ORDINALITY() != nullptr) {
      // f(args) WITH ORDINALITY: the function's rows numbered from 1 in a bigint column after
      // its own, i.e. (SELECT *, row_number() OVER () FROM f(args)) AS alias.
      auto inner = std::make_unique<ast::SelectStmt>();
      inner->loc = ref.loc;
      ast::TableRef source;
      source.loc = ref.loc;
      source.alias = ref.function->name;
      source.function = std::move(ref.function);
      inner->from.push_back(std::move(source));
      ast::SelectItem all;
      all.expr = std::make_unique<ast::Expr>();
      all.expr->kind = ast::ExprKind::kStar;
      all.expr->loc = ref.loc;
      inner->items.push_back(std::move(all));
      ast::SelectItem number;
      number.expr = std::make_unique<ast::Expr>();
      number.expr->kind = ast::ExprKind::kFunction;
      number.expr->name = "row_number";
      number.expr->loc = ref.loc;
      number.expr->over = std::make_unique<ast::WindowSpec>();
      number.alias = "ordinality";
      inner->items.push_back(std::move(number));
      ref.subquery = std::move(inner);
    }
    return ref;
  }
  auto* sub = static_cast<P::SubqueryTableRefContext*>(ref_ctx);
  ref.lateral = sub->K_LATERAL() != nullptr;
  ref.subquery = TransformSelect(sub->selectStmt());
  std::vector<P::IdentifierContext*> ids = sub->identifier();
  if (ids.empty()) {
    Fail(ErrorAt(sub, sqlstate::kSyntaxError, "subquery in FROM must have an alias")
             .WithHint("For example, FROM (SELECT ...) [AS] foo."));
    return ref;
  }
  ref.alias = Identifier(ids[0]);
  for (size_t i = 1; i < ids.size(); ++i) ref.column_aliases.push_back(Identifier(ids[i]));
  return ref;
}

// A FROM item is one left-deep chain in the AST, so a parenthesized join, (a JOIN b ON ...), is
// spliced into the chain where that gives the same rows: at the start of a FROM item, and on the
// right of an inner or cross join when everything inside is an inner or cross join (the outer
// ON then joins the last table of the group). The other shapes need a join tree: 0A000.
std::vector<ast::TableRef> Transformer::TransformJoinOperand(P::TableRefContext* ref_ctx) {
  std::vector<ast::TableRef> refs;
  auto* joined = dynamic_cast<P::JoinedTableRefContext*>(ref_ctx);
  if (joined == nullptr) {
    refs.push_back(TransformTableRef(ref_ctx));
    return refs;
  }
  if (joined->identifier() != nullptr) {
    Fail(ErrorAt(joined->identifier(), sqlstate::kFeatureNotSupported,
                 "an alias on a parenthesized join is not supported yet"));
  }
  AppendJoinChain(joined->tableRef(), joined->joinClause(), &refs);
  return refs;
}

void Transformer::AppendJoinChain(P::TableRefContext* first,
                                  const std::vector<P::JoinClauseContext*>& joins,
                                  std::vector<ast::TableRef>* out) {
  const auto has_outer_join = [](const std::vector<ast::TableRef>& refs) {
    return std::any_of(refs.begin(), refs.end(), [](const ast::TableRef& r) {
      return r.join == ast::JoinType::kLeft || r.join == ast::JoinType::kRight ||
             r.join == ast::JoinType::kFull;
    });
  };
  std::vector<ast::TableRef> group = TransformJoinOperand(first);
  // After a comma, a RIGHT or FULL join inside the parentheses would also extend the rows of
  // the tables before the comma.
  if (group.size() > 1 && !out->empty() && has_outer_join(group)) {
    Fail(ErrorAt(first, sqlstate::kFeatureNotSupported,
                 "a parenthesized outer join after a comma is not supported yet"));
  }
  for (ast::TableRef& ref : group) out->push_back(std::move(ref));

  for (P::JoinClauseContext* join : joins) {
    P::TableRefContext* operand = nullptr;
    ast::JoinType type = ast::JoinType::kCross;
    auto* q = dynamic_cast<P::QualifiedJoinContext*>(join);
    if (auto* cross = dynamic_cast<P::CrossJoinContext*>(join)) {
      operand = cross->tableRef();
    } else {
      operand = q->tableRef();
      type = ast::JoinType::kInner;
      if (P::JoinTypeContext* jt = q->joinType()) {
        type = jt->K_LEFT()    ? ast::JoinType::kLeft
               : jt->K_RIGHT() ? ast::JoinType::kRight
               : jt->K_FULL()  ? ast::JoinType::kFull
                               : ast::JoinType::kInner;
      }
    }
    ast::ExprPtr on;
    std::vector<std::string> using_columns;
    if (q != nullptr) {
      if (q->expr() != nullptr) {
        on = TransformExpr(q->expr());
      } else if (q->K_USING() != nullptr) {
        for (P::IdentifierContext* id : q->identifier()) using_columns.push_back(Identifier(id));
      } else {
        Fail(ErrorAt(q, sqlstate::kSyntaxError, "syntax error at or near \"JOIN\""));
      }
    }
    std::vector<ast::TableRef> refs = TransformJoinOperand(operand);
    if (refs.size() > 1) {
      if ((type != ast::JoinType::kInner && type != ast::JoinType::kCross) ||
          !using_columns.empty() || has_outer_join(refs)) {
        Fail(ErrorAt(operand, sqlstate::kFeatureNotSupported,
                     "a parenthesized join on the right of an outer join or of USING, or "
                     "holding an outer join there, is not supported yet"));
        return;
      }
      refs.front().join = ast::JoinType::kCross;
      refs.front().join_loc = Loc(join);
      ast::TableRef& last = refs.back();
      if (on != nullptr) {
        if (last.join == ast::JoinType::kInner && last.on != nullptr) {
          auto both = std::make_unique<ast::Expr>();
          both->kind = ast::ExprKind::kBinary;
          both->binary_op = ast::BinaryOp::kAnd;
          both->loc = on->loc;
          both->children.push_back(std::move(last.on));
          both->children.push_back(std::move(on));
          last.on = std::move(both);
        } else if (last.join == ast::JoinType::kCross) {
          last.join = ast::JoinType::kInner;
          last.on = std::move(on);
        } else {  // the last join inside has USING
          Fail(ErrorAt(operand, sqlstate::kFeatureNotSupported,
                       "a parenthesized join ending in USING on the right of a join is not "
                       "supported yet"));
          return;
        }
      }
      for (ast::TableRef& ref : refs) out->push_back(std::move(ref));
      continue;
    }
    ast::TableRef ref = std::move(refs.front());
    ref.join = type;
    ref.join_loc = Loc(join);
    ref.on = std::move(on);
    ref.using_columns = std::move(using_columns);
    out->push_back(std::move(ref));
  }
}

}  // namespace meridian::parser
