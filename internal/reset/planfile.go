package reset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// A plan file is a plan written for another person to apply (docs/resets.md#plan-files):
// `reset|delete-offsets|delete-group --plan-out FILE`, the TUI planner's w, or an MCP plan
// tool over stdio write it; `offsettui apply FILE` reads it back. It checks itself as a
// backup does: a format, a SHA-256 of its content, and bytes that must be exactly what
// offsettui writes (as an archive's index is), so a file cut short or edited anywhere is
// refused before anything is read from the cluster.
//
// Layout: one JSON object, indented, its members in this order, the plan as `reset -o json`
// prints it, and last "sha256": the SHA-256 of every byte before the line that holds it
// (`head -n -2 FILE | sha256sum` prints it).

// planFileFormat names the plan file's layout; apply refuses any other.
const planFileFormat = "offsettui-plan/1"

// planFileDoc is a plan file's content, before its sha256 line.
type planFileDoc struct {
	Format      string          `json:"format"`
	ClusterID   string          `json:"clusterId"`
	Bootstrap   string          `json:"bootstrap"`
	ReadAt      model.Stamp     `json:"readAt"`
	PlannedBy   string          `json:"plannedBy"`
	PlannedWith string          `json:"plannedWith"`
	PlannedAt   model.Stamp     `json:"plannedAt"`
	Plan        json.RawMessage `json:"plan"`
	SHA256      string          `json:"sha256,omitempty"` // only when read: the file's last member
}

// Author says who writes a plan file, with what, when, and the cluster's address.
type Author struct {
	By, With, Bootstrap string
	At                  time.Time
}

// Author is the service's user, clock and cluster as a plan file's author, planning with with.
func (s *Service) Author(with string) Author {
	return Author{By: s.user(), With: with, Bootstrap: s.clusterName(), At: s.now()}
}

// ErrPlanBlocked: a plan with blockers is never written to a plan file: nobody could apply it.
var ErrPlanBlocked = errors.New("the plan is blocked (its blockers are listed with it): no plan file is written, as nobody could apply it")

// WritePlanFile writes p as a new plan file at path (never over an existing file, synced,
// readable by the owner only) and returns the plan it holds, reviewed (Reviewed names the
// file and its sha256). A plan blocked by anything but read-only is refused (ErrPlanBlocked),
// and so is one whose cluster id is unknown: apply could not tell its cluster from another.
func WritePlanFile(path string, p plan.Plan, a Author) (plan.Plan, error) {
	if !p.Fileable() {
		return plan.Plan{}, ErrPlanBlocked
	}
	p.Blockers = []plan.Blocker{} // a read-only blocker at most: the planner's setting, not the plan's
	if p.ClusterID == nil || *p.ClusterID == "" {
		return plan.Plan{}, errors.New("the cluster's id is unknown (the brokers did not say it): a plan file must name its cluster, so no plan file is written")
	}
	if p.ReadAt == nil {
		return plan.Plan{}, errors.New("the plan does not say when it read the group: no plan file is written")
	}
	raw, err := marshalPlan(p)
	if err != nil {
		return plan.Plan{}, err
	}
	doc := planFileDoc{Format: planFileFormat, ClusterID: *p.ClusterID, Bootstrap: a.Bootstrap, ReadAt: *p.ReadAt,
		PlannedBy: a.By, PlannedWith: a.With, PlannedAt: model.Stamp{Time: a.At.Truncate(time.Millisecond)}, Plan: raw}
	b, sum, err := planFileBytes(doc)
	if err != nil {
		return plan.Plan{}, err
	}
	if err := writeNew(path, b); err != nil {
		return plan.Plan{}, fmt.Errorf("plan file: %w", err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		os.Remove(path)
		return plan.Plan{}, fmt.Errorf("plan file: %w", err)
	}
	doc.SHA256 = sum
	return reviewed(path, doc, p), nil
}

// marshalPlan is the plan as reset -o json prints it (no HTML escapes), without its newline.
func marshalPlan(p plan.Plan) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// planFileBytes is the file offsettui writes for doc (its SHA256 ignored), and its sha256.
func planFileBytes(doc planFileDoc) ([]byte, string, error) {
	doc.SHA256 = ""
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, "", err
	}
	// The object ends "\n}\n": its last member, the plan, gets a comma and the sha256 line.
	content := append(bytes.TrimSuffix(b.Bytes(), []byte("\n}\n")), ",\n"...)
	sum := sha256Hex(content)
	return append(content, `  "sha256": "`+sum+"\"\n}\n"...), sum, nil
}

// LoadPlanFile reads the plan file at path and checks it whole: its format, its bytes exactly
// as offsettui writes them, its SHA-256, and a plan that can be applied (not executed, no
// blockers, rows, the readAt of the file). A file cut short (even at a line end) or edited
// anywhere is refused; the error says why. The plan returned is reviewed: it writes exactly
// its targets, and only on its cluster (plan/reviewed.go).
func LoadPlanFile(path string) (plan.Plan, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return plan.Plan{}, fmt.Errorf("plan file: %w", err)
	}
	p, err := checkPlanFile(path, raw)
	if err != nil {
		return plan.Plan{}, fmt.Errorf("plan file %s: %w", path, err)
	}
	return p, nil
}

// errNotAsWritten: a plan file's bytes are not what offsettui writes.
var errNotAsWritten = errors.New("it is not exactly as offsettui writes a plan file: it was cut short or edited, and is refused; plan again")

// checkPlanFile checks raw, read from path, as LoadPlanFile says: first the SHA-256 of every
// byte before its last-but-one line against that line, then the bytes against what offsettui
// writes for what they hold, then the plan.
func checkPlanFile(path string, raw []byte) (plan.Plan, error) {
	if !bytes.HasPrefix(raw, []byte("{\n  \"format\": \""+planFileFormat+"\",\n")) {
		var format struct {
			Format string `json:"format"`
		}
		if json.Unmarshal(raw, &format) == nil && format.Format != planFileFormat {
			return plan.Plan{}, fmt.Errorf("not an offsettui plan file (format %q, want %q)", format.Format, planFileFormat)
		}
		return plan.Plan{}, errNotAsWritten
	}
	content, sum, ok := splitSHA256(raw)
	switch {
	case !ok:
		return plan.Plan{}, errNotAsWritten
	case sha256Hex(content) != sum:
		return plan.Plan{}, errors.New("its content does not match its SHA-256: it was cut short or edited, and is refused; plan again")
	}
	var doc planFileDoc
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil || doc.Format != planFileFormat {
		return plan.Plan{}, errNotAsWritten
	}
	if want, _, err := planFileBytes(doc); err != nil || !bytes.Equal(want, raw) {
		return plan.Plan{}, errNotAsWritten
	}
	var p plan.Plan
	pd := json.NewDecoder(bytes.NewReader(doc.Plan))
	pd.DisallowUnknownFields()
	if err := pd.Decode(&p); err != nil {
		return plan.Plan{}, fmt.Errorf("its plan cannot be read (%v): written by another version of offsettui?", err)
	}
	if err := applicable(p, doc); err != nil {
		return plan.Plan{}, err
	}
	// A share group's restore into a name no broker lists makes the share group again: the
	// type, which the strategy's JSON does not carry, is the plan's (Planner.read).
	if p.Strategy.Kind == plan.Restore && p.Type == model.TypeShare {
		p.Strategy.GroupType = model.TypeShare
	}
	return reviewed(path, doc, p), nil
}

// splitSHA256 splits a plan file into the bytes before its sha256 line and the sha256 that
// line gives, as planFileBytes writes them; ok is false when it does not end that way.
func splitSHA256(raw []byte) (content []byte, sum string, ok bool) {
	const head, tail, hexLen = `  "sha256": "`, "\"\n}\n", 64
	n := len(head) + hexLen + len(tail)
	if len(raw) < n {
		return nil, "", false
	}
	line := raw[len(raw)-n:]
	if !bytes.HasPrefix(line, []byte(head)) || !bytes.HasSuffix(line, []byte(tail)) {
		return nil, "", false
	}
	return raw[:len(raw)-n], string(line[len(head) : len(head)+hexLen]), true
}

// applicable refuses a plan offsettui never writes to a plan file.
func applicable(p plan.Plan, doc planFileDoc) error {
	switch {
	case p.Group == "" || doc.ClusterID == "":
		return errors.New("it names no group or no cluster")
	case p.Executed || p.Backup != nil || p.Undo != nil || p.Verified != nil || p.ReadBackAt != nil:
		return errors.New("it holds an executed plan, which is not applied again")
	case !p.Executable():
		return errors.New("its plan has blockers: nobody could apply it")
	case len(p.Rows) == 0:
		return errors.New("its plan has no rows")
	case p.ReadAt == nil || !p.ReadAt.Equal(doc.ReadAt.Time):
		return errors.New("its readAt is not its plan's")
	case !slices.Contains(plan.StrategyKinds, p.Strategy.Kind) && p.Strategy.Kind != plan.DeleteOffsets && p.Strategy.Kind != plan.DeleteGroup:
		return fmt.Errorf("its strategy %q is not one offsettui plans", p.Strategy.Kind)
	}
	for _, r := range p.Rows {
		if r.Result != "" || r.ReadBack != nil {
			return errors.New("its rows carry results: an executed plan is not applied again")
		}
	}
	return nil
}

// reviewed is p as the plan file at path with doc holds it.
func reviewed(path string, doc planFileDoc, p plan.Plan) plan.Plan {
	p.ClusterID = model.Ptr(doc.ClusterID)
	p.Reviewed = &plan.Reviewed{File: path, SHA256: doc.SHA256, ClusterID: doc.ClusterID, Bootstrap: doc.Bootstrap,
		PlannedBy: doc.PlannedBy, PlannedWith: doc.PlannedWith, PlannedAt: doc.PlannedAt.Time}
	return p
}
