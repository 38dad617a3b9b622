// Package chart renders, lints and validates the Helm chart deploy/helm/offsettui
// with Helm's own library (helm.sh/helm/v4), offline: what `helm template` and
// `helm lint --strict` do, and a strict decoding of every rendered object into
// the Kubernetes and prometheus-operator Go types.
package chart
