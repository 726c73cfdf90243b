import { sql as initial } from './001-initial.js'
import { sql as auditCounts } from './002-audit-counts.js'
import { sql as auditInputs } from './003-audit-inputs.js'
import { sql as auditTimeseries } from './004-audit-timeseries.js'
import { sql as failedAuditIndexes } from './005-failed-audit-indexes.js'
import { sql as auditSources } from './006-audit-sources.js'
import { sql as partitionedAudits } from './007-partitioned-audits.js'
import { sql as auditPartitionCreation } from './008-audit-partition-creation.js'
import { sql as immutableAuditPartitions } from './009-immutable-audit-partitions.js'
import { sql as partitionCounterTriggers } from './010-partition-counter-triggers.js'
import { sql as policyExceptions } from './011-policy-exceptions.js'
import { sql as exceptionLastApplied } from './012-exception-last-applied.js'

export interface Migration {
  /** Recorded in schema_migrations; never rename one that has shipped. */
  name: string
  /** One or more statements, run in one transaction. */
  sql: string
}

/**
 * Every migration in order. They are TypeScript modules rather than .sql files because tsc copies
 * only what it compiles into dist/, and the CLI runs from dist/.
 */
export const MIGRATIONS: readonly Migration[] = [
  { name: '001-initial', sql: initial },
  { name: '002-audit-counts', sql: auditCounts },
  { name: '003-audit-inputs', sql: auditInputs },
  { name: '004-audit-timeseries', sql: auditTimeseries },
  { name: '005-failed-audit-indexes', sql: failedAuditIndexes },
  { name: '006-audit-sources', sql: auditSources },
  { name: '007-partitioned-audits', sql: partitionedAudits },
  { name: '008-audit-partition-creation', sql: auditPartitionCreation },
  { name: '009-immutable-audit-partitions', sql: immutableAuditPartitions },
  { name: '010-partition-counter-triggers', sql: partitionCounterTriggers },
  { name: '011-policy-exceptions', sql: policyExceptions },
  { name: '012-exception-last-applied', sql: exceptionLastApplied },
]
