package reset

import (
	"encoding/json"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"regexp"

	"github.com/offsettui/offsettui/internal/model"
)

// StateDir returns where backups and the audit log live: dir when set, else
// $XDG_STATE_HOME/offsettui, else ~/.local/state/offsettui.
func StateDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	if x := os.Getenv("XDG_STATE_HOME"); x != "" {
		return filepath.Join(x, "offsettui"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory for backups (pass --backup-dir): %w", err)
	}
	return filepath.Join(home, ".local", "state", "offsettui"), nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// writeBackup writes each planned partition's current commit (empty offset where
// there was none) to a new file and syncs it; the path is returned.
func (s *Service) writeBackup(p model.Plan) (string, error) {
	dir, err := StateDir(s.BackupDir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("backup directory %s: %w", dir, err)
	}
	name := fmt.Sprintf("%s-%s.csv", unsafeName.ReplaceAllString(p.Group, "_"), s.now().UTC().Format(backupStamp))
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", fmt.Errorf("backup file: %w", err)
	}
	if err := model.FormatOffsetsCSV(f, p.BackupRows()); err != nil {
		f.Close()
		return "", fmt.Errorf("write backup %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", fmt.Errorf("sync backup %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("close backup %s: %w", path, err)
	}
	return path, nil
}

// auditEntry is one line of the audit log.
type auditEntry struct {
	Time     model.Stamp     `json:"time"`
	User     string          `json:"user"`
	Cluster  string          `json:"cluster"`
	Group    string          `json:"group"`
	Strategy model.Strategy  `json:"strategy"`
	Rows     []model.PlanRow `json:"rows"`
	Result   Outcome         `json:"result"`
	Verified *bool           `json:"verified"`
	Backup   *string         `json:"backup"`
	Notes    []string        `json:"notes"`
}

// audit appends one JSON line about an execution to audit.log in the state dir.
// A failure to write it is added to the result's notes, not hidden.
func (s *Service) audit(r *Result, backup string) {
	e := auditEntry{Time: model.Stamp{Time: s.now()}, User: s.user(), Cluster: s.ClusterName,
		Group: r.Plan.Group, Strategy: r.Plan.Strategy, Rows: r.Plan.Rows, Result: r.Outcome,
		Verified: r.Plan.Verified, Notes: append([]string{}, r.Notes...)}
	if backup != "" {
		e.Backup = &backup
	}
	dir, err := StateDir(s.BackupDir)
	if err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(filepath.Join(dir, "audit.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	}
	if err == nil {
		b, _ := json.Marshal(e)
		_, err = f.Write(append(b, '\n'))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		r.Notes = append(r.Notes, "the audit log could not be written: "+err.Error())
	}
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
