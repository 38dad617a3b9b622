package serve

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
	"github.com/offsettui/offsettui/internal/report"
)

// The read API of offsettui serve (docs/api.md): what the last snapshot of each cluster
// holds, as `describe -o json` and `check -o json` write it, answered without asking the
// cluster again. GET only: the mux answers 405 to every other method, and there is no
// handler that could write (the exporter's Source only reads).

// apiRoutes adds the read API to mux.
func (e *Exporter) apiRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/groups", e.apiGroups)
	mux.HandleFunc("GET /api/v1/groups/{group}", e.apiGroup)
	mux.HandleFunc("GET /api/v1/check/{group}", e.apiCheck)
	mux.HandleFunc("GET /api/v1/openapi.json", apiOpenAPI)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, &APIError{Status: http.StatusMethodNotAllowed, Message: "the API only reads: GET, never " + r.Method})
			return
		}
		writeError(w, &APIError{Status: http.StatusNotFound, Message: r.URL.Path + " is not an address of the API: docs/api.md lists them, /api/v1/openapi.json describes them"})
	})
}

// APIError is an answer that is not a document: its HTTP status and why, in words.
type APIError struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

func (e *APIError) Error() string { return e.Message }

// Reading is the last snapshot of one cluster as the API answers from it.
type Reading struct {
	// Cluster is the cluster's label.
	Cluster string
	// Snapshot is the last snapshot read, annotated with the time axis; nil when the
	// last snapshot failed (Failure says why). Never modify it.
	Snapshot *model.Snapshot
	// Failure is the error of the last snapshot when it failed; At when it ended.
	Failure string
	At      time.Time
	// Interval is the time between two snapshots, RiskWindow the look-ahead they are read with.
	Interval, RiskWindow time.Duration
	// seq counts the snapshots attempted: with At, it tells one answer's data from another's.
	seq uint64
}

// Read returns the last snapshot of cluster ("" when the exporter serves one), or an
// APIError: a cluster it does not serve (404), several and none named (400), or no
// snapshot ended yet (503).
func (e *Exporter) Read(cluster string) (Reading, error) {
	var p *poller
	switch {
	case cluster == "" && len(e.pollers) == 1:
		p = e.pollers[0]
	case cluster == "":
		return Reading{}, &APIError{Status: http.StatusBadRequest, Message: "this server serves several clusters: name one with ?cluster= (" + strings.Join(e.clusterNames(), ", ") + ")"}
	default:
		i := slices.IndexFunc(e.pollers, func(p *poller) bool { return p.target.Cluster == cluster })
		if i < 0 {
			return Reading{}, &APIError{Status: http.StatusNotFound, Message: fmt.Sprintf("this server does not serve cluster %q; it serves %s", cluster, strings.Join(e.clusterNames(), ", "))}
		}
		p = e.pollers[i]
	}
	st := p.state.Load()
	if !st.attempted {
		return Reading{}, &APIError{Status: http.StatusServiceUnavailable, Message: "the first snapshot of cluster " + p.target.Cluster + " is under way: ask again shortly (/readyz says when)"}
	}
	r := Reading{Cluster: p.target.Cluster, Snapshot: st.snap, At: st.lastEnd, Interval: e.opts.Interval,
		RiskWindow: e.opts.Query.RiskWindow, seq: st.snapshots}
	if !st.up {
		r.Snapshot, r.Failure = nil, st.lastErr
	}
	return r, nil
}

func (e *Exporter) clusterNames() []string {
	names := make([]string, len(e.pollers))
	for i, p := range e.pollers {
		names[i] = p.target.Cluster
	}
	return names
}

// unreadable is the answer for a cluster whose last snapshot failed.
func (r Reading) unreadable() *APIError {
	return &APIError{Status: http.StatusServiceUnavailable, Message: fmt.Sprintf("cluster %s cannot be read: its last snapshot failed at %s: %s",
		r.Cluster, r.At.UTC().Format(model.StampLayout), r.Failure)}
}

// apiGroups answers /api/v1/groups: the snapshot as describe -o json writes it, with
// ?group= and ?topic= (repeatable) keeping what describe --group and --topic keep.
func (e *Exporter) apiGroups(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	if err := onlyParams(q, "cluster", "group", "topic"); err != nil {
		writeError(w, err)
		return
	}
	r, ok := e.readOrAnswer(w, q)
	if !ok || answered(w, req, r) {
		return
	}
	s := assemble.Narrow(r.Snapshot, assemble.NarrowOptions{Groups: q["group"], Topics: q["topic"], RiskWindow: r.RiskWindow})
	writeDescribe(w, s)
}

// apiGroup answers /api/v1/groups/{group}: describe --group G -o json (with ?topic=), or
// 404 when the snapshot does not hold the group.
func (e *Exporter) apiGroup(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	if err := onlyParams(q, "cluster", "topic"); err != nil {
		writeError(w, err)
		return
	}
	r, ok := e.readOrAnswer(w, q)
	if !ok {
		return
	}
	group := req.PathValue("group")
	s := assemble.Narrow(r.Snapshot, assemble.NarrowOptions{Groups: []string{group}, Topics: q["topic"], RiskWindow: r.RiskWindow})
	if len(s.Groups) == 0 {
		what := "group " + group
		if len(q["topic"]) > 0 {
			what += " with partitions on " + strings.Join(q["topic"], ", ")
		}
		writeError(w, &APIError{Status: http.StatusNotFound, Message: fmt.Sprintf("the snapshot of cluster %s taken at %s holds no %s",
			r.Cluster, r.Snapshot.Cluster.TakenAt.UTC().Format(model.StampLayout), what)})
		return
	}
	if answered(w, req, r) {
		return
	}
	writeDescribe(w, s)
}

// readOrAnswer reads the cluster named by ?cluster=, or writes why it cannot.
func (e *Exporter) readOrAnswer(w http.ResponseWriter, q url.Values) (Reading, bool) {
	r, err := e.Read(q.Get("cluster"))
	if err != nil {
		writeError(w, err)
		return r, false
	}
	if r.Snapshot == nil {
		writeError(w, r.unreadable())
		return r, false
	}
	return r, true
}

func writeDescribe(w http.ResponseWriter, s model.Snapshot) {
	w.Header().Set("Content-Type", "application/json")
	_ = report.DescribeJSON(w, s) // a client gone mid-answer: nothing to do
}

// onlyParams refuses a parameter the address does not take: a misspelt flag must not
// be read as its default.
func onlyParams(q url.Values, names ...string) error {
	for k := range q {
		if !slices.Contains(names, k) {
			return &APIError{Status: http.StatusBadRequest, Message: fmt.Sprintf("unknown parameter %q: this address takes %s", k, strings.Join(names, ", "))}
		}
	}
	return nil
}

// answered sets the answer's validators from the snapshot it is made of: the ETag
// names the snapshot and the question, Last-Modified is when the snapshot was read. It
// answers 304 Not Modified, and returns true, when If-None-Match holds that ETag.
func answered(w http.ResponseWriter, req *http.Request, r Reading) bool {
	h := fnv.New64a()
	h.Write([]byte(req.URL.Path + "?" + req.URL.Query().Encode()))
	tag := fmt.Sprintf(`"%d-%d-%x"`, r.seq, r.At.UnixMilli(), h.Sum64())
	w.Header().Set("ETag", tag)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Snapshot != nil {
		w.Header().Set("Last-Modified", r.Snapshot.Cluster.TakenAt.UTC().Format(http.TimeFormat))
	}
	for c := range strings.SplitSeq(req.Header.Get("If-None-Match"), ",") {
		if c = strings.TrimPrefix(strings.TrimSpace(c), "W/"); c == tag || c == "*" {
			w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}

// writeError writes an APIError (any other error is a 500) as {"status":..,"message":..}.
func writeError(w http.ResponseWriter, err error) {
	var ae *APIError
	if !errors.As(err, &ae) {
		ae = &APIError{Status: http.StatusInternalServerError, Message: err.Error()}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(ae.Status)
	_ = json.NewEncoder(w).Encode(ae)
}
