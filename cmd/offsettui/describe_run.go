package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/sampler"
	"github.com/offsettui/offsettui/internal/text"
)

// snapshotter is what describe reads the cluster with (*kafka.Client).
type snapshotter interface {
	Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error)
	// TopicErrors says which of the topics do not exist, or may not be described.
	TopicErrors(ctx context.Context, topics []string) (map[string]*model.Error, error)
}

// describeRun takes the snapshots one describe needs — one, a --sample
// series or a --watch stream — and writes them.
type describeRun struct {
	src      snapshotter
	q        model.Query
	out      io.Writer
	errw     io.Writer
	output   string
	tf       timeFlags
	groups   []string // --group, for what can be gone since the baseline
	base     *model.Snapshot
	baseFile string
	clock    sampler.Clock
	tty      bool // stdout is a terminal: --watch redraws in place
	// fit is the width the table is fitted to (0: whole): a --watch on a terminal fits
	// each frame to the terminal's width then, as it redraws in place.
	fit int
}

// once is a plain describe: one snapshot, plus the baseline as an earlier
// sample when there is one.
func (r *describeRun) once(ctx context.Context) exitCode {
	var h *timeaxis.History // one snapshot alone has no time axis: nothing to keep
	if r.base != nil {
		h = timeaxis.NewHistory(2, 0)
		r.addBaseline(h)
	}
	snap, err := r.take(ctx, h)
	if err != nil {
		return r.failed(err)
	}
	r.sayUnknownTopics(ctx, snap)
	return r.finish(snap)
}

// sample takes snapshots over --sample and writes the last, annotated. The
// run is bounded by --sample plus the last snapshot's own duration.
func (r *describeRun) sample(ctx context.Context) exitCode {
	last, err := r.sampleLast(ctx, "describe")
	if err != nil {
		return r.failed(err)
	}
	r.sayUnknownTopics(ctx, last)
	return r.finish(last)
}

// failed reports a snapshot that could not be taken or used: bad input (a
// baseline of another cluster) is exit 2, anything else exit 1.
func (r *describeRun) failed(err error) exitCode {
	fmt.Fprintf(r.errw, "offsettui describe: %v\n", err)
	if isBadInput(err) {
		return exitBadInput
	}
	return exitFailure
}

// finish writes the final snapshot and says whether a named group does not
// exist (docs/cli.md).
func (r *describeRun) finish(snap model.Snapshot) exitCode {
	if code := r.write(snap); code != exitOK {
		return code
	}
	if missing := notFoundGroups(snap, r.groups); len(missing) > 0 {
		fmt.Fprintf(r.errw, "offsettui describe: %s does not exist\n", strings.Join(missing, ", "))
		return exitNotFound
	}
	return exitOK
}

// sampleLast takes the snapshots of --sample and returns the last, annotated.
func (r *describeRun) sampleLast(ctx context.Context, cmd string) (model.Snapshot, error) {
	h := r.tf.sampleHistory()
	r.addBaseline(h)
	if isTerminal(r.errw) {
		fmt.Fprintf(r.errw, "offsettui %s: sampling for %s, a snapshot every %s…\n",
			cmd, text.HumanDuration(r.tf.sampleD), text.HumanDuration(r.tf.intervalD))
	}
	var last model.Snapshot
	err := sampler.Run(ctx, sampler.Plan{For: r.tf.sampleD, Every: r.tf.intervalD}, r.clock, func(ctx context.Context, _ bool) error {
		s, err := r.take(ctx, h)
		last = s
		return err
	})
	return last, err
}

// watch writes a snapshot every --interval until ctx ends (Ctrl-C). A failed
// snapshot is reported and the watch goes on; the next frame says what the
// cluster looks like then.
func (r *describeRun) watch(ctx context.Context) exitCode {
	h := r.tf.watchHistory()
	r.addBaseline(h)
	var code exitCode = exitOK
	topicsSaid := false
	_ = sampler.Run(ctx, sampler.Plan{Every: r.tf.intervalD}, r.clock, func(ctx context.Context, _ bool) error {
		s, err := r.take(ctx, h)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if isBadInput(err) {
				code = r.failed(err)
				return err
			}
			fmt.Fprintf(r.errw, "offsettui describe: %s: %v (still watching)\n", r.clock.Now().UTC().Format(model.StampLayout), err)
			return nil
		}
		if !topicsSaid {
			topicsSaid = true
			r.sayUnknownTopics(ctx, s)
		}
		if r.tty && r.output != "json" {
			fmt.Fprint(r.out, "\x1b[H\x1b[2J") // redraw in place
			r.fit = terminalWidth(r.out)
		}
		if code = r.write(s); code != exitOK {
			return errors.New("output failed")
		}
		return nil
	})
	return code
}

// sayUnknownTopics names on stderr the --topic topics that do not exist (or that the
// principal may not describe): the snapshot has no row of them, and "no groups matched"
// alone would not say why. It asks the cluster only about the topics no group has a row
// on; the exit code does not change (docs/cli.md).
func (r *describeRun) sayUnknownTopics(ctx context.Context, snap model.Snapshot) {
	seen := map[string]bool{}
	for _, t := range snap.Topics {
		seen[t.Topic] = t.Error == nil
	}
	var ask []string
	for _, t := range r.q.Topics {
		if !seen[t] && !slices.Contains(ask, t) {
			ask = append(ask, t)
		}
	}
	if len(ask) == 0 {
		return
	}
	errs, err := r.src.TopicErrors(ctx, ask)
	if err != nil {
		fmt.Fprintf(r.errw, "offsettui describe: could not ask whether --topic %s exists: %v\n", strings.Join(ask, ", "), err)
		return
	}
	var missing, denied []string
	for _, t := range ask {
		switch e := errs[t]; {
		case e == nil:
		case e.Kind == model.KindNotFound:
			missing = append(missing, t)
		case e.Kind == model.KindDenied:
			denied = append(denied, t)
		default:
			fmt.Fprintf(r.errw, "offsettui describe: --topic %s: %s\n", t, e.Error())
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		fmt.Fprintf(r.errw, "offsettui describe: topic %s (--topic) does not exist (UNKNOWN_TOPIC_OR_PARTITION)\n", missing[0])
	default:
		fmt.Fprintf(r.errw, "offsettui describe: topics %s (--topic) do not exist (UNKNOWN_TOPIC_OR_PARTITION)\n", strings.Join(missing, ", "))
	}
	for _, t := range denied {
		fmt.Fprintf(r.errw, "offsettui describe: the principal may not describe topic %s (--topic, TOPIC_AUTHORIZATION_FAILED): "+
			"whether a group commits on it cannot be told\n", t)
	}
}

// take reads one snapshot, records it in h, annotates it with h (when not
// nil) and the baseline.
func (r *describeRun) take(ctx context.Context, h *timeaxis.History) (model.Snapshot, error) {
	snap, err := r.src.Snapshot(ctx, r.q)
	if err != nil {
		return snap, err
	}
	if r.base != nil {
		if err := timeaxis.OtherCluster(&snap, r.base, r.baseFile); err != nil {
			return snap, badInputf("--baseline: %v", err)
		}
	}
	if h != nil {
		h.Add(&snap, true)
		h.Annotate(&snap, r.tf.options())
		model.SortGroupsByUrgency(snap.Groups) // the time axis moves groups in the urgency order
	}
	if r.base != nil {
		timeaxis.CompareBaseline(&snap, r.base, r.baseFile, r.groups)
	}
	return snap, nil
}

// addBaseline makes the baseline the first sample, so rates run from it.
func (r *describeRun) addBaseline(h *timeaxis.History) {
	if r.base != nil {
		h.Add(r.base, false)
	}
}

func (r *describeRun) write(snap model.Snapshot) exitCode {
	var err error
	switch r.output {
	case "json":
		err = report.DescribeJSON(r.out, snap)
	case "markdown":
		err = report.Markdown(r.out, snap)
	default:
		err = report.DescribeFit(r.out, snap, r.fit)
	}
	if err != nil {
		fmt.Fprintf(r.errw, "offsettui describe: write output: %v\n", err)
		return exitFailure
	}
	if b := r.base; b != nil && (b.Cluster.ID == nil || snap.Cluster.ID == nil) && b.Cluster.Bootstrap != snap.Cluster.Bootstrap {
		fmt.Fprintf(r.errw, "offsettui describe: note: the baseline %s was taken of %s, this snapshot of %s\n",
			r.baseFile, b.Cluster.Bootstrap, snap.Cluster.Bootstrap)
	}
	return exitOK
}

// terminalWidth is the width of the terminal w is, or 0 when it is none or cannot tell.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	width, _, err := term.GetSize(f.Fd())
	if err != nil {
		return 0
	}
	return width
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
