// "The next release" of the server, for the rolling-restart test (test/api/multi-process.test.ts):
// today's code with one more migration, started as `npm start` starts a release
// (server/serve.ts). The migration is backward compatible, as every migration must be for one
// release: it only adds a nullable column, so a process of the previous release keeps reading
// and writing service providers on the migrated schema while the other is upgraded.
import { configFromEnv } from '../../server/config';
import { coreMigrations, type Migration } from '../../server/db/migrations';
import { serve } from '../../server/serve';

// Not exported: importing this file starts a server. The test names the id itself.
const nextReleaseMigration: Migration = {
  id: '9001-next-release-provider-note',
  up: async (tx) => {
    await tx.query('ALTER TABLE "tbl_serviceprovider" ADD COLUMN IF NOT EXISTS "nextReleaseNote" text');
  },
};

await serve(configFromEnv(), { migrations: [...coreMigrations, nextReleaseMigration] });
