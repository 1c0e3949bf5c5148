import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index';

// Placeholder: the generic entity routes of issue 3.
export default async function recordsPlugin(_app: FastifyInstance, _options: { db: Db }) {}
