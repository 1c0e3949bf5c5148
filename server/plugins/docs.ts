// /api/docs: the OpenAPI description, generated from the same JSON schemas Fastify validates with.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pkg from '../../package.json' with { type: 'json' };

async function docsPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'ICRS API', version: pkg.version, description: 'See docs/api.md for the conventions (envelope, errors, roles).' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
  });
  app.get('/api/docs', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}

export default fp(docsPlugin, { name: 'docs' });
