package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/spf13/pflag"
)

// `check --server URL` asks a running `offsettui serve` (its /api/v1/check, docs/api.md)
// instead of the cluster, and fails closed: no answer within --timeout, a server that
// cannot read its cluster, or a snapshot older than --max-age is incomplete (exit 2).

// serverCheck is what check --server asks.
type serverCheck struct {
	server  *url.URL
	cluster string // --context: the cluster's label on the server ("" when it serves one)
	group   string
	opts    check.Options
	sample  time.Duration
	maxAge  time.Duration // 0: twice the server's interval
	timeout time.Duration
	now     func() time.Time
}

// maxAnswer bounds the bytes of an answer read: a check document of thousands of partitions
// is a few megabytes.
const maxAnswer = 64 << 20

// serverFlagsRefused says which flags check --server does not take: the connection is the
// server's, and so are its snapshots' schedule and reads.
func serverFlagsRefused(fs *pflag.FlagSet) error {
	for _, name := range []string{"bootstrap-server", "command-config", "config", "demo", "interval", "stall-after", "commit-log-budget"} {
		if fs.Changed(name) {
			return fmt.Errorf("--%s does not apply with --server: the server reads the cluster, on its own schedule (docs/api.md)", name)
		}
	}
	return nil
}

// parseServerURL checks --server: an http or https URL of a host.
func parseServerURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--server: want the URL of a running offsettui serve (http://offsettui:9308), got %q", raw)
	}
	return u, nil
}

// ask returns the server's proof, or an incomplete one that says why it could not be had
// or cannot be trusted, and the line to print on stderr when there is one.
func (sc serverCheck) ask(ctx context.Context) (check.Result, string) {
	unread := func(format string, a ...any) (check.Result, string) {
		msg := fmt.Sprintf(format, a...)
		return check.Unread(sc.group, sc.opts, sc.now(), msg), msg
	}
	ctx, cancel := context.WithTimeout(ctx, sc.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, sc.address(), nil)
	if err != nil {
		return unread("cannot ask the server %s: %v", sc.server.Redacted(), err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return unread("the server %s did not answer within --timeout %s", sc.server.Redacted(), text.HumanDuration(sc.timeout))
		}
		return unread("cannot ask the server %s: %v", sc.server.Redacted(), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return unread("the server %s did not answer whole within --timeout %s: %v", sc.server.Redacted(), text.HumanDuration(sc.timeout), err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(body, &e) != nil || e.Message == "" {
			e.Message = strings.TrimSpace(string(body))
		}
		return unread("the server %s answered %s: %s", sc.server.Redacted(), resp.Status, e.Message)
	}
	var doc struct {
		check.Result
		Cluster    string `json:"cluster"`
		IntervalMs int64  `json:"intervalMs"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return unread("the server %s answered what is not a check: %v", sc.server.Redacted(), err)
	}
	r := doc.Result
	if why := sc.otherQuestion(r); why != "" {
		return unread("the server %s answered another question than this check asks: %s", sc.server.Redacted(), why)
	}
	maxAge := sc.maxAge
	if maxAge <= 0 {
		maxAge = 2 * time.Duration(doc.IntervalMs) * time.Millisecond
	}
	if age := sc.age(r.TakenAt.Time, resp.Header.Get("Date")); age > maxAge {
		why := "--max-age"
		if sc.maxAge <= 0 {
			why = "twice the server's interval of " + text.HumanDuration(time.Duration(doc.IntervalMs)*time.Millisecond) + " (--max-age)"
		}
		msg := fmt.Sprintf("the server's snapshot of cluster %s was read at %s, %s ago: older than %s %s; the server may be stuck, or slow to read its cluster",
			doc.Cluster, r.TakenAt.UTC().Format(model.StampLayout), text.HumanDuration(age), why, text.HumanDuration(maxAge))
		r.Incomplete(check.CodeSnapshotTooOld, msg)
		return r, msg
	}
	return r, ""
}

// address is the check's URL on the server, its flags as parameters.
func (sc serverCheck) address() string {
	q := url.Values{}
	if sc.cluster != "" {
		q.Set("cluster", sc.cluster)
	}
	for _, t := range sc.opts.Topics {
		q.Add("topic", t)
	}
	q.Set("recovery-window", sc.opts.RecoveryWindow.String())
	q.Set("risk-window", sc.opts.RiskWindow.String())
	q.Set("assume-reset", sc.opts.AssumeReset)
	if sc.opts.IgnoreMissedDeletes {
		q.Set("ignore-missed-deletes", "true")
	}
	if sc.opts.RequireCommitTimes {
		q.Set("commit-log", "on")
	}
	if sc.sample > 0 {
		q.Set("sample", sc.sample.String())
	}
	base := *sc.server
	base.RawQuery, base.Fragment = "", ""
	return strings.TrimSuffix(base.String(), "/") + "/api/v1/check/" + url.PathEscape(sc.group) + "?" + q.Encode()
}

// otherQuestion says how the answer differs from the question asked, "" when it does not:
// a proof of another group or with other options is no proof of this one.
func (sc serverCheck) otherQuestion(r check.Result) string {
	if r.Group != sc.group {
		return fmt.Sprintf("group %q", r.Group)
	}
	want, got := sc.opts, r.Options
	if want.AssumeReset == "" {
		want.AssumeReset = model.ResetLatest
	}
	switch {
	case !slices.Equal(got.Topics, append([]string{}, want.Topics...)):
		return fmt.Sprintf("topics %v", got.Topics)
	case got.RecoveryWindow != want.RecoveryWindow, got.RiskWindow != want.RiskWindow, got.AssumeReset != want.AssumeReset,
		got.IgnoreMissedDeletes != want.IgnoreMissedDeletes, got.RequireCommitTimes != want.RequireCommitTimes:
		b, _ := json.Marshal(got)
		return "options " + string(b)
	}
	return ""
}

// age is how old the snapshot read at takenAt is, by this machine's clock and by the
// server's (its Date header, to the second: counted a second older), whichever is older:
// a clock behind the server's cannot make a stale snapshot look fresh.
func (sc serverCheck) age(takenAt time.Time, date string) time.Duration {
	age := sc.now().Sub(takenAt)
	if d, err := http.ParseTime(date); err == nil {
		age = max(age, d.Add(time.Second).Sub(takenAt))
	}
	return age
}
