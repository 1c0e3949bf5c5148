import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index';

// Placeholder: filled by the lists work of issue 3.
export default async function listsPlugin(_app: FastifyInstance, _options: { db: Db }) {}
