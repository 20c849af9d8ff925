// Foreign key enforcement at the end of an INSERT, UPDATE or DELETE (see foreign_keys.h for
// the protocol): the child side looks up and row-locks the referenced parent version, the
// parent side finds the referencing rows in the newest committed state and applies the
// constraint's action, cascading through further foreign keys.
#include "execution/foreign_keys.h"

#include <algorithm>
#include <unordered_map>

#include "binder/binder.h"
#include "binder/type_rules.h"
#include "catalog/catalog.h"
#include "catalog/key_share_locks.h"
#include "catalog/key_text.h"
#include "catalog/transaction.h"
#include "execution/evaluator.h"
#include "execution/hash_key.h"
#include "execution/modify_table.h"
#include "storage/tuple.h"

namespace meridian::exec {
namespace {

constexpr const char* kForeignKeyViolation = sqlstate::kForeignKeyViolation;
// Cascades deeper than this are refused (a cycle of CASCADE constraints ends by itself when
// the rows are gone; this only bounds the recursion).
constexpr int kMaxCascadeDepth = 64;

std::vector<Value> Pick(const Row& row, const std::vector<int>& cols) {
  std::vector<Value> out;
  for (int c : cols) out.push_back(static_cast<size_t>(c) < row.size() ? row[c] : Value::Null());
  return out;
}

size_t CountNull(const Row& row, const std::vector<int>& cols) {
  size_t n = 0;
  for (int c : cols) n += row[c].IsNull() ? 1 : 0;
  return n;
}

bool SameKey(const Row& a, const Row& b, const std::vector<int>& cols) {
  for (int c : cols) {
    if (a[c].IsNull() != b[c].IsNull()) return false;
    if (!a[c].IsNull() && !(a[c] == b[c])) return false;
  }
  return true;
}

std::string Names(const catalog::TableSchema& schema, const std::vector<int>& cols) {
  std::string out;
  for (int c : cols) {
    if (!out.empty()) out += ", ";
    out += schema.columns[c].name;
  }
  return out;
}

// A row of target's width holding values (of types from) cast to the types of target_cols;
// false when a value has no counterpart there (out of range: no row can hold the key).
bool KeyRow(const std::vector<Value>& values, const std::vector<Type>& from,
            const catalog::Table& target, const std::vector<int>& target_cols, Row* out) {
  out->assign(target.types().size(), Value::Null());
  for (size_t i = 0; i < values.size(); ++i) {
    Result<Value> v = CastValue(values[i], from[i], target.types()[target_cols[i]], false);
    if (!v.ok()) return false;
    (*out)[target_cols[i]] = std::move(v).value();
  }
  return true;
}

std::vector<Type> TypesOf(const catalog::Table& table, const std::vector<int>& cols) {
  std::vector<Type> out;
  for (int c : cols) out.push_back(table.types()[c]);
  return out;
}

// An index of table on exactly the columns cols (in any order); unique_only: a unique one.
std::shared_ptr<catalog::Index> IndexOn(const catalog::Table& table, const std::vector<int>& cols,
                                        bool unique_only) {
  for (const std::shared_ptr<catalog::Index>& index : table.indexes()) {
    const std::vector<int>& x = index->schema().columns;
    if ((unique_only && !index->schema().unique) || x.size() != cols.size() ||
        !index->schema().IsPlain()) {
      continue;
    }
    if (std::is_permutation(x.begin(), x.end(), cols.begin())) return index;
  }
  return nullptr;
}

Result<std::shared_ptr<catalog::Table>> Referenced(const catalog::ForeignKey& fk,
                                                   ExecContext* exec) {
  if (exec->catalog == nullptr) return Status::Internal("foreign key check without a catalog");
  std::shared_ptr<catalog::Table> parent = exec->catalog->FindById(fk.ref_table);
  if (parent == nullptr) {
    return Status::Internal("table referenced by foreign key \"" + fk.name + "\" is missing");
  }
  MERIDIAN_RETURN_IF_ERROR(parent->CheckUsable());
  return parent;
}

Status NotPresent(const catalog::Table& child, const catalog::ForeignKey& fk,
                  const catalog::Table& parent, const Row& row) {
  return Status::Error(kForeignKeyViolation, "insert or update on table \"" + child.name() +
                                                 "\" violates foreign key constraint \"" + fk.name +
                                                 "\"")
      .WithDetail("Key (" + Names(child.schema(), fk.columns) + ")=(" +
                  catalog::KeyToText(Pick(row, fk.columns)) + ") is not present in table \"" +
                  parent.name() + "\".");
}

// Child side of one foreign key for row (a new version of child): the parent version holding
// the key, locked until the transaction ends.
Status CheckParent(const catalog::Table& child, const catalog::ForeignKey& fk, const Row& row,
                   ExecContext* exec) {
  const size_t nulls = CountNull(row, fk.columns);
  if (nulls == fk.columns.size()) return Status::Ok();
  if (nulls > 0) {
    if (fk.match != 'f') return Status::Ok();  // MATCH SIMPLE: any NULL skips the check
    return Status::Error(kForeignKeyViolation, "insert or update on table \"" + child.name() +
                                                   "\" violates foreign key constraint \"" +
                                                   fk.name + "\"")
        .WithDetail("MATCH FULL does not allow mixing of null and nonnull key values.");
  }
  MERIDIAN_ASSIGN_OR_RETURN(std::shared_ptr<catalog::Table> parent, Referenced(fk, exec));
  std::shared_ptr<catalog::Index> index = IndexOn(*parent, fk.ref_columns, true);
  if (index == nullptr) {
    return Status::Internal("no unique index backs foreign key \"" + fk.name + "\"");
  }
  Row key;
  if (!KeyRow(Pick(row, fk.columns), TypesOf(child, fk.columns), *parent, fk.ref_columns, &key)) {
    return NotPresent(child, fk, *parent, row);
  }
  catalog::Transaction& txn = *exec->txn;
  while (true) {
    MERIDIAN_ASSIGN_OR_RETURN(std::optional<storage::Rid> live,
                              FindConflict(*parent, *index, key, exec));
    if (!live) return NotPresent(child, fk, *parent, row);
    // FOR KEY SHARE: registered first, then the version looked at again, so that a writer
    // that took it before the registration (and so may not wait for it) is seen here.
    catalog::AddKeyShareLock(*txn.manager(), parent->id(), *live, txn.id());
    MERIDIAN_ASSIGN_OR_RETURN(storage::TupleHeader h, parent->heap()->ReadHeader(*live));
    uint64_t holder = 0;
    switch (Classify(h, txn, &holder)) {
      case KeyVersion::kLive:
        return Status::Ok();
      case KeyVersion::kWait:  // a running writer took it: its outcome decides; look again
        MERIDIAN_RETURN_IF_ERROR(txn.WaitFor(holder, exec->ctl, LockTimeoutMs(exec)).status());
        break;
      case KeyVersion::kDead:  // deleted or replaced by a commit since the lookup: look again
        break;
    }
  }
}

// Per key (a row of child's width), the versions of child referencing it through fk that
// are live in the newest committed state (or this transaction's), after waiting for running
// deleters of matching versions; versions that running transactions created are left out (see
// kWait). An index on the referencing columns is probed per key; without one, one scan of
// every version serves all keys.
Result<std::vector<std::vector<MatchedRow>>> FindChildren(
    const std::shared_ptr<catalog::Table>& child, const catalog::ForeignKey& fk,
    const std::vector<Row>& keys, ExecContext* exec) {
  std::unordered_map<std::string, size_t> which;  // encoded key → index into keys
  for (size_t k = 0; k < keys.size(); ++k) {
    which.emplace(EncodeKey(Pick(keys[k], fk.columns)), k);
  }
  std::shared_ptr<catalog::Index> index = IndexOn(*child, fk.columns, false);
  while (true) {
    std::vector<std::vector<MatchedRow>> out(keys.size());
    uint64_t holder = 0;
    auto consider = [&](storage::Rid rid, const storage::TupleHeader& h, const Row& row) {
      if (holder != 0 || CountNull(row, fk.columns) > 0) return;
      auto k = which.find(EncodeKey(Pick(row, fk.columns)));
      if (k == which.end()) return;
      uint64_t waits_for = 0;
      switch (Classify(h, *exec->txn, &waits_for)) {
        case KeyVersion::kDead:
          return;
        case KeyVersion::kWait:
          // A child another running transaction created is not waited for: before it commits,
          // that transaction locks the parent row (child side), which waits for this one and
          // then finds the key gone. A running deleter of a child may still abort: wait.
          if (waits_for != h.begin) holder = waits_for;
          return;
        case KeyVersion::kLive:
          out[k->second].push_back({rid, row, {}, 0});
          return;
      }
    };
    if (index != nullptr) {
      for (const Row& key : keys) {
        MERIDIAN_ASSIGN_OR_RETURN(const std::string encoded, index->EncodeKey(key));
        MERIDIAN_ASSIGN_OR_RETURN(std::vector<std::string> rids, index->Lookup(encoded));
        for (const std::string& r : rids) {
          const storage::Rid rid = catalog::DecodeRid(r);
          std::string bytes;
          if (!child->heap()->Get(rid, &bytes).ok()) continue;  // freed by garbage collection
          Row row;
          MERIDIAN_RETURN_IF_ERROR(child->DecodeRow(bytes, &row));
          consider(rid, storage::ReadTupleHeader(bytes), row);
        }
      }
    } else {
      int until_check = kCheckInterval;
      MERIDIAN_RETURN_IF_ERROR(child->ForEachVersion(
          [&](storage::Rid rid, const storage::TupleHeader& h, const Row& row) -> Status {
            if (--until_check <= 0) {
              MERIDIAN_RETURN_IF_ERROR(exec->ctl->Check());
              until_check = kCheckInterval;
            }
            consider(rid, h, row);
            return Status::Ok();
          }));
    }
    if (holder == 0) return out;
    MERIDIAN_RETURN_IF_ERROR(exec->txn->WaitFor(holder, exec->ctl, LockTimeoutMs(exec)).status());
  }
}

// Whether a live row of parent still holds old's key on cols (NO ACTION: another row may have
// taken the key in the same statement).
Result<bool> KeyStillPresent(catalog::Table& parent, const std::vector<int>& cols, const Row& old,
                             ExecContext* exec) {
  std::shared_ptr<catalog::Index> index = IndexOn(parent, cols, true);
  if (index == nullptr) return false;
  MERIDIAN_ASSIGN_OR_RETURN(std::optional<storage::Rid> live,
                            FindConflict(parent, *index, old, exec));
  return live.has_value();
}

Status StillReferenced(const catalog::Table& parent, const catalog::ForeignKey& fk,
                       const catalog::Table& child, const Row& old) {
  return Status::Error(kForeignKeyViolation, "update or delete on table \"" + parent.name() +
                                                 "\" violates foreign key constraint \"" + fk.name +
                                                 "\" on table \"" + child.name() + "\"")
      .WithDetail("Key (" + Names(parent.schema(), fk.ref_columns) + ")=(" +
                  catalog::KeyToText(Pick(old, fk.ref_columns)) +
                  ") is still referenced from table \"" + child.name() + "\".");
}

Status Enforce(const std::shared_ptr<catalog::Table>& table, const TableChanges& changes,
               ExecContext* exec, int depth);

// The new values an action gives a referencing row's columns: the parent's new key
// (CASCADE on update), NULL (SET NULL) or each column's DEFAULT (SET DEFAULT).
Status SetReferencing(const catalog::Table& child, const catalog::ForeignKey& fk, char action,
                      const catalog::Table& parent, const Row* new_parent, Row* row,
                      ExecContext* exec) {
  for (size_t i = 0; i < fk.columns.size(); ++i) {
    const int c = fk.columns[i];
    Value v = Value::Null();
    if (action == 'c') {
      const int p = fk.ref_columns[i];
      MERIDIAN_ASSIGN_OR_RETURN(
          v, CastValue((*new_parent)[p], parent.types()[p], child.types()[c], false));
    } else if (action == 'd' && child.schema().columns[c].default_expr != nullptr) {
      const catalog::Column& col = child.schema().columns[c];
      catalog::LockSet no_locks;
      Binder binder(exec->catalog, &no_locks);
      MERIDIAN_ASSIGN_OR_RETURN(BoundExprPtr e,
                                binder.BindDefault(*col.default_expr, col.type, col.name));
      Row empty;
      MERIDIAN_ASSIGN_OR_RETURN(v, Eval(*e, EvalContext{&empty, nullptr, exec}));
    }
    (*row)[c] = std::move(v);
  }
  return Status::Ok();
}

// Parent side of one foreign key: the referencing rows of every key the statement removed
// from parent (old_rows; new_rows: the updated versions, null for a DELETE).
Status ApplyAction(const std::shared_ptr<catalog::Table>& parent,
                   const catalog::Catalog::Reference& ref, const std::vector<Row>& old_rows,
                   const std::vector<Row>* new_rows, ExecContext* exec, int depth) {
  const std::shared_ptr<catalog::Table>& child = ref.table;
  const catalog::ForeignKey& fk = ref.fk;
  MERIDIAN_RETURN_IF_ERROR(child->CheckUsable());
  const char action = new_rows != nullptr ? fk.on_update : fk.on_delete;
  TableChanges cascaded;
  std::vector<BoundCheck> checks;
  bool checks_bound = false;
  // The removed keys that may still be referenced (in the child's types), then their
  // referencing rows, all keys at once.
  std::vector<size_t> rows;
  std::vector<Row> keys;
  for (size_t i = 0; i < old_rows.size(); ++i) {
    const Row& old = old_rows[i];
    if (CountNull(old, fk.ref_columns) > 0) continue;  // no row references a NULL key
    if (new_rows != nullptr && SameKey(old, (*new_rows)[i], fk.ref_columns)) continue;
    if (action == 'a') {
      MERIDIAN_ASSIGN_OR_RETURN(bool present, KeyStillPresent(*parent, fk.ref_columns, old, exec));
      if (present) continue;
    }
    Row key;
    if (!KeyRow(Pick(old, fk.ref_columns), TypesOf(*parent, fk.ref_columns), *child, fk.columns,
                &key)) {
      continue;
    }
    rows.push_back(i);
    keys.push_back(std::move(key));
  }
  if (keys.empty()) return Status::Ok();
  MERIDIAN_ASSIGN_OR_RETURN(std::vector<std::vector<MatchedRow>> found,
                            FindChildren(child, fk, keys, exec));
  for (size_t k = 0; k < keys.size(); ++k) {
    const size_t i = rows[k];
    const Row& old = old_rows[i];
    std::vector<MatchedRow> children = std::move(found[k]);
    while (!children.empty()) {
      if (action == 'a' || action == 'r') return StillReferenced(*parent, fk, *child, old);
      bool again = false;
      for (MatchedRow& m : children) {
        MERIDIAN_ASSIGN_OR_RETURN(
            catalog::Transaction::LockResult r,
            exec->txn->LockVersion(child, m.rid, false, exec->ctl, LockTimeoutMs(exec)));
        if (r == catalog::Transaction::LockResult::kAlreadyMine) continue;
        if (r == catalog::Transaction::LockResult::kUpdated) {
          again = true;  // changed by a commit since the lookup: look again
          continue;
        }
        if (action == 'c' && new_rows == nullptr) {
          cascaded.deleted.push_back(std::move(m.row));
          continue;
        }
        Row new_row = m.row;
        MERIDIAN_RETURN_IF_ERROR(SetReferencing(*child, fk, action, *parent,
                                                new_rows != nullptr ? &(*new_rows)[i] : nullptr,
                                                &new_row, exec));
        // SET DEFAULT to the very key that went: the row still references it (PostgreSQL
        // re-checks this case as RESTRICT; the child-side check would skip an unchanged key).
        if (action == 'd' && SameKey(m.row, new_row, fk.columns)) {
          return StillReferenced(*parent, fk, *child, old);
        }
        if (!checks_bound) {
          catalog::LockSet no_locks;
          Binder binder(exec->catalog, &no_locks);
          MERIDIAN_ASSIGN_OR_RETURN(checks, binder.BindChecks(child));
          checks_bound = true;
        }
        MERIDIAN_RETURN_IF_ERROR(
            WriteReplacement(child, checks, BoundReturning{}, m.rid, new_row, exec).status());
        cascaded.updated_old.push_back(std::move(m.row));
        cascaded.updated_new.push_back(std::move(new_row));
      }
      children.clear();
      if (again) {
        MERIDIAN_ASSIGN_OR_RETURN(std::vector<std::vector<MatchedRow>> retry,
                                  FindChildren(child, fk, {keys[k]}, exec));
        children = std::move(retry[0]);
      }
    }
  }
  const auto changed = static_cast<int64_t>(cascaded.deleted.size() + cascaded.updated_new.size());
  if (changed == 0) return Status::Ok();
  child->AdjustRows(-static_cast<int64_t>(cascaded.deleted.size()));
  child->NoteChanges(changed);
  return Enforce(child, cascaded, exec, depth + 1);
}

Status Enforce(const std::shared_ptr<catalog::Table>& table, const TableChanges& changes,
               ExecContext* exec, int depth) {
  if (depth > kMaxCascadeDepth) {
    return Status::Error(sqlstate::kStatementTooComplex, "foreign key actions cascade more than " +
                                                             std::to_string(kMaxCascadeDepth) +
                                                             " levels deep");
  }
  if (exec->txn == nullptr) return Status::Internal("foreign key check outside a transaction");
  // Child side: every new referencing row (an updated one only when its key changed).
  for (const catalog::ForeignKey& fk : table->schema().foreign_keys) {
    for (const Row& row : changes.inserted) {
      MERIDIAN_RETURN_IF_ERROR(CheckParent(*table, fk, row, exec));
    }
    for (size_t i = 0; i < changes.updated_new.size(); ++i) {
      if (SameKey(changes.updated_old[i], changes.updated_new[i], fk.columns)) continue;
      MERIDIAN_RETURN_IF_ERROR(CheckParent(*table, fk, changes.updated_new[i], exec));
    }
  }
  if (changes.deleted.empty() && changes.updated_old.empty()) return Status::Ok();
  // Parent side: every foreign key that references this table.
  if (exec->catalog == nullptr) return Status::Ok();
  for (const catalog::Catalog::Reference& ref : exec->catalog->ReferencesTo(table->id())) {
    if (!changes.deleted.empty()) {
      MERIDIAN_RETURN_IF_ERROR(ApplyAction(table, ref, changes.deleted, nullptr, exec, depth));
    }
    if (!changes.updated_old.empty()) {
      MERIDIAN_RETURN_IF_ERROR(
          ApplyAction(table, ref, changes.updated_old, &changes.updated_new, exec, depth));
    }
  }
  return Status::Ok();
}

}  // namespace

bool HasForeignKeys(const catalog::Table& table, ExecContext* exec) {
  if (!table.schema().foreign_keys.empty()) return true;
  return exec->catalog != nullptr && !exec->catalog->ReferencesTo(table.id()).empty();
}

Status EnforceForeignKeys(const std::shared_ptr<catalog::Table>& table, const TableChanges& changes,
                          ExecContext* exec) {
  return Enforce(table, changes, exec, 0);
}

}  // namespace meridian::exec
