// Helpers shared by CREATE TABLE and ALTER TABLE for CHECK constraints and stored DEFAULTs:
// PostgreSQL's constraint naming, binding and re-parsing of their SQL text, the columns an
// expression reads, and column renames inside stored expression text.
#pragma once

#include <string>
#include <vector>

#include "catalog/schema.h"
#include "binder/binder.h"
#include "meridian/parser/ast.h"
#include "meridian/status.h"

namespace meridian::exec {

// The distinct column names expr refers to, in order of appearance.
std::vector<std::string> ReferencedColumns(const ast::Expr& expr);

// A CHECK for schema (whose checks so far it must not collide with): bound over schema's row
// (42703, 42804 `argument of CHECK must be type boolean`, 0A000 subquery, 42803 aggregate),
// named as written (42710 when taken) or as PostgreSQL names it — "<table>_<column>_check"
// when it reads exactly one column, else "<table>_check", with 1, 2, ... appended while taken
// — and its text re-parsed for the catalog.
Result<catalog::CheckConstraint> MakeCheckConstraint(const ast::CheckDef& def,
                                                     const catalog::TableSchema& schema,
                                                     Binder* binder);

// A DEFAULT for column: bound and assignment-cast to its type now (errors as INSERT would
// report them), its text re-parsed for the catalog; sets col->default_text/default_expr.
Status SetColumnDefault(const ast::Expr& expr, const std::string& text, catalog::Column* col,
                        Binder* binder);

// text (a stored SQL expression) with every reference to column `from` renamed to `to`
// (quoted when it must be).
Result<std::string> RenameColumnInText(const std::string& text, const std::string& from,
                                       const std::string& to);

}  // namespace meridian::exec
