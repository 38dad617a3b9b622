package clientconfig

// config.providers: Kafka's EnvVarConfigProvider, FileConfigProvider and
// DirectoryConfigProvider, resolved before any property is applied.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

const providersKey = "config.providers"

// placeholder is Kafka's ConfigTransformer pattern ${provider:[path:]key}.
var placeholder = regexp.MustCompile(`\$\{(.*?):((.*?):)?(.*?)\}`)

// configProvider resolves the keys of one path, as Kafka's ConfigProvider.get(path, keys).
type configProvider interface {
	get(path, key string) (string, error)
}

// ResolveProperties returns a copy of props with every ${provider:[path:]key} placeholder
// replaced as Kafka's clients replace it, with the providers that config.providers names:
// EnvVarConfigProvider (${env:NAME}; param allowlist.pattern, a regular expression the whole
// name must match), FileConfigProvider (${file:/path/to.properties:key}) and
// DirectoryConfigProvider (${dir:/path/to/dir:file}, the file's content as is), the last two
// with param allowed.paths (comma-separated absolute paths; symbolic links are resolved before
// the check, as in Kafka 4.4). Unlike Kafka, which leaves a placeholder it cannot resolve in
// the value and sends it, an unresolvable placeholder is an error naming the property and the
// placeholder; the error never contains a resolved value.
func ResolveProperties(props map[string]string) (map[string]string, error) {
	providers, err := configureProviders(props)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(props))
	for k, v := range props {
		r, err := resolveValue(k, v, providers)
		if err != nil {
			return nil, err
		}
		out[k] = r
	}
	return out, nil
}

// resolveValue replaces every placeholder in the value of key.
func resolveValue(key, value string, providers map[string]configProvider) (string, error) {
	var firstErr error
	out := placeholder.ReplaceAllStringFunc(value, func(ph string) string {
		if firstErr != nil {
			return ph
		}
		m := placeholder.FindStringSubmatch(ph)
		name, path, k := m[1], m[3], m[4]
		p, ok := providers[name]
		if !ok {
			firstErr = propErr(key, "%s cannot be resolved: no config provider named %q (set config.providers=%s and "+
				"config.providers.%s.class)", ph, name, name, name)
			return ph
		}
		v, err := p.get(path, k)
		if err != nil {
			firstErr = propErr(key, "%s cannot be resolved: %v", ph, err)
			return ph
		}
		return v
	})
	return out, firstErr
}

// configureProviders builds the providers config.providers names. As in Kafka, a name
// without a class is not a provider (its placeholders then fail to resolve).
func configureProviders(props map[string]string) (map[string]configProvider, error) {
	providers := map[string]configProvider{}
	for _, name := range strings.Split(props[providersKey], ",") {
		name = strings.TrimSpace(name)
		classKey := providersKey + "." + name + ".class"
		class, ok := props[classKey]
		if name == "" || !ok {
			continue
		}
		param := func(p string) (string, bool) {
			v, ok := props[providersKey+"."+name+".param."+p]
			return strings.TrimSpace(v), ok
		}
		var err error
		switch strings.TrimSpace(class) {
		case "org.apache.kafka.common.config.provider.EnvVarConfigProvider":
			providers[name], err = newEnvProvider(param)
		case "org.apache.kafka.common.config.provider.FileConfigProvider":
			providers[name], err = newFileProvider(param, false)
		case "org.apache.kafka.common.config.provider.DirectoryConfigProvider":
			providers[name], err = newFileProvider(param, true)
		default:
			return nil, propErr(classKey, "unsupported config provider %s; offsettui has EnvVarConfigProvider, "+
				"FileConfigProvider and DirectoryConfigProvider (org.apache.kafka.common.config.provider)", shown(classKey, class))
		}
		if err != nil {
			return nil, err
		}
	}
	return providers, nil
}

// envProvider is EnvVarConfigProvider.
type envProvider struct{ allow *regexp.Regexp }

func newEnvProvider(param func(string) (string, bool)) (configProvider, error) {
	pattern, ok := param("allowlist.pattern")
	if !ok {
		pattern = ".*"
	}
	re, err := regexp.Compile(`^(?:` + pattern + `)$`) // Kafka uses Matcher.matches: the whole name
	if err != nil {
		return nil, propErr(providersKey+".<name>.param.allowlist.pattern", "not a regular expression: %v", err)
	}
	return envProvider{re}, nil
}

func (e envProvider) get(path, key string) (string, error) {
	if path != "" {
		return "", errors.New("EnvVarConfigProvider takes no path: write ${env:NAME}, or ${env::NAME} when the value " +
			"holds another placeholder (Kafka's pattern reads ${env:A}..${env:B} as one placeholder with a path)")
	}
	if !e.allow.MatchString(key) {
		return "", fmt.Errorf("environment variable %s is not allowed by allowlist.pattern", key)
	}
	v, ok := os.LookupEnv(key)
	if !ok {
		return "", fmt.Errorf("environment variable %s is not set", key)
	}
	return v, nil
}

// fileProvider is FileConfigProvider (a properties file, key = property) or, with dir,
// DirectoryConfigProvider (a directory, key = file name).
type fileProvider struct {
	dir     bool
	allowed []string // real absolute paths; nil allows every path
}

func newFileProvider(param func(string) (string, bool), dir bool) (configProvider, error) {
	fp := fileProvider{dir: dir}
	list, _ := param("allowed.paths")
	if list == "" {
		return fp, nil
	}
	for _, p := range strings.Split(list, ",") {
		clean := filepath.Clean(p)
		real, err := filepath.EvalSymlinks(clean)
		if !filepath.IsAbs(clean) || err != nil {
			return nil, propErr(providersKey+".<name>.param.allowed.paths", "path %s is not valid: it must be absolute and exist", clean)
		}
		fp.allowed = append(fp.allowed, real)
	}
	return fp, nil
}

func (f fileProvider) get(path, key string) (string, error) {
	if path == "" {
		return "", errors.New("no path: write ${file:/path/to.properties:key} or ${dir:/path/to/dir:file}")
	}
	target := path
	if f.dir {
		if key == "" || key == "." || key == ".." || strings.ContainsAny(key, `/\`) {
			return "", fmt.Errorf("%q is not a file name in the directory", key)
		}
		target = filepath.Join(path, key)
	}
	if err := f.check(target); err != nil {
		return "", err
	}
	if f.dir {
		if st, err := os.Stat(target); err != nil || !st.Mode().IsRegular() {
			return "", fmt.Errorf("%s is not a readable regular file", target)
		}
		data, err := readLimited(target, maxPropertiesSize)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", target, unwrapPath(err))
		}
		return string(data), nil
	}
	fh, err := os.Open(target)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", target, unwrapPath(err))
	}
	defer fh.Close()
	props, err := ParseProperties(fh, target)
	if err != nil {
		return "", err
	}
	v, ok := props[key]
	if !ok {
		return "", fmt.Errorf("%s has no key %s", target, key)
	}
	return v, nil
}

// check refuses a path outside allowed.paths (after resolving symbolic links).
func (f fileProvider) check(target string) error {
	if f.allowed == nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(target))
	if err != nil {
		return fmt.Errorf("%s: %w", target, unwrapPath(err))
	}
	for _, a := range f.allowed {
		if real == a || strings.HasPrefix(real, strings.TrimSuffix(a, string(filepath.Separator))+string(filepath.Separator)) {
			return nil
		}
	}
	return fmt.Errorf("%s is outside allowed.paths", target)
}

// unwrapPath drops the path from an *fs.PathError (the caller names the path itself).
func unwrapPath(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}
