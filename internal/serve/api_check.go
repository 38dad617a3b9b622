package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/parse"
	"github.com/offsettui/offsettui/internal/text"
)

// CheckQuery is a check's flags as the API takes them (docs/api.md).
type CheckQuery struct {
	Options check.Options
	// Sample asks for rates measured over at least this long (check --sample); 0 takes
	// the server's rates as they are.
	Sample time.Duration
}

// ParseCheckQuery reads /api/v1/check's parameters, named as check's flags; the error
// names the parameter. risk-window defaults to riskWindow (the server's).
func ParseCheckQuery(q url.Values, riskWindow time.Duration) (CheckQuery, error) {
	if err := onlyParams(q, "cluster", "topic", "recovery-window", "risk-window", "assume-reset", "ignore-missed-deletes", "commit-log", "sample"); err != nil {
		return CheckQuery{}, err
	}
	for k, vs := range q {
		if k != "topic" && len(vs) > 1 {
			return CheckQuery{}, badParam(k, "given %d times, once at most", len(vs))
		}
	}
	c := CheckQuery{Options: check.Options{Topics: q["topic"], RiskWindow: riskWindow, AssumeReset: model.ResetLatest}}
	for _, t := range c.Options.Topics {
		if strings.TrimSpace(t) == "" {
			return c, badParam("topic", "empty topic name")
		}
	}
	var err error
	duration := func(name string, into *time.Duration, positive bool) error {
		v, ok := q[name]
		if !ok {
			return nil
		}
		if *into, err = parse.Duration(v[0]); err != nil {
			return badParam(name, "%v", err)
		}
		if *into < 0 || positive && *into == 0 {
			return badParam(name, "must be positive, got %q", v[0])
		}
		return nil
	}
	if err := duration("recovery-window", &c.Options.RecoveryWindow, false); err != nil {
		return c, err
	}
	if err := duration("risk-window", &c.Options.RiskWindow, true); err != nil {
		return c, err
	}
	if err := duration("sample", &c.Sample, false); err != nil {
		return c, err
	}
	if v, ok := q["assume-reset"]; ok {
		if c.Options.AssumeReset, err = model.ParseAssumeReset(v[0]); err != nil {
			return c, badParam("assume-reset", "%v", err)
		}
	}
	switch v := q.Get("ignore-missed-deletes"); v {
	case "", "false":
	case "true":
		c.Options.IgnoreMissedDeletes = true
	default:
		return c, badParam("ignore-missed-deletes", "want true or false, got %q", v)
	}
	switch v := q.Get("commit-log"); v {
	case "", "auto":
	case "on":
		c.Options.RequireCommitTimes = true
	default:
		return c, badParam("commit-log", "want auto or on (the server reads __consumer_offsets as its own --commit-log says), got %q", v)
	}
	return c, nil
}

func badParam(name, format string, a ...any) *APIError {
	return &APIError{Status: http.StatusBadRequest, Message: name + ": " + fmt.Sprintf(format, a...)}
}

// Check judges group from the reading as `check` judges it from the cluster: the
// snapshot narrowed to what check reads (assemble.Narrow), with the server's rates where it
// has them, as --sample uses them. It is incomplete when the last snapshot failed, when
// the server reads at-risk for another risk window than q's (at-risk is decided when a
// snapshot is read), and when q.Sample asks for rates over longer than the server has.
// ExitCode is set.
func (r Reading) Check(group string, q CheckQuery) check.Result {
	if r.Snapshot == nil {
		res := check.Unread(group, q.Options, r.At, r.unreadable().Message)
		res.ExitCode = res.Verdict.ExitCode()
		return res
	}
	s := assemble.Narrow(r.Snapshot, assemble.NarrowOptions{Groups: []string{group}, Topics: q.Options.Topics,
		WholeTopics: len(q.Options.Topics) > 0, ByName: true, RiskWindow: r.RiskWindow})
	res := check.Check(s, group, q.Options)
	res.ExitCode = res.Verdict.ExitCode()
	if q.Options.RiskWindow != r.RiskWindow {
		res.Incomplete(check.CodeRiskWindowDiffers, fmt.Sprintf(
			"the server reads at-risk %s ahead (its --risk-window) and this check asks %s: at-risk is decided when the snapshot is read; ask a server run with --risk-window %s, or check the cluster directly",
			text.HumanDuration(r.RiskWindow), text.HumanDuration(q.Options.RiskWindow), text.HumanDuration(q.Options.RiskWindow)))
	}
	if q.Sample > 0 {
		if spanned := sampled(s.Window); spanned < q.Sample {
			res.Incomplete(check.CodeRatesTooShort, fmt.Sprintf(
				"the server's rates span %s (%s), less than the %s --sample asks: ask again later, or leave --sample out to take its rates as they are",
				text.HumanDuration(spanned), text.Plural(windowSamples(s.Window), "snapshot"), text.HumanDuration(q.Sample)))
		}
	}
	return res
}

func sampled(w *model.Window) time.Duration {
	if w == nil {
		return 0
	}
	return w.To.Sub(w.From.Time)
}

func windowSamples(w *model.Window) int {
	if w == nil {
		return 1
	}
	return w.Samples
}

// apiCheck answers /api/v1/check/{group}: the check document, 200 whatever its verdict,
// with the cluster's name and the server's interval after check's own fields.
func (e *Exporter) apiCheck(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	r, err := e.Read(q.Get("cluster"))
	if err != nil {
		writeError(w, err)
		return
	}
	cq, err := ParseCheckQuery(q, r.RiskWindow)
	if err != nil {
		writeError(w, err)
		return
	}
	if answered(w, req, r) {
		return
	}
	doc, err := CheckDocument(r.Check(req.PathValue("group"), cq), r.Cluster, r.Interval)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(doc)
}

// CheckDocument is the API's check document: check -o json's, then "cluster" and
// "intervalMs" (docs/api.md).
func CheckDocument(r check.Result, cluster string, interval time.Duration) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	doc := bytes.TrimSuffix(b.Bytes(), []byte("}\n")) // an object: one closing brace to reopen
	name, err := json.Marshal(cluster)
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(doc, `,"cluster":%s,"intervalMs":%d}`+"\n", name, interval.Milliseconds()), nil
}
