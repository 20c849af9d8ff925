// Progress bar / periodic progress lines (progress.h).
#include "progress.h"

#include <algorithm>
#include <cstdio>

namespace tpcc {

Progress::Progress(std::string label, int64_t total, bool bar, double interval_s)
    : label_(std::move(label)), total_(std::max<int64_t>(total, 1)), bar_(bar),
      interval_s_(interval_s), start_(std::chrono::steady_clock::now()),
      printer_([this] { Loop(); }) {}

Progress::~Progress() { Finish(); }

void Progress::Finish() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    stop_ = true;
  }
  cv_.notify_all();
  printer_.join();
  std::printf("%s%s\n", bar_ ? "\r" : "", Line(true).c_str());
  std::fflush(stdout);
}

void Progress::Loop() {
  auto period = bar_ ? std::chrono::milliseconds(200)
                     : std::chrono::milliseconds(static_cast<int64_t>(interval_s_ * 1000));
  std::unique_lock<std::mutex> lock(mu_);
  while (!cv_.wait_for(lock, period, [this] { return stop_; })) {
    if (bar_) std::printf("\r%s\x1b[K", Line(false).c_str());
    else std::printf("%s\n", Line(false).c_str());
    std::fflush(stdout);
  }
}

std::string Progress::Line(bool final) const {
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  int64_t done = this->done();
  double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
  double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0;
  char buf[256];
  if (final) {
    std::snprintf(buf, sizeof(buf), "%s: %lld rows in %.1f s (%.0f rows/s)", label_.c_str(),
                  static_cast<long long>(done), elapsed, rate);
    return buf;
  }
  double eta = rate > 0 ? static_cast<double>(total_ - std::min(done, total_)) / rate : 0;
  if (!bar_) {
    std::snprintf(buf, sizeof(buf), "%s: %5.1f%%  %lld rows  %.0f rows/s  ETA %.0f s",
                  label_.c_str(), fraction * 100, static_cast<long long>(done), rate, eta);
    return buf;
  }
  constexpr int kWidth = 30;
  int filled = static_cast<int>(fraction * kWidth);
  std::string bar(static_cast<size_t>(filled), '#');
  bar.append(static_cast<size_t>(kWidth - filled), '.');
  std::snprintf(buf, sizeof(buf), "%s [%s] %5.1f%%  %.0f rows/s  ETA %.0f s", label_.c_str(),
                bar.c_str(), fraction * 100, rate, eta);
  return buf;
}

}  // namespace tpcc
