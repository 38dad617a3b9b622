package main

// The TUI's `:ctx`: the contexts of the config file, and a connection to one of them with
// its own settings (the connection flags of the run do not apply; --read-only does).

import (
	"context"
	"io"
	"strings"
	"sync"

	"github.com/offsettui/offsettui/internal/contexts"
	"github.com/offsettui/offsettui/internal/views"
)

// tuiSwitcher implements views.ContextSwitcher.
type tuiSwitcher struct {
	c         common // the run's flags
	file      *contexts.File
	backupDir string

	mu       sync.Mutex
	sessions []*session // every session opened; closeAll releases them at exit
}

var _ views.ContextSwitcher = (*tuiSwitcher)(nil)

// Contexts implements views.ContextSwitcher.
func (w *tuiSwitcher) Contexts() []views.ContextInfo {
	if w.file == nil {
		return nil
	}
	out := make([]views.ContextInfo, len(w.file.Contexts))
	for i := range w.file.Contexts {
		out[i] = contextInfo(&w.file.Contexts[i], "")
	}
	return out
}

// Connect implements views.ContextSwitcher. Notes and warnings are dropped: the TUI owns
// the terminal.
func (w *tuiSwitcher) Connect(ctx context.Context, name string) (views.Connection, error) {
	c := w.c
	c.context, c.onlyContext, c.demo, c.stderr = name, true, false, io.Discard
	s, err := c.connect(ctx)
	if err != nil {
		return views.Connection{}, err
	}
	w.mu.Lock()
	w.sessions = append(w.sessions, s)
	w.mu.Unlock()
	lc := &lazyClient{c: c, sess: s} // already connected
	return views.Connection{Source: lc, Resetter: newTUIResetter(c, lc, w.backupDir), Cluster: s.cluster,
		ReadOnly: s.access.readOnly(), Context: contextInfo(s.context, s.cluster), Close: lc.close}, nil
}

func (w *tuiSwitcher) closeAll() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range w.sessions {
		s.close()
	}
}

// contextInfo describes a context for the TUI; cluster is the address connected to, if any.
func contextInfo(c *contexts.Context, cluster string) views.ContextInfo {
	if c == nil {
		return views.ContextInfo{}
	}
	if cluster == "" {
		cluster = strings.Join(c.BootstrapServers, ",")
	}
	if cluster == "" {
		cluster = "(bootstrap.servers of its properties)"
	}
	return views.ContextInfo{Name: c.Name, Label: c.Label, Color: c.TerminalColor(), Cluster: cluster, ReadOnly: c.ReadOnly}
}
