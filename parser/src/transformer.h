// Transformer: walks ANTLR's parse tree (the generated context objects) and builds Meridian's
// AST. One transform_<what>.cc file per statement kind or expression family implements it.
// Semantic errors found while building (unknown type, conflicting constraints) are kept in
// status(); the first one wins and the partial AST is discarded by the caller.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "meridian/parser/ast.h"
#include "meridian/parser/gen/MeridianSqlParser.h"
#include "meridian/status.h"
#include "source_text.h"

namespace meridian::parser {

using P = gen::MeridianSqlParser;

// An expression node of the kind at loc; a binary operation located at its left operand.
ast::ExprPtr NewExpr(ast::ExprKind kind, ast::Location loc);
ast::ExprPtr MakeBinary(ast::BinaryOp op, ast::ExprPtr left, ast::ExprPtr right);

class Transformer {
 public:
  explicit Transformer(const SourceText& src) : src_(src) {}

  const Status& status() const { return status_; }
  // The notices raised since the last call (identifiers cut to 63 bytes).
  std::vector<std::string> TakeNotices() { return std::move(notices_); }

  ast::Statement TransformStatement(P::StatementContext* ctx);
  ast::ExprPtr TransformExpr(P::ExprContext* ctx);
  // A VALUES item: its expression (a bare literal or any expr), or null for DEFAULT.
  ast::ExprPtr TransformValueItem(P::ValueItemContext* ctx);
  ast::ExprPtr TransformInItem(P::InItemContext* ctx);  // literal or expr

  // transform_select.cc
  std::unique_ptr<ast::SelectStmt> TransformSelect(P::SelectStmtContext* ctx);
  std::unique_ptr<ast::SelectStmt> TransformSelectSet(P::SelectSetContext* ctx);
  std::unique_ptr<ast::SelectStmt> TransformSelectTerm(P::SelectTermContext* ctx);
  std::unique_ptr<ast::SelectStmt> TransformSelectPrimary(P::SelectPrimaryContext* ctx);
  std::unique_ptr<ast::SelectStmt> TransformValues(P::ValuesClauseContext* ctx);
  std::unique_ptr<ast::SelectStmt> TransformSelectCore(P::SelectCoreContext* ctx);
  // FROM items: one table, subquery or function; a join chain appended to `out` (a
  // parenthesized join spliced in where that is equivalent, 0A000 otherwise).
  ast::TableRef TransformTableRef(P::TableRefContext* ctx);
  std::vector<ast::TableRef> TransformJoinOperand(P::TableRefContext* ctx);
  void AppendJoinChain(P::TableRefContext* first, const std::vector<P::JoinClauseContext*>& joins,
                       std::vector<ast::TableRef>* out);
  // transform_window.cc: ORDER BY items (a query's, a window's or an aggregate call's), OVER
  // clauses, WINDOW definitions (42P20 for frame bounds in an impossible order).
  ast::OrderItem TransformOrderItem(P::OrderItemContext* ctx);
  std::unique_ptr<ast::WindowSpec> TransformOver(P::OverClauseContext* ctx);
  std::unique_ptr<ast::WindowSpec> TransformWindowSpec(P::WindowSpecContext* ctx);
  void TransformWindowDefs(P::SelectCoreContext* ctx, ast::SelectStmt* stmt);
  void TransformGroupBy(P::GroupByListContext* ctx, ast::SelectStmt* stmt);
  ast::GroupingElement TransformGroupingElement(P::GroupingElementContext* ctx,
                                                ast::SelectStmt* stmt);
  ast::GroupingElement GroupingExprs(const std::vector<P::ExprContext*>& exprs,
                                     antlr4::ParserRuleContext* at, ast::SelectStmt* stmt);
  // WITH ...: its queries appended to out (42712 for a name given twice; 0A000 for an
  // INSERT / UPDATE / DELETE unless with is top_with_).
  void TransformWith(P::WithClauseContext* with, std::vector<ast::CommonTableExpr>* out);
  // The WITH clause of whichever of these is set (null when none has one).
  static P::WithClauseContext* TopWith(P::SelectStmtContext* select, P::InsertStmtContext* insert,
                                       P::UpdateStmtContext* update, P::DeleteStmtContext* del);
  // FOR UPDATE / SHARE ...: appended to stmt->locking (0A000 on a set operation).
  void TransformLocking(P::LockingClauseContext* ctx, ast::SelectStmt* stmt);
  // transform_insert.cc, transform_update.cc, transform_delete.cc
  std::unique_ptr<ast::InsertStmt> TransformInsert(P::InsertStmtContext* ctx);
  std::unique_ptr<ast::OnConflict> TransformOnConflict(P::OnConflictClauseContext* ctx);
  // SET column = expr | DEFAULT of UPDATE and ON CONFLICT DO UPDATE.
  ast::Assignment TransformAssignment(P::AssignmentContext* ctx);
  // col, col[i], col[i:j], col.field: an Assignment without its value.
  ast::Assignment TransformColumnTarget(P::ColumnTargetContext* ctx);
  std::unique_ptr<ast::UpdateStmt> TransformUpdate(P::UpdateStmtContext* ctx);
  std::unique_ptr<ast::DeleteStmt> TransformDelete(P::DeleteStmtContext* ctx);
  // transform_create_table.cc, transform_drop_table.cc
  std::unique_ptr<ast::CreateTableStmt> TransformCreateTable(P::CreateTableStmtContext* ctx);
  std::unique_ptr<ast::CreateTableAsStmt> TransformCreateTableAs(P::CreateTableAsStmtContext* ctx);
  std::unique_ptr<ast::AlterTableStmt> TransformAlterTable(P::AlterTableStmtContext* ctx);
  ast::ColumnDef TransformColumnDef(P::ColumnDefContext* ctx, const std::string& table);
  // Appends a table constraint to stmt's primary key, unique keys, checks or foreign keys.
  void TransformTableConstraint(P::TableConstraintContext* ctx, ast::CreateTableStmt* stmt);
  ast::CheckDef TransformCheck(P::ExprContext* expr, P::IdentifierContext* name,
                               antlr4::ParserRuleContext* at);
  ast::ForeignKeyDef TransformReferences(P::ReferencesClauseContext* ctx);
  std::unique_ptr<ast::DropTableStmt> TransformDropTable(P::DropTableStmtContext* ctx);
  std::unique_ptr<ast::DropTableStmt> TransformDropView(P::DropViewStmtContext* ctx);
  // transform_view.cc: CREATE VIEW
  std::unique_ptr<ast::CreateViewStmt> TransformCreateView(P::CreateViewStmtContext* ctx);
  // transform_index.cc: CREATE INDEX, DROP INDEX
  std::unique_ptr<ast::CreateIndexStmt> TransformCreateIndex(P::CreateIndexStmtContext* ctx);
  std::unique_ptr<ast::DropIndexStmt> TransformDropIndex(P::DropIndexStmtContext* ctx);
  // transform_type.cc
  ast::TypeSpec TransformType(P::TypeNameContext* ctx);
  ast::TypeSpec TransformSimpleType(P::SimpleTypeNameContext* ctx);
  // transform_variable.cc: SET, SHOW, RESET
  std::unique_ptr<ast::VariableStmt> TransformSet(P::SetStmtContext* ctx);
  // all: SHOW/RESET ALL; time_zone: TIME ZONE; transaction: TRANSACTION ISOLATION LEVEL (the
  // transaction_isolation parameter); else name.
  std::unique_ptr<ast::VariableStmt> TransformShowOrReset(antlr4::tree::TerminalNode* all,
                                                          antlr4::tree::TerminalNode* time_zone,
                                                          antlr4::tree::TerminalNode* transaction,
                                                          P::ConfigNameContext* name);
  // transform_copy.cc
  std::unique_ptr<ast::CopyStmt> TransformCopy(P::CopyStmtContext* ctx);
  // transform_transaction.cc: BEGIN, COMMIT, ROLLBACK, savepoints, SET TRANSACTION
  std::unique_ptr<ast::TransactionStmt> TransformTransaction(P::TransactionStmtContext* ctx);
  void TransformTransactionModes(P::TransactionModeListContext* ctx, ast::TransactionStmt* out);
  // transform_prepare.cc: PREPARE, EXECUTE, DEALLOCATE
  std::unique_ptr<ast::PrepareStmt> TransformPrepare(P::PrepareStmtContext* ctx);
  std::unique_ptr<ast::ExecuteStmt> TransformExecute(P::ExecuteStmtContext* ctx);
  std::unique_ptr<ast::DeallocateStmt> TransformDeallocate(P::DeallocateStmtContext* ctx);

  // transform_sequence.cc
  ast::SequenceOption TransformSequenceOption(P::SequenceOptionContext* ctx);
  std::unique_ptr<ast::SequenceStmt> TransformCreateSequence(P::CreateSequenceStmtContext* ctx);
  std::unique_ptr<ast::SequenceStmt> TransformAlterSequence(P::AlterSequenceStmtContext* ctx);
  std::unique_ptr<ast::DropTableStmt> TransformDropSequence(P::DropSequenceStmtContext* ctx);
  std::vector<ast::SelectItem> TransformReturning(P::ReturningClauseContext* ctx);  // null: none
  ast::SelectItem TransformSelectItem(P::SelectItemContext* ctx);

  // transform_common.cc
  std::string Identifier(P::IdentifierContext* ctx);  // lower-cased unless quoted
  std::string ColumnLabel(P::ColumnLabelContext* ctx);
  // [schema.]name: *schema is empty when unqualified.
  void QualifiedName(P::QualifiedNameContext* ctx, std::string* schema, std::string* name);
  // A relation created, changed or written by a statement: its written name (ast::QualifyName);
  // pg_catalog and information_schema are 42501.
  std::string RelationName(P::QualifiedNameContext* ctx);
  // CREATE / DROP / ALTER SCHEMA (ctx holds one of them); *kind gets the statement kind.
  std::unique_ptr<ast::SchemaStmt> TransformSchemaStmt(P::StatementContext* ctx,
                                                       ast::StatementKind* kind);
  // ON COMMIT of CREATE [TEMP] TABLE (ctx may be null: PRESERVE ROWS for a TEMP table);
  // 42P16 on a permanent table, as in PostgreSQL.
  ast::OnCommit TransformOnCommit(P::OnCommitClauseContext* ctx, bool temp);
  std::unique_ptr<ast::AnalyzeStmt> TransformVacuum(P::VacuumStmtContext* ctx);
  // CREATE TABLE ... WITH (name = value): PostgreSQL's table storage parameters are accepted
  // (and have no effect; fillfactor is range-checked); another name is 22023.
  void CheckStorageParameter(P::StorageParameterContext* ctx);
  ast::Location Loc(antlr4::ParserRuleContext* ctx) const;
  ast::Location Loc(antlr4::tree::TerminalNode* node) const;
  std::string_view SourceOf(antlr4::ParserRuleContext* ctx) const;  // exact source substring
  void Fail(Status status);                                         // keeps the first error
  Status ErrorAt(antlr4::ParserRuleContext* ctx, const char* sqlstate, std::string message) const;

 private:
  // transform_expression.cc: one function per precedence level of the grammar.
  ast::ExprPtr TransformOr(P::OrExprContext* ctx);
  ast::ExprPtr TransformAnd(P::AndExprContext* ctx);
  ast::ExprPtr TransformNot(P::NotExprContext* ctx);
  ast::ExprPtr TransformIs(P::IsExprContext* ctx);
  ast::BinaryOp ComparisonOpOf(P::ComparisonOpContext* ctx);
  ast::ExprPtr TransformComparison(P::ComparisonExprContext* ctx);
  ast::ExprPtr TransformPredicate(P::PredicateExprContext* ctx);
  // Row constructors (a, b, ...) and ROW(a, ...) compared with row constructors (as operands
  // of a comparison or an IN list) become element-wise comparisons (transform_row.cc).
  struct RowOperand {
    antlr4::ParserRuleContext* ctx = nullptr;  // null: not a bare row constructor
    std::vector<P::ExprContext*> items;
  };
  RowOperand BareRow(antlr4::ParserRuleContext* ctx) const;
  ast::ExprPtr CompareRows(ast::BinaryOp op, const RowOperand& left, const RowOperand& right);
  ast::ExprPtr RowInList(const RowOperand& left, P::InListPredicateContext* list);
  ast::ExprPtr TransformConcat(P::ConcatExprContext* ctx);
  ast::ExprPtr TransformAdditive(P::AdditiveExprContext* ctx);
  ast::ExprPtr TransformMultiplicative(P::MultiplicativeExprContext* ctx);
  ast::ExprPtr TransformUnary(P::UnaryExprContext* ctx);
  ast::ExprPtr TransformAtZone(P::AtZoneExprContext* ctx);
  ast::ExprPtr TransformCastChain(P::CastExprContext* ctx);
  ast::ExprPtr TransformPrimary(P::PrimaryContext* ctx);
  // An index key or ON CONFLICT target item: a column name (*name) or an expression (*expr).
  void TransformIndexElem(P::IndexElemContext* ctx, std::string* name, ast::ExprPtr* expr);
  ast::ExprPtr TransformLiteral(P::LiteralContext* ctx);
  ast::ExprPtr TransformCase(P::CasePrimaryContext* ctx);
  ast::ExprPtr TransformFunction(P::FunctionPrimaryContext* ctx);
  // COLLATE name: only the default collation (and "C"/"POSIX", the same byte order) exists.
  void CheckCollation(P::CollationNameContext* ctx);
  // transform_select.cc: 0A000 when an operand of a set operation has a locking clause.
  void RejectLockingInSetOperation(const ast::SelectStmt& operand);

  const SourceText& src_;
  Status status_;
  std::vector<std::string> notices_;
  // The WITH clause of the statement being transformed at the top of the request (or of
  // EXPLAIN's / PREPARE's statement): the only one that may hold data-modifying queries.
  P::WithClauseContext* top_with_ = nullptr;
  // An identifier cut to PostgreSQL's 63 bytes (at a character boundary), with its NOTICE.
  std::string Truncated(std::string s);
};

}  // namespace meridian::parser
