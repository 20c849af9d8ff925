// Tests of the database/sql driver against a real meridiand ($MERIDIAND, started on free ports
// with a temporary data directory), and of the DSN parser.
package meridian_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	meridian "meridian.local/client/go"
)

type daemon struct {
	bin, dir         string
	grpcPort, pgPort int
	extra            []string // more meridiand flags
	cmd              *exec.Cmd
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func startDaemon(t *testing.T, extra ...string) *daemon {
	bin := os.Getenv("MERIDIAND")
	if bin == "" {
		t.Fatal("set MERIDIAND to the meridiand binary")
	}
	d := &daemon{bin: bin, dir: t.TempDir(), grpcPort: freePort(t), pgPort: freePort(t), extra: extra}
	d.start(t)
	t.Cleanup(func() { d.stop(t) })
	return d
}

func (d *daemon) start(t *testing.T) {
	log, err := os.OpenFile(filepath.Join(d.dir, "meridiand.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--data-dir", filepath.Join(d.dir, "data"),
		"--grpc-listen", fmt.Sprintf("127.0.0.1:%d", d.grpcPort),
		"--pg-listen", fmt.Sprintf("127.0.0.1:%d", d.pgPort)}, d.extra...)
	d.cmd = exec.Command(d.bin, args...)
	d.cmd.Stdout, d.cmd.Stderr = log, log
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", d.grpcPort))
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("meridiand did not start")
}

func (d *daemon) stop(t *testing.T) {
	if d.cmd == nil || d.cmd.ProcessState != nil {
		return
	}
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	if err := d.cmd.Wait(); err != nil {
		t.Errorf("meridiand exit: %v", err)
	}
}

func (d *daemon) dsn() string {
	return fmt.Sprintf("meridian://meridian@127.0.0.1:%d/meridian", d.grpcPort)
}

func open(t *testing.T, d *daemon) *sql.DB {
	db, err := sql.Open("meridian", d.dsn())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) sql.Result {
	t.Helper()
	r, err := db.Exec(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return r
}

func TestParseDSN(t *testing.T) {
	c, err := meridian.ParseDSN("meridian://alice:p%40ss@db.example:7000/shop?tls=verify-full&sslrootcert=/ca.pem&statement_timeout=2s")
	if err != nil {
		t.Fatal(err)
	}
	if c.User != "alice" || c.Password != "p@ss" || c.Host != "db.example" || c.Port != 7000 ||
		c.Database != "shop" || c.TLS != "verify-full" || c.RootCert != "/ca.pem" ||
		c.StatementTimeout != 2*time.Second {
		t.Fatalf("parsed %+v", c)
	}
	for _, bad := range []string{"postgres://x", "meridian://h:notaport", "meridian://h?tls=maybe", "meridian://h?what=1"} {
		if _, err := meridian.ParseDSN(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestDriver(t *testing.T) {
	d := startDaemon(t)
	db := open(t, d)
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}

	t.Run("TypesBothWays", func(t *testing.T) {
		mustExec(t, db, "CREATE TABLE rt (i INTEGER, f DOUBLE PRECISION, n NUMERIC(10,2), s VARCHAR(10), b BOOLEAN, d DATE, ts TIMESTAMP)")
		ts := time.Date(2024, 2, 29, 13, 45, 30, 123456000, time.UTC)
		mustExec(t, db, "INSERT INTO rt VALUES ($1, $2, $3, $4, $5, $6, $7)",
			42, 2.5, "12.30", "it's", true, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), ts)
		mustExec(t, db, "INSERT INTO rt (i) VALUES ($1)", nil)
		var (
			i   int
			f   float64
			n   string
			s   string
			b   bool
			day time.Time
			at  time.Time
		)
		err := db.QueryRow("SELECT i, f, n, s, b, d, ts FROM rt WHERE i = $1", 42).Scan(&i, &f, &n, &s, &b, &day, &at)
		if err != nil {
			t.Fatal(err)
		}
		if i != 42 || f != 2.5 || n != "12.30" || s != "it's" || !b || day.Format("2006-01-02") != "2024-02-29" || !at.Equal(ts) {
			t.Fatalf("got %v %v %v %v %v %v %v", i, f, n, s, b, day, at)
		}
		var ni sql.NullInt64
		var ns sql.NullString
		if err := db.QueryRow("SELECT i, s FROM rt WHERE i IS NULL").Scan(&ni, &ns); err != nil || ni.Valid || ns.Valid {
			t.Fatalf("NULLs: %v %v %v", ni, ns, err)
		}
	})

	t.Run("ColumnTypes", func(t *testing.T) {
		rows, err := db.Query("SELECT i, n, s, ts FROM rt")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cts, err := rows.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		if got := cts[0].DatabaseTypeName() + "," + cts[1].DatabaseTypeName() + "," + cts[2].DatabaseTypeName() + "," + cts[3].DatabaseTypeName(); got != "INT4,NUMERIC,VARCHAR,TIMESTAMP" {
			t.Fatalf("type names %s", got)
		}
		if p, s, ok := cts[1].DecimalSize(); !ok || p != 10 || s != 2 {
			t.Fatalf("DecimalSize %d %d %v", p, s, ok)
		}
		if l, ok := cts[2].Length(); !ok || l != 10 {
			t.Fatalf("Length %d %v", l, ok)
		}
		if nullable, ok := cts[0].Nullable(); !ok || !nullable {
			t.Fatalf("Nullable %v %v", nullable, ok)
		}
	})

	t.Run("UniqueViolation", func(t *testing.T) {
		mustExec(t, db, "CREATE TABLE u (id INTEGER PRIMARY KEY)")
		mustExec(t, db, "INSERT INTO u VALUES ($1)", 1)
		_, err := db.Exec("INSERT INTO u VALUES ($1)", 1)
		var me *meridian.Error
		if !errors.As(err, &me) || me.SQLState != "23505" || !me.IsUniqueViolation() || me.Retryable() {
			t.Fatalf("want 23505, got %v", err)
		}
	})

	t.Run("SerializationFailureIsRetryable", func(t *testing.T) {
		mustExec(t, db, "CREATE TABLE acct (id INTEGER PRIMARY KEY, balance INTEGER)")
		mustExec(t, db, "INSERT INTO acct VALUES (1, 100)")
		ctx := context.Background()
		tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead})
		if err != nil {
			t.Fatal(err)
		}
		var bal int
		if err := tx.QueryRow("SELECT balance FROM acct WHERE id = 1").Scan(&bal); err != nil {
			t.Fatal(err)
		}
		mustExec(t, db, "UPDATE acct SET balance = balance + 1 WHERE id = 1")
		_, err = tx.Exec("UPDATE acct SET balance = balance - 1 WHERE id = 1")
		var me *meridian.Error
		if !errors.As(err, &me) || me.SQLState != "40001" || !me.Retryable() {
			t.Fatalf("want 40001, got %v", err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("ReadOnlyTransaction", func(t *testing.T) {
		// BEGIN ... READ ONLY is sent and accepted; meridiand does not enforce READ ONLY
		// yet (server/README.md), so only the transaction itself is checked here.
		tx, err := db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelSnapshot})
		if err != nil {
			t.Fatal(err)
		}
		var level string
		if err := tx.QueryRow("SHOW transaction_isolation").Scan(&level); err != nil || level != "repeatable read" {
			t.Fatalf("isolation %q, %v", level, err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if _, err := db.BeginTx(context.Background(), &sql.TxOptions{Isolation: sql.LevelLinearizable}); meridian.SQLStateOf(err) != "0A000" {
			t.Fatalf("want 0A000 for LevelLinearizable, got %v", err)
		}
	})

	t.Run("PreparedStatement", func(t *testing.T) {
		mustExec(t, db, "CREATE TABLE p (id INTEGER, name TEXT)")
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		st, err := conn.PrepareContext(context.Background(), "INSERT INTO p VALUES ($1, $2)")
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 50; i++ {
			if _, err := st.Exec(i, fmt.Sprintf("n%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
		var count int
		var maxName string
		if err := conn.QueryRowContext(context.Background(), "SELECT count(*), max(name) FROM p").Scan(&count, &maxName); err != nil || count != 50 || maxName != "n9" {
			t.Fatalf("count %d max %s err %v", count, maxName, err)
		}
	})

	t.Run("LargeResultStreams", func(t *testing.T) {
		mustExec(t, db, "CREATE TABLE big AS SELECT g AS id FROM generate_series(1, 20000) g")
		rows, err := db.Query("SELECT id FROM big ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		n, sum := 0, 0
		for rows.Next() {
			var id int
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			n++
			sum += id
		}
		if err := rows.Err(); err != nil || n != 20000 || sum != 20000*20001/2 {
			t.Fatalf("n %d sum %d err %v", n, sum, err)
		}
		// Closing early cancels the rest; the connection stays usable.
		rows, err = db.Query("SELECT id FROM big")
		if err != nil {
			t.Fatal(err)
		}
		rows.Next()
		rows.Close()
		if err := db.Ping(); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("RequestsShareTheSessionStream", func(t *testing.T) {
		// An SQL error arrives in-band on the ExecuteSession stream: no call failed, so its
		// gRPC code is OK, and the next request runs on the same stream.
		conn, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_, err = conn.ExecContext(context.Background(), "SELECT nosuchcolumn")
		var e *meridian.Error
		if !errors.As(err, &e) || e.SQLState != "42703" || e.Code != codes.OK {
			t.Fatalf("want 42703 in-band (code OK), got %v", err)
		}
		var n int
		if err := conn.QueryRowContext(context.Background(), "SELECT 41 + 1").Scan(&n); err != nil || n != 42 {
			t.Fatalf("after the error: %d %v", n, err)
		}
	})

	t.Run("ContextCancelIsServerCancel", func(t *testing.T) {
		mustExec(t, db, "CREATE TABLE slow AS SELECT g AS v FROM generate_series(1, 5000) g")
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := db.ExecContext(ctx, "SELECT count(*) FROM slow a, slow b, slow c WHERE a.v + b.v = c.v")
		if !errors.Is(err, context.DeadlineExceeded) || meridian.SQLStateOf(err) != "57014" {
			t.Fatalf("want 57014 and DeadlineExceeded, got %v", err)
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("cancel took %v", time.Since(start))
		}
		var one int
		if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("after cancel: %v", err)
		}
	})
}

// A lost session gives driver.ErrBadConn, so database/sql opens a fresh connection.
func TestLostSessionIsBadConn(t *testing.T) {
	d := startDaemon(t)
	db := open(t, d)
	db.SetMaxOpenConns(1)
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	d.stop(t)
	d.start(t) // same ports, same data directory
	time.Sleep(100 * time.Millisecond)
	var one int
	if err := db.QueryRow("SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("after a restart: %v", err)
	}
}

func TestConnectRefused(t *testing.T) {
	db, err := sql.Open("meridian", fmt.Sprintf("meridian://127.0.0.1:%d?connect_timeout=2s", freePort(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); meridian.SQLStateOf(err) != "08001" {
		t.Fatalf("want 08001, got %v", err)
	}
}

// A daemon with a users file and TLS (a self-signed certificate made by the openssl CLI): a
// password over TLS opens a session whose every call carries its secret; a wrong password and
// an unknown user get the same 28P01; a client without TLS cannot connect.
func TestPasswordOverTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	out, err := exec.Command("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
		"-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
		"-keyout", key, "-out", cert).CombinedOutput()
	if err != nil {
		t.Fatalf("openssl: %v\n%s", err, out)
	}
	users := filepath.Join(dir, "users")
	if err := os.WriteFile(users, []byte("meridian:go-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, "--users-file", users, "--tls-cert", cert, "--tls-key", key)
	dsn := func(userinfo, tlsMode string) string {
		return fmt.Sprintf("meridian://%s@127.0.0.1:%d/meridian?tls=%s&sslrootcert=%s&server_name=localhost&connect_timeout=5s",
			userinfo, d.grpcPort, tlsMode, cert)
	}
	db, err := sql.Open("meridian", dsn("meridian:go-secret", "verify-full"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "CREATE TABLE sealed (id INTEGER PRIMARY KEY, v TEXT)")
	mustExec(t, db, "INSERT INTO sealed VALUES ($1, $2)", 1, "over tls")
	var v string
	if err := db.QueryRow("SELECT v FROM sealed WHERE id = $1", 1).Scan(&v); err != nil || v != "over tls" {
		t.Fatalf("read back %q, %v", v, err)
	}
	stmt, err := db.Prepare("SELECT count(*) FROM sealed WHERE id > $1")
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := stmt.QueryRow(0).Scan(&n); err != nil || n != 1 {
		t.Fatalf("prepared: %d, %v", n, err)
	}
	stmt.Close()

	for _, userinfo := range []string{"meridian:wrong", "mallory:go-secret", "meridian"} {
		bad, _ := sql.Open("meridian", dsn(userinfo, "verify-full"))
		err := bad.Ping()
		bad.Close()
		var me *meridian.Error
		if !errors.As(err, &me) || me.SQLState != "28P01" ||
			!strings.HasPrefix(me.Message, "password authentication failed for user") {
			t.Errorf("%s: want 28P01, got %v", userinfo, err)
		}
	}
	var me *meridian.Error
	plain, _ := sql.Open("meridian", dsn("meridian:go-secret", "disable"))
	err = plain.Ping()
	plain.Close()
	if !errors.As(err, &me) || me.SQLState != "08001" {
		t.Errorf("plaintext against a TLS listener: want 08001, got %v", err)
	}
}
