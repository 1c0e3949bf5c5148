import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index';

// Placeholder: filled by the stats work of issue 3.
export default async function statsPlugin(_app: FastifyInstance, _options: { db: Db }) {}
