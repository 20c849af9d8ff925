// The definitions the catalog functions print, as PostgreSQL prints them: pg_get_indexdef,
// pg_get_constraintdef (PRIMARY KEY / UNIQUE, CHECK, FOREIGN KEY) and pg_get_viewdef.
#include <algorithm>
#include <cctype>

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
  // The referenced table qualified when the current search path does not reach it, as
  // PostgreSQL prints it (pg_dump reads definitions under an empty search_path).
  const std::string ref = catalog.IsVisible(ps.nsp, ps.name)
                              ? QuoteIdent(ps.name)
                              : QuoteIdent(ps.nsp) + "." + QuoteIdent(ps.name);
  std::string out = "FOREIGN KEY (" + list(t, fk.columns) + ") REFERENCES " + ref + "(" +
                    list(ps, fk.ref_columns) + ")";
  if (fk.match == 'f') out += " MATCH FULL";
  if (!action(fk.on_update).empty()) out += " ON UPDATE " + action(fk.on_update);
  if (!action(fk.on_delete).empty()) out += " ON DELETE " + action(fk.on_delete);
  return out;
}

namespace {

// A `'name'::regclass` literal of a DEFAULT's text: where its name starts and the name as
// written (maybe schema-qualified).
struct RegclassLiteral {
  size_t at;
  std::string name;
};

std::vector<RegclassLiteral> FindRegclassLiterals(const std::string& text) {
  static constexpr std::string_view kCast = "'::regclass";
  std::vector<RegclassLiteral> out;
  size_t after = 0;  // literals do not overlap
  for (size_t end = text.find(kCast); end != std::string::npos; end = text.find(kCast, end + 1)) {
    const size_t quote = end == 0 ? std::string::npos : text.rfind('\'', end - 1);
    if (quote == std::string::npos || quote < after) continue;
    std::string name = text.substr(quote + 1, end - quote - 1);
    after = end + 1;
    if (!name.empty() && name.find_first_of("'\"") == std::string::npos) {
      out.push_back({quote + 1, std::move(name)});
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> RegclassLiterals(const std::string& text) {
  std::vector<std::string> out;
  for (RegclassLiteral& r : FindRegclassLiterals(text)) {
    const size_t dot = r.name.rfind('.');
    out.push_back(dot == std::string::npos ? std::move(r.name) : r.name.substr(dot + 1));
  }
  return out;
}

// A column DEFAULT's text with each unqualified `'name'::regclass` literal naming a relation
// the current search path does not reach qualified by its schema, as PostgreSQL's pg_get_expr
// prints a regclass constant (a SERIAL column's `nextval('t_id_seq'::regclass)` under
// pg_dump's empty search_path becomes `nextval('public.t_id_seq'::regclass)`).
std::string DefaultDefinition(const Snapshot& s, const std::string& text) {
  std::string out;
  size_t from = 0;
  for (const RegclassLiteral& r : FindRegclassLiterals(text)) {
    if (r.name.find('.') != std::string::npos) continue;
    std::string nsp;
    for (const auto& seq : s.sequences) {
      if (seq->name == r.name) nsp = seq->nsp;
    }
    for (const auto& t : s.tables) {
      if (t->name() == r.name) nsp = t->schema().nsp;
    }
    if (nsp.empty() || s.catalog == nullptr || s.catalog->IsVisible(nsp, r.name)) continue;
    out += text.substr(from, r.at - from) + QuoteIdent(nsp) + ".";
    from = r.at;
  }
  return out + text.substr(from);
}

namespace {

// The unqualified relation names of a view's query that resolve outside the current search
// path: their positions in query_text (from 1, in code points) and schemas. CTE names in scope
// are not relations; FROM items, subqueries in FROM and in expressions are searched.
class RelationNames {
 public:
  RelationNames(const Snapshot& s, const ViewSchema& view) : s_(s), view_(view) {}

  void Select(const ast::SelectStmt& q, std::vector<std::string> ctes) {
    for (const ast::CommonTableExpr& c : q.with) ctes.push_back(c.name);
    for (const ast::CommonTableExpr& c : q.with) {
      if (c.query != nullptr) Select(*c.query, ctes);
    }
    if (q.set_left != nullptr) Select(*q.set_left, ctes);
    if (q.set_right != nullptr) Select(*q.set_right, ctes);
    for (const ast::TableRef& ref : q.from) {
      if (ref.subquery != nullptr) Select(*ref.subquery, ctes);
      Expr(ref.function.get(), ctes);
      Expr(ref.on.get(), ctes);
      if (ref.name.empty() || !ref.schema.empty() ||
          std::find(ctes.begin(), ctes.end(), ref.name) != ctes.end()) {
        continue;
      }
      if (const std::string* nsp = SchemaOf(ref.name)) {
        if (!s_.catalog->IsVisible(*nsp, ref.name))
          found.push_back({ref.loc.position, *nsp, ref.name});
      }
    }
    for (const ast::ExprPtr& e : q.distinct_on) Expr(e.get(), ctes);
    for (const ast::SelectItem& item : q.items) Expr(item.expr.get(), ctes);
    Expr(q.where.get(), ctes);
    for (const ast::ExprPtr& e : q.group_by) Expr(e.get(), ctes);
    Expr(q.having.get(), ctes);
    for (const ast::OrderItem& o : q.order_by) Expr(o.expr.get(), ctes);
    Expr(q.limit.get(), ctes);
    Expr(q.offset.get(), ctes);
  }

  struct Found {
    uint32_t position;  // of the name in query_text, from 1, in code points
    std::string nsp;
    std::string name;
    bool operator<(const Found& o) const { return position < o.position; }
  };
  std::vector<Found> found;

 private:
  void Expr(const ast::Expr* e, const std::vector<std::string>& ctes) {
    if (e == nullptr) return;
    if (e->subquery != nullptr) Select(*e->subquery, ctes);
    for (const ast::ExprPtr& c : e->children) Expr(c.get(), ctes);
  }

  // The schema of the relation of that name the view reads (ViewSchema::relations).
  const std::string* SchemaOf(const std::string& name) const {
    for (uint32_t id : view_.relations) {
      for (const auto& t : s_.tables) {
        if (t->id() == id && t->name() == name) return &t->schema().nsp;
      }
      for (const auto& v : s_.views) {
        if (v->id == id && v->name == name) return &v->nsp;
      }
    }
    return nullptr;
  }

  const Snapshot& s_;
  const ViewSchema& view_;
};

// The byte offset of code point `position` (from 1) of text.
size_t ByteOffset(const std::string& text, uint32_t position) {
  size_t i = 0;
  for (uint32_t cp = 1; cp < position && i < text.size(); ++cp) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

}  // namespace

// As PostgreSQL's pg_get_viewdef: the query, with each relation the current search path does
// not reach qualified by its schema (pg_dump reads definitions under an empty search_path).
std::string ViewDefinition(const Snapshot& s, const ViewSchema& view) {
  std::string text = view.query_text;
  if (view.query != nullptr && s.catalog != nullptr) {
    RelationNames names(s, view);
    names.Select(*view.query, {});
    std::sort(names.found.begin(), names.found.end());
    for (auto it = names.found.rbegin(); it != names.found.rend(); ++it) {
      const size_t at = ByteOffset(text, it->position);
      // Only where the name itself starts (as written, in any case, or quoted): anything else
      // there (ONLY t) stays as written.
      const bool quoted = at < text.size() && text[at] == '"';
      const bool plain =
          at + it->name.size() <= text.size() &&
          std::equal(it->name.begin(), it->name.end(), text.begin() + at, [](char a, char b) {
            return a == std::tolower(static_cast<unsigned char>(b));
          });
      if (!quoted && !plain) continue;
      text.insert(at, QuoteIdent(it->nsp) + ".");
    }
  }
  return " " + text + ";";
}

// pg_get_constraintdef of a CHECK: the stored text in PostgreSQL's extra parentheses.
std::string CheckDefinition(const CheckConstraint& c) { return "CHECK ((" + c.text + "))"; }

}  // namespace meridian::catalog::system
