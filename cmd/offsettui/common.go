package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/contexts"
	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/spf13/pflag"
)

// common holds the flags every command shares.
type common struct {
	bootstrap     string
	commandConfig string
	config        string // --config: the contexts file
	context       string // --context
	demo          bool
	timeout       string
	riskWindow    string
	// readOnlyFlag is --read-only alone; whether a command may write is decided with the
	// environment and the context where its connection is resolved (writeAccess).
	readOnlyFlag bool
	debug        string
	output       string
	// commitLog and commitLogBudget: --commit-log (auto, on, off), --commit-log-budget.
	commitLog       string
	commitLogBudget int64
	// markdown accepts -o markdown (describe only).
	markdown bool

	timeoutD    time.Duration
	riskWindowD time.Duration
	stderr      io.Writer // errors, notes and warnings (nil: os.Stderr)
	// noOutput leaves -o/--output out: the TUI has no output format.
	noOutput bool
	// onlyContext connects with the context's own settings, ignoring the connection flags
	// and KAFKA_BOOTSTRAP_SERVERS (a context chosen in the TUI with :ctx).
	onlyContext bool
	// observe is how long a write watches the group's commits before and after it
	// (--observe of reset and the TUI; 0 for none: reset.Service.Observe).
	observe time.Duration
	// assumeReset is the consumers' auto.offset.reset the TUI's plans assume (its
	// --assume-reset; "" is Kafka's default, latest).
	assumeReset string
}

func (c *common) errOut() io.Writer {
	if c.stderr == nil {
		return os.Stderr
	}
	return c.stderr
}

func (c *common) register(fs *pflag.FlagSet) {
	fs.StringVar(&c.bootstrap, "bootstrap-server", "", "`host:port[,host:port]` the cluster (env KAFKA_BOOTSTRAP_SERVERS)")
	fs.StringVar(&c.commandConfig, "command-config", "", "`FILE` a Kafka client.properties (TLS, SASL, config providers; docs/connect.md)")
	fs.StringVar(&c.context, "context", "", "`NAME` a named cluster of the config file (env OFFSETTUI_CONTEXT)")
	fs.StringVar(&c.config, "config", "", "`FILE` the contexts file (default $XDG_CONFIG_HOME/offsettui/config.yaml)")
	fs.BoolVar(&c.demo, "demo", false, "use the embedded demo cluster instead of a real one")
	fs.StringVar(&c.timeout, "timeout", "10s", "`DURATION` a request without an answer within it fails (10s, PT10S)")
	fs.StringVar(&c.riskWindow, "risk-window", "24h", "`DURATION` how far ahead at-risk looks (24h, 6d23h, P1D)")
	fs.BoolVar(&c.readOnlyFlag, "read-only", false, "refuse every write (env OFFSETTUI_READ_ONLY: any value but empty, 0, false, no, off)")
	fs.StringVar(&c.debug, "debug", "", "`FILE` append debug logs to it (never to the terminal)")
	fs.StringVar(&c.commitLog, "commit-log", "auto", "`MODE` read commit times in __consumer_offsets for the commit-expiry clock (needs Read on it): auto, on (check fails where they could not be read), off")
	offerValues(fs, "commit-log", "auto", "on", "off")
	fs.Int64Var(&c.commitLogBudget, "commit-log-budget", model.DefaultCommitLogBudget, "`BYTES` one read of __consumer_offsets may fetch")
	if c.noOutput {
		return
	}
	formats := []string{"table", "json"}
	if c.markdown {
		formats = append(formats, "markdown")
	}
	fs.StringVarP(&c.output, "output", "o", "table", "`FORMAT` "+orList(formats))
	offerValues(fs, "output", formats...)
}

// validate checks the common flags; the error names the flag.
func (c *common) validate() error {
	var err error
	if c.timeoutD, err = parse.Duration(c.timeout); err != nil {
		return fmt.Errorf("--timeout: %w", err)
	}
	if c.timeoutD <= 0 {
		return fmt.Errorf("--timeout: must be positive, got %q", c.timeout)
	}
	if c.riskWindowD, err = parse.Duration(c.riskWindow); err != nil {
		return fmt.Errorf("--risk-window: %w", err)
	}
	if c.riskWindowD <= 0 {
		return fmt.Errorf("--risk-window: must be positive (how far ahead at-risk looks, e.g. 24h), got %q", c.riskWindow)
	}
	switch {
	case c.noOutput:
	case c.output == "table" || c.output == "json":
	case c.output == "markdown" && c.markdown:
	case c.markdown:
		return fmt.Errorf("-o/--output: want table, json or markdown, got %q", c.output)
	default:
		return fmt.Errorf("-o/--output: want table or json, got %q", c.output)
	}
	switch c.commitLog {
	case "auto", "on", "off":
	default:
		return fmt.Errorf("--commit-log: want auto, on or off, got %q", c.commitLog)
	}
	if c.commitLogBudget <= 0 {
		return fmt.Errorf("--commit-log-budget: must be positive (bytes of __consumer_offsets one read may fetch), got %d; --commit-log=off reads none", c.commitLogBudget)
	}
	if c.demo && c.bootstrap != "" {
		return fmt.Errorf("--demo and --bootstrap-server exclude each other")
	}
	return nil
}

// withCommitLog is q reading __consumer_offsets as --commit-log says (never on the
// demo cluster, which has no such topic).
func (c *common) withCommitLog(q model.Query) model.Query {
	q.CommitLog, q.CommitLogBudget = c.commitLog != "off" && !c.demo, c.commitLogBudget
	return q
}

// askedReadOnly is what --read-only and OFFSETTUI_READ_ONLY say.
func (c *common) askedReadOnly() bool {
	return c.readOnlyFlag || readOnlyEnv(os.Getenv("OFFSETTUI_READ_ONLY"))
}

// readOnlyEnv reads OFFSETTUI_READ_ONLY failing closed: every value except empty,
// 0, false, no and off (any case) means read-only, so a typo cannot allow writes.
func readOnlyEnv(v string) bool {
	switch strings.ToLower(v) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}

// nonEmpty refuses empty or blank values of a repeatable flag.
func nonEmpty(flag string, values []string) error {
	for _, v := range values {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("%s: empty value", flag)
		}
	}
	return nil
}

// session is a connected client plus what must be released after.
type session struct {
	client  *kafka.Client
	cluster string
	context *contexts.Context // the context used, or nil
	access  writeAccess       // whether the session may write: its connection's
	demo    *demo.Cluster
	logger  *log.Logger
	logFile *os.File
	closing sync.Once
}

// contextName names the session's context ("" without one).
func (s *session) contextName() string {
	if s.context == nil {
		return ""
	}
	return s.context.Name
}

// close releases the session; calling it again does nothing.
func (s *session) close() {
	s.closing.Do(func() {
		if s.client != nil {
			_ = s.client.Close()
		}
		if s.demo != nil {
			s.demo.Close()
		}
		if s.logFile != nil {
			_ = s.logFile.Close()
		}
	})
}

// connect starts the demo if asked, reads --command-config and connects.
func (c *common) connect(ctx context.Context) (*session, error) {
	s, err := c.openSession()
	if err != nil {
		return nil, err
	}
	conn, err := c.resolveConnection(c.errOut())
	if err != nil {
		s.close()
		return nil, badInput(err)
	}
	return c.connectWithSession(ctx, s, conn)
}

// openSession starts a session with its debug log (--debug), before any connection.
func (c *common) openSession() (*session, error) {
	s := &session{logger: log.New(io.Discard, "", 0)}
	if c.debug != "" {
		f, err := os.OpenFile(c.debug, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, badInputf("--debug %s: %v", c.debug, err)
		}
		s.logFile, s.logger = f, log.New(f, "", log.LstdFlags|log.Lmicroseconds)
	}
	return s, nil
}

// connectWith connects with a connection resolved earlier (resolveConnection).
func (c *common) connectWith(ctx context.Context, conn connection) (*session, error) {
	s, err := c.openSession()
	if err != nil {
		return nil, err
	}
	return c.connectWithSession(ctx, s, conn)
}

func (c *common) connectWithSession(ctx context.Context, s *session, conn connection) (*session, error) {
	cfg := kafka.Config{Timeout: c.timeoutD, Logger: s.logger}
	// The session writes as its connection was decided (writeAccess): nothing after changes it.
	s.access, s.context = conn.access, conn.context
	s.logger.Printf("connection: context %s, bootstrap %q, read-only %v, client properties %v",
		conn.contextName(), conn.bootstrap, conn.access.readOnly(), clientconfig.RedactedProperties(conn.props))
	settings, err := clientconfig.FromProperties(conn.props, clientconfig.Options{Bootstrap: conn.bootstrap, Timeout: c.timeoutD})
	if err != nil {
		s.close()
		return nil, badInputf("%v: client properties: %v", kafka.ErrBadConfig, err)
	}
	cfg.Client = settings
	if c.demo {
		d, err := demo.Start(ctx, demo.Options{Logf: s.logger.Printf, Traffic: true})
		if err != nil {
			s.close()
			return nil, fmt.Errorf("start the demo cluster: %w", err)
		}
		s.demo, s.cluster = d, "demo"
		cfg.Bootstrap = d.Bootstrap()
	}
	cl, err := kafka.NewContext(ctx, cfg)
	if err != nil {
		s.close()
		if errors.Is(err, kafka.ErrBadConfig) {
			return nil, badInput(err)
		}
		return nil, err
	}
	s.client = cl
	if s.cluster == "" {
		s.cluster = cl.Bootstrap()
	}
	return s, nil
}

// connectOrFail connects; a failure that is not bad input (exit 2) is a failure (exit 1).
func (c *common) connectOrFail(ctx context.Context, stderr io.Writer) (*session, error) {
	c.stderr = stderr // notes and warnings about the connection go with the errors
	s, err := c.connect(ctx)
	if err != nil && !isBadInput(err) {
		return nil, failure(err)
	}
	return s, err
}

// writeJSON writes v as one JSON document and a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
