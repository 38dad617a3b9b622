package serve

import (
	"fmt"
	"log"
	"net/http"
	"strings"
)

// healthz is the liveness probe: 200 while every cluster's snapshots keep
// ending (read or failed), 503 when one has not ended a snapshot for three
// intervals plus three deadlines — a stuck exporter worth restarting. A
// cluster that cannot be read is not a reason: offsettui_up says that.
func (e *Exporter) healthz(w http.ResponseWriter, _ *http.Request) {
	now := e.opts.Clock.Now()
	var stuck []string
	for _, p := range e.pollers {
		if p.stuck(now) {
			stuck = append(stuck, p.target.Cluster)
		}
	}
	if len(stuck) > 0 {
		http.Error(w, "no snapshot has ended for too long: "+strings.Join(stuck, ", "), http.StatusServiceUnavailable)
		return
	}
	fmt.Fprintln(w, "ok")
}

// readyz is the readiness probe: 200 once the first snapshot of every cluster
// has ended, so that /metrics says something true of each. A first snapshot
// that failed counts: /metrics then shows offsettui_up 0, which is what an
// alert needs (an exporter that never became ready would hide the outage).
func (e *Exporter) readyz(w http.ResponseWriter, _ *http.Request) {
	var waiting []string
	for _, p := range e.pollers {
		if !p.state.Load().attempted {
			waiting = append(waiting, p.target.Cluster)
		}
	}
	if len(waiting) > 0 {
		http.Error(w, "waiting for the first snapshot of "+strings.Join(waiting, ", "), http.StatusServiceUnavailable)
		return
	}
	fmt.Fprintln(w, "ready")
}

// index says what is served where.
func (e *Exporter) index(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, "offsettui serve: /metrics (docs/metrics.md), /healthz, /readyz")
	if e.opts.API {
		fmt.Fprint(w, ", /api/v1/groups, /api/v1/groups/{group}, /api/v1/check/{group}, /api/v1/openapi.json (docs/api.md)")
	}
	fmt.Fprintln(w)
	for _, p := range e.pollers {
		st := p.state.Load()
		switch {
		case !st.attempted:
			fmt.Fprintf(w, "cluster %s: first snapshot under way\n", p.target.Cluster)
		case st.up:
			fmt.Fprintf(w, "cluster %s: read at %s (%d groups)\n", p.target.Cluster,
				st.lastSuccess.UTC().Format("2006-01-02T15:04:05Z"), st.groups)
		default:
			fmt.Fprintf(w, "cluster %s: cannot be read: %s\n", p.target.Cluster, st.lastErr)
		}
	}
}

// logger writes a server's or handler's errors through logf.
func logger(logf func(string, ...any)) *log.Logger {
	return log.New(logfWriter(logf), "", 0)
}

type logfWriter func(string, ...any)

func (f logfWriter) Write(b []byte) (int, error) {
	f("%s", strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
