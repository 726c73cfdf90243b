// Small builders and readers for the own-holdout-2 case files (adapted from ../own-holdout/lib.mjs). Self-contained on purpose:
// nothing here is imported from the shared dev set.

// ---------------------------------------------------------------- misc
/** Copy of `o` without the keys whose value is undefined. */
export const drop = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

export const kube = (resource) => ({ platform: 'kubernetes', resource });
export const tf = (resource) => ({ platform: 'terraform', resource });
export const gen = (resource) => ({ platform: 'generic', resource });

/** true when `s` looks like a plain mailbox address (x@y.tld). */
export const email = (s) => typeof s === 'string' && /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(s);

// ---------------------------------------------------------------- Kubernetes builders
/** A container. */
export const ctr = (name, image, more = {}) => ({ name, image, ...more });

/** Resources block shorthand: res({cpu:'100m', memory:'128Mi'}, {memory:'256Mi'}). */
export const res = (requests, limits) => drop({ requests, limits });

/**
 * A pod-running object of any kind around a pod spec.
 * opts: name, ns, labels, annotations, podLabels, podAnnotations, replicas, jobFields,
 *       cronFields, schedule, extraSpec (merged into the controller spec).
 */
export function wl(kind, opts, spec) {
  const { name, ns, labels, annotations, podLabels, podAnnotations, replicas, jobFields, cronFields, schedule, extraSpec } = opts;
  const meta = drop({ name, namespace: ns, labels: labels ?? { app: name }, annotations });
  const tmplMeta = drop({ labels: { app: name, ...(podLabels ?? {}) }, annotations: podAnnotations });
  switch (kind) {
    case 'Pod':
      return {
        apiVersion: 'v1',
        kind,
        metadata: drop({ name, namespace: ns, labels: { ...(labels ?? { app: name }), ...(podLabels ?? {}) }, annotations: annotations ?? podAnnotations }),
        spec,
      };
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
      return {
        apiVersion: 'apps/v1',
        kind,
        metadata: meta,
        spec: drop({
          serviceName: kind === 'StatefulSet' ? name : undefined,
          replicas: kind === 'DaemonSet' ? undefined : replicas,
          selector: { matchLabels: { app: name } },
          template: { metadata: tmplMeta, spec },
          ...(extraSpec ?? {}),
        }),
      };
    case 'Job':
      return {
        apiVersion: 'batch/v1',
        kind,
        metadata: meta,
        spec: { ...(jobFields ?? {}), template: { metadata: tmplMeta, spec: { restartPolicy: 'Never', ...spec } } },
      };
    case 'CronJob':
      return {
        apiVersion: 'batch/v1',
        kind,
        metadata: meta,
        spec: {
          schedule: schedule ?? '15 2 * * *',
          ...(cronFields ?? {}),
          jobTemplate: {
            spec: { ...(jobFields ?? {}), template: { metadata: tmplMeta, spec: { restartPolicy: 'OnFailure', ...spec } } },
          },
        },
      };
    default:
      throw new Error(`wl: unsupported kind ${kind}`);
  }
}

/** Any other Kubernetes object. */
export const obj = (apiVersion, kind, metadata, rest = {}) => ({ apiVersion, kind, metadata: drop(metadata), ...rest });

// ---------------------------------------------------------------- Kubernetes readers
/** {meta, spec} of the pod an object runs. */
export function podOf(o) {
  if (o.kind === 'Pod') return { meta: o.metadata ?? {}, spec: o.spec ?? {} };
  if (o.kind === 'CronJob') {
    const t = o.spec?.jobTemplate?.spec?.template ?? {};
    return { meta: t.metadata ?? {}, spec: t.spec ?? {} };
  }
  const t = o.spec?.template ?? {};
  return { meta: t.metadata ?? {}, spec: t.spec ?? {} };
}
/** Containers of a pod spec; init containers unless init:false. */
export const ctrsOf = (spec, { init = true } = {}) => [...(spec.containers ?? []), ...(init ? spec.initContainers ?? [] : []), ...(init ? spec.ephemeralContainers ?? [] : [])];
export const nsOf = (o) => o.metadata?.namespace ?? 'default';

const BIN = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
const DEC = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
/** Kubernetes quantity string -> number. */
export function qty(q) {
  if (typeof q === 'number') return q;
  const m = /^(\d+(?:\.\d+)?|\.\d+)(Ki|Mi|Gi|Ti|m|k|M|G|T)?$/.exec(String(q));
  if (!m) throw new Error(`bad quantity ${q}`);
  const unit = m[2] ?? '';
  return Number(m[1]) * (BIN[unit] ?? DEC[unit]);
}

/** Split an image reference into host, repository, tag and digest. */
export function image(ref) {
  let rest = ref;
  let digest;
  if (rest.includes('@')) [rest, digest] = rest.split('@');
  let tag;
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) { tag = rest.slice(colon + 1); rest = rest.slice(0, colon); }
  const parts = rest.split('/');
  let host = 'docker.io';
  if (parts.length > 1 && /[.:]|^localhost$/.test(parts[0])) host = parts.shift();
  return { host, repo: parts.join('/'), tag, digest };
}

/** Deterministic fake hex of the given length (digests, commit SHAs). */
export function hex(seed, len = 64) {
  let x = 2166136261;
  for (const ch of seed) x = Math.imul(x ^ ch.charCodeAt(0), 16777619) >>> 0;
  let out = '';
  while (out.length < len) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out += x.toString(16).padStart(8, '0');
  }
  return out.slice(0, len);
}

/** base64 of a string (Secret data). */
export const b64 = (s) => Buffer.from(s, 'utf8').toString('base64');

// ---------------------------------------------------------------- Terraform builders
const PROVIDER = {
  aws: 'registry.terraform.io/hashicorp/aws',
  google: 'registry.terraform.io/hashicorp/google',
  azurerm: 'registry.terraform.io/hashicorp/azurerm',
  random: 'registry.terraform.io/hashicorp/random',
};
const providerFor = (type) => PROVIDER[type.split('_')[0]];
const addr = (type, name, module, index) => `${module ? `${module}.` : ''}${type}.${name}${index === undefined ? '' : typeof index === 'number' ? `[${index}]` : `["${index}"]`}`;

/** planned_values.root_module.resources[] element. */
export function tfRes(type, name, values, { module, index, sensitive_values = {} } = {}) {
  return drop({
    address: addr(type, name, module, index),
    mode: 'managed',
    type,
    name,
    index,
    provider_name: providerFor(type),
    schema_version: 0,
    values,
    sensitive_values,
  });
}

/** resource_changes[] element. */
export function tfChg(type, name, actions, before, after, { module, index, after_unknown = {} } = {}) {
  return drop({
    address: addr(type, name, module, index),
    module_address: module,
    mode: 'managed',
    type,
    name,
    index,
    provider_name: providerFor(type),
    change: {
      actions,
      before,
      after,
      after_unknown: after === null ? false : after_unknown,
      before_sensitive: before === null ? false : {},
      after_sensitive: after === null ? false : {},
    },
    action_reason: actions.length === 2 ? 'replace_because_cannot_update' : undefined,
  });
}

/**
 * A whole `terraform show -json` plan. items: [{type, name, module?, action, values?, before?}]
 * action: create | update | no-op | delete | replace (delete-then-create) | replace-cbd.
 */
export function tfPlan(items, { terraform_version = '1.7.5' } = {}) {
  const ACTIONS = { create: ['create'], update: ['update'], 'no-op': ['no-op'], delete: ['delete'], replace: ['delete', 'create'], 'replace-cbd': ['create', 'delete'] };
  const root = [];
  const mods = new Map();
  const changes = [];
  for (const it of items) {
    const actions = ACTIONS[it.action];
    if (!actions) throw new Error(`tfPlan: bad action ${it.action}`);
    if (it.action !== 'delete') {
      const r = tfRes(it.type, it.name, it.values, { module: it.module, index: it.index });
      if (it.module) {
        if (!mods.has(it.module)) mods.set(it.module, []);
        mods.get(it.module).push(r);
      } else root.push(r);
    }
    const before = it.action === 'create' ? null : it.before ?? it.values;
    const after = it.action === 'delete' ? null : it.values;
    changes.push(tfChg(it.type, it.name, actions, before, after, { module: it.module, index: it.index }));
  }
  // nest module.a.module.b under module.a, as terraform does
  const node = (address) => ({ resources: mods.get(address) ?? [], address });
  const all = new Map();
  for (const address of mods.keys()) {
    const parts = address.split('.');
    for (let i = 2; i <= parts.length; i += 2) {
      const a = parts.slice(0, i).join('.');
      if (!all.has(a)) all.set(a, node(a));
    }
  }
  const root_module = { resources: root };
  for (const [address, n] of all) {
    const parent = address.split('.').slice(0, -2).join('.');
    const holder = parent ? all.get(parent) : root_module;
    (holder.child_modules ??= []).push(n);
  }
  for (const n of all.values()) if (n.resources.length === 0) delete n.resources;
  return {
    format_version: '1.2',
    terraform_version,
    planned_values: { root_module },
    resource_changes: changes,
    configuration: { provider_config: {}, root_module: {} },
    timestamp: '2025-03-11T09:14:27Z',
    applyable: true,
    complete: true,
    errored: false,
  };
}

// ---------------------------------------------------------------- Terraform readers
/** The planned attribute values of a single resource document (either shape). */
export const tfv = (o) => (o.change ? o.change.after : o.values) ?? {};
/** All resources in a plan's planned_values, descending into child modules. */
export function planResources(plan) {
  const out = [];
  const walk = (m) => {
    for (const r of m?.resources ?? []) out.push(r);
    for (const c of m?.child_modules ?? []) walk(c);
  };
  walk(plan.planned_values?.root_module);
  return out;
}
export const planChanges = (plan) => plan.resource_changes ?? [];

// ---------------------------------------------------------------- extra readers (own-holdout-2)
/** Duration string ("500ms", "15s", "2m", "1h30m", "0s") -> seconds; throws on anything else. */
export function durSeconds(d) {
  const s = String(d).trim();
  if (!/^(\d+(ms|s|m|h|d|w))+$/.test(s)) throw new Error(`bad duration ${d}`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
  let total = 0;
  for (const [, n, u] of s.matchAll(/(\d+)(ms|s|m|h|d|w)/g)) total += Number(n) * unit[u];
  return total;
}
/** docker-compose byte size ("512m", "2g", "1048576") -> bytes (binary multiples, as compose uses). */
export function composeBytes(v) {
  if (typeof v === 'number') return v;
  const m = /^(\d+(?:\.\d+)?)\s*([bkmg]?)b?$/i.exec(String(v).trim());
  if (!m) throw new Error(`bad size ${v}`);
  return Number(m[1]) * { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()];
}
