import type { Json } from '../test/k8s/fake-kube-api.js'

/** The cluster bench/scan.ts scans: Pods and Deployments spread over 200 namespaces, one in ten failing. */
export const NAMESPACES = 200
export const FAILING_SHARE = 0.1

function podSpec(index: number): Json {
  const failing = index % Math.round(1 / FAILING_SHARE) === 0
  return {
    securityContext: { runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [
      {
        name: 'app',
        image: `registry.example.com/team/app-${index % 50}:1.${index % 7}.0`,
        ports: [{ name: 'http', containerPort: 8080 }],
        securityContext: { allowPrivilegeEscalation: failing, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
      },
    ],
    volumes: [{ name: 'tmp', emptyDir: {} }],
  }
}

export function objects(count: number): { pods: Json[]; deployments: Json[] } {
  const pods: Json[] = []
  const deployments: Json[] = []
  for (let i = 0; i < count; i++) {
    const namespace = `team-${i % NAMESPACES}`
    const labels = { app: `app-${i}`, 'app.kubernetes.io/part-of': namespace }
    // One object in ten is a Deployment, the rest Pods.
    if (i % 10 === 9) {
      deployments.push({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: `deploy-${i}`, namespace, labels },
        spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec(i) } },
      })
    } else {
      pods.push({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `pod-${i}`, namespace, labels }, spec: podSpec(i) })
    }
  }
  return { pods, deployments }
}

/** Ten Pod Security checks as patterns, as teams write them (Deployments are judged through autogen). */
export const SCAN_RULES = [
  ['host-pid', { spec: { '=(hostPID)': 'false' } }],
  ['host-ipc', { spec: { '=(hostIPC)': 'false' } }],
  ['host-network', { spec: { '=(hostNetwork)': 'false' } }],
  ['host-path', { spec: { '=(volumes)': [{ 'X(hostPath)': 'null' }] } }],
  ['privileged', { spec: { containers: [{ '=(securityContext)': { '=(privileged)': 'false' } }] } }],
  ['privilege-escalation', { spec: { containers: [{ securityContext: { allowPrivilegeEscalation: 'false' } }] } }],
  ['run-as-non-root', { spec: { '=(securityContext)': { '=(runAsNonRoot)': 'true' } } }],
  ['host-ports', { spec: { containers: [{ '=(ports)': [{ '=(hostPort)': '0' }] }] } }],
  ['proc-mount', { spec: { containers: [{ '=(securityContext)': { '=(procMount)': 'Default' } }] } }],
  ['seccomp', { spec: { '=(securityContext)': { '=(seccompProfile)': { '=(type)': 'RuntimeDefault | Localhost' } } } }],
] as const
