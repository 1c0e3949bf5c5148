// Tables whose rows open the house: the token-signing secret (server_secrets, migration
// 0021-secrets-apart) and each user's device secret (device_secrets, 0023-device-secrets).
// Their DATA is in no backup of either kind (docs/security.md "Operations"): pg_dump leaves it
// out (--exclude-table-data), the embedded backup's logical copy skips their rows. A restored
// database therefore starts with none: the server makes a new signing secret, and every token
// signed before the restore fails its signature.
export const SECRET_TABLES: readonly string[] = ['server_secrets', 'device_secrets'];
