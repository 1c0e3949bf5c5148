import type { FastifyInstance } from 'fastify';

export interface PublicConfig {
  /** The programme's site, linked from the app's footer; null: no link (README "Configuration"). */
  programmeUrl: string | null;
}

const publicConfigSchema = {
  response: {
    200: {
      type: 'object',
      required: ['programmeUrl'],
      additionalProperties: false,
      properties: { programmeUrl: { type: ['string', 'null'] } },
    },
  },
} as const;

/** GET /api/config: the settings of this installation the app shows before and after sign-in.
 * Public (the login screen has the footer too) and holds nothing secret. */
export default async function publicConfigPlugin(app: FastifyInstance, { programmeUrl }: { programmeUrl?: string }) {
  const body: PublicConfig = { programmeUrl: programmeUrl ?? null };
  app.get('/api/config', { schema: publicConfigSchema, config: { public: true } }, async (_request, reply) => {
    // Read at each start of the app: a changed setting shows after a restart, not a rebuild.
    reply.header('Cache-Control', 'no-cache');
    return body;
  });
}
