// The extended query protocol: Parse, Bind, Describe, Execute, Close and the request that Sync
// ends; a bound statement is a Portal (pg_portal.h). docs/pgwire-protocol.md, "Message flow" 3.
#include <algorithm>
#include <span>

#include "pg_connection.h"
#include "pg_protocol.h"

namespace meridian::server::pgwire {

asio::awaitable<void> PgConnection::EndExtendedRequest() {
  // End of the implicit transaction: portals die (on the pool: a cursor may release locks) and
  // the session's request ends.
  std::vector<std::unique_ptr<Portal>> dropped;
  for (auto& [name, portal] : portals_) dropped.push_back(std::move(portal));
  for (auto& portal : closed_portals_) dropped.push_back(std::move(portal));
  closed_portals_.clear();
  portals_.clear();
  // A portal that ran to its end has no cursor left and is freed here; a live cursor (it may
  // hold locks or a transaction) is destroyed on the pool.
  const bool live = std::any_of(dropped.begin(), dropped.end(),
                                [](const auto& portal) { return portal->has_cursor(); });
  if (live) co_await OnPool([&dropped] { dropped.clear(); });
  dropped.clear();
  if (ext_ctl_ != nullptr) {
    ext_ctl_.reset();
    session_->EndRequest();
  }
}

void PgConnection::ExtendedError(const Status& st) {
  WriteErrorResponse(&out_, st);
  ignore_till_sync_ = true;
}

asio::awaitable<bool> PgConnection::HandleParse(const std::string& body) {
  auto parse = DecodeParse(body);
  if (!parse.ok()) {
    co_await Fatal(parse.status());
    co_return false;
  }
  std::string name(parse->statement);
  std::string sql(parse->sql);
  std::vector<Type> declared;
  for (uint32_t oid : parse->parameter_types) {
    auto type = ParamTypeFromOid(oid);
    if (!type.ok()) {
      ExtendedError(type.status());
      co_return true;
    }
    declared.push_back(*type);
  }
  // Parsed once here and described (parameter types, result columns), as PostgreSQL's Parse
  // does parse analysis; Bind/Execute only bind, plan and run it. A named statement goes into
  // the session's namespace (42P05 when taken), the unnamed one replaces the previous one.
  Status status;
  co_await OnPool([&] {
    auto prepared = session_->engine()->Prepare(name, sql, declared);
    if (!prepared.ok()) {
      status = prepared.status();
    } else if (name.empty()) {
      unnamed_ = std::move(prepared).value();
    }
  });
  if (!status.ok()) {
    ExtendedError(status);
    co_return true;
  }
  WriteParseComplete(&out_);
  co_return true;
}

std::optional<PreparedStatementInfo> PgConnection::FindStatement(const std::string& name) const {
  if (name.empty()) return unnamed_;
  return session_->engine()->FindPrepared(name);
}

asio::awaitable<bool> PgConnection::HandleBind(const std::string& body) {
  auto bind = DecodeBind(body);
  if (!bind.ok()) {
    co_await Fatal(bind.status());
    co_return false;
  }
  std::string portal_name(bind->portal);
  std::string statement_name(bind->statement);
  const std::optional<PreparedStatementInfo> found = FindStatement(statement_name);
  if (!found) {
    ExtendedError(Status::Error(sqlstate::kInvalidSqlStatementName,
                                "prepared statement \"" + statement_name + "\" does not exist"));
    co_return true;
  }
  const PreparedStatementInfo& prepared = *found;
  if (bind->parameters.size() != prepared.param_types.size()) {
    ExtendedError(Status::Error(sqlstate::kProtocolViolation,
                                "bind message supplies " + std::to_string(bind->parameters.size()) +
                                    " parameters, but prepared statement \"" + statement_name +
                                    "\" requires " + std::to_string(prepared.param_types.size())));
    co_return true;
  }
  auto formats = ResolveFormats(bind->parameter_formats, bind->parameters.size(),
                                "parameter formats", "parameters");
  if (!formats.ok()) {
    ExtendedError(formats.status());
    co_return true;
  }
  if (!prepared.columns.empty()) {
    // Checked here against the described columns, again per column when the portal starts.
    auto results =
        ResolveFormats(bind->result_formats, prepared.columns.size(), "result formats", "columns");
    if (!results.ok()) {
      ExtendedError(results.status());
      co_return true;
    }
  }
  StatementParams params;
  params.types = prepared.param_types;
  for (size_t i = 0; i < bind->parameters.size(); ++i) {
    const std::optional<std::string_view>& p = bind->parameters[i];
    if (!p) {
      params.values.push_back(Value::Null());
    } else if ((*formats)[i] == kBinaryFormat) {
      auto v = DecodeBinaryValue(*p, prepared.param_types[i], i);
      if (!v.ok()) {
        ExtendedError(v.status());
        co_return true;
      }
      params.values.push_back(std::move(v).value());
    } else {
      // Text format: the engine casts the string with the parameter type's input rules.
      params.values.push_back(Value::String(std::string(*p)));
    }
  }
  if (!portal_name.empty() && portals_.count(portal_name) != 0) {
    ExtendedError(
        Status::Error(sqlstate::kDuplicateCursor, "cursor \"" + portal_name + "\" already exists"));
    co_return true;
  }
  if (auto old = portals_.find(portal_name); old != portals_.end()) {
    std::unique_ptr<Portal> dropped = std::move(old->second);
    portals_.erase(old);
    co_await OnPool([&dropped] { dropped.reset(); });
  }
  portals_[portal_name] =
      std::make_unique<Portal>(prepared.request, std::move(params), bind->result_formats);
  WriteBindComplete(&out_);
  co_return true;
}

Status PgConnection::BeginExtendedRequest() {
  // The extended protocol's request spans the messages up to Sync.
  if (ext_ctl_ != nullptr) return Status::Ok();
  return session_->BeginRequest("", &ext_ctl_);
}

asio::awaitable<Status> PgConnection::StartPortal(Portal* portal) {
  if (portal->started()) co_return Status::Ok();
  if (Status st = BeginExtendedRequest(); !st.ok()) co_return st;
  if (portal->empty()) {
    portal->MarkStarted();
    co_return Status::Ok();
  }
  // A prepared quick read or quick write (Request::QuickRead, QuickWrite: one row by a unique
  // key or a small table's scan, one VALUES row, BEGIN) runs here on the connection's I/O thread:
  // bounded work, and under ExecControl::no_wait a busy table or row lock refuses at once instead
  // of blocking the thread (the statement undone; it then goes to the pool below). A pool hop costs
  // two thread wake-ups, much of such a statement's time. A quick COMMIT hands its transaction
  // to the group committer (ExecControl::set_defer_commit) and this coroutine waits for the
  // committer's completion without a thread; the client hears COMMIT only once it is durable.
  Status status;
  if (portal->quick()) {
    ext_ctl_->set_no_wait(true);
    ext_ctl_->set_defer_commit(true);
    status = portal->Start(*ext_ctl_);
    if (status.ok()) portal->Fetch(kFetchRows, kFetchBytes, *ext_ctl_);
    ext_ctl_->set_no_wait(false);
    if (std::unique_ptr<PendingCommit> commit = session_->engine()->TakePendingCommit()) {
      co_await WhenCommitDone(commit.get());
      if (Status committed = commit->Finish(); !committed.ok()) portal->Fail(committed);
      co_return status;
    }
    if (!ExecControl::IsWouldBlock(portal->error()) && !ExecControl::IsWouldBlock(status)) {
      co_return status;
    }
    portal->Unstart();  // as Bind left it: nothing started, nothing fetched
  }
  // Describe starts the statement and fetches its first rows in one pool step (libpq sends
  // Describe before every Execute); an error of that fetch waits for Execute, as in PostgreSQL.
  co_await OnPool([&] {
    status = portal->Start(*ext_ctl_);
    if (status.ok()) portal->Fetch(kFetchRows, kFetchBytes, *ext_ctl_);
  });
  co_return status;
}

asio::awaitable<bool> PgConnection::HandleDescribe(const std::string& body) {
  auto describe = DecodeDescribe(body);
  if (!describe.ok()) {
    co_await Fatal(describe.status());
    co_return false;
  }
  std::string name(describe->name);
  if (describe->kind == 'S') {
    const std::optional<PreparedStatementInfo> found = FindStatement(name);
    if (!found) {
      ExtendedError(Status::Error(sqlstate::kInvalidSqlStatementName,
                                  "prepared statement \"" + name + "\" does not exist"));
      co_return true;
    }
    // Described at Parse: formats are not known yet, so the columns are described as text.
    const PreparedStatementInfo& prepared = *found;
    std::vector<uint32_t> oids;
    for (const Type& t : prepared.param_types) oids.push_back(t.PgOid());
    WriteParameterDescription(&out_, oids);
    if (prepared.columns.empty()) {
      WriteNoData(&out_);
    } else {
      WriteRowDescription(&out_, prepared.columns);
    }
    co_return true;
  }
  auto it = portals_.find(name);
  if (it == portals_.end()) {
    ExtendedError(
        Status::Error(sqlstate::kInvalidCursorName, "portal \"" + name + "\" does not exist"));
    co_return true;
  }
  Status st = co_await StartPortal(it->second.get());
  if (!st.ok()) {
    ExtendedError(st);
    co_return true;
  }
  if (it->second->columns().empty()) {
    WriteNoData(&out_);
  } else {
    WriteRowDescription(&out_, it->second->columns(), it->second->formats());
  }
  co_return true;
}

asio::awaitable<bool> PgConnection::HandleExecute(const std::string& body) {
  auto execute = DecodeExecute(body);
  if (!execute.ok()) {
    co_await Fatal(execute.status());
    co_return false;
  }
  std::string name(execute->portal);
  int32_t max_rows = execute->max_rows;
  auto it = portals_.find(name);
  if (it == portals_.end()) {
    ExtendedError(
        Status::Error(sqlstate::kInvalidCursorName, "portal \"" + name + "\" does not exist"));
    co_return true;
  }
  Portal* portal = it->second.get();
  if (Status st = BeginExtendedRequest(); !st.ok()) {
    ExtendedError(st);
    co_return true;
  }
  if (portal->empty()) {
    portal->MarkStarted();
    WriteEmptyQueryResponse(&out_);
    co_return true;
  }
  if (portal->done()) {
    // A finished portal executes to nothing, like PostgreSQL's.
    WriteCommandComplete(&out_, portal->tag());
    co_return true;
  }
  const size_t limit = max_rows > 0 ? static_cast<size_t>(max_rows) : SIZE_MAX;
  size_t sent = 0;
  Status status;
  while (sent < limit) {
    if (std::span<const Row> rows = portal->pending(); !rows.empty()) {
      const size_t n = std::min(limit - sent, rows.size());
      {
        datetime::ScopedTimeZone in_zone(session_->engine()->time_zone());  // not across co_await
        for (size_t i = 0; i < n; ++i) {
          WriteDataRow(&out_, rows[i], portal->columns(), portal->formats());
        }
      }
      portal->Consume(n);
      sent += n;
      if (out_.size() > kFlushBytes) co_await Flush();
      continue;
    }
    if (!portal->error().ok() || portal->finished()) break;
    if (!portal->started()) {
      // No Describe before (pgx with a cached description sends Bind/Execute only): start as
      // Describe does, a quick statement on this thread, else in one pool step with its first
      // rows, which the loop then sends up to the limit.
      status = co_await StartPortal(portal);
      if (!status.ok()) break;
      continue;
    }
    const size_t want = std::min(kFetchRows, limit - sent);
    co_await OnPool([&] { portal->Fetch(want, kFetchBytes, *ext_ctl_); });
  }
  if (status.ok() && !portal->error().ok()) status = portal->TakeError();
  if (!status.ok()) {
    ExtendedError(status);
    co_return true;
  }
  if (!portal->finished() || !portal->pending().empty()) {
    WritePortalSuspended(&out_);
    co_return true;
  }
  portal->MarkDone();
  if (!portal->notice().empty()) {
    WriteNoticeResponse(&out_, portal->notice(), portal->notice_state());
  }
  WriteCommandComplete(&out_, portal->tag());
  AppendParameterChanges();
  co_return true;
}

asio::awaitable<void> PgConnection::HandleClose(const TargetMessage& target) {
  if (target.kind == 'S') {
    // Named: the session's namespace (a SQL-prepared statement too, as in PostgreSQL). On the
    // pool: the statement's parse may be freed here.
    std::string name(target.name);
    co_await OnPool([&] {
      if (name.empty()) {
        unnamed_.reset();
      } else {
        session_->engine()->ClosePrepared(name);
      }
    });
  } else if (auto it = portals_.find(std::string(target.name)); it != portals_.end()) {
    // A portal's cursor is destroyed on the pool (it may release locks); keep it till Sync.
    closed_portals_.push_back(std::move(it->second));
    portals_.erase(it);
  }
  WriteCloseComplete(&out_);
}

}  // namespace meridian::server::pgwire
