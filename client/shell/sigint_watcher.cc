// SIGINT self-pipe and watcher thread (see sigint_watcher.h).
#include "shell/sigint_watcher.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace meridian::shell {

namespace {

int g_pipe[2] = {-1, -1};
volatile sig_atomic_t g_count =
    0;  // written by the handler only  // written by the handler, read by the watcher thread
struct sigaction g_previous;

constexpr char kInterrupt = 'i';
constexpr char kStop = 's';

extern "C" void OnSigint(int) {
  int saved = errno;
  g_count = g_count + 1;
  char c = kInterrupt;
  ssize_t n = write(g_pipe[1], &c, 1);
  (void)n;
  errno = saved;
}

}  // namespace

uint64_t SigintCount() { return static_cast<uint64_t>(g_count); }

SigintWatcher::SigintWatcher(std::function<void()> on_interrupt)
    : on_interrupt_(std::move(on_interrupt)) {
  if (pipe(g_pipe) != 0) return;
  fcntl(g_pipe[1], F_SETFL, O_NONBLOCK);
  struct sigaction action {};
  action.sa_handler = OnSigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  sigaction(SIGINT, &action, &g_previous);
  thread_ = std::thread([this] {
    while (true) {
      char c = 0;
      ssize_t n = read(g_pipe[0], &c, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || c == kStop) return;
      on_interrupt_();
    }
  });
}

SigintWatcher::~SigintWatcher() {
  if (!thread_.joinable()) return;
  sigaction(SIGINT, &g_previous, nullptr);
  char c = kStop;
  ssize_t n = write(g_pipe[1], &c, 1);
  (void)n;
  thread_.join();
  close(g_pipe[0]);
  close(g_pipe[1]);
}

}  // namespace meridian::shell
