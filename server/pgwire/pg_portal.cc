// Portal: a bound statement's cursor state; see pg_portal.h.
#include "pg_portal.h"

#include <algorithm>
#include <utility>

#include "pg_protocol.h"

namespace meridian::server::pgwire {

Portal::Portal(std::shared_ptr<Request> request, StatementParams params,
               std::vector<int16_t> result_formats)
    : request_(std::move(request)),
      params_(std::move(params)),
      result_formats_(std::move(result_formats)),
      done_(request_ == nullptr),
      empty_(request_ == nullptr) {}

bool Portal::quick() const {
  return request_ != nullptr &&
         (request_->QuickRead(0) || request_->QuickWrite(0, /*deferred_commit=*/true));
}

Status Portal::Start(ExecControl& ctl) {
  started_ = true;
  if (empty_) return Status::Ok();
  auto started = request_->Start(0, ctl, params_);
  if (!started.ok()) return started.status();
  cursor_ = std::move(started).value();
  columns_ = cursor_->columns();
  // A prepared statement whose result changed since Parse (DDL in between) failed to start
  // with 0A000 "cached plan must not change result type" (engine: CheckCachedResult).
  if (cursor_->copy_in() != nullptr || cursor_->copy_out()) {
    cursor_.reset();
    return Status::NotSupported("COPY is supported only in the simple query protocol");
  }
  auto formats = ResolveFormats(result_formats_, columns_.size(), "result formats", "columns");
  if (!formats.ok()) return formats.status();
  formats_ = std::move(formats).value();
  return Status::Ok();
}

void Portal::Fetch(size_t want, size_t max_bytes, ExecControl& ctl) {
  buffered_.clear();
  buffered_next_ = 0;
  auto fetched = cursor_->Fetch(want, max_bytes, ctl, &buffered_);
  if (!fetched.ok()) {
    error_ = fetched.status();
    cursor_.reset();
    return;
  }
  if (!*fetched) {
    finished_ = true;
    tag_ = cursor_->CommandTag();
    notice_ = cursor_->Notice();
    notice_state_ = cursor_->NoticeSqlstate();
    cursor_.reset();
  }
}

void Portal::Unstart() {
  *this = Portal(std::move(request_), std::move(params_), std::move(result_formats_));
}

void Portal::MarkDone() {
  done_ = true;
  buffered_.clear();
}

std::span<const Row> Portal::pending() const {
  return std::span<const Row>(buffered_).subspan(std::min(buffered_next_, buffered_.size()));
}

Status Portal::TakeError() { return std::exchange(error_, Status::Ok()); }

}  // namespace meridian::server::pgwire
