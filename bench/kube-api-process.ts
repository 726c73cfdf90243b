// The test Kubernetes API server in a process of its own, for bench/scan.ts: its heap (every object
// of the cluster) stays out of the scanning process, whose memory the bench measures. Loads the
// bench's objects (their number is the first argument), prints {"url": ...} and serves until killed.
import { FakeKubeApi } from '../test/k8s/fake-kube-api.js'
import { objects } from './scan-objects.js'

const api = await FakeKubeApi.start()
const { pods, deployments } = objects(Number(process.argv[2] ?? 20_000))
api.createMany('pods', pods, { silent: true })
api.createMany('deployments', deployments, { silent: true })
process.stdout.write(`${JSON.stringify({ url: api.url })}\n`)
