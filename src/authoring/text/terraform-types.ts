/**
 * Terraform resource types named in text: `aws_s3_bucket`, `google_compute_instance`. A type is a
 * provider's name, an underscore and the resource's name; attributes (`server_side_encryption`)
 * have underscores too, so only the prefixes of providers people write policies for count.
 */
const PROVIDERS = ['aws', 'google', 'azurerm', 'azuread', 'kubernetes', 'helm', 'random', 'null', 'tls', 'local', 'oci', 'alicloud', 'digitalocean', 'cloudflare', 'github', 'gitlab', 'vault', 'datadog', 'ibm', 'hcloud', 'linode', 'vsphere', 'openstack', 'snowflake', 'databricks', 'okta', 'newrelic', 'pagerduty', 'mongodbatlas', 'confluent', 'elasticsearch', 'grafana']

const TYPE = new RegExp(String.raw`(?<![\w.])(?:${PROVIDERS.join('|')})_[a-z0-9]+(?:_[a-z0-9]+)*(?![\w])`, 'g')

const WHOLE_TYPE = new RegExp(`^${TYPE.source}$`)

/** Whether a label's value is a resource type (`aws_s3_bucket`), not a word for the whole plan ("plan", "tfplan"). */
export function isTerraformType(value: string): boolean {
  return WHOLE_TYPE.test(value)
}

/** The resource types a sentence names, in order, without duplicates. */
export function terraformTypesNamedIn(text: string): string[] {
  return [...new Set([...text.matchAll(TYPE)].map((match) => match[0]))]
}
