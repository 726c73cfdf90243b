{{/* What an upgrade keeps from the live cluster (found with `lookup`): the webhook TLS pair, the admin token, the webhook rules. */}}

{{/*
verdict.webhookTLS: the webhook's CA and serving certificate for tls.mode=helm, as JSON
{caCert, caKey, caNotAfter, tlsCert, tlsKey, tlsNotAfter, dnsNames} (certificates and keys as
base64-encoded PEM, ready for Secret data; not-after dates in RFC 3339, UTC).

Input: (dict "root" $ "oldCa" <the CA Secret> "oldTls" <the serving Secret>), the Secrets as `lookup`
finds them (empty at install, and always under `helm template` and --dry-run).

What it keeps: the CA, while it is further than tls.helm.renewBeforeDays from expiry, so caBundle
stays the same across upgrades; the certificate too, unless the Service's DNS names changed, it is
within renewBeforeDays of expiry, or the CA was replaced. A renewal therefore happens on the first
upgrade inside that window (Verdict reloads the mounted files).
*/}}
{{- define "verdict.webhookTLS" -}}
{{- $root := .root }}
{{- $helm := $root.Values.tls.helm }}
{{- $oldCa := .oldCa | default dict }}
{{- $oldTls := .oldTls | default dict }}
{{- $dnsNames := include "verdict.webhookDnsNames" $root | fromJsonArray }}
{{- $dnsNamesText := join "," $dnsNames }}
{{- $timeFormat := "2006-01-02T15:04:05Z07:00" }}
{{- $threshold := add (now).Unix (mul (int $helm.renewBeforeDays) 86400) }}
{{- $result := dict "dnsNames" $dnsNamesText }}
{{- /* The CA */}}
{{- $oldCaCert := dig "data" "tls.crt" "" $oldCa }}
{{- $oldCaKey := dig "data" "tls.key" "" $oldCa }}
{{- $oldCaNotAfter := dig "metadata" "annotations" "verdict.dev/not-after" "" $oldCa }}
{{- $ca := dict }}
{{- $caReused := false }}
{{- if and $oldCaCert $oldCaKey (gt (toDate $timeFormat $oldCaNotAfter).Unix $threshold) }}
{{- $ca = buildCustomCert $oldCaCert $oldCaKey }}
{{- $caReused = true }}
{{- $_ := set $result "caNotAfter" $oldCaNotAfter }}
{{- else }}
{{- $ca = genCA (printf "%s-webhook-ca" (include "verdict.fullname" $root)) (int $helm.caValidityDays) }}
{{- $_ := set $result "caNotAfter" (dateInZone $timeFormat (now | dateModify (printf "+%dh" (mul (int $helm.caValidityDays) 24))) "UTC") }}
{{- end }}
{{- $_ := set $result "caCert" ($ca.Cert | b64enc) }}
{{- $_ := set $result "caKey" ($ca.Key | b64enc) }}
{{- /* The serving certificate */}}
{{- $oldCert := dig "data" "tls.crt" "" $oldTls }}
{{- $oldKey := dig "data" "tls.key" "" $oldTls }}
{{- $oldNotAfter := dig "metadata" "annotations" "verdict.dev/not-after" "" $oldTls }}
{{- $oldDnsNames := dig "metadata" "annotations" "verdict.dev/dns-names" "" $oldTls }}
{{- if and $caReused $oldCert $oldKey (eq $oldDnsNames $dnsNamesText) (gt (toDate $timeFormat $oldNotAfter).Unix $threshold) }}
{{- $_ := set $result "tlsCert" $oldCert }}
{{- $_ := set $result "tlsKey" $oldKey }}
{{- $_ := set $result "tlsNotAfter" $oldNotAfter }}
{{- else }}
{{- $cert := genSignedCert (index $dnsNames 2) nil $dnsNames (int $helm.certValidityDays) $ca }}
{{- $_ := set $result "tlsCert" ($cert.Cert | b64enc) }}
{{- $_ := set $result "tlsKey" ($cert.Key | b64enc) }}
{{- $_ := set $result "tlsNotAfter" (dateInZone $timeFormat (now | dateModify (printf "+%dh" (mul (int $helm.certValidityDays) 24))) "UTC") }}
{{- end }}
{{- $result | toJson }}
{{- end }}

{{/*
verdict.adminToken: the base64-encoded admin token for the chart's Secret: the one in the Secret given
(as `lookup` finds it on upgrade), else a new `vdt_` token of 43 random letters and digits (256 bits).
*/}}
{{- define "verdict.adminToken" -}}
{{- $old := dig "data" "token" "" (. | default dict) }}
{{- if $old }}
{{- $old }}
{{- else }}
{{- printf "vdt_%s" (randAlphaNum 43) | b64enc }}
{{- end }}
{{- end }}

{{/*
verdict.webhookRules: the webhook's rules as a JSON list. Input: (dict "root" $ "live" <the live
ValidatingWebhookConfiguration, as `lookup` finds it, or empty> "webhook" <the webhook's name>).
The live webhook's rules when it exists (set by the controller; the API server omits an empty list,
and no rules at all is the controller's choice too), else webhook.rules from the values.
*/}}
{{- define "verdict.webhookRules" -}}
{{- $rules := .root.Values.webhook.rules }}
{{- $name := .webhook }}
{{- range (dig "webhooks" list (.live | default dict)) }}
{{- if eq (dig "name" "" .) $name }}
{{- $rules = dig "rules" list . }}
{{- end }}
{{- end }}
{{- $rules | toJson }}
{{- end }}
