// Package contexts reads offsettui's config file of named clusters (contexts) and decides
// which cluster, client properties and read-only setting a command uses: flags, then
// environment, then the context (docs/connect.md). It only parses and resolves: it never
// connects, and it does not know Kafka's client properties beyond passing them on.
package contexts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxFileSize bounds the config file: it holds a few contexts, not megabytes.
const maxFileSize = 1 << 20

// File is a parsed config file.
type File struct {
	Path           string // where it was read from
	CurrentContext string
	Contexts       []Context
}

// Context is one named cluster.
type Context struct {
	Name             string
	BootstrapServers []string          // empty: bootstrap.servers of the properties
	CommandConfig    string            // a client.properties path, absolute ("" when none)
	Properties       map[string]string // inline client properties (applied over CommandConfig's)
	ReadOnly         bool
	Color            string // for the TUI header: a colour name, #rrggbb or 0-255 ("" = default)
	Label            string // for the TUI header; defaults to Name
}

// DefaultPath is $XDG_CONFIG_HOME/offsettui/config.yaml, or ~/.config/offsettui/config.yaml.
func DefaultPath(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home := getenv("HOME")
		if home == "" {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "offsettui", "config.yaml")
}

// Load reads and parses the config file at path. A missing file is reported with an error
// that errors.Is(err, fs.ErrNotExist) matches.
func Load(path string, getenv func(string) string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%s: larger than %d bytes; is it really offsettui's config file?", path, maxFileSize)
	}
	return Parse(data, path, getenv)
}

// Find returns the context called name.
func (f *File) Find(name string) (*Context, error) {
	for i := range f.Contexts {
		if f.Contexts[i].Name == name {
			return &f.Contexts[i], nil
		}
	}
	names := make([]string, len(f.Contexts))
	for i, c := range f.Contexts {
		names[i] = c.Name
	}
	return nil, fmt.Errorf("no context %q in %s (contexts: %s)", name, f.Path, strings.Join(names, ", "))
}

// The file's shape. Unknown keys are errors, so a typo (readonly: true) cannot be ignored.
type fileYAML struct {
	CurrentContext string        `yaml:"current-context"`
	Contexts       []contextYAML `yaml:"contexts"`
}

type contextYAML struct {
	Name             string           `yaml:"name"`
	BootstrapServers servers          `yaml:"bootstrap-servers"`
	CommandConfig    string           `yaml:"command-config"`
	Properties       map[string]value `yaml:"properties"`
	ReadOnly         *bool            `yaml:"read-only"`
	Color            string           `yaml:"color"`
	Label            string           `yaml:"label"`
}

// servers is a string ("a:9092,b:9092") or a list of strings.
type servers []string

// UnmarshalYAML implements yaml.Unmarshaler.
func (s *servers) UnmarshalYAML(n *yaml.Node) error {
	var items []string
	switch n.Kind {
	case yaml.ScalarNode:
		items = strings.Split(n.Value, ",")
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: bootstrap-servers: want host:port strings", c.Line)
			}
			items = append(items, strings.Split(c.Value, ",")...)
		}
	default:
		return fmt.Errorf("line %d: bootstrap-servers: want a string or a list of host:port", n.Line)
	}
	for _, a := range items {
		if a = strings.TrimSpace(a); a != "" {
			*s = append(*s, a)
		}
	}
	return nil
}

// value is a property value: any scalar, kept as written (retries: 5 is "5").
type value string

// UnmarshalYAML implements yaml.Unmarshaler.
func (v *value) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a property value must be a single value, not a list or map", n.Line)
	}
	*v = value(n.Value)
	return nil
}

// quoted matches the values yaml quotes in its messages (`...`): they may be secrets.
var quoted = regexp.MustCompile("`[^`]*`")

// Parse parses a config file's content; path names it in errors and anchors relative
// command-config paths. Errors give line numbers, never values.
func Parse(data []byte, path string, getenv func(string) string) (*File, error) {
	var raw fileYAML
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&raw); err != nil && !errors.Is(err, io.EOF) {
		msg := quoted.ReplaceAllString(err.Error(), "(value hidden)")
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(msg, "yaml: "))
	}
	f := &File{Path: path, CurrentContext: strings.TrimSpace(raw.CurrentContext)}
	seen := map[string]bool{}
	for i, rc := range raw.Contexts {
		c, err := rc.context(filepath.Dir(path), getenv)
		if err != nil {
			return nil, fmt.Errorf("%s: contexts[%d]: %w", path, i, err)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("%s: contexts[%d]: the name %q is used twice", path, i, c.Name)
		}
		seen[c.Name] = true
		f.Contexts = append(f.Contexts, c)
	}
	if f.CurrentContext != "" && !seen[f.CurrentContext] {
		return nil, fmt.Errorf("%s: current-context %q names no context", path, f.CurrentContext)
	}
	return f, nil
}

func (rc contextYAML) context(dir string, getenv func(string) string) (Context, error) {
	c := Context{Name: strings.TrimSpace(rc.Name), BootstrapServers: rc.BootstrapServers,
		Color: strings.TrimSpace(rc.Color), Label: strings.TrimSpace(rc.Label)}
	if c.Name == "" {
		return c, errors.New("a context needs a name")
	}
	if rc.ReadOnly != nil {
		c.ReadOnly = *rc.ReadOnly
	}
	if c.Label == "" {
		c.Label = c.Name
	}
	if err := checkColor(c.Color); err != nil {
		return c, fmt.Errorf("context %q: %w", c.Name, err)
	}
	if p := strings.TrimSpace(rc.CommandConfig); p != "" {
		c.CommandConfig = expandPath(p, dir, getenv)
	}
	if len(rc.Properties) > 0 {
		c.Properties = make(map[string]string, len(rc.Properties))
		for k, v := range rc.Properties {
			c.Properties[k] = string(v)
		}
	}
	return c, nil
}

// expandPath resolves ~/ to $HOME and a relative path against the config file's directory.
func expandPath(p, dir string, getenv func(string) string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(dir, p)
	}
	return p
}

// Colors are the colour names a context may use, in ANSI order (red is 1); #rrggbb and
// ANSI numbers 0-255 work too.
var Colors = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"gray", "bright-red", "bright-green", "bright-yellow", "bright-blue", "bright-magenta", "bright-cyan", "bright-white"}

// TerminalColor returns a context's colour as a terminal understands it: an ANSI number
// (a name becomes its number) or #rrggbb; "" when none is set.
func (c Context) TerminalColor() string {
	for i, name := range Colors {
		if strings.EqualFold(c.Color, name) {
			return strconv.Itoa(i)
		}
	}
	return c.Color
}

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

func checkColor(c string) error {
	if c == "" || hexColor.MatchString(c) {
		return nil
	}
	if n, err := strconv.Atoi(c); err == nil && n >= 0 && n <= 255 {
		return nil
	}
	for _, name := range Colors {
		if strings.EqualFold(c, name) {
			return nil
		}
	}
	return fmt.Errorf("color %q: use a name (%s), #rrggbb or 0-255", c, strings.Join(Colors, ", "))
}
