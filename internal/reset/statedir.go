package reset

import (
	"fmt"
	"os"
	"path/filepath"
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
