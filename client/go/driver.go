// Package meridian is a database/sql driver for the Meridian database over its gRPC API
// (proto/meridian.proto), registered as "meridian":
//
//	db, err := sql.Open("meridian", "meridian://meridian@127.0.0.1:7432/meridian")
//
// One driver connection is one server session, kept alive by its Attach stream. Parameters
// ($1, $2, ...) are sent as typed values, never spliced into the SQL text.
package meridian

//go:generate ./gen.sh

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"

	"meridian.local/client/go/internal/pb"
)

func init() { sql.Register("meridian", &Driver{}) }

// Driver implements driver.Driver and driver.DriverContext.
type Driver struct{}

// Open opens one connection from a DSN (see ParseDSN).
func (d *Driver) Open(dsn string) (driver.Conn, error) {
	c, err := d.OpenConnector(dsn)
	if err != nil {
		return nil, err
	}
	return c.Connect(context.Background())
}

// OpenConnector parses the DSN once for a pool.
func (d *Driver) OpenConnector(dsn string) (driver.Connector, error) {
	cfg, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return &Connector{cfg: cfg, drv: d}, nil
}

// Connector implements driver.Connector; sql.OpenDB(NewConnector(cfg)) skips the DSN.
type Connector struct {
	cfg *Config
	drv *Driver
}

// NewConnector makes a Connector from a Config.
func NewConnector(cfg Config) *Connector { return &Connector{cfg: &cfg, drv: &Driver{}} }

// Driver returns the driver.
func (c *Connector) Driver() driver.Driver { return c.drv }

// Connect opens a session: OpenSession, then the Attach stream that keeps it alive.
func (c *Connector) Connect(ctx context.Context) (driver.Conn, error) {
	cfg := c.cfg
	creds, err := transportCredentials(cfg)
	if err != nil {
		return nil, err
	}
	target := net.JoinHostPort(cfg.Host, strconv.Itoa(cfg.Port))
	auth := &sessionAuth{}
	cc, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: 30 * time.Second,
			Timeout: 10 * time.Second, PermitWithoutStream: true}),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20)),
		grpc.WithUnaryInterceptor(auth.unary), grpc.WithStreamInterceptor(auth.stream))
	if err != nil {
		return nil, newError("08001", "could not connect to server at %s: %v", target, err)
	}
	openCtx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
	defer cancel()
	stub := pb.NewSqlClient(cc)
	resp, err := stub.OpenSession(openCtx, &pb.OpenSessionRequest{User: cfg.User,
		Database: cfg.Database, ApplicationName: cfg.ApplicationName, Password: cfg.Password})
	if err != nil {
		cc.Close()
		e := fromStatus(err)
		if e.SQLState == "08006" || e.SQLState == "57014" {
			e = newError("08001", "could not connect to server at %s: %s", target, e.Message)
		}
		return nil, e
	}
	// Set before any other call on cc: the interceptors send it from now on.
	auth.secret = resp.SessionSecret
	cn := &conn{cfg: cfg, cc: cc, stub: stub, session: resp.SessionId}
	if err := cn.attach(openCtx); err != nil {
		cc.Close()
		return nil, err
	}
	return cn, nil
}

// secretMetadata carries OpenSessionResponse.session_secret on every call after OpenSession
// (proto/README.md, "Authentication"): the session id names a session, the secret proves the
// caller opened it.
const secretMetadata = "x-meridian-session-secret"

// sessionAuth adds the session's secret to every call of one connection's ClientConn (each
// driver connection has its own). secret is written once, after OpenSession and before any
// other call or goroutine of the connection, and only read afterwards.
type sessionAuth struct{ secret string }

func (a *sessionAuth) with(ctx context.Context) context.Context {
	if a.secret == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, secretMetadata, a.secret)
}

func (a *sessionAuth) unary(ctx context.Context, method string, req, reply any,
	cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	return invoker(a.with(ctx), method, req, reply, cc, opts...)
}

func (a *sessionAuth) stream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn,
	method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return streamer(a.with(ctx), desc, cc, method, opts...)
}

func transportCredentials(cfg *Config) (credentials.TransportCredentials, error) {
	if cfg.TLS == "disable" {
		return insecure.NewCredentials(), nil
	}
	tc := &tls.Config{ServerName: cfg.ServerName, MinVersion: tls.VersionTLS12}
	// require: encrypted, the server's certificate not checked (libpq's sslmode=require);
	// verify-ca / verify-full: checked against sslrootcert (else the system's roots).
	tc.InsecureSkipVerify = cfg.TLS == "require" && cfg.RootCert == "" //nolint:gosec
	if cfg.RootCert != "" {
		pem, err := os.ReadFile(cfg.RootCert)
		if err != nil {
			return nil, fmt.Errorf("meridian: sslrootcert: %w", err)
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("meridian: sslrootcert %s holds no certificate", cfg.RootCert)
		}
	}
	if cfg.ClientCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.ClientCert, cfg.ClientKey)
		if err != nil {
			return nil, fmt.Errorf("meridian: client certificate: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return credentials.NewTLS(tc), nil
}
