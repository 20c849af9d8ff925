// Serialisation of the catalog to catalog.meta and its atomic rewrite (see catalog_file.h).
#include "catalog/catalog_file.h"

#include <charconv>

#include "meridian/parser/parser.h"
#include "storage/tuple.h"

namespace meridian::catalog {

namespace {

void PutString(std::string* out, std::string_view s) {
  out->append(std::to_string(s.size()));
  out->push_back(':');
  out->append(s);
}

// A cursor over the catalog text with just the token kinds the format needs.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool Word(std::string_view expected) {
    SkipSpace();
    if (text_.substr(pos_, expected.size()) != expected) return false;
    pos_ += expected.size();
    return true;
  }
  bool Int(int64_t* v) {
    SkipSpace();
    auto r = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), *v);
    if (r.ec != std::errc()) return false;
    pos_ = r.ptr - text_.data();
    return true;
  }
  bool String(std::string* s) {
    int64_t n = 0;
    if (!Int(&n) || n < 0 || pos_ >= text_.size() || text_[pos_] != ':') return false;
    ++pos_;
    if (static_cast<size_t>(n) > text_.size() - pos_) return false;
    s->assign(text_.substr(pos_, n));
    pos_ += n;
    return true;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n')) ++pos_;
  }
  std::string_view text_;
  size_t pos_ = 0;
};

// A relation's name in the file: schema + 0x1F + name outside public (ast::QualifyName).
std::string StoredName(const std::string& nsp, const std::string& name) {
  return nsp == kPublicSchema ? name : ast::QualifyName(nsp, name);
}

// Splits a stored name into *nsp (public when unqualified) and *name.
void SplitStoredName(std::string* nsp, std::string* name) {
  std::string schema, bare;
  ast::SplitName(*name, &schema, &bare);
  *nsp = schema.empty() ? kPublicSchema : schema;
  *name = bare;
}

Status Malformed(const std::string& what) {
  return Status::Corruption("catalog file is malformed: " + what);
}

// A column's missing value as the hex of a one-column tuple; empty for NULL.
std::string EncodeMissing(const Value& v, Type type) {
  if (v.IsNull()) return "";
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : storage::EncodeTuple({v}, {type})) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 15]);
  }
  return out;
}

Result<Value> DecodeMissing(const std::string& hex, Type type) {
  if (hex.empty()) return Value::Null();
  if (hex.size() % 2 != 0) return Malformed("bad missing value");
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int v = 0;
    auto r = std::from_chars(hex.data() + i, hex.data() + i + 2, v, 16);
    if (r.ec != std::errc() || r.ptr != hex.data() + i + 2) return Malformed("bad missing value");
    bytes.push_back(static_cast<char>(v));
  }
  Row row;
  MERIDIAN_RETURN_IF_ERROR(storage::DecodeTuple(bytes, {type}, &row));
  return row[0];
}

// A stored DEFAULT or CHECK expression, parsed again.
Result<std::shared_ptr<const ast::Expr>> Reparse(const std::string& text, const std::string& what) {
  auto parsed = parser::ParseExpression(text);
  if (!parsed.ok()) {
    return Status::Corruption("cannot re-parse " + what + ": " + parsed.status().message());
  }
  return std::shared_ptr<const ast::Expr>(std::move(parsed).value());
}

// A stored view query, parsed again: exactly one SELECT.
Result<std::shared_ptr<const ast::SelectStmt>> ReparseQuery(const std::string& text,
                                                            const std::string& view) {
  auto parsed = parser::Parse(text);
  if (!parsed.ok() || parsed->size() != 1 || (*parsed)[0].kind != ast::StatementKind::kSelect) {
    return Status::Corruption("cannot re-parse the query of view \"" + view + "\"" +
                              (parsed.ok() ? std::string() : ": " + parsed.status().message()));
  }
  return std::shared_ptr<const ast::SelectStmt>(std::move((*parsed)[0].select));
}

}  // namespace

std::string SerializeCatalog(const CatalogState& state) {
  // Built with append() only: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
  std::string out;
  auto num = [&out](int64_t v) { out.append(std::to_string(v)); };
  out.append("MERIDIAN-CATALOG ");
  num(kCatalogFormatVersion);
  out.append("\nnext_table_id ");
  num(state.next_table_id);
  out.append("\n");
  for (const NamespaceDef& n : state.schemas) {
    out.append("schema ");
    num(n.id);
    out.append(" ");
    PutString(&out, n.name);
    out.append(" ");
    PutString(&out, n.owner);
    out.append("\n");
  }
  size_t i = 0;
  for (const TableSchema& t : state.tables) {
    out.append("table ");
    num(t.id);
    out.append(" ");
    PutString(&out, StoredName(t.nsp, t.name));
    out.append(" ");
    num(static_cast<int64_t>(t.columns.size()));
    out.append("\n");
    for (const Column& c : t.columns) {
      out.append("column ");
      PutString(&out, c.name);
      out.append(" ");
      num(static_cast<int>(c.type.id));
      out.append(" ");
      num(c.type.modifier);
      out.append(" ");
      num(static_cast<int>(c.type.element));
      out.append(c.not_null ? " 1 " : " 0 ");
      PutString(&out, c.default_text);
      out.append(c.dropped ? " 1 " : " 0 ");
      PutString(&out, EncodeMissing(c.missing, c.type));
      out.append("\n");
    }
    out.append("pk ");
    num(static_cast<int64_t>(t.primary_key.size()));
    for (int k : t.primary_key) {
      out.append(" ");
      num(k);
    }
    out.append("\nchecks ");
    num(static_cast<int64_t>(t.checks.size()));
    out.append("\n");
    for (const CheckConstraint& check : t.checks) {
      out.append("check ");
      PutString(&out, check.name);
      out.append(" ");
      PutString(&out, check.text);
      out.append("\n");
    }
    out.append("fkeys ");
    num(static_cast<int64_t>(t.foreign_keys.size()));
    out.append("\n");
    for (const ForeignKey& fk : t.foreign_keys) {
      out.append("fkey ");
      PutString(&out, fk.name);
      out.append(" ");
      num(fk.ref_table);
      out.append(" ");
      num(static_cast<int64_t>(fk.columns.size()));
      for (const std::vector<int>* cols : {&fk.columns, &fk.ref_columns}) {
        for (int c : *cols) {
          out.append(" ");
          num(c);
        }
      }
      for (char c : {fk.match, fk.on_delete, fk.on_update}) {
        out.append(" ");
        num(c);
      }
      out.append("\n");
    }
    out.append("rows ");
    num(i < state.live_rows.size() ? state.live_rows[i] : 0);
    out.append("\n");
    ++i;
  }
  for (const IndexSchema& x : state.indexes) {
    out.append("index ");
    num(x.id);
    out.append(" ");
    PutString(&out, StoredName(x.nsp, x.name));
    out.append(" ");
    num(x.table_id);
    out.append(" ");
    num(static_cast<int>(x.kind));
    out.append(x.unique ? " 1 " : " 0 ");
    num(static_cast<int64_t>(x.columns.size()));
    for (size_t k = 0; k < x.columns.size(); ++k) {
      out.append(" ");
      num(x.columns[k]);
      out.append(x.descending[k] ? " 1" : " 0");
      if (x.columns[k] == kExpressionKey) {
        out.append(" ");
        PutString(&out, x.expressions[k]);
      }
    }
    out.append(" ");
    num(static_cast<int>(x.method));
    out.append(" ");
    PutString(&out, x.predicate);
    out.append("\n");
  }
  for (const ViewSchema& v : state.views) {
    out.append("view ");
    num(v.id);
    out.append(" ");
    PutString(&out, StoredName(v.nsp, v.name));
    out.append(" ");
    num(static_cast<int64_t>(v.columns.size()));
    for (const Column& c : v.columns) {
      out.append(" ");
      PutString(&out, c.name);
      out.append(" ");
      num(static_cast<int>(c.type.id));
      out.append(" ");
      num(c.type.modifier);
      out.append(" ");
      num(static_cast<int>(c.type.element));
    }
    out.append(" ");
    PutString(&out, v.query_text);
    out.append(" ");
    num(static_cast<int64_t>(v.relations.size()));
    for (uint32_t id : v.relations) {
      out.append(" ");
      num(id);
    }
    out.append(" ");
    num(static_cast<int64_t>(v.table_columns.size()));
    for (const auto& [table, position] : v.table_columns) {
      out.append(" ");
      num(table);
      out.append(" ");
      num(position);
    }
    out.append("\n");
  }
  for (const SequenceSchema& q : state.sequences) {
    out.append("sequence ");
    num(q.id);
    out.append(" ");
    PutString(&out, StoredName(q.nsp, q.name));
    for (int64_t v : {static_cast<int64_t>(q.type), q.increment, q.min_value, q.max_value, q.start,
                      q.cache, static_cast<int64_t>(q.cycle), static_cast<int64_t>(q.owner_table),
                      static_cast<int64_t>(q.owner_column), static_cast<int64_t>(q.identity)}) {
      out.append(" ");
      num(v);
    }
    out.append("\n");
  }
  out.append("end ");
  num(static_cast<int64_t>(state.tables.size()));
  out.append(" ");
  num(static_cast<int64_t>(state.indexes.size()));
  out.append(" ");
  num(static_cast<int64_t>(state.views.size()));
  out.append(" ");
  num(static_cast<int64_t>(state.sequences.size()));
  out.append(" ");
  num(static_cast<int64_t>(state.schemas.size()));
  out.append("\n");
  return out;
}

Result<CatalogState> ParseCatalog(std::string_view text) {
  Reader r(text);
  int64_t version = 0;
  if (!r.Word("MERIDIAN-CATALOG") || !r.Int(&version)) return Malformed("bad header");
  if (version < 1 || version > kCatalogFormatVersion) {
    return Status::Corruption("catalog format version " + std::to_string(version) +
                              " is not supported (expected " +
                              std::to_string(kCatalogFormatVersion) + ")");
  }
  CatalogState state;
  state.version = static_cast<int>(version);
  int64_t next_id = 0;
  if (!r.Word("next_table_id") || !r.Int(&next_id) || next_id < 1) {
    return Malformed("bad next_table_id");
  }
  state.next_table_id = static_cast<uint32_t>(next_id);
  while (version >= 8 && r.Word("schema")) {
    NamespaceDef n;
    int64_t id = 0;
    if (!r.Int(&id) || id < 1 || !r.String(&n.name) || !r.String(&n.owner)) {
      return Malformed("bad schema line");
    }
    n.id = static_cast<uint32_t>(id);
    state.schemas.push_back(std::move(n));
  }
  while (r.Word("table")) {
    TableSchema t;
    int64_t id = 0, ncols = 0;
    if (!r.Int(&id) || !r.String(&t.name) || !r.Int(&ncols) || ncols < 0) {
      return Malformed("bad table line");
    }
    SplitStoredName(&t.nsp, &t.name);
    t.id = static_cast<uint32_t>(id);
    for (int64_t i = 0; i < ncols; ++i) {
      Column c;
      int64_t type_id = 0, modifier = 0, element = 0, not_null = 0;
      if (!r.Word("column") || !r.String(&c.name) || !r.Int(&type_id) || !r.Int(&modifier) ||
          (version >= 10 && !r.Int(&element)) || !r.Int(&not_null) || !r.String(&c.default_text) ||
          type_id < 1 || type_id > kMaxTypeId || element < 0 || element > kMaxTypeId ||
          (type_id == static_cast<int>(TypeId::kArray)) != (element != 0) ||
          element == static_cast<int>(TypeId::kArray)) {
        return Malformed("bad column line in table \"" + t.name + "\"");
      }
      c.type = Type{static_cast<TypeId>(type_id), static_cast<int32_t>(modifier),
                    static_cast<TypeId>(element)};
      c.not_null = not_null != 0;
      if (!c.default_text.empty()) {
        MERIDIAN_ASSIGN_OR_RETURN(c.default_expr,
                                  Reparse(c.default_text, "DEFAULT of column \"" + c.name + "\""));
      }
      if (version >= 3) {
        int64_t dropped = 0;
        std::string missing;
        if (!r.Int(&dropped) || !r.String(&missing)) {
          return Malformed("bad column line in table \"" + t.name + "\"");
        }
        c.dropped = dropped != 0;
        MERIDIAN_ASSIGN_OR_RETURN(c.missing, DecodeMissing(missing, c.type));
      }
      t.columns.push_back(std::move(c));
    }
    int64_t npk = 0;
    if (!r.Word("pk") || !r.Int(&npk) || npk < 0 || npk > ncols) return Malformed("bad pk");
    for (int64_t i = 0; i < npk; ++i) {
      int64_t k = 0;
      if (!r.Int(&k) || k < 0 || k >= ncols) return Malformed("bad pk column");
      t.primary_key.push_back(static_cast<int>(k));
    }
    int64_t nchecks = 0;
    if (version >= 3 && (!r.Word("checks") || !r.Int(&nchecks) || nchecks < 0)) {
      return Malformed("bad checks line");
    }
    for (int64_t i = 0; i < nchecks; ++i) {
      CheckConstraint check;
      if (!r.Word("check") || !r.String(&check.name) || !r.String(&check.text)) {
        return Malformed("bad check line in table \"" + t.name + "\"");
      }
      MERIDIAN_ASSIGN_OR_RETURN(check.expr, Reparse(check.text, "CHECK \"" + check.name + "\""));
      t.checks.push_back(std::move(check));
    }
    int64_t nfkeys = 0;
    if (version >= 7 && (!r.Word("fkeys") || !r.Int(&nfkeys) || nfkeys < 0)) {
      return Malformed("bad fkeys line");
    }
    for (int64_t i = 0; i < nfkeys; ++i) {
      ForeignKey fk;
      int64_t ref = 0, n = 0;
      if (!r.Word("fkey") || !r.String(&fk.name) || !r.Int(&ref) || ref <= 0 || !r.Int(&n) ||
          n <= 0 || n > ncols) {
        return Malformed("bad fkey line in table \"" + t.name + "\"");
      }
      fk.ref_table = static_cast<uint32_t>(ref);
      for (std::vector<int>* cols : {&fk.columns, &fk.ref_columns}) {
        for (int64_t k = 0; k < n; ++k) {
          int64_t c = 0;
          if (!r.Int(&c) || c < 0) return Malformed("bad fkey column in table \"" + t.name + "\"");
          cols->push_back(static_cast<int>(c));
        }
      }
      for (char* c : {&fk.match, &fk.on_delete, &fk.on_update}) {
        int64_t v = 0;
        if (!r.Int(&v) || v <= 0 || v > 127) return Malformed("bad fkey action");
        *c = static_cast<char>(v);
      }
      for (int c : fk.columns) {
        if (c >= ncols) return Malformed("bad fkey column in table \"" + t.name + "\"");
      }
      t.foreign_keys.push_back(std::move(fk));
    }
    int64_t rows = 0;
    if (version >= 2 && (!r.Word("rows") || !r.Int(&rows) || rows < 0)) {
      return Malformed("bad rows line");
    }
    state.live_rows.push_back(rows);
    state.tables.push_back(std::move(t));
  }
  while (version >= 2 && r.Word("index")) {
    IndexSchema x;
    int64_t id = 0, table_id = 0, kind = 0, unique = 0, nkeys = 0;
    if (!r.Int(&id) || !r.String(&x.name) || !r.Int(&table_id) || !r.Int(&kind) ||
        !r.Int(&unique) || !r.Int(&nkeys) || kind < 0 || kind > 2 || nkeys < 1) {
      return Malformed("bad index line");
    }
    SplitStoredName(&x.nsp, &x.name);
    const TableSchema* table = nullptr;
    for (const TableSchema& t : state.tables) {
      if (t.id == static_cast<uint32_t>(table_id)) table = &t;
    }
    if (table == nullptr) return Malformed("index \"" + x.name + "\" of an unknown table");
    x.id = static_cast<uint32_t>(id);
    x.table_id = static_cast<uint32_t>(table_id);
    x.kind = static_cast<IndexKind>(kind);
    x.unique = unique != 0;
    for (int64_t k = 0; k < nkeys; ++k) {
      int64_t col = 0, desc = 0;
      const int64_t lowest = version >= 9 ? kExpressionKey : 0;
      if (!r.Int(&col) || !r.Int(&desc) || col < lowest ||
          col >= static_cast<int64_t>(table->columns.size())) {
        return Malformed("bad key column of index \"" + x.name + "\"");
      }
      x.columns.push_back(static_cast<int>(col));
      x.descending.push_back(desc != 0);
      std::string expr;
      if (col == kExpressionKey && (!r.String(&expr) || expr.empty())) {
        return Malformed("bad key expression of index \"" + x.name + "\"");
      }
      if (col == kExpressionKey) {
        x.expressions.resize(static_cast<size_t>(nkeys));
        x.expressions[static_cast<size_t>(k)] = std::move(expr);
      }
    }
    int64_t method = 0;
    if (version >= 7 &&
        (!r.Int(&method) || method < 0 || method > 1 || (method == 1 && (x.unique || nkeys > 8)))) {
      return Malformed("bad access method of index \"" + x.name + "\"");
    }
    if (version >= 9 && !r.String(&x.predicate)) {
      return Malformed("bad predicate of index \"" + x.name + "\"");
    }
    x.method = static_cast<IndexMethod>(method);
    state.indexes.push_back(std::move(x));
  }
  while (version >= 5 && r.Word("view")) {
    ViewSchema v;
    int64_t id = 0, ncols = 0;
    if (!r.Int(&id) || !r.String(&v.name) || !r.Int(&ncols) || ncols < 1) {
      return Malformed("bad view line");
    }
    SplitStoredName(&v.nsp, &v.name);
    v.id = static_cast<uint32_t>(id);
    for (int64_t i = 0; i < ncols; ++i) {
      Column c;
      int64_t type_id = 0, modifier = 0, element = 0;
      if (!r.String(&c.name) || !r.Int(&type_id) || !r.Int(&modifier) || !r.Int(&element) ||
          type_id < 1 || type_id > kMaxTypeId || element < 0 || element > kMaxTypeId) {
        return Malformed("bad column of view \"" + v.name + "\"");
      }
      c.type = Type{static_cast<TypeId>(type_id), static_cast<int32_t>(modifier),
                    static_cast<TypeId>(element)};
      v.columns.push_back(std::move(c));
    }
    int64_t nrel = 0, ncol = 0;
    if (!r.String(&v.query_text) || !r.Int(&nrel) || nrel < 0) {
      return Malformed("bad view line of \"" + v.name + "\"");
    }
    for (int64_t i = 0; i < nrel; ++i) {
      int64_t rel = 0;
      if (!r.Int(&rel) || rel < 1) return Malformed("bad relation of view \"" + v.name + "\"");
      v.relations.push_back(static_cast<uint32_t>(rel));
    }
    if (!r.Int(&ncol) || ncol < 0) return Malformed("bad view line of \"" + v.name + "\"");
    for (int64_t i = 0; i < ncol; ++i) {
      int64_t table = 0, position = 0;
      if (!r.Int(&table) || !r.Int(&position) || table < 1 || position < 0) {
        return Malformed("bad column dependency of view \"" + v.name + "\"");
      }
      v.table_columns.emplace_back(static_cast<uint32_t>(table), static_cast<int>(position));
    }
    MERIDIAN_ASSIGN_OR_RETURN(v.query, ReparseQuery(v.query_text, v.name));
    state.views.push_back(std::move(v));
  }
  while (version >= 6 && r.Word("sequence")) {
    SequenceSchema q;
    int64_t id = 0, type = 0, cycle = 0, owner_table = 0, owner_column = 0, identity = 0;
    if (!r.Int(&id) || !r.String(&q.name) || !r.Int(&type) || !r.Int(&q.increment) ||
        !r.Int(&q.min_value) || !r.Int(&q.max_value) || !r.Int(&q.start) || !r.Int(&q.cache) ||
        !r.Int(&cycle) || !r.Int(&owner_table) || !r.Int(&owner_column) || !r.Int(&identity) ||
        id < 1 || type < 1 || type > kMaxTypeId || owner_table < 0 || owner_column < -1 ||
        (identity != 0 && identity != 'a' && identity != 'd')) {
      return Malformed("bad sequence line");
    }
    SplitStoredName(&q.nsp, &q.name);
    q.id = static_cast<uint32_t>(id);
    q.type = static_cast<TypeId>(type);
    q.cycle = cycle != 0;
    q.owner_table = static_cast<uint32_t>(owner_table);
    q.owner_column = static_cast<int>(owner_column);
    q.identity = static_cast<char>(identity);
    state.sequences.push_back(std::move(q));
  }
  int64_t count = -1, index_count = 0, view_count = 0, sequence_count = 0, schema_count = 0;
  if (!r.Word("end") || !r.Int(&count) || count != static_cast<int64_t>(state.tables.size()) ||
      (version >= 2 &&
       (!r.Int(&index_count) || index_count != static_cast<int64_t>(state.indexes.size()))) ||
      (version >= 5 &&
       (!r.Int(&view_count) || view_count != static_cast<int64_t>(state.views.size()))) ||
      (version >= 6 && (!r.Int(&sequence_count) ||
                        sequence_count != static_cast<int64_t>(state.sequences.size()))) ||
      (version >= 8 &&
       (!r.Int(&schema_count) || schema_count != static_cast<int64_t>(state.schemas.size())))) {
    return Malformed("missing or wrong end marker (truncated file?)");
  }
  return state;
}

Status WriteCatalogFile(storage::FileSystem* fs, const std::string& dir,
                        const CatalogState& state) {
  const std::string path = dir + "/" + kCatalogFileName;
  const std::string tmp = path + ".tmp";
  std::string bytes = SerializeCatalog(state);
  {
    MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::File> file, fs->Open(tmp, true));
    MERIDIAN_RETURN_IF_ERROR(file->Truncate(0));
    MERIDIAN_RETURN_IF_ERROR(file->WriteAt(0, bytes));
    MERIDIAN_RETURN_IF_ERROR(file->Sync());
  }
  MERIDIAN_RETURN_IF_ERROR(fs->Rename(tmp, path));
  return fs->SyncDir(dir);
}

Result<CatalogState> ReadCatalogFile(storage::FileSystem* fs, const std::string& dir) {
  const std::string path = dir + "/" + kCatalogFileName;
  MERIDIAN_ASSIGN_OR_RETURN(bool exists, fs->Exists(path));
  if (!exists) return CatalogState{};
  MERIDIAN_ASSIGN_OR_RETURN(std::unique_ptr<storage::File> file, fs->Open(path, false));
  MERIDIAN_ASSIGN_OR_RETURN(uint64_t size, file->Size());
  std::string bytes(size, '\0');
  size_t read = 0;
  MERIDIAN_RETURN_IF_ERROR(file->ReadAt(0, size, bytes.data(), &read));
  bytes.resize(read);
  return ParseCatalog(bytes);
}

}  // namespace meridian::catalog
