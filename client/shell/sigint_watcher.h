// SigintWatcher: turns SIGINT into a callback on a dedicated thread (self-pipe), so Ctrl-C can
// send a Cancel RPC, which a signal handler itself must not do.
#pragma once

#include <cstdint>
#include <functional>
#include <thread>

namespace meridian::shell {

// How many SIGINTs the handler has seen (read it before and after a blocking read to learn
// whether Ctrl-C interrupted it; the watcher thread may run later than the read returns).
uint64_t SigintCount();

class SigintWatcher {
 public:
  // Installs the SIGINT handler (without SA_RESTART, so a blocking read sees EINTR) and starts
  // the thread that calls on_interrupt once per Ctrl-C.
  explicit SigintWatcher(std::function<void()> on_interrupt);
  // Restores the previous handler and stops the thread.
  ~SigintWatcher();
  SigintWatcher(const SigintWatcher&) = delete;
  SigintWatcher& operator=(const SigintWatcher&) = delete;

 private:
  std::function<void()> on_interrupt_;
  std::thread thread_;
};

}  // namespace meridian::shell
