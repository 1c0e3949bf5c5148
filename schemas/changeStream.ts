// The change stream (GET /api/sync/stream, server/plugins/sync/changes.ts): the server sends the
// name of each table that changed; the app pulls it and refreshes the screens that show it.

/** The event naming every table: what changed meanwhile is unknown (the server's LISTEN
 * connection came back after a fault, or the app's stream reconnected), so read everything again. */
export const ALL_TABLES = '*';
