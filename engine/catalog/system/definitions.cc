// The definitions the catalog functions print, as PostgreSQL prints them: pg_get_indexdef,
// pg_get_constraintdef (PRIMARY KEY / UNIQUE, CHECK, FOREIGN KEY) and pg_get_viewdef.
#include <algorithm>

#include "catalog/system/system_table.h"

namespace meridian::catalog::system {

// Key column i of an index as pg_get_indexdef prints it: a quoted column name or the
// expression (parenthesized unless it reads as a function call).
std::string KeyColumnText(const TableSchema& t, const IndexSchema& x, size_t i, bool pretty) {
  if (x.columns[i] != kExpressionKey) return QuoteIdent(t.columns[x.columns[i]].name);
  if (x.compiled != nullptr) return x.compiled->Display(i, pretty);
  return "(" + (i < x.expressions.size() ? x.expressions[i] : std::string()) + ")";
}

namespace {

std::string ColumnList(const TableSchema& t, const IndexSchema& x, bool with_order,
                       bool pretty = false) {
  std::string out;
  for (size_t i = 0; i < x.columns.size(); ++i) {
    if (i > 0) out += ", ";
    out += KeyColumnText(t, x, i, pretty);
    if (with_order && i < x.descending.size() && x.descending[i]) out += " DESC";
  }
  return out;
}

}  // namespace

// pretty: pg_get_indexdef(oid, 0, true), which leaves out the schema and prints expressions
// with PostgreSQL's pretty layout.
std::string IndexDefinition(const TableSchema& t, const IndexSchema& x, bool pretty) {
  std::string def = std::string("CREATE ") + (x.unique ? "UNIQUE " : "") + "INDEX " +
                    QuoteIdent(x.name) + " ON " + (pretty ? "" : QuoteIdent(t.nsp) + ".") +
                    QuoteIdent(t.name) + " USING " + (x.IsRtree() ? "rtree" : "btree") + " (" +
                    ColumnList(t, x, true, pretty) + ")";
  if (x.IsPartial()) {
    def += " WHERE " +
           (x.compiled != nullptr ? x.compiled->PredicateDisplay(pretty) : "(" + x.predicate + ")");
  }
  return def;
}

std::string ConstraintDefinition(const TableSchema& t, const IndexSchema& x) {
  return std::string(x.kind == IndexKind::kPrimaryKey ? "PRIMARY KEY" : "UNIQUE") + " (" +
         ColumnList(t, x, false) + ")";
}

// The positions a CHECK reads (pg_constraint.conkey), in order of first use.
void CheckColumns(const TableSchema& schema, const ast::Expr& e, std::vector<int>* out) {
  if (e.kind == ast::ExprKind::kColumnRef) {
    const int c = schema.FindColumn(e.name);
    if (c >= 0 && std::find(out->begin(), out->end(), c) == out->end()) out->push_back(c);
  }
  for (const ast::ExprPtr& child : e.children) {
    if (child != nullptr) CheckColumns(schema, *child, out);
  }
}

// pg_get_constraintdef of a foreign key, as PostgreSQL prints it: FOREIGN KEY (a, b)
// REFERENCES p(x, y) [MATCH FULL] [ON UPDATE action] [ON DELETE action].
std::string ForeignKeyDefinition(const Catalog& catalog, const TableSchema& t,
                                 const ForeignKey& fk) {
  std::shared_ptr<Table> parent = catalog.FindById(fk.ref_table);
  const TableSchema& ps = parent != nullptr ? parent->schema() : t;
  auto list = [](const TableSchema& schema, const std::vector<int>& cols) {
    std::string out;
    for (int c : cols) out += (out.empty() ? "" : ", ") + QuoteIdent(schema.columns[c].name);
    return out;
  };
  auto action = [](char a) -> std::string {
    switch (a) {
      case 'r':
        return "RESTRICT";
      case 'c':
        return "CASCADE";
      case 'n':
        return "SET NULL";
      case 'd':
        return "SET DEFAULT";
      default:
        return "";
    }
  };
  std::string out = "FOREIGN KEY (" + list(t, fk.columns) + ") REFERENCES " + QuoteIdent(ps.name) +
                    "(" + list(ps, fk.ref_columns) + ")";
  if (fk.match == 'f') out += " MATCH FULL";
  if (!action(fk.on_update).empty()) out += " ON UPDATE " + action(fk.on_update);
  if (!action(fk.on_delete).empty()) out += " ON DELETE " + action(fk.on_delete);
  return out;
}

// pg_views.definition / information_schema.views.view_definition: the query as written
// (PostgreSQL prints its own normalised form, pg_get_viewdef), with a space before it and a
// semicolon after, as PostgreSQL's has.
std::string ViewDefinition(const ViewSchema& view) { return " " + view.query_text + ";"; }

// pg_get_constraintdef of a CHECK: the stored text in PostgreSQL's extra parentheses.
std::string CheckDefinition(const CheckConstraint& c) { return "CHECK ((" + c.text + "))"; }

}  // namespace meridian::catalog::system
