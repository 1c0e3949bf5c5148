// Lookup lists (product.md §7 "Lists", product.md §D3): read by every role (forms need them), edited
// by role 1. The seed lists are written when the plugin registers, after the migrations.
import type { FastifyInstance } from 'fastify';
import { list as listEntity } from '../../../schemas/index';
import type { Db } from '../../db/index';
import { updateRow } from '../../lib/records';
import { HttpError } from '../../lib/errors';
import { schemas } from './schemas';
import { itemUsage, usageIsKnown } from './usage';
import { seedLookupLists } from './seed';
import { allLists, checkNewItem, checkReplacement, lockList, withNewItem, type Item, type NewItem } from './store';

export { seedLookupLists } from './seed';

type IdParams = { id: string };

export default async function listsPlugin(app: FastifyInstance, { db }: { db: Db }) {
  await seedLookupLists(db);

  app.get('/api/lists', { schema: schemas.all, config: { permission: 'lists.read' } }, async () => allLists(db));

  // What the client caches under the `lists` storage key for its (offline) forms: the
  // choices a form may offer, so inactive items are left out.
  app.get('/api/lists/profilelist', { schema: schemas.profileList, config: { permission: 'lists.read' } }, async () => {
    const lists = await allLists(db);
    return Object.fromEntries(lists.map((row) => [row.key, row.items.filter((item) => item.active)]));
  });

  // How many records on the server use each item, shown on the list screen beside the
  // Deactivate button. Items are never removed, used or not: a device may hold records not
  // uploaded yet that use any item it was ever offered, so the server cannot prove one unused.
  app.get<{ Params: IdParams }>(
    '/api/lists/:id/usage',
    { schema: schemas.usage, config: { permission: 'lists.write' } },
    async (request) => {
      const [row] = (await allLists(db)).filter((list) => list.id === request.params.id);
      if (!row) throw new HttpError(404, 'http.recordNotFound');
      return { known: usageIsKnown(row.key), items: Object.fromEntries(await itemUsage(db, row.key)) };
    },
  );

  app.put<{ Params: IdParams; Body: { items: Item[]; updatedAt?: string } }>(
    '/api/lists/:id',
    { schema: schemas.replace, config: { permission: 'lists.write' } },
    async (request) =>
      db.transaction(async (tx) => {
        const current = await lockList(tx, request.params.id);
        checkReplacement(request, current.items, request.body.items);
        const values = { items: request.body.items };
        return updateRow(tx, listEntity, current.id, values, request.user.userId, request.body.updatedAt);
      }),
  );

  app.post<{ Params: IdParams; Body: NewItem }>(
    '/api/lists/:id',
    { schema: schemas.addItem, config: { permission: 'lists.write' } },
    async (request, reply) => {
      const row = await db.transaction(async (tx) => {
        const current = await lockList(tx, request.params.id);
        checkNewItem(request, current.items, request.body);
        return updateRow(tx, listEntity, current.id, { items: withNewItem(current.items, request.body) }, request.user.userId);
      });
      return reply.status(201).send(row);
    },
  );
}
