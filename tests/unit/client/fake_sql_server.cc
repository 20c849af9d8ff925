// FakeSqlServer implementation (see fake_sql_server.h).
#include "fake_sql_server.h"

#include <thread>

#include "meridian/client/client_error.h"
#include "proto_convert.h"

namespace meridian::testing {

namespace {

void AddColumn(v1::ResultMetadata* md, const std::string& name, const std::string& type,
               uint32_t oid) {
  auto* c = md->add_columns();
  c->set_name(name);
  c->mutable_type()->set_name(type);
  c->mutable_type()->set_type_mod(-1);
  c->mutable_type()->set_pg_oid(oid);
  c->set_nullable(true);
}

}  // namespace

grpc::Status FakeSqlService::OpenSession(grpc::ServerContext*,
                                         const v1::OpenSessionRequest* request,
                                         v1::OpenSessionResponse* response) {
  std::lock_guard lock(mu_);
  last_user = request->user();
  response->set_session_id("s" + std::to_string(next_session_++));
  response->set_server_version("fake-1");
  response->set_lease_ttl_ms(10000);
  ++sessions_opened;
  return grpc::Status::OK;
}

grpc::Status FakeSqlService::Attach(grpc::ServerContext* context, const v1::AttachRequest*,
                                    grpc::ServerWriter<v1::SessionEvent>* writer) {
  v1::SessionEvent event;
  event.set_kind(v1::SessionEvent::ATTACHED);
  writer->Write(event);
  std::unique_lock lock(mu_);
  while (!drop_ && !context->IsCancelled()) {
    cv_.wait_for(lock, std::chrono::milliseconds(20));
  }
  return grpc::Status::OK;
}

grpc::Status FakeSqlService::CloseSession(grpc::ServerContext*, const v1::CloseSessionRequest*,
                                          v1::CloseSessionResponse*) {
  ++sessions_closed;
  return grpc::Status::OK;
}

grpc::Status FakeSqlService::ExecuteStream(grpc::ServerContext* context,
                                           const v1::ExecuteRequest* request,
                                           grpc::ServerWriter<v1::ResultChunk>* writer) {
  std::string sql = request->sql();
  while (!sql.empty() && (sql.back() == ';' || sql.back() == ' ' || sql.back() == '\n')) {
    sql.pop_back();
  }
  v1::ResultChunk chunk;
  if (sql == "select 1") {
    AddColumn(chunk.mutable_metadata(), "?column?", "integer", 23);
    chunk.add_rows()->add_values()->set_int_value(1);
    chunk.mutable_stats()->set_command_tag("SELECT 1");
    chunk.mutable_stats()->set_rows(1);
    writer->Write(chunk);
    return grpc::Status::OK;
  }
  if (sql.rfind("select rows ", 0) == 0) {
    int n = std::stoi(sql.substr(12));
    AddColumn(chunk.mutable_metadata(), "i", "integer", 23);
    AddColumn(chunk.mutable_metadata(), "s", "text", 25);
    AddColumn(chunk.mutable_metadata(), "d", "double precision", 701);
    AddColumn(chunk.mutable_metadata(), "b", "boolean", 16);
    writer->Write(chunk);
    chunk.Clear();
    for (int i = 0; i < n; ++i) {
      auto* row = chunk.add_rows();
      row->add_values()->set_int_value(i);
      if (i % 3 == 2) {
        row->add_values()->set_null_value(true);
      } else {
        row->add_values()->set_text_value("row" + std::to_string(i));
      }
      row->add_values()->set_double_value(i + 0.5);
      row->add_values()->set_bool_value(i % 2 == 0);
      if (chunk.rows_size() == 100) {
        writer->Write(chunk);
        chunk.Clear();
      }
    }
    chunk.mutable_stats()->set_command_tag("SELECT " + std::to_string(n));
    chunk.mutable_stats()->set_rows(n);
    writer->Write(chunk);
    return grpc::Status::OK;
  }
  if (sql == "two") {
    chunk.mutable_metadata();
    chunk.mutable_stats()->set_command_tag("CREATE TABLE");
    writer->Write(chunk);
    chunk.Clear();
    chunk.set_statement_index(1);
    AddColumn(chunk.mutable_metadata(), "x", "text", 25);
    chunk.add_rows()->add_values()->set_text_value("a");
    chunk.mutable_stats()->set_command_tag("SELECT 1");
    writer->Write(chunk);
    return grpc::Status::OK;
  }
  if (sql == "notice") {
    chunk.set_notice("table \"t\" does not exist, skipping");
    writer->Write(chunk);
    chunk.Clear();
    chunk.mutable_stats()->set_command_tag("DROP TABLE");
    writer->Write(chunk);
    return grpc::Status::OK;
  }
  if (sql == "bad") {
    client::ClientError e;
    e.sqlstate = "42601";
    e.message = "syntax error at or near \"bad\"";
    e.detail = "some detail";
    e.hint = "some hint";
    e.position = 1;
    e.line = 1;
    e.column = 1;
    return client::StatusFromError(grpc::StatusCode::INVALID_ARGUMENT, e);
  }
  if (sql == "sleep") {
    {
      std::lock_guard lock(mu_);
      cancelled_[request->query_id()] = false;
    }
    while (!context->IsCancelled()) {
      {
        std::lock_guard lock(mu_);
        if (cancelled_[request->query_id()]) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    client::ClientError e;
    e.sqlstate = "57014";
    e.message = "canceling statement due to user request";
    return client::StatusFromError(grpc::StatusCode::CANCELLED, e);
  }
  chunk.mutable_stats()->set_command_tag("OK");
  writer->Write(chunk);
  return grpc::Status::OK;
}

grpc::Status FakeSqlService::Cancel(grpc::ServerContext*, const v1::CancelRequest* request,
                                    v1::CancelResponse* response) {
  ++cancels;
  std::lock_guard lock(mu_);
  auto it = cancelled_.find(request->query_id());
  if (it != cancelled_.end()) {
    it->second = true;
    response->set_cancelled(true);
  }
  return grpc::Status::OK;
}

grpc::Status FakeSqlService::DescribeCatalog(grpc::ServerContext*,
                                             const v1::DescribeCatalogRequest* request,
                                             v1::DescribeCatalogResponse* response) {
  if (!request->table().empty() && request->table() != "t") {
    client::ClientError e;
    e.sqlstate = "42P01";
    // (append, not operator+ on a literal: GCC 12 -Wrestrict false positive at -O3)
    e.message.append("relation \"").append(request->table()).append("\" does not exist");
    return client::StatusFromError(grpc::StatusCode::NOT_FOUND, e);
  }
  auto* t = response->add_tables();
  t->set_name("t");
  auto* a = t->add_columns();
  a->set_name("a");
  a->mutable_type()->set_name("integer");
  a->mutable_type()->set_type_mod(-1);
  a->mutable_type()->set_pg_oid(23);
  a->set_not_null(true);
  a->set_primary_key(true);
  auto* b = t->add_columns();
  b->set_name("b");
  b->mutable_type()->set_name("character varying");
  b->mutable_type()->set_type_mod(10);
  b->mutable_type()->set_pg_oid(1043);
  b->set_default_expr("'x'");
  t->add_primary_key("a");
  return grpc::Status::OK;
}

void FakeSqlService::DropSessions() {
  std::lock_guard lock(mu_);
  drop_ = true;
  cv_.notify_all();
}

FakeSqlServer::FakeSqlServer(const std::string& address) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &port_);
  builder.RegisterService(&service_);
  server_ = builder.BuildAndStart();
}

FakeSqlServer::~FakeSqlServer() { Shutdown(); }

void FakeSqlServer::Shutdown() {
  if (!server_) return;
  service_.DropSessions();
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  server_->Wait();
  server_.reset();
}

}  // namespace meridian::testing
