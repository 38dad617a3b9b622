package chart

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
)

// scheme knows the kinds the chart may render: core, apps and the
// prometheus-operator's monitoring types.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, monitoringv1.AddToScheme} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}()

// strict decodes YAML as the API server's strict field validation does: an
// unknown or duplicated field, or a value of the wrong type, is an error.
var strict = json.NewSerializerWithOptions(json.DefaultMetaFactory, scheme, scheme,
	json.SerializerOptions{Yaml: true, Strict: true})

// Decode turns a rendered manifest into its typed object, strictly.
func Decode(m Manifest) (runtime.Object, error) {
	obj, gvk, err := strict.Decode([]byte(m.Content), nil, nil)
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", m.Source, m.Kind, err)
	}
	if gvk.Kind != m.Kind {
		return nil, fmt.Errorf("%s: decoded as %s, rendered as %s", m.Source, gvk.Kind, m.Kind)
	}
	return obj, nil
}
