/**
 * Named things a pod reaches on its node through a hostPath volume: the container runtimes'
 * sockets, each with the paths the runtime listens on by default (`/var/run` is a link to `/run`
 * on current distributions, so both spellings are listed). "The Docker socket" means these paths
 * and nothing a reader would have to guess; a socket not listed here is not understood.
 */
export interface HostSocket {
  /** How authors name it, lowercased: "the Docker socket", "the containerd socket". */
  readonly names: readonly string[]
  readonly paths: readonly string[]
}

export const HOST_SOCKETS: readonly HostSocket[] = [
  { names: ['docker', 'docker engine', 'dockerd'], paths: ['/var/run/docker.sock', '/run/docker.sock'] },
  { names: ['containerd'], paths: ['/var/run/containerd/containerd.sock', '/run/containerd/containerd.sock'] },
  { names: ['cri-o', 'crio'], paths: ['/var/run/crio/crio.sock', '/run/crio/crio.sock'] },
  { names: ['cri-dockerd'], paths: ['/var/run/cri-dockerd.sock', '/run/cri-dockerd.sock'] },
]

/** "the container runtime socket", "a container engine's socket": any of them. */
export const ANY_RUNTIME_SOCKET_NAMES: readonly string[] = ['container runtime', 'container engine', 'cri', 'runtime']

/** The socket paths a name says, or undefined when the name is none of the listed ones. */
export function hostSocketPaths(name: string): readonly string[] | undefined {
  const wanted = name.trim().toLowerCase().replace(/['’]s$/, '').replace(/\s+/g, ' ')
  if (ANY_RUNTIME_SOCKET_NAMES.includes(wanted)) return HOST_SOCKETS.flatMap((socket) => socket.paths)
  return HOST_SOCKETS.find((socket) => socket.names.includes(wanted))?.paths
}
