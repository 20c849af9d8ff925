// Registered object-size functions (binder/function_registry.h), as psql's \dt+ \di+ \l+ and
// monitoring queries call them: pg_relation_size, pg_table_size, pg_indexes_size,
// pg_total_relation_size, pg_database_size, pg_size_pretty. Sizes are pages x 8 KiB, counting
// pages not yet written from the buffer pool.
#include "binder/function_registry.h"
#include "catalog/catalog.h"
#include "catalog/system_tables.h"
#include "execution/operator.h"
#include "function/builtin.h"
#include "meridian/pg_oids.h"
#include "storage/heap_file.h"
#include "storage/index_file.h"
#include "storage/page.h"

namespace meridian::exec {

namespace {

using Args = std::span<const Value>;

int64_t HeapBytes(catalog::Table& table) {
  return table.heap() == nullptr
             ? 0
             : static_cast<int64_t>(table.heap()->page_count()) * storage::kPageSize;
}

// The index's pages, written or still only in the buffer pool (a checkpoint writes them).
int64_t IndexBytes(catalog::Index& index) {
  storage::IndexFile* file = index.file();
  if (file == nullptr) return 0;
  return static_cast<int64_t>(file->pool()->PageCount(file->file_id())) * storage::kPageSize;
}

int64_t IndexesBytes(catalog::Table& table) {
  int64_t total = 0;
  for (const std::shared_ptr<catalog::Index>& index : table.indexes()) total += IndexBytes(*index);
  return total;
}

// The relation a regclass argument names: a name (42P01 when unknown) or an oid.
struct Relation {
  std::shared_ptr<catalog::Table> table;  // a table, or the table of the index
  std::shared_ptr<catalog::Index> index;  // set for an index
  bool found = false;                     // false: no relation has the oid (NULL result)
};

Result<Relation> FindRelation(const Value& arg, ExecContext* exec) {
  if (exec == nullptr || exec->catalog == nullptr) {
    return Status::Internal("no catalog for a size function");
  }
  const catalog::Catalog& catalog = *exec->catalog;
  int64_t oid = 0;
  if (arg.IsString()) {
    std::optional<int64_t> found = catalog::SystemTables::RelationOid(catalog, arg.AsString());
    if (!found) {
      return Status::Error(sqlstate::kUndefinedTable,
                           "relation \"" + arg.AsString() + "\" does not exist");
    }
    oid = *found;
  } else {
    oid = arg.AsInt();
  }
  Relation r;
  if ((r.table = catalog::SystemTables::TableByOid(catalog, oid))) {
    r.found = true;
    return r;
  }
  for (const std::shared_ptr<catalog::Table>& table : catalog.List()) {
    for (const std::shared_ptr<catalog::Index>& index : table->indexes()) {
      if (RelationOidOf(index->schema().id) == oid) {
        r.table = table;
        r.index = index;
        r.found = true;
        return r;
      }
    }
  }
  // A view or system table has no files (0 bytes); an unknown oid gives NULL.
  r.found = catalog::SystemTables::RelationName(catalog, oid).has_value();
  return r;
}

enum class What { kRelation, kTable, kIndexes, kTotal };

template <What kWhat>
Result<Value> RelationSize(Args a, ExecContext* exec) {
  MERIDIAN_ASSIGN_OR_RETURN(Relation r, FindRelation(a[0], exec));
  if (!r.found) return Value::Null();
  if (r.index != nullptr) {  // an index: its own file whatever is asked, no indexes of its own
    return Value::Int(kWhat == What::kIndexes ? 0 : IndexBytes(*r.index));
  }
  if (r.table == nullptr) return Value::Int(0);
  switch (kWhat) {
    case What::kRelation:
    case What::kTable:
      return Value::Int(HeapBytes(*r.table));
    case What::kIndexes:
      return Value::Int(IndexesBytes(*r.table));
    case What::kTotal:
      return Value::Int(HeapBytes(*r.table) + IndexesBytes(*r.table));
  }
  return Value::Int(0);
}

// pg_relation_size(rel, fork): only the main fork has bytes here.
Result<Value> RelationForkSize(Args a, ExecContext* exec) {
  const std::string& fork = a[1].AsString();
  if (fork != "main" && fork != "fsm" && fork != "vm" && fork != "init") {
    return Status::Error(sqlstate::kInvalidParameterValue, "invalid fork name")
        .WithHint("Valid fork names are \"main\", \"fsm\", \"vm\", and \"init\".");
  }
  if (fork != "main") {
    MERIDIAN_ASSIGN_OR_RETURN(Relation r, FindRelation(a[0], exec));
    return r.found ? Value::Int(0) : Value::Null();
  }
  return RelationSize<What::kRelation>(a.first(1), exec);
}

// pg_database_size(name): every table's and index's bytes (one database per server).
Result<Value> DatabaseSize(Args a, ExecContext* exec) {
  if (exec == nullptr || exec->catalog == nullptr) {
    return Status::Internal("no catalog for a size function");
  }
  (void)a;
  int64_t total = 0;
  for (const std::shared_ptr<catalog::Table>& table : exec->catalog->List()) {
    total += HeapBytes(*table) + IndexesBytes(*table);
  }
  return Value::Int(total);
}

// pg_size_pretty(bigint): PostgreSQL 15's units and rounding (bytes below 10 kB; then kB, MB,
// GB, TB, PB below 20,480 of each, rounded half away from zero).
Result<Value> SizePretty(Args a, ExecContext*) {
  struct Unit {
    const char* name;
    int64_t limit;
    bool round;
    int bits;
  };
  static constexpr Unit kUnits[] = {
      {"bytes", 10 * 1024, false, 0},  {"kB", 20 * 1024 - 1, true, 10},
      {"MB", 20 * 1024 - 1, true, 20}, {"GB", 20 * 1024 - 1, true, 30},
      {"TB", 20 * 1024 - 1, true, 40}, {"PB", 20 * 1024 - 1, true, 50}};
  int64_t size = a[0].AsInt();
  constexpr size_t n = sizeof(kUnits) / sizeof(kUnits[0]);
  for (size_t i = 0; i < n; ++i) {
    const Unit& u = kUnits[i];
    const int64_t magnitude = size < 0 ? -size : size;
    if (i + 1 == n || magnitude < u.limit) {
      if (u.round) size = (size + (size < 0 ? -1 : 1)) / 2;
      return Value::String(std::to_string(size) + " " + u.name);
    }
    const int bits =
        kUnits[i + 1].bits - u.bits - (kUnits[i + 1].round ? 1 : 0) + (u.round ? 1 : 0);
    size /= int64_t{1} << bits;
  }
  return Value::String(std::to_string(size) + " PB");
}

constexpr ScalarFunction kSizeFunctions[] = {
    {"pg_relation_size", "r", 1, 'l', &RelationSize<What::kRelation>},
    {"pg_relation_size", "rt", 2, 'l', &RelationForkSize},
    {"pg_table_size", "r", 1, 'l', &RelationSize<What::kTable>},
    {"pg_indexes_size", "r", 1, 'l', &RelationSize<What::kIndexes>},
    {"pg_total_relation_size", "r", 1, 'l', &RelationSize<What::kTotal>},
    {"pg_database_size", "t", 1, 'l', &DatabaseSize},
    {"pg_size_pretty", "l", 1, 't', &SizePretty},
};

}  // namespace

void RegisterSizeFunctions() { RegisterScalarFunctions(kSizeFunctions); }

}  // namespace meridian::exec
