package chart

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/engine"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"
)

// Release names the release a render is for, as `helm template NAME -n NAMESPACE`.
type Release struct{ Name, Namespace string }

// DefaultRelease is the release deploy/kubernetes/ is rendered for.
var DefaultRelease = Release{Name: "offsettui", Namespace: "offsettui"}

// Manifest is one rendered object: the template it came from and its YAML.
type Manifest struct {
	Source  string // "offsettui/templates/deployment.yaml"
	Kind    string
	Content string
}

// LoadValues reads values files, later ones over earlier ones, as helm's -f does.
func LoadValues(files ...string) (map[string]any, error) {
	vals := map[string]any{}
	for _, f := range files {
		v, err := common.ReadValuesFile(f)
		if err != nil {
			return nil, fmt.Errorf("values %s: %w", f, err)
		}
		vals = loader.MergeMaps(vals, v)
	}
	return vals, nil
}

// Render renders the chart in dir with vals over its values.yaml, as `helm
// template` does: objects in Helm's install order, NOTES.txt and empty files
// left out.
func Render(dir string, vals map[string]any, rel Release) ([]Manifest, error) {
	ch, err := loader.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("load chart %s: %w", dir, err)
	}
	opts := common.ReleaseOptions{Name: rel.Name, Namespace: rel.Namespace, Revision: 1, IsInstall: true}
	renderVals, err := util.ToRenderValuesWithSchemaValidation(ch, maps.Clone(vals), opts, common.DefaultCapabilities, false)
	if err != nil {
		return nil, fmt.Errorf("values: %w", err)
	}
	files, err := engine.Render(ch, renderVals)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	kept := map[string]string{}
	for name, content := range files {
		if strings.HasSuffix(name, "NOTES.txt") || strings.HasPrefix(filepath.Base(name), "_") {
			continue
		}
		if strings.TrimSpace(content) != "" {
			kept[name] = content
		}
	}
	hooks, sorted, err := releaseutil.SortManifests(kept, nil, releaseutil.InstallOrder)
	if err != nil {
		return nil, fmt.Errorf("sort: %w", err)
	}
	if len(hooks) > 0 {
		return nil, fmt.Errorf("the chart has %d hooks; deploy/kubernetes/ cannot hold them", len(hooks))
	}
	out := make([]Manifest, 0, len(sorted))
	for _, m := range sorted {
		kind := ""
		if m.Head != nil {
			kind = m.Head.Kind
		}
		out = append(out, Manifest{Source: m.Name, Kind: kind, Content: strings.TrimSpace(m.Content) + "\n"})
	}
	return out, nil
}

// Join writes manifests as one YAML stream, each headed by its source, as
// `helm template` prints them.
func Join(ms []Manifest) string {
	var b strings.Builder
	for _, m := range ms {
		fmt.Fprintf(&b, "---\n# Source: %s\n%s", m.Source, m.Content)
	}
	return b.String()
}
