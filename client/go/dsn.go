// DSN parsing: meridian://user:password@host:port/dbname?tls=...&... (README.md, "DSN").
package meridian

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Config is a parsed DSN. Zero values mean the defaults named in README.md.
type Config struct {
	Host, User, Password, Database, ApplicationName string
	Port                                            int
	TLS                                             string // disable, require, verify-full
	RootCert, ClientCert, ClientKey, ServerName     string
	ConnectTimeout, StatementTimeout                time.Duration
}

// ParseDSN reads "meridian://user:pass@host:port/db?tls=disable&connect_timeout=10s".
func ParseDSN(dsn string) (*Config, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("meridian: bad DSN: %w", err)
	}
	if u.Scheme != "meridian" {
		return nil, fmt.Errorf("meridian: bad DSN %q: the scheme must be meridian://", dsn)
	}
	c := &Config{Host: "127.0.0.1", Port: 7432, User: "meridian", Database: "meridian",
		ApplicationName: "meridian-go", TLS: "disable", ConnectTimeout: 10 * time.Second}
	if h := u.Hostname(); h != "" {
		c.Host = h
	}
	if p := u.Port(); p != "" {
		if c.Port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("meridian: bad port %q", p)
		}
	}
	if u.User != nil {
		c.User = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" {
		c.Database = db
	}
	for key, values := range u.Query() {
		v := values[len(values)-1]
		switch key {
		case "tls", "sslmode":
			switch v {
			case "disable", "require", "verify-full", "verify-ca":
				c.TLS = v
			default:
				return nil, fmt.Errorf("meridian: tls must be disable, require or verify-full, not %q", v)
			}
		case "sslrootcert":
			c.RootCert = v
		case "sslcert":
			c.ClientCert = v
		case "sslkey":
			c.ClientKey = v
		case "server_name":
			c.ServerName = v
		case "application_name":
			c.ApplicationName = v
		case "connect_timeout", "statement_timeout":
			d, err := time.ParseDuration(v)
			if err != nil {
				return nil, fmt.Errorf("meridian: bad %s %q: %w", key, v, err)
			}
			if key == "connect_timeout" {
				c.ConnectTimeout = d
			} else {
				c.StatementTimeout = d
			}
		default:
			return nil, fmt.Errorf("meridian: unknown DSN parameter %q", key)
		}
	}
	return c, nil
}
