{{/* Names: kept to 63 characters, the limit of a DNS label and of most object names. */}}
{{- define "verdict.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "verdict.fullname" -}}
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

{{- define "verdict.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "verdict.selectorLabels" -}}
app.kubernetes.io/name: {{ include "verdict.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "verdict.labels" -}}
helm.sh/chart: {{ include "verdict.chart" . }}
{{ include "verdict.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: verdict
{{- end }}

{{- define "verdict.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "verdict.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "verdict.image" -}}
{{- $tag := default .Chart.AppVersion .Values.image.tag }}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{/* The webhook: its Service, its configuration (cluster-scoped, hence the release name in it) and its Secrets. */}}
{{- define "verdict.webhookServiceName" -}}
{{- printf "%s-webhook" (include "verdict.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "verdict.webhookConfigurationName" -}}
{{- include "verdict.fullname" . }}
{{- end }}

{{- define "verdict.tlsSecretName" -}}
{{- printf "%s-webhook-tls" (include "verdict.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "verdict.caSecretName" -}}
{{- printf "%s-webhook-ca" (include "verdict.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "verdict.certificateName" -}}
{{- printf "%s-webhook" (include "verdict.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The DNS names the API server may use for the webhook Service. */}}
{{- define "verdict.webhookDnsNames" -}}
{{- $service := include "verdict.webhookServiceName" . }}
{{- $namespace := .Release.Namespace }}
{{- list $service (printf "%s.%s" $service $namespace) (printf "%s.%s.svc" $service $namespace) (printf "%s.%s.svc.cluster.local" $service $namespace) | toJson }}
{{- end }}

{{- define "verdict.adminTokenSecretName" -}}
{{- if .Values.adminToken.existingSecret }}
{{- .Values.adminToken.existingSecret }}
{{- else }}
{{- printf "%s-admin-token" (include "verdict.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "verdict.adminTokenSecretKey" -}}
{{- if .Values.adminToken.existingSecret }}
{{- .Values.adminToken.existingSecretKey }}
{{- else -}}
token
{{- end }}
{{- end }}

{{/* True (non-empty) when Verdict receives VERDICT_BOOTSTRAP_TOKEN from a Secret. */}}
{{- define "verdict.hasAdminTokenSecret" -}}
{{- if or .Values.adminToken.existingSecret .Values.adminToken.create }}true{{ end }}
{{- end }}

{{- define "verdict.databaseSecretName" -}}
{{- if .Values.database.existingSecret }}
{{- .Values.database.existingSecret }}
{{- else }}
{{- printf "%s-database" (include "verdict.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "verdict.databaseSecretKey" -}}
{{- if .Values.database.existingSecret }}
{{- .Values.database.existingSecretKey }}
{{- else -}}
url
{{- end }}
{{- end }}

{{- define "verdict.dataClaimName" -}}
{{- if .Values.database.persistence.existingClaim }}
{{- .Values.database.persistence.existingClaim }}
{{- else }}
{{- printf "%s-data" (include "verdict.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* True (non-empty) when the data directory is a PersistentVolumeClaim. */}}
{{- define "verdict.persistentData" -}}
{{- if and (eq .Values.database.mode "embedded") .Values.database.persistence.enabled }}true{{ end }}
{{- end }}

{{/* A byte size as an environment value: a string as given, a number as a whole number (not 3.3554432e+07). */}}
{{- define "verdict.sizeValue" -}}
{{- if kindIs "string" . }}{{ . | quote }}{{ else }}{{ . | int64 | toString | quote }}{{ end }}
{{- end }}

{{/*
Checks across values that values.schema.json cannot express clearly, with a message that says what
to change. Included by the Deployment, so every render runs them.
*/}}
{{- define "verdict.validate" -}}
{{- if and (eq .Values.database.mode "embedded") (gt (int .Values.replicaCount) 1) }}
{{- fail (printf "replicaCount is %d but database.mode is embedded: the embedded database is one PostgreSQL server inside one pod on one volume, so it allows 1 replica. Set database.mode=external with database.url or database.existingSecret to run several replicas." (int .Values.replicaCount)) }}
{{- end }}
{{- if and (eq .Values.database.mode "external") (not .Values.database.url) (not .Values.database.existingSecret) }}
{{- fail "database.mode is external: set database.existingSecret (a Secret holding the PostgreSQL URL) or database.url" }}
{{- end }}
{{- if and .Values.database.url (not (regexMatch "^postgres(ql)?://" .Values.database.url)) }}
{{- fail "database.url must start with postgres:// or postgresql://" }}
{{- end }}
{{- range $index, $rule := .Values.webhook.rules }}
{{- range $rule.resources }}
{{- if regexMatch "^(\\*|leases|events)(/.*)?$" . }}
{{- fail (printf "webhook.rules[%d].resources has %q: leases, events and * are never sent to the webhook (every lease renewal and event would wait for Verdict)" $index .) }}
{{- end }}
{{- end }}
{{- end }}
{{- if and (eq .Values.tls.mode "helm") (lt (int .Values.tls.helm.caValidityDays) (int .Values.tls.helm.certValidityDays)) }}
{{- fail "tls.helm.caValidityDays must be at least tls.helm.certValidityDays: the certificate cannot outlive its CA" }}
{{- end }}
{{- end }}
