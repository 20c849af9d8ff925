// Sequences in the executor (sequence.cc): CREATE / ALTER / DROP SEQUENCE, the owned sequences
// of SERIAL and identity columns, and nextval / currval / setval / lastval /
// pg_get_serial_sequence. The counters themselves are catalog::Sequence (catalog/sequence.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalog/catalog.h"
#include "meridian/parser/ast.h"

namespace meridian::exec {

struct ExecContext;
struct BoundExpr;
class SessionSettings;

// What currval and lastval read: per session, the last value nextval (or setval with
// is_called) gave for each sequence id, and the sequence nextval used last.
struct SequenceValues {
  std::unordered_map<uint32_t, int64_t> last;
  uint32_t last_used = 0;  // 0: nextval not called yet in this session
};

// *notice receives `relation "s" already exists, skipping` for IF NOT EXISTS.
Status ExecuteCreateSequence(const ast::SequenceStmt& stmt, catalog::Catalog* catalog,
                             std::string* notice);
Status ExecuteAlterSequence(const ast::SequenceStmt& stmt, catalog::Catalog* catalog,
                            std::string* notice);
Status ExecuteDropSequence(const ast::DropTableStmt& stmt, catalog::Catalog* catalog,
                           std::string* notice);

// CREATE TABLE's SERIAL / identity columns: creates the sequence of def (named
// <table>_<column>_seq, or with a number appended while taken), typed as the column, not yet
// owned; *default_text receives the column's DEFAULT nextval('name'::regclass).
Result<std::shared_ptr<catalog::Sequence>> CreateColumnSequence(const std::string& table,
                                                                const ast::ColumnDef& def,
                                                                TypeId type,
                                                                catalog::Catalog* catalog,
                                                                std::string* default_text);
// Makes seq OWNED BY column position column of table id table (and, for identity columns,
// records GENERATED ALWAYS 'a' / BY DEFAULT 'd').
Status SetSequenceOwner(const std::shared_ptr<catalog::Sequence>& seq, uint32_t table, int column,
                        char identity, catalog::Catalog* catalog);

// The identity kind of column position column of table id table: 'a', 'd', or 0 when it is no
// identity column.
char ColumnIdentity(const catalog::Catalog& catalog, uint32_t table, int column);

// nextval, currval, setval, lastval, pg_get_serial_sequence (Func::kNextval...) on evaluated,
// non-NULL arguments.
Result<Value> EvalSequenceFunction(const BoundExpr& e, const std::vector<Value>& args,
                                   ExecContext* exec);

}  // namespace meridian::exec
