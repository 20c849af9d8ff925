// Command line of meridian-tpcc: the subcommand (load, run, check, all) and its flags.
#pragma once

#include <cstdint>
#include <string>

#include "session.h"

namespace tpcc {

struct Options {
  std::string command;  // "load", "run", "check", "all" or "statements"
  ConnectParams conn;
  int warehouses = 1;
  int threads = 4;           // load: parallel loader sessions
  int terminals = 0;         // run: 0 = 10 per warehouse (one per district)
  double duration = 60;      // run: measured seconds
  double warmup = 0;         // run: seconds before measuring starts
  double ramp = 0;           // run: terminals start spread over this many seconds
  double report_interval = 10;
  bool spec_timing = false;  // keying and think times of clause 5.2.5
  std::string isolation;     // "" = the server's default; else a BEGIN ISOLATION LEVEL level
  bool one_district = false; // every terminal on warehouse 1, district 1 (conflict test)
  int batch_rows = 1000;     // load: rows per multi-row INSERT
  std::string json_path;     // --json FILE
  std::string compare_path;  // --compare FILE.json
  uint64_t seed = 0;         // 0 = from the clock
  int executions = 200;           // statements: timed executions per statement (at most)
  double statement_seconds = 5;   // statements: stop a statement's executions after this long
  double statement_timeout = 60;  // statements: the servers' statement_timeout, seconds
  std::string statement_filter;   // statements: only names containing this
  int progress = -1;         // -1 = a bar when stdout is a terminal; 0 plain lines; 1 bar
};

// Parses argv; on a bad command line returns false and sets *error.
bool ParseOptions(int argc, char** argv, Options* options, std::string* error);
// The --help text.
std::string Usage();

}  // namespace tpcc
