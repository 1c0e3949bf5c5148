// Generic reads and writes of any entity declared in schemas/, in three parts that import one
// way (conditions <- scope <- rows):
// - records/conditions.ts: the WHERE builder (numbered parameters);
// - records/scope.ts: the organisation scope in SQL (Access, scopeSql, addScope, references);
// - records/rows.ts: list, get, insert, update and upsert of any entity;
// - records/count.ts, records/listIndexes.ts: a list's bounded count, and the indexes its pages are read from.
export * from './records/conditions';
export * from './records/scope';
export * from './records/rows';
export * from './records/count';
export * from './records/listIndexes';
