package main

// Where a command connects: contexts from the config file, then the flags and environment
// that override them (docs/connect.md), then the client properties.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"

	"github.com/offsettui/offsettui/internal/contexts"
	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
)

// connection is what a command connects with once contexts are applied.
type connection struct {
	context   *contexts.Context // nil without one
	bootstrap []string          // empty: bootstrap.servers of props
	props     map[string]string
	access    writeAccess // decided here, once (readonly.go)
}

func (c connection) contextName() string {
	if c.context == nil {
		return "(none)"
	}
	return c.context.Name
}

// loadConfig reads --config FILE, or the default config file if it exists (nil when not).
func (c *common) loadConfig(warn io.Writer) (*contexts.File, error) {
	path, explicit := c.config, c.config != ""
	if !explicit {
		path = contexts.DefaultPath(os.Getenv)
		if path == "" {
			return nil, nil
		}
	}
	f, err := contexts.Load(path, os.Getenv)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist) && !explicit:
		return nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("--config: %s does not exist", path)
	default:
		return nil, fmt.Errorf("config file: %w", err)
	}
	for _, ctx := range f.Contexts {
		if clientconfig.HasLiteralSecret(ctx.Properties) {
			warnLoosePermissions(warn, path)
			break
		}
	}
	return f, nil
}

// resolveConnection applies the precedence flag > environment > context and reads the
// client properties (the command-config file, then the context's inline properties).
func (c *common) resolveConnection(warn io.Writer) (connection, error) {
	file, err := c.loadConfig(warn)
	if err != nil {
		return connection{}, err
	}
	in := contexts.Inputs{File: file, FlagContext: c.context, EnvContext: os.Getenv("OFFSETTUI_CONTEXT"),
		FlagBootstrap: c.bootstrap, EnvBootstrap: os.Getenv("KAFKA_BOOTSTRAP_SERVERS"), CommandConfig: c.commandConfig,
		ReadOnly: c.askedReadOnly(), Demo: c.demo}
	if c.onlyContext {
		in.FlagBootstrap, in.EnvBootstrap, in.CommandConfig, in.Demo = "", "", "", false
	}
	r, err := contexts.Resolve(in)
	if err != nil {
		return connection{}, err
	}
	for _, o := range r.Overrides {
		fmt.Fprintf(warn, "offsettui: note: %s\n", o)
	}
	if err := clientconfig.CheckBootstrap(r.Bootstrap); err != nil {
		return connection{}, err // bad input (exit 2), not a connection that fails
	}
	conn := connection{context: r.Context, bootstrap: r.Bootstrap, access: decideAccess(r.ReadOnly)}
	if r.CommandConfig != "" {
		what := "--command-config"
		if c.commandConfig == "" {
			what = "context " + r.Context.Name + ": command-config"
		}
		if conn.props, err = readProperties(r.CommandConfig, warn); err != nil {
			return connection{}, fmt.Errorf("%s: %w", what, err)
		}
	}
	if len(r.Properties) > 0 {
		if conn.props == nil {
			conn.props = map[string]string{}
		}
		maps.Copy(conn.props, r.Properties)
	}
	return conn, nil
}

// readProperties reads a client.properties file and warns if others can read its secrets.
func readProperties(path string, warn io.Writer) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	props, err := clientconfig.ParseProperties(f, path)
	if err != nil {
		return nil, err
	}
	if clientconfig.HasLiteralSecret(props) {
		warnLoosePermissions(warn, path)
	}
	return props, nil
}

// warnLoosePermissions warns (never fails) when a file holding secrets is readable by its
// group or by others.
func warnLoosePermissions(warn io.Writer, path string) {
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm()&0o077 == 0 {
		return
	}
	fmt.Fprintf(warn, "offsettui: warning: %s holds secrets and is readable by others (mode %04o); run chmod 600 %s\n",
		path, st.Mode().Perm(), path)
}
