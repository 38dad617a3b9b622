package release

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's user, port and paths (docs/metrics.md, "The image").
const (
	ImageUID        = 65532
	ImageUser       = "offsettui"
	ImageHome       = "/home/offsettui"
	ImageBinary     = "/usr/local/bin/offsettui"
	ImageCABundle   = "/etc/ssl/certs/ca-certificates.crt"
	ImagePort       = 9308
	ImageRepository = "ghcr.io/offsettui/offsettui"
	ImageLayoutDir  = "image"
)

// ImageCommand is the image's default command: serve on every interface of
// the pod, on the port the image exposes.
var ImageCommand = []string{"serve", "--listen", ":" + strconv.Itoa(ImagePort)}

// imageFile is one entry of the image's only layer.
type imageFile struct {
	name     string
	mode     int64
	uid      int
	dir      bool
	contents []byte
}

// imageLayer is the image's filesystem: the static binary, the CA bundle, and
// passwd and group files naming the non-root user, whose home is the only
// place it owns. Root owns the rest; times are the commit's.
func imageLayer(binary, caBundle []byte, mtime time.Time) ([]byte, error) {
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\n%s:x:%d:%d:%s:%s:/sbin/nologin\n",
		ImageUser, ImageUID, ImageUID, ImageUser, ImageHome)
	group := fmt.Sprintf("root:x:0:\n%s:x:%d:\n", ImageUser, ImageUID)
	entries := []imageFile{
		{name: "etc/", mode: 0o755, dir: true},
		{name: "etc/group", mode: 0o644, contents: []byte(group)},
		{name: "etc/passwd", mode: 0o644, contents: []byte(passwd)},
		{name: "etc/ssl/", mode: 0o755, dir: true},
		{name: "etc/ssl/certs/", mode: 0o755, dir: true},
		{name: ImageCABundle[1:], mode: 0o644, contents: caBundle},
		{name: "home/", mode: 0o755, dir: true},
		{name: ImageHome[1:] + "/", mode: 0o755, uid: ImageUID, dir: true},
		{name: "tmp/", mode: 0o1777, dir: true},
		{name: "usr/", mode: 0o755, dir: true},
		{name: "usr/local/", mode: 0o755, dir: true},
		{name: "usr/local/bin/", mode: 0o755, dir: true},
		{name: ImageBinary[1:], mode: 0o755, contents: binary},
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.uid, ModTime: mtime, Format: tar.FormatPAX,
			Typeflag: tar.TypeReg, Size: int64(len(e.contents))}
		if e.dir {
			h.Typeflag, h.Size = tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.contents); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ImageLabels are the OCI labels of the image config.
func ImageLabels(s Stamp) map[string]string {
	return map[string]string{
		"org.opencontainers.image.source":   Homepage,
		"org.opencontainers.image.version":  s.Version,
		"org.opencontainers.image.revision": s.Commit,
		"org.opencontainers.image.created":  s.DateText(),
		"org.opencontainers.image.title":    "offsettui",
		"org.opencontainers.image.url":      Homepage,
	}
}

// Image is the image of one linux binary.
func Image(s Stamp, t Target, binaryPath string) (v1.Image, error) {
	binary, err := os.ReadFile(binaryPath)
	if err != nil {
		return nil, err
	}
	tarBytes, err := imageLayer(binary, CABundle(), s.Date)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(tarBytes)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	base := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err := mutate.Append(base, mutate.Addendum{Layer: layer, History: v1.History{
		Created: v1.Time{Time: s.Date}, CreatedBy: "tools/cmd/release", Comment: "offsettui " + s.Version}})
	if err != nil {
		return nil, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cfg = cfg.DeepCopy()
	cfg.Created = v1.Time{Time: s.Date}
	cfg.OS, cfg.Architecture = t.OS, t.Arch
	if t.Arch == "arm64" {
		cfg.Variant = "v8"
	}
	cfg.Config = v1.Config{
		User:         strconv.Itoa(ImageUID) + ":" + strconv.Itoa(ImageUID),
		Entrypoint:   []string{ImageBinary},
		Cmd:          ImageCommand,
		ExposedPorts: map[string]struct{}{strconv.Itoa(ImagePort) + "/tcp": {}},
		Env:          []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + ImageHome, "SSL_CERT_FILE=" + ImageCABundle},
		WorkingDir:   ImageHome,
		Labels:       ImageLabels(s),
	}
	return mutate.ConfigFile(img, cfg)
}

// WriteImage writes the images of the linux binaries, one per architecture,
// as one multi-platform index in an OCI layout at dir, tagged with the
// version.
func WriteImage(dir string, s Stamp, binaries map[Target]string) error {
	var adds []mutate.IndexAddendum
	for _, t := range AllTargets {
		path, ok := binaries[t]
		if !ok || t.OS != "linux" {
			continue
		}
		img, err := Image(s, t, path)
		if err != nil {
			return fmt.Errorf("image for %s: %w", t, err)
		}
		p := &v1.Platform{OS: t.OS, Architecture: t.Arch}
		if t.Arch == "arm64" {
			p.Variant = "v8"
		}
		adds = append(adds, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: p}})
	}
	if len(adds) == 0 {
		return fmt.Errorf("no linux binary to put in the image")
	}
	idx := mutate.Annotations(mutate.AppendManifests(empty.Index, adds...), ImageLabels(s)).(v1.ImageIndex)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	return p.AppendIndex(idx, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": s.Version,
	}))
}
