package reset

import (
	"encoding/json"
	"fmt"
	"os"
	"os/user"
	"path/filepath"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// The audit log (audit.log in the state dir) gets one JSON line when a reset is
// about to commit ("intent", after the backup and before the commit) and one
// when it has ended ("outcome"). No intent line, no commit: if it cannot be
// written, nothing is committed. A process killed during the commit leaves the
// intent line and the backup behind.

// auditEntry is one line of the audit log.
type auditEntry struct {
	Time      model.Stamp        `json:"time"`
	Event     string             `json:"event"` // intent or outcome
	ID        *string            `json:"id"`    // the backup's file name: pairs intent and outcome
	User      string             `json:"user"`
	Cluster   string             `json:"cluster"`
	ClusterID *string            `json:"clusterId"`
	Group     string             `json:"group"`
	Strategy  plan.Strategy      `json:"strategy"`
	Rows      []plan.Row         `json:"rows"`
	Result    *plan.ResetOutcome `json:"result"`
	Verified  *bool              `json:"verified"`
	Backup    *string            `json:"backup"`
	Undo      *string            `json:"undo"`
	Notes     []string           `json:"notes"`
}

// auditIntent records that p is about to be committed, its backup written.
func (s *Service) auditIntent(p plan.Plan, clusterID *string, backup string) error {
	return s.appendAudit(auditEntry{Event: "intent", ID: model.Ptr(filepath.Base(backup)), ClusterID: clusterID,
		Group: p.Group, Strategy: p.Strategy, Rows: p.Rows, Backup: &backup, Notes: []string{}})
}

// auditOutcome records how the reset of r ended; backup is "" for one cancelled before its
// backup (then the line has no intent to pair with: its id and backup are null).
func (s *Service) auditOutcome(r Result, clusterID *string, backup string) error {
	out := r.Outcome
	e := auditEntry{Event: "outcome", ClusterID: clusterID,
		Group: r.Plan.Group, Strategy: r.Plan.Strategy, Rows: r.Plan.Rows, Result: &out,
		Verified: r.Plan.Verified, Undo: r.Plan.Undo, Notes: append([]string{}, r.Notes...)}
	if backup != "" {
		e.ID, e.Backup = model.Ptr(filepath.Base(backup)), &backup
	}
	return s.appendAudit(e)
}

// clusterName is ClusterName's answer, "" without one.
func (s *Service) clusterName() string {
	if s.ClusterName == nil {
		return ""
	}
	return s.ClusterName()
}

// appendAudit appends one line to audit.log and syncs it.
func (s *Service) appendAudit(e auditEntry) error {
	e.Time, e.User, e.Cluster = model.Stamp{Time: s.now()}, s.user(), s.clusterName()
	dir, err := StateDir(s.BackupDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "audit.log")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	return nil
}

func (s *Service) user() string {
	if s.User != "" {
		return s.User
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}
