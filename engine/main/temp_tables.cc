// TEMP tables' ON COMMIT actions and end of session (temp_tables.h).
#include "main/temp_tables.h"

#include "catalog/namespace.h"
#include "catalog/sequence.h"
#include "commands/ddl.h"
#include "meridian/parser/ast.h"

namespace meridian::exec {

namespace {

void Drop(catalog::Catalog* catalog, const std::vector<std::string>& names) {
  if (names.empty()) return;
  ast::DropTableStmt drop;
  drop.tables = names;
  drop.table_locs.assign(names.size(), ast::Location{});
  drop.if_exists = true;
  drop.cascade = true;
  ExecControl ctl;
  std::string notice;
  (void)ExecuteDropTable(drop, catalog, ctl, nullptr, &notice);
}

}  // namespace

void RunOnCommitActions(catalog::Catalog* catalog, uint64_t session) {
  if (session == 0 || !catalog->HasOnCommitTables()) return;
  std::vector<std::string> drop;
  ast::TruncateStmt truncate;
  for (const std::shared_ptr<catalog::Table>& table : catalog->TempTables(session)) {
    const catalog::TableSchema& s = table->schema();
    const std::string name = ast::QualifyName(s.nsp, s.name);
    if (s.on_commit == static_cast<int>(ast::OnCommit::kDrop)) {
      drop.push_back(name);
    } else if (s.on_commit == static_cast<int>(ast::OnCommit::kDeleteRows)) {
      truncate.tables.push_back(name);
      truncate.table_locs.push_back(ast::Location{});
    }
  }
  Drop(catalog, drop);
  if (!truncate.tables.empty()) {
    ExecControl ctl;
    (void)ExecuteTruncate(truncate, catalog, ctl);
  }
}

void DropSessionTempTables(catalog::Catalog* catalog, uint64_t session) {
  if (session == 0) return;
  std::vector<std::string> names;
  for (const std::shared_ptr<catalog::Table>& table : catalog->TempTables(session)) {
    names.push_back(ast::QualifyName(table->schema().nsp, table->name()));
  }
  Drop(catalog, names);
  // CREATE TEMP SEQUENCE's sequences (those OWNED BY a TEMP table's column went with it).
  std::vector<uint32_t> sequences;
  const std::string nsp = catalog::TempSchemaName(session);
  for (const std::shared_ptr<catalog::Sequence>& seq : catalog->ListSequences()) {
    if (seq->schema()->nsp == nsp) sequences.push_back(seq->schema()->id);
  }
  if (!sequences.empty()) (void)catalog->DropSequences(sequences);
}

}  // namespace meridian::exec
