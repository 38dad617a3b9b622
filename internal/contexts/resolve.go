package contexts

import (
	"errors"
	"fmt"
	"strings"
)

// Inputs are what the user gave for one command, before any context is applied.
type Inputs struct {
	File          *File  // nil when there is no config file
	FlagContext   string // --context
	EnvContext    string // OFFSETTUI_CONTEXT
	FlagBootstrap string // --bootstrap-server
	EnvBootstrap  string // KAFKA_BOOTSTRAP_SERVERS
	CommandConfig string // --command-config
	ReadOnly      bool   // --read-only or OFFSETTUI_READ_ONLY
	Demo          bool   // --demo: no context applies
}

// Resolved is the connection a command uses.
type Resolved struct {
	Context       *Context // nil when none applies
	Bootstrap     []string // empty: bootstrap.servers of the properties decides
	CommandConfig string   // the client.properties file to read ("" when none)
	Properties    map[string]string
	ReadOnly      bool
	// Overrides says, for the user, which of the context's settings a flag or the
	// environment replaced (printed on stderr so that the header's name is never a lie).
	Overrides []string
}

// Resolve applies the precedence flag > environment > context: the context named by
// --context, else OFFSETTUI_CONTEXT, else the file's current-context. Its
// bootstrap-servers yield to --bootstrap-server and KAFKA_BOOTSTRAP_SERVERS; its
// command-config and properties yield to --command-config (as a whole: the flag's file is
// the only client configuration then). A read-only context stays read-only whatever the
// flags say; --read-only makes any context read-only.
func Resolve(in Inputs) (Resolved, error) {
	r := Resolved{ReadOnly: in.ReadOnly, CommandConfig: in.CommandConfig}
	r.Bootstrap = splitServers(in.FlagBootstrap)
	if len(r.Bootstrap) == 0 {
		r.Bootstrap = splitServers(in.EnvBootstrap)
	}
	if in.Demo {
		if in.FlagContext != "" {
			return r, errors.New("--demo and --context exclude each other")
		}
		return r, nil
	}
	name, from := in.FlagContext, "--context"
	if name == "" {
		name, from = in.EnvContext, "OFFSETTUI_CONTEXT"
	}
	if name == "" && in.File != nil {
		name, from = in.File.CurrentContext, "current-context"
	}
	if name == "" {
		return r, nil
	}
	if in.File == nil {
		return r, fmt.Errorf("%s: context %q, but there is no config file (see docs/connect.md)", from, name)
	}
	c, err := in.File.Find(name)
	if err != nil {
		return r, fmt.Errorf("%s: %w", from, err)
	}
	r.Context = c
	r.ReadOnly = r.ReadOnly || c.ReadOnly
	switch {
	case len(r.Bootstrap) > 0 && len(c.BootstrapServers) > 0:
		src := "--bootstrap-server"
		if in.FlagBootstrap == "" {
			src = "KAFKA_BOOTSTRAP_SERVERS"
		}
		r.Overrides = append(r.Overrides, fmt.Sprintf("%s overrides context %s's bootstrap-servers", src, c.Name))
	case len(r.Bootstrap) == 0:
		r.Bootstrap = c.BootstrapServers
	}
	if in.CommandConfig != "" {
		if c.CommandConfig != "" || len(c.Properties) > 0 {
			r.Overrides = append(r.Overrides, fmt.Sprintf("--command-config replaces context %s's client properties", c.Name))
		}
		return r, nil
	}
	r.CommandConfig, r.Properties = c.CommandConfig, c.Properties
	return r, nil
}

func splitServers(s string) []string {
	var out []string
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}
