// CREATE SCHEMA, DROP SCHEMA [CASCADE], ALTER SCHEMA ... RENAME TO (catalog/namespace.h). DROP
// SCHEMA ... CASCADE drops the schema's views, tables (with what depends on them) and
// sequences through the ordinary DROP statements, then the empty schema.
#include "commands/ddl.h"
#include "function/sequence.h"

namespace meridian::exec {

namespace {

void AddNotice(std::string* notice, const std::string& line) {
  if (!notice->empty()) *notice += "\n";
  *notice += line;
}

// Drops every relation of nsp (each "kind nsp.name" from Catalog::SchemaContents).
Status DropContents(const std::string& nsp, const std::vector<std::string>& contents,
                    catalog::Catalog* catalog, ExecControl& ctl, SessionSettings* settings) {
  for (const std::string& item : contents) {
    const size_t space = item.find(' ');
    const std::string kind = item.substr(0, space);
    ast::DropTableStmt drop;
    drop.tables = {ast::QualifyName(nsp, item.substr(space + 1 + nsp.size() + 1))};
    drop.table_locs = {ast::Location{}};
    drop.if_exists = true;
    drop.cascade = true;
    std::string ignored;
    if (kind == "view") {
      MERIDIAN_RETURN_IF_ERROR(ExecuteDropView(drop, catalog, settings, &ignored));
    } else if (kind == "table") {
      MERIDIAN_RETURN_IF_ERROR(ExecuteDropTable(drop, catalog, ctl, settings, &ignored));
    } else {
      MERIDIAN_RETURN_IF_ERROR(ExecuteDropSequence(drop, catalog, &ignored));
    }
  }
  return Status::Ok();
}

}  // namespace

Status ExecuteSchemaStatement(const ast::Statement& stmt, catalog::Catalog* catalog,
                              ExecControl& ctl, SessionSettings* settings, std::string* notice) {
  const ast::SchemaStmt& s = *stmt.schema;
  const uint32_t pos = s.locs.empty() ? 0 : s.locs[0].position;
  switch (stmt.kind) {
    case ast::StatementKind::kCreateSchema: {
      const std::string& name = s.names[0];
      if (s.missing_ok &&
          (catalog->SchemaExists(name) || name == "pg_catalog" || name == "information_schema")) {
        AddNotice(notice, "schema \"" + name + "\" already exists, skipping");
        return Status::Ok();
      }
      if (name == "pg_catalog" || name == "information_schema") {
        return Status::Error(sqlstate::kDuplicateSchema, "schema \"" + name + "\" already exists");
      }
      // The owner: the AUTHORIZATION role as written (not checked), else the session's user.
      return catalog->CreateSchema(name,
                                   s.role.empty() ? catalog::CurrentSearchPath().user : s.role);
    }
    case ast::StatementKind::kAlterSchema:
      return catalog->RenameSchema(s.names[0], s.new_name).WithPosition(pos);
    default:
      break;
  }
  // DROP SCHEMA: every schema is checked before any is dropped.
  std::vector<std::pair<std::string, std::vector<std::string>>> drops;
  for (size_t i = 0; i < s.names.size(); ++i) {
    const std::string& name = s.names[i];
    if (name == "pg_catalog" || name == "information_schema" || name == "public" ||
        catalog::Catalog::IsTempSchema(name)) {
      if (name == "public" || catalog->SchemaExists(name) || name.rfind("pg_", 0) != 0 ||
          name == "pg_catalog") {
        return Status::NotSupported("DROP SCHEMA " + name + " is not supported");
      }
    }
    if (!catalog->SchemaExists(name)) {
      if (s.missing_ok) {
        AddNotice(notice, "schema \"" + name + "\" does not exist, skipping");
        continue;
      }
      return Status::Error(sqlstate::kInvalidSchemaName, "schema \"" + name + "\" does not exist");
    }
    std::vector<std::string> contents = catalog->SchemaContents(name);
    if (!contents.empty() && !s.cascade) {
      std::string detail;
      for (const std::string& item : contents) {
        detail += (detail.empty() ? "" : "\n") + item + " depends on schema " + name;
      }
      return Status::Error(sqlstate::kDependentObjectsStillExist,
                           "cannot drop schema " + name + " because other objects depend on it")
          .WithDetail(detail)
          .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
    }
    drops.emplace_back(name, std::move(contents));
  }
  for (const auto& [name, contents] : drops) {
    if (contents.size() == 1) {
      AddNotice(notice, "drop cascades to " + contents[0]);
    } else if (!contents.empty()) {
      std::string lines;
      for (const std::string& item : contents) lines += "\ndrop cascades to " + item;
      AddNotice(notice,
                "drop cascades to " + std::to_string(contents.size()) + " other objects" + lines);
    }
    MERIDIAN_RETURN_IF_ERROR(DropContents(name, contents, catalog, ctl, settings));
    MERIDIAN_RETURN_IF_ERROR(catalog->DropSchema(name));
  }
  return Status::Ok();
}

}  // namespace meridian::exec
