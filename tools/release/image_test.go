package release

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/v1/mutate"
)

// TestImageOfABinary builds the image of a stand-in binary and reads back its
// config and files: the release's image test (tools/imagetest) runs the real one.
func TestImageOfABinary(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "offsettui")
	if err := os.WriteFile(bin, []byte("#!/bin/true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := Stamp{Version: "1.2.3", Commit: "0123456789abcdef0123456789abcdef01234567", Date: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	img, err := Image(s, Target{"linux", "arm64"}, bin)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Config
	if c.User != "65532:65532" || c.Entrypoint[0] != "/usr/local/bin/offsettui" || len(c.Cmd) != 3 || c.Cmd[2] != ":9308" ||
		cfg.Architecture != "arm64" || cfg.Variant != "v8" || !cfg.Created.Equal(s.Date) {
		t.Errorf("config %+v", cfg)
	}
	if c.Labels["org.opencontainers.image.revision"] != s.Commit || c.Labels["org.opencontainers.image.version"] != "1.2.3" {
		t.Errorf("labels %v", c.Labels)
	}
	tr := tar.NewReader(mutate.Extract(img))
	owners := map[string]int{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		owners[h.Name] = h.Uid
		if !h.ModTime.Equal(s.Date) {
			t.Errorf("%s dated %s, want the commit's time", h.Name, h.ModTime)
		}
	}
	if owners["usr/local/bin/offsettui"] != 0 || owners["home/offsettui"] != ImageUID || owners["etc/ssl/certs/ca-certificates.crt"] != 0 {
		t.Errorf("owners %v", owners)
	}
	// Two builds of one stamp are the same image.
	again, err := Image(s, Target{"linux", "arm64"}, bin)
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := img.Digest()
	d2, _ := again.Digest()
	if d1 != d2 {
		t.Errorf("two builds: %s and %s", d1, d2)
	}
}
