package imagetest

import (
	"archive/tar"
	"bufio"
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"

	"github.com/offsettui/offsettui/tools/release"
)

// dist is the release's directory: OFFSETTUI_DIST (an absolute path: a test runs in
// its package's directory), else the repository's dist/.
func dist(t *testing.T) (string, release.Metadata) {
	t.Helper()
	dir := os.Getenv("OFFSETTUI_DIST")
	if dir == "" {
		dir = filepath.Join("..", "..", "dist")
	}
	m, err := release.ReadMetadata(dir)
	if err != nil {
		if os.Getenv("OFFSETTUI_REQUIRE_RELEASE") != "" {
			t.Fatalf("OFFSETTUI_REQUIRE_RELEASE is set and %s has no release: %v", dir, err)
		}
		t.Skipf("no release in %s (scripts/release.sh --snapshot writes one): %v", dir, err)
	}
	return dir, m
}

// hostImage is the image of the index for this machine's architecture.
func hostImage(t *testing.T, dir string) v1.Image {
	t.Helper()
	p, err := layout.FromPath(filepath.Join(dir, release.ImageLayoutDir))
	if err != nil {
		t.Fatal(err)
	}
	top, err := p.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	tm, err := top.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(tm.Manifests) != 1 {
		t.Fatalf("the layout's index.json holds %d manifests, want the one index", len(tm.Manifests))
	}
	idx, err := top.ImageIndex(tm.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	var platforms []string
	for _, d := range im.Manifests {
		platforms = append(platforms, d.Platform.OS+"/"+d.Platform.Architecture)
		if d.Platform.OS == "linux" && d.Platform.Architecture == runtime.GOARCH {
			img, err := idx.Image(d.Digest)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("the index holds %v", platforms)
			return img
		}
	}
	t.Fatalf("no linux/%s image in the index (it holds %v)", runtime.GOARCH, platforms)
	return nil
}

func TestImageConfig(t *testing.T) {
	dir, m := dist(t)
	cfg, err := hostImage(t, dir).ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Config
	uid, gid, ok := strings.Cut(c.User, ":")
	if !ok || uid == "0" || gid == "0" || uid == "" || strings.HasPrefix(uid, "root") {
		t.Errorf("User %q: want a numeric non-root uid:gid (Kubernetes' runAsNonRoot checks a number)", c.User)
	}
	if !slices.Equal(c.Entrypoint, []string{release.ImageBinary}) {
		t.Errorf("Entrypoint %q", c.Entrypoint)
	}
	port := strconv.Itoa(release.ImagePort)
	if !slices.Equal(c.Cmd, []string{"serve", "--listen", ":" + port}) {
		t.Errorf("Cmd %q: want serve on every interface", c.Cmd)
	}
	if _, ok := c.ExposedPorts[port+"/tcp"]; !ok || len(c.ExposedPorts) != 1 {
		t.Errorf("ExposedPorts %v: want %s/tcp", c.ExposedPorts, port)
	}
	for k, want := range map[string]string{
		"org.opencontainers.image.source":   release.Homepage,
		"org.opencontainers.image.version":  m.Version,
		"org.opencontainers.image.revision": m.Commit,
	} {
		if c.Labels[k] != want {
			t.Errorf("label %s = %q, want %q", k, c.Labels[k], want)
		}
	}
	if cfg.Created.UTC().Format(time.RFC3339) != m.Date {
		t.Errorf("created %s, want the commit's time %s", cfg.Created, m.Date)
	}
}

// unpack writes the image's filesystem into a new directory, with the owners
// and modes of its tar entries, and returns the directory and the entries.
func unpack(t *testing.T, img v1.Image) (string, map[string]*tar.Header) {
	t.Helper()
	root := t.TempDir()
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	headers := map[string]*tar.Header{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := "/" + strings.TrimSuffix(strings.TrimPrefix(h.Name, "./"), "/")
		headers[name] = h
		path := filepath.Join(root, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, os.FileMode(h.Mode)&os.ModePerm); err != nil {
				t.Fatal(err)
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&os.ModePerm)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(f, tr); err != nil {
				t.Fatal(err)
			}
			f.Close()
		default:
			t.Fatalf("%s: unexpected entry type %c", name, h.Typeflag)
		}
		if err := os.Lchown(path, h.Uid, h.Gid); err != nil && os.Geteuid() == 0 {
			t.Fatal(err)
		}
		mode := os.FileMode(h.Mode) & os.ModePerm
		if h.Mode&0o1000 != 0 {
			mode |= os.ModeSticky
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	return root, headers
}

func TestImageFiles(t *testing.T) {
	dir, _ := dist(t)
	img := hostImage(t, dir)
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	uid, _, _ := strings.Cut(cfg.Config.User, ":")
	root, headers := unpack(t, img)
	// Root owns everything but the user's home: the user cannot replace the
	// binary or the CA bundle.
	for name, h := range headers {
		owner := strconv.Itoa(h.Uid)
		if name == release.ImageHome {
			if owner != uid {
				t.Errorf("%s is owned by %s, want the user %s", name, owner, uid)
			}
			continue
		}
		if h.Uid != 0 || h.Gid != 0 {
			t.Errorf("%s is owned by %d:%d, want root", name, h.Uid, h.Gid)
		}
		if h.Typeflag == tar.TypeReg && h.Mode&0o022 != 0 {
			t.Errorf("%s has mode %o: writable by others", name, h.Mode)
		}
	}
	if h := headers[release.ImageBinary]; h == nil || h.Mode&0o111 != 0o111 {
		t.Errorf("%s: %+v, want an executable", release.ImageBinary, h)
	}
	passwd, err := os.ReadFile(filepath.Join(root, "etc", "passwd"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(passwd), ":x:"+uid+":") {
		t.Errorf("/etc/passwd names no user %s:\n%s", uid, passwd)
	}
	// The CA bundle: PEM certificates Go's crypto/x509 takes, among them the
	// roots most public brokers' certificates chain to.
	pemBytes, err := os.ReadFile(filepath.Join(root, release.ImageCABundle))
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for rest := pemBytes; ; {
		var b *pem.Block
		if b, rest = pem.Decode(rest); b == nil {
			break
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			t.Fatalf("the CA bundle: %v", err)
		}
		subjects = append(subjects, c.Subject.CommonName)
	}
	for _, want := range []string{"ISRG Root X1", "Amazon Root CA 1", "DigiCert Global Root G2", "GTS Root R1"} {
		if !slices.Contains(subjects, want) {
			t.Errorf("the CA bundle lacks %q", want)
		}
	}
	if len(subjects) < 100 {
		t.Errorf("the CA bundle holds %d certificates", len(subjects))
	}
	t.Logf("%s: %d root certificates", release.ImageCABundle, len(subjects))
}

// TestImageServesTheDemo runs the image's entrypoint and command, chrooted in
// its unpacked filesystem as its user, against `offsettui demo`: /readyz and
// /healthz answer 200 and /metrics has the demo's group series.
func TestImageServesTheDemo(t *testing.T) {
	dir, m := dist(t)
	if os.Geteuid() != 0 {
		if os.Getenv("OFFSETTUI_REQUIRE_RELEASE") != "" {
			t.Fatal("running the image's command needs root (chroot, setuid); CI runs as root")
		}
		t.Skip("running the image's command needs root (chroot, setuid)")
	}
	img := hostImage(t, dir)
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	root, _ := unpack(t, img)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// The demo cluster, from the release's own binary.
	demo := exec.CommandContext(ctx, filepath.Join(root, release.ImageBinary), "demo")
	stdout, err := demo.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := demo.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = demo.Process.Signal(syscall.SIGTERM); _ = demo.Wait() }()
	bootstrap, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("offsettui demo printed no address: %v", err)
	}
	bootstrap = strings.TrimSpace(bootstrap)

	// The image's command as it is when its port is free here; else the same
	// with --listen on a free port, which is how a user moves it.
	args := append(slices.Clone(cfg.Config.Entrypoint[1:]), cfg.Config.Cmd...)
	port := strconv.Itoa(release.ImagePort)
	if l, err := net.Listen("tcp", ":"+port); err == nil {
		l.Close()
	} else {
		port = freePort(t)
		args = append(args, "--listen", "127.0.0.1:"+port)
		t.Logf("port %d is taken on this machine: serve gets --listen 127.0.0.1:%s", release.ImagePort, port)
	}
	uid, gid := ids(t, cfg.Config.User)
	serve := exec.CommandContext(ctx, cfg.Config.Entrypoint[0], args...)
	serve.Env = append(slices.Clone(cfg.Config.Env), "KAFKA_BOOTSTRAP_SERVERS="+bootstrap)
	serve.Dir = cfg.Config.WorkingDir
	serve.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: uid, Gid: gid}}
	logs, err := os.Create(filepath.Join(t.TempDir(), "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	serve.Stdout, serve.Stderr = logs, logs
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- serve.Wait() }()
	defer func() { _ = serve.Process.Signal(syscall.SIGTERM); <-exited }()
	t.Logf("running %q in the image as %s, KAFKA_BOOTSTRAP_SERVERS=%s", append(cfg.Config.Entrypoint[:1:1], args...), cfg.Config.User, bootstrap)

	if status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", serve.Process.Pid)); err == nil {
		for _, line := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(line, "Uid:") {
				if f := strings.Fields(line); len(f) < 2 || f[1] != strconv.Itoa(int(uid)) {
					t.Errorf("the process runs as %q, want uid %d", line, uid)
				} else {
					t.Logf("the process runs as uid %s", f[1])
				}
			}
		}
	}

	base := "http://127.0.0.1:" + port
	deadline := time.Now().Add(90 * time.Second)
	for {
		code, body := get(base + "/readyz")
		if code == http.StatusOK {
			break
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("serve ended (%v) before /readyz answered 200; its output:\n%s", err, readLog(logs))
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz answered %d %s for 90 s; serve's output:\n%s", code, body, readLog(logs))
		}
	}
	if code, body := get(base + "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz: %d %s", code, body)
	}
	code, metrics := get(base + "/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{`offsettui_up{cluster="` + bootstrap + `"} 1`, `offsettui_group_partitions{`, `group="fanout"`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	t.Logf("/metrics: %d lines, /readyz and /healthz 200; version %s", strings.Count(metrics, "\n"), m.Version)
}

func get(url string) (int, string) {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func readLog(f *os.File) string {
	b, _ := os.ReadFile(f.Name())
	return string(b)
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

func ids(t *testing.T, user string) (uint32, uint32) {
	t.Helper()
	u, g, _ := strings.Cut(user, ":")
	uid, err := strconv.ParseUint(u, 10, 32)
	if err != nil {
		t.Fatalf("User %q: %v", user, err)
	}
	gid, err := strconv.ParseUint(g, 10, 32)
	if err != nil {
		t.Fatalf("User %q: %v", user, err)
	}
	return uint32(uid), uint32(gid)
}
