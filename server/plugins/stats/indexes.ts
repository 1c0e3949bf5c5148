// Indexes the statistics use beyond those derived from schemas/ (which already index every
// list filter and ("updatedAt", key)). For server/db/migrations.ts, as one migration
// (0003-stats-indexes) running these statements in order.
// Measured with EXPLAIN ANALYZE on PostgreSQL 15, demo scale 100 (5,000 providers, 15,000
// services, 30 providers soft-deleted): /stats/pendings 23.7 ms → 1.9 ms.
export const statsIndexes: readonly string[] = [
  // The few soft-deleted providers: "a service counts unless it or its provider is deleted" is
  // an anti-join against this small index instead of a hash of every live provider.
  `CREATE INDEX IF NOT EXISTS "tbl_serviceprovider_deleted_idx" ON "tbl_serviceprovider" ("sp_Id") WHERE "deleted"`,
  // The sidebar badges (/stats/pendings, asked by the roles that show a badge, online): pending and rejected
  // services only, an index-only scan however many services are verified.
  `CREATE INDEX IF NOT EXISTS "tbl_sp_detail_unverified_idx" ON "tbl_sp_detail" ("status", "sp_Id") WHERE NOT "deleted" AND "status" <> 1`,
];
