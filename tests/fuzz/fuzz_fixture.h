// What the engine-backed harnesses (fuzz_sql, fuzz_grpc) share: the fixture tables every
// input may read and change, and the temp directory their database lives in.
#pragma once

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cstdio>
#include <string>

namespace meridian::fuzz {

// Tables every input may read and change (its changes are rolled back): ints, text, numeric,
// dates, a JSON column, NULLs, a primary key, a secondary index, a view and a sequence.
inline constexpr const char* kFixtureSql = R"sql(
CREATE TABLE t (a INT PRIMARY KEY, b TEXT, c NUMERIC(10,2), d DATE, e BOOLEAN);
INSERT INTO t VALUES (1, 'one', 1.50, '2024-01-01', true), (2, 'two', NULL, '2024-02-29', false),
  (3, NULL, -3.25, NULL, NULL), (4, 'four', 1000.00, '1999-12-31', true), (5, 'Five', 0, '2000-01-01', false);
CREATE INDEX t_b ON t (b);
CREATE TABLE u (x BIGINT, y DOUBLE PRECISION, z VARCHAR(20), j JSONB, ts TIMESTAMP);
INSERT INTO u VALUES (1, 0.5, 'a', '{"k": 1}', '2024-01-01 10:00:00'), (2, -1e10, 'bb', '[1,2,3]', NULL),
  (NULL, NULL, NULL, NULL, NULL), (3, 3.0, 'a', '"s"', '1970-01-01 00:00:00');
CREATE TABLE s (id SERIAL PRIMARY KEY, t_a INT REFERENCES t(a), v INT UNIQUE);
INSERT INTO s (t_a, v) VALUES (1, 10), (2, 20), (2, 30), (NULL, 40);
CREATE VIEW tv AS SELECT a, b FROM t WHERE a > 1;
CREATE SEQUENCE seq;
ANALYZE;
)sql";

// A new directory under $TMPDIR (run_fuzz.sh points it into build-fuzz/); aborts if it cannot.
inline std::string MakeTempDir(const char* harness) {
  const char* tmp = getenv("TMPDIR");
  std::string tmpl = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/meridian-" +
                     harness + "-XXXXXX";
  const char* dir = mkdtemp(tmpl.data());
  if (dir == nullptr) {
    fprintf(stderr, "%s: cannot create %s: %s (does TMPDIR exist?)\n", harness, tmpl.c_str(),
            strerror(errno));
    abort();
  }
  return dir;
}

}  // namespace meridian::fuzz
