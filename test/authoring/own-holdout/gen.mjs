#!/usr/bin/env node
// Assembles an own-holdout set's authoring cases, self-checks them and writes cases.json.
//
//   node gen.mjs [--set DIR] [--out DIR/cases.json] [--models DIR] [--no-schema] [--require-schema]
//
// --set names the folder whose cases-*.mjs are read (default: this one); ../own-holdout-2 uses it.
//
// Self-checks (any problem -> exit 1, nothing written):
//  * case shape: unique kebab-case ids, difficulty, topics (first = platform), labels.platform in
//    kubernetes | terraform | generic, a string labels.resource, 3-6 inputs, at least one expected
//    pass and one expected fail, unique input names;
//  * every input's expectPassed equals the case's reference predicate check(), run on a JSON
//    round-trip copy (what the service receives);
//  * Kubernetes inputs: structural sanity (names, namespaces, labels, selectors, containers, volume
//    mounts, quantities, probes, restart policies, PDB/HPA/Secret/RBAC shapes) and, when the
//    kubernetes-models and @kubernetes/client-node packages are found (the repo's node_modules by
//    default, or --models DIR), a strict schema check: every field must exist in the OpenAPI
//    model with the right type, and kubernetes-models' validator must accept the object;
//  * Terraform inputs: the planned_values resource / resource_changes entry / whole plan shapes.
import { writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { qty } from './lib.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = (n) => { const i = argv.indexOf(`--${n}`); return i >= 0 ? argv[i + 1] : undefined; };
const SET = resolve(opt('set') ?? HERE);
const load = async (file) => (await import(pathToFileURL(join(SET, file)).href)).default;
const [security, workloads, objects, terraform, generic] = await Promise.all(['cases-k8s-security.mjs', 'cases-k8s-workloads.mjs', 'cases-k8s-objects.mjs', 'cases-terraform.mjs', 'cases-generic.mjs'].map(load));
const OUT = resolve(opt('out') ?? join(SET, 'cases.json'));
const NO_SCHEMA = argv.includes('--no-schema');
const REQUIRE_SCHEMA = argv.includes('--require-schema');
const MODELS = resolve(opt('models') ?? process.env.HOLDOUT_MODELS_DIR ?? join(HERE, '..', '..', '..'));

const CASES = [...security, ...workloads, ...objects, ...terraform, ...generic];
const problems = [];
const bad = (where, msg) => problems.push(`${where}: ${msg}`);
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

// ---------------------------------------------------------------- Kubernetes
const API = {
  Pod: 'v1', Service: 'v1', Namespace: 'v1', ConfigMap: 'v1', Secret: 'v1', ServiceAccount: 'v1',
  Deployment: 'apps/v1', StatefulSet: 'apps/v1', DaemonSet: 'apps/v1', Job: 'batch/v1', CronJob: 'batch/v1',
  Ingress: 'networking.k8s.io/v1', NetworkPolicy: 'networking.k8s.io/v1', PodDisruptionBudget: 'policy/v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
  Role: 'rbac.authorization.k8s.io/v1', ClusterRole: 'rbac.authorization.k8s.io/v1',
  RoleBinding: 'rbac.authorization.k8s.io/v1', ClusterRoleBinding: 'rbac.authorization.k8s.io/v1',
  PersistentVolumeClaim: 'v1', StorageClass: 'storage.k8s.io/v1',
};
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'StorageClass']);
const POD_KINDS = new Set(['Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const keyOk = (k) => {
  const parts = k.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1];
  return name.length <= 63 && /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(name) && (parts.length === 1 || SUBDOMAIN.test(parts[0]));
};
const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];

function labelsOk(labels, where, errs) {
  for (const [k, v] of Object.entries(labels ?? {})) {
    if (!keyOk(k)) errs.push(`${where}: bad label key ${k}`);
    if (typeof v !== 'string' || v.length > 63 || !LABEL_VALUE.test(v)) errs.push(`${where}: bad label value ${JSON.stringify(v)}`);
  }
}

function podSpecOk(spec, where, errs, kind) {
  if (!spec || !Array.isArray(spec.containers) || spec.containers.length === 0) { errs.push(`${where}: no containers`); return; }
  const vols = new Set();
  for (const v of spec.volumes ?? []) {
    if (!LABEL.test(v.name) || vols.has(v.name)) errs.push(`${where}: bad or duplicate volume ${v.name}`);
    vols.add(v.name);
    if (Object.keys(v).length !== 2) errs.push(`${where}: volume ${v.name} needs exactly one source`);
  }
  const names = new Set();
  for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
    const w = `${where} container ${c.name}`;
    if (!LABEL.test(c.name ?? '') || names.has(c.name)) errs.push(`${w}: bad or duplicate name`);
    names.add(c.name);
    if (typeof c.image !== 'string' || !c.image || /\s/.test(c.image)) errs.push(`${w}: image`);
    for (const m of c.volumeMounts ?? []) if (!vols.has(m.name)) errs.push(`${w}: mount ${m.name} without volume`);
    for (const p of c.ports ?? []) {
      if (!Number.isInteger(p.containerPort) || p.containerPort < 1 || p.containerPort > 65535) errs.push(`${w}: containerPort`);
      if (p.name !== undefined && !/^[a-z0-9-]{1,15}$/.test(p.name)) errs.push(`${w}: port name ${p.name}`);
    }
    const r = c.resources ?? {};
    for (const part of ['requests', 'limits']) for (const [k, q] of Object.entries(r[part] ?? {})) { try { qty(q); } catch { errs.push(`${w}: quantity ${k}=${q}`); } }
    for (const [k, q] of Object.entries(r.requests ?? {})) if (r.limits?.[k] !== undefined && qty(q) > qty(r.limits[k])) errs.push(`${w}: request ${k} above limit`);
    for (const pk of ['readinessProbe', 'livenessProbe', 'startupProbe']) if (c[pk] && HANDLERS.filter((h) => c[pk][h]).length !== 1) errs.push(`${w}: ${pk} handler`);
    const sp = c.securityContext?.seccompProfile;
    if (sp && (sp.type === 'Localhost') !== (sp.localhostProfile !== undefined)) errs.push(`${w}: localhostProfile`);
  }
  for (const t of spec.tolerations ?? []) {
    if (t.operator === 'Exists' && t.value !== undefined) errs.push(`${where}: Exists toleration with value`);
    if (!t.key && t.operator !== 'Exists') errs.push(`${where}: keyless toleration must be Exists`);
  }
  const job = kind === 'Job' || kind === 'CronJob';
  if (job && !['Never', 'OnFailure'].includes(spec.restartPolicy)) errs.push(`${where}: job restartPolicy`);
  if (!job && kind !== 'Pod' && spec.restartPolicy !== undefined && spec.restartPolicy !== 'Always') errs.push(`${where}: controller restartPolicy`);
}

function k8sOk(o) {
  const errs = [];
  if (!API[o.kind]) return [`unknown kind ${o.kind}`];
  if (o.apiVersion !== API[o.kind]) errs.push(`apiVersion ${o.apiVersion}`);
  const md = o.metadata ?? {};
  const nameRe = ['Namespace', 'Service'].includes(o.kind) ? LABEL : o.kind.includes('Role') ? /^[a-z0-9:.-]+$/ : SUBDOMAIN;
  if (typeof md.name !== 'string' || !nameRe.test(md.name)) errs.push(`metadata.name ${md.name}`);
  if (o.kind === 'CronJob' && md.name.length > 52) errs.push('cronjob name too long');
  if (CLUSTER_SCOPED.has(o.kind) ? md.namespace !== undefined : !LABEL.test(md.namespace ?? '')) errs.push('namespace set wrong for scope');
  labelsOk(md.labels, 'metadata.labels', errs);
  for (const k of Object.keys(md.annotations ?? {})) if (!keyOk(k)) errs.push(`annotation key ${k}`);
  if (POD_KINDS.has(o.kind)) {
    if (o.kind === 'Pod') podSpecOk(o.spec, 'spec', errs, 'Pod');
    else {
      const t = o.kind === 'CronJob' ? o.spec.jobTemplate?.spec?.template : o.spec.template;
      labelsOk(t?.metadata?.labels, 'template labels', errs);
      podSpecOk(t?.spec, 'template', errs, o.kind);
      if (o.kind !== 'Job' && o.kind !== 'CronJob') {
        const ml = o.spec.selector?.matchLabels ?? {};
        if (!Object.keys(ml).length) errs.push('selector missing');
        for (const [k, v] of Object.entries(ml)) if (t?.metadata?.labels?.[k] !== v) errs.push('selector does not match template');
      }
      if (o.kind === 'StatefulSet' && !o.spec.serviceName) errs.push('statefulset serviceName');
      if (o.kind === 'CronJob' && String(o.spec.schedule).trim().split(/\s+/).length !== 5) errs.push('cron schedule');
    }
  }
  switch (o.kind) {
    case 'Service': {
      const type = o.spec.type ?? 'ClusterIP';
      if ((o.spec.ports ?? []).length > 1 && o.spec.ports.some((p) => !p.name)) errs.push('multi-port service needs names');
      for (const p of o.spec.ports ?? []) if (p.nodePort !== undefined && (type === 'ClusterIP' || p.nodePort < 30000 || p.nodePort > 32767)) errs.push('nodePort');
      if (o.spec.externalTrafficPolicy && type === 'ClusterIP') errs.push('externalTrafficPolicy on ClusterIP');
      break;
    }
    case 'Ingress':
      for (const r of o.spec.rules ?? []) for (const p of r.http?.paths ?? []) if (!['Exact', 'Prefix', 'ImplementationSpecific'].includes(p.pathType)) errs.push('pathType');
      break;
    case 'NetworkPolicy':
      if (!o.spec.podSelector) errs.push('podSelector');
      for (const r of [...(o.spec.ingress ?? []).flatMap((x) => x.from ?? []), ...(o.spec.egress ?? []).flatMap((x) => x.to ?? [])]) {
        if (r.ipBlock && !/^\d+\.\d+\.\d+\.\d+\/\d+$/.test(r.ipBlock.cidr)) errs.push('ipBlock cidr');
      }
      break;
    case 'PodDisruptionBudget':
      if ((o.spec.minAvailable === undefined) === (o.spec.maxUnavailable === undefined)) errs.push('PDB needs exactly one of minAvailable/maxUnavailable');
      break;
    case 'HorizontalPodAutoscaler':
      if (!Number.isInteger(o.spec.maxReplicas) || (o.spec.minReplicas !== undefined && o.spec.minReplicas < 1)) errs.push('hpa replicas');
      if (o.spec.minReplicas !== undefined && o.spec.maxReplicas < o.spec.minReplicas) errs.push('hpa max < min (rejected by the API server)');
      break;
    case 'Secret':
      for (const [k, v] of Object.entries(o.data ?? {})) if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v)) errs.push(`secret ${k} not base64`);
      if (o.type === 'kubernetes.io/tls' && !(o.data?.['tls.crt'] && o.data?.['tls.key'])) errs.push('tls secret keys');
      if (o.type === 'kubernetes.io/service-account-token' && !md.annotations?.['kubernetes.io/service-account.name']) errs.push('sa token annotation');
      break;
    case 'RoleBinding': case 'ClusterRoleBinding':
      if (!['Role', 'ClusterRole'].includes(o.roleRef?.kind) || o.roleRef.apiGroup !== 'rbac.authorization.k8s.io' || !o.roleRef.name) errs.push('roleRef');
      for (const s of o.subjects ?? []) {
        if (!['User', 'Group', 'ServiceAccount'].includes(s.kind)) errs.push('subject kind');
        if (s.kind === 'ServiceAccount' ? !s.namespace : s.apiGroup !== 'rbac.authorization.k8s.io') errs.push('subject shape');
      }
      break;
    case 'PersistentVolumeClaim': {
      const modes = o.spec?.accessModes ?? [];
      if (!modes.length || !modes.every((m) => ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'].includes(m))) errs.push('pvc accessModes');
      try { qty(o.spec?.resources?.requests?.storage); } catch { errs.push('pvc storage request'); }
      break;
    }
    case 'StorageClass':
      if (!o.provisioner) errs.push('storageclass provisioner');
      if (o.reclaimPolicy !== undefined && !['Retain', 'Delete'].includes(o.reclaimPolicy)) errs.push('reclaimPolicy');
      if (o.volumeBindingMode !== undefined && !['Immediate', 'WaitForFirstConsumer'].includes(o.volumeBindingMode)) errs.push('volumeBindingMode');
      break;
    case 'Role': case 'ClusterRole':
      for (const r of o.rules ?? []) if (!Array.isArray(r.verbs) || !r.verbs.length) errs.push('rule verbs');
      break;
    default:
  }
  return errs;
}

// strict schema walk over @kubernetes/client-node's generated models
let models = null;
let validators = null;
const MODEL_OF = {
  Pod: 'V1Pod', Service: 'V1Service', Namespace: 'V1Namespace', ConfigMap: 'V1ConfigMap', Secret: 'V1Secret', ServiceAccount: 'V1ServiceAccount',
  Deployment: 'V1Deployment', StatefulSet: 'V1StatefulSet', DaemonSet: 'V1DaemonSet', Job: 'V1Job', CronJob: 'V1CronJob',
  Ingress: 'V1Ingress', NetworkPolicy: 'V1NetworkPolicy', PodDisruptionBudget: 'V1PodDisruptionBudget', HorizontalPodAutoscaler: 'V2HorizontalPodAutoscaler',
  Role: 'V1Role', ClusterRole: 'V1ClusterRole', RoleBinding: 'V1RoleBinding', ClusterRoleBinding: 'V1ClusterRoleBinding',
  PersistentVolumeClaim: 'V1PersistentVolumeClaim', StorageClass: 'V1StorageClass',
};
function walk(v, type, path, errs, format) {
  if (v === null || type === 'any' || type === 'object') return;
  let m;
  if (type === 'string' || type === 'Date') { if (typeof v !== 'string') errs.push(`${path}: want string`); return; }
  if (type === 'boolean') { if (typeof v !== 'boolean') errs.push(`${path}: want boolean`); return; }
  if (type === 'number') { if (typeof v !== 'number' || (/^int/.test(format ?? '') && !Number.isInteger(v))) errs.push(`${path}: want ${format || 'number'}`); return; }
  if (type === 'IntOrString') { if (typeof v !== 'string' && !Number.isInteger(v)) errs.push(`${path}: want int or string`); return; }
  if ((m = /^Array<(.+)>$/.exec(type))) { if (!Array.isArray(v)) errs.push(`${path}: want array`); else v.forEach((x, i) => walk(x, m[1], `${path}[${i}]`, errs)); return; }
  if ((m = /^\{ \[key: string\]: (.+); \}$/.exec(type))) { if (typeof v !== 'object' || Array.isArray(v)) errs.push(`${path}: want map`); else for (const [k, x] of Object.entries(v)) walk(x, m[1], `${path}.${k}`, errs); return; }
  const model = models[type];
  if (!model?.attributeTypeMap) { errs.push(`${path}: unknown model ${type}`); return; }
  if (typeof v !== 'object' || Array.isArray(v)) { errs.push(`${path}: want object ${type}`); return; }
  const fields = new Map(model.attributeTypeMap.map((a) => [a.baseName, a]));
  for (const [k, x] of Object.entries(v)) {
    const f = fields.get(k);
    if (!f) errs.push(`${path}.${k}: no such field in ${type}`);
    else walk(x, f.type, `${path}.${k}`, errs, f.format);
  }
}
async function loadModels() {
  if (NO_SCHEMA) return;
  const nm = join(MODELS, 'node_modules');
  const cn = join(nm, '@kubernetes/client-node/dist/gen/models/all.js');
  const km = join(nm, 'kubernetes-models');
  if (!existsSync(cn) || !existsSync(km)) return;
  models = await import(pathToFileURL(cn).href);
  const groups = ['v1', 'apps/v1', 'batch/v1', 'networking.k8s.io/v1', 'policy/v1', 'autoscaling/v2', 'rbac.authorization.k8s.io/v1', 'storage.k8s.io/v1'];
  const loaded = Object.fromEntries(await Promise.all(groups.map(async (g) => [g, await import(pathToFileURL(join(km, g, 'index.js')).href)])));
  validators = (o) => loaded[o.apiVersion]?.[o.kind];
}
function schemaOk(o) {
  if (!models) return [];
  const errs = [];
  walk(o, MODEL_OF[o.kind], o.kind, errs);
  const Cls = validators(o);
  if (!Cls) errs.push('no kubernetes-models class');
  else { try { new Cls(o).validate(); } catch (e) { errs.push(`kubernetes-models: ${String(e.message).split('\n')[0]}`); } }
  return errs;
}

// ---------------------------------------------------------------- Terraform
const PROVIDER_RE = /^registry\.terraform\.io\/hashicorp\/[a-z]+$/;
function tfResourceOk(r, errs, where) {
  if (r.mode !== 'managed' || !PROVIDER_RE.test(r.provider_name ?? '')) errs.push(`${where}: mode/provider_name`);
  const local = `${r.type}.${r.name}`;
  if (!(r.address === local || r.address.startsWith('module.') && r.address.includes(`.${local}`)) && !r.address.startsWith(`${local}[`)) errs.push(`${where}: address ${r.address}`);
}
const ACTIONS = new Set(['create', 'update', 'delete', 'no-op']);
function tfOk(o, resource) {
  const errs = [];
  if (o.planned_values || o.resource_changes) {
    if (typeof o.format_version !== 'string' || !o.planned_values?.root_module || !Array.isArray(o.resource_changes)) return ['plan: format_version/planned_values.root_module/resource_changes'];
    const planned = new Map();
    const visit = (m, prefix) => {
      if (prefix && m.address !== prefix) errs.push(`child module address ${m.address} under ${prefix}`);
      for (const r of m.resources ?? []) {
        tfResourceOk(r, errs, r.address);
        if (typeof r.values !== 'object' || r.values === null) errs.push(`${r.address}: values`);
        planned.set(r.address, r);
      }
      for (const c of m.child_modules ?? []) {
        if (!c.address?.startsWith(prefix ? `${prefix}.module.` : 'module.')) errs.push(`bad child module ${c.address}`);
        visit(c, c.address);
      }
    };
    visit(o.planned_values.root_module, '');
    for (const rc of o.resource_changes) {
      tfResourceOk(rc, errs, rc.address);
      const a = rc.change?.actions ?? [];
      if (!a.length || !a.every((x) => ACTIONS.has(x))) errs.push(`${rc.address}: actions`);
      const del = a.length === 1 && a[0] === 'delete';
      if (del !== (rc.change.after === null)) errs.push(`${rc.address}: after must be null exactly for delete`);
      if (a.includes('create') && a.length === 1 && rc.change.before !== null) errs.push(`${rc.address}: create with before`);
      if (del ? planned.has(rc.address) : !planned.has(rc.address)) errs.push(`${rc.address}: planned_values/resource_changes mismatch`);
      if (!del && JSON.stringify(planned.get(rc.address)?.values) !== JSON.stringify(rc.change.after)) errs.push(`${rc.address}: after differs from planned values`);
    }
    if (planned.size !== o.resource_changes.filter((rc) => rc.change.after !== null).length) errs.push('planned resource without change entry');
    return errs;
  }
  if (o.type !== resource) errs.push(`type ${o.type} is not labels.resource ${resource}`);
  tfResourceOk(o, errs, 'resource');
  if ('values' in o === 'change' in o) errs.push('exactly one of values / change');
  if (o.change) {
    const a = o.change.actions;
    if (!Array.isArray(a) || a.length !== 1 || !['create', 'update'].includes(a[0])) errs.push('single change entries use create or update');
    if (a?.[0] === 'create' && o.change.before !== null) errs.push('create with before');
    if (a?.[0] === 'update' && (typeof o.change.before !== 'object' || o.change.before === null)) errs.push('update without before');
    if (typeof o.change.after !== 'object' || o.change.after === null) errs.push('after');
  }
  return errs;
}

// ---------------------------------------------------------------- run
await loadModels();
if (!models) {
  const msg = NO_SCHEMA ? 'schema check disabled (--no-schema)' : `kubernetes-models / @kubernetes/client-node not found under ${MODELS}/node_modules; strict schema check skipped`;
  if (REQUIRE_SCHEMA) { console.error(`ERROR: ${msg}`); process.exit(1); }
  console.warn(`WARNING: ${msg}`);
}

const ids = new Set();
const out = [];
let wholePlans = 0;
let planDeletes = 0;
for (const c of CASES) {
  const w = c.id ?? '(no id)';
  if (!KEBAB.test(c.id ?? '')) bad(w, 'id not kebab-case');
  if (ids.has(c.id)) bad(w, 'duplicate id');
  ids.add(c.id);
  if (!['easy', 'medium', 'hard'].includes(c.difficulty)) bad(w, 'difficulty');
  const platform = c.labels?.platform;
  if (!['kubernetes', 'terraform', 'generic'].includes(platform)) bad(w, `labels.platform ${platform}`);
  if (typeof c.labels?.resource !== 'string' || !c.labels.resource) bad(w, 'labels.resource');
  if (!Array.isArray(c.topics) || !c.topics.length || !c.topics.every((t) => KEBAB.test(t)) || new Set(c.topics).size !== c.topics.length) bad(w, 'topics');
  else if (c.topics[0] !== platform) bad(w, 'first topic must be the platform');
  if (typeof c.instruction !== 'string' || c.instruction.trim().length < 20) bad(w, 'instruction');
  if (typeof c.check !== 'function') { bad(w, 'check'); continue; }
  const inputs = c.inputs ?? [];
  if (inputs.length < 3 || inputs.length > 6) bad(w, `${inputs.length} inputs, want 3-6`);
  if (!inputs.some((i) => i.expectPassed === true) || !inputs.some((i) => i.expectPassed === false)) bad(w, 'needs an expected pass and an expected fail');
  const names = new Set();
  for (const inp of inputs) {
    const iw = `${w} / ${inp.name}`;
    if (!KEBAB.test(inp.name ?? '')) bad(iw, 'input name not kebab-case');
    if (names.has(inp.name)) bad(iw, 'duplicate input name');
    names.add(inp.name);
    if (typeof inp.expectPassed !== 'boolean') bad(iw, 'expectPassed not boolean');
    if (!inp.object || typeof inp.object !== 'object' || Array.isArray(inp.object)) { bad(iw, 'object'); continue; }
    const wire = JSON.parse(JSON.stringify(inp.object));
    let got;
    try { got = c.check(wire); } catch (e) { bad(iw, `check threw ${e.message}`); continue; }
    if (got !== inp.expectPassed) bad(iw, `check says ${got}, expectPassed ${inp.expectPassed}`);
    if (platform === 'kubernetes') {
      for (const e of [...k8sOk(wire), ...schemaOk(wire)]) bad(iw, `k8s: ${e}`);
      const fits = c.labels.resource === 'Pod' ? POD_KINDS.has(wire.kind) : wire.kind === c.labels.resource;
      if (!fits) bad(iw, `kind ${wire.kind} does not fit labels.resource ${c.labels.resource}`);
    }
    if (platform === 'terraform') {
      for (const e of tfOk(wire, c.labels.resource)) bad(iw, `terraform: ${e}`);
      if (wire.planned_values) {
        wholePlans++;
        if (wire.resource_changes.some((rc) => rc.change.actions.includes('delete'))) planDeletes++;
      }
    }
  }
  out.push({ id: c.id, instruction: c.instruction, labels: c.labels, difficulty: c.difficulty, topics: c.topics, inputs: inputs.map(({ name, expectPassed, object }) => ({ name, expectPassed, object })) });
}
if (out.length < 45) bad('set', `only ${out.length} cases, want at least 45`);
if (wholePlans < 3) bad('set', `only ${wholePlans} whole terraform plans, want at least 3`);
if (planDeletes < 1) bad('set', 'no whole plan with a delete action');

if (problems.length) {
  console.error(`SELF-CHECK FAILED (${problems.length}):`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
writeFileSync(OUT, `${JSON.stringify(out, null, 2)}\n`);

const tally = (f) => { const m = {}; for (const c of out) for (const k of [f(c)].flat()) m[k] = (m[k] ?? 0) + 1; return m; };
const fmt = (m) => Object.entries(m).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, v]) => `${k} ${v}`).join(', ');
const n = out.reduce((a, c) => a + c.inputs.length, 0);
const pass = out.reduce((a, c) => a + c.inputs.filter((i) => i.expectPassed).length, 0);
const kinds = {};
const shapes = { planned_values_resource: 0, resource_changes_entry: 0, whole_plan: 0 };
for (const c of out) for (const i of c.inputs) {
  if (c.labels.platform === 'kubernetes') kinds[i.object.kind] = (kinds[i.object.kind] ?? 0) + 1;
  if (c.labels.platform === 'terraform') shapes[i.object.planned_values ? 'whole_plan' : i.object.change ? 'resource_changes_entry' : 'planned_values_resource']++;
}
console.log(`wrote ${OUT}`);
console.log(`${out.length} cases, ${n} inputs (${pass} expected pass, ${n - pass} expected fail)`);
console.log(`schema check: ${models ? 'strict (client-node models + kubernetes-models)' : 'hand checks only'}`);
console.log(`platforms: ${fmt(tally((c) => c.labels.platform))}`);
console.log(`difficulty: ${fmt(tally((c) => c.difficulty))}`);
console.log(`difficulty by platform: ${fmt(tally((c) => `${c.labels.platform}/${c.difficulty}`))}`);
console.log(`kubernetes kinds: ${fmt(kinds)}`);
console.log(`terraform shapes: ${fmt(shapes)} (plans with a delete action: ${planDeletes})`);
console.log(`topics: ${fmt(tally((c) => c.topics))}`);
