/**
 * The settings the embedded PostgreSQL runs with, passed on its command line at every start so a
 * new Verdict changes them without touching the data directory. They size the server for one
 * Verdict process in a pod whose memory limit is counted in hundreds of MiB (docs/memory.md has
 * the figures): a few small backends, small shared buffers, no parallel workers.
 */
export function serverSettings(socketDir: string): Record<string, string> {
  return {
    // Only the unix socket, in a directory only the server's user can enter: nothing on the
    // network, so the trust authentication initdb sets up reaches nobody else.
    listen_addresses: '',
    unix_socket_directories: socketDir,
    unix_socket_permissions: '0700',
    // The pool (10), the LISTEN connection, CLI commands run beside the service, and room to spare.
    max_connections: '24',
    superuser_reserved_connections: '2',
    // Shared memory is charged to the pod once pages are touched; 32 MB holds the hot audit
    // indexes and the definitions. Measured against 16 and 128 MB in docs/memory.md.
    shared_buffers: '32MB',
    work_mem: '4MB',
    maintenance_work_mem: '16MB',
    autovacuum_max_workers: '2',
    // Parallel workers and I/O workers are processes of their own, each with its memory, for
    // queries this store never runs at a size that would pay for them.
    max_worker_processes: '2',
    max_parallel_workers_per_gather: '0',
    max_parallel_maintenance_workers: '0',
    max_parallel_workers: '0',
    io_method: 'sync',
    // Nothing replicates from the embedded server: the least WAL, no WAL sender, no logical
    // replication launcher (a process of its own).
    wal_level: 'minimal',
    max_wal_senders: '0',
    max_logical_replication_workers: '0',
    // The volume is small by default (2Gi); 256MB made checkpoints come every 15-25 s at 750
    // requests/s with their audits.
    max_wal_size: '512MB',
    min_wal_size: '64MB',
    // Durability as PostgreSQL ships it: an answered evaluation's audit survives a crash.
    fsync: 'on',
    synchronous_commit: 'on',
    timezone: 'UTC',
    // Its log goes to Verdict's, each line at the level its severity says (server-log.ts); in the
    // server's order LOG ranks above WARNING, so this keeps warnings, errors and LOG lines.
    log_min_messages: 'warning',
    log_line_prefix: '',
    logging_collector: 'off',
    log_checkpoints: 'off',
    // No statistics file to write at every shutdown of a database this small.
    track_io_timing: 'off',
  }
}

/** The settings as `postgres -c name=value` arguments. */
export function settingsArguments(settings: Record<string, string>): string[] {
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])
}
