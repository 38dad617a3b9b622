{{/* The chart's name, or nameOverride. */}}
{{- define "offsettui.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The objects' name: fullnameOverride, else the release's name with the chart's unless it holds it. */}}
{{- define "offsettui.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "offsettui.selectorLabels" -}}
app.kubernetes.io/name: {{ include "offsettui.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "offsettui.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "offsettui.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "offsettui.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "offsettui.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "offsettui.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}
{{- end }}

{{/* The client properties' Secret: the user's, or the chart's when it has properties. */}}
{{- define "offsettui.clientSecret" -}}
{{- if .Values.existingClientSecret }}
{{- .Values.existingClientSecret }}
{{- else if .Values.clientProperties }}
{{- printf "%s-client" (include "offsettui.fullname" .) }}
{{- end }}
{{- end }}

{{/* serve's arguments, from .Values.serve (docs/cli.md#serve). */}}
{{- define "offsettui.serveArgs" -}}
- serve
- --listen=:{{ .Values.serve.port }}
{{- with .Values.serve }}
{{- if .interval }}
- --interval={{ .interval }}
{{- end }}
{{- if .stallAfter }}
- --stall-after={{ .stallAfter }}
{{- end }}
{{- if .riskWindow }}
- --risk-window={{ .riskWindow }}
{{- end }}
{{- if .timeout }}
- --timeout={{ .timeout }}
{{- end }}
{{- if .fetchBudget }}
- --fetch-budget={{ .fetchBudget }}
{{- end }}
{{- if .maxPartitionSeries }}
- --max-partition-series={{ .maxPartitionSeries }}
{{- end }}
{{- if .commitLog }}
- --commit-log={{ .commitLog }}
{{- end }}
{{- if .commitLogBudget }}
- --commit-log-budget={{ .commitLogBudget }}
{{- end }}
{{- if .commandConfig }}
- --command-config=/etc/offsettui/client/{{ .commandConfig }}
{{- end }}
{{- range .contexts }}
- --context={{ . }}
{{- end }}
{{- if .allContexts }}
- --all-contexts
{{- end }}
{{- range .includeGroups }}
- --include-group={{ . }}
{{- end }}
{{- range .excludeGroups }}
- --exclude-group={{ . }}
{{- end }}
{{- range .includeTopics }}
- --include-topic={{ . }}
{{- end }}
{{- range .excludeTopics }}
- --exclude-topic={{ . }}
{{- end }}
{{- if .granularity }}
- --granularity={{ .granularity }}
{{- end }}
{{- end }}
{{- if .Values.config }}
- --config=/etc/offsettui/config/config.yaml
{{- end }}
{{- range .Values.serve.extraArgs }}
- {{ . }}
{{- end }}
{{- end }}
