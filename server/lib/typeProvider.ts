// The server's Fastify type provider: a route's request body, query string and parameters take
// the type their JSON schema carries (schemas/derive/typed.ts), so handlers read them without a
// cast. A schema built without a type gives `unknown`, which a handler must check before use.
// Answers are not typed here: their schemas serialize, and the tests compare what they send.
import type { FastifyInstance, FastifyRequest, FastifyTypeProvider } from 'fastify';
import type { JsonSchema } from '../../schemas/define';
import type { SchemaValue } from '../../schemas/derive/typed';

/** A body schema given per content type (`{content: {'application/json': {schema}}}`, multipart
 * requests being read by the handler) types the body as its JSON schema does. */
type RequestSchema<S> = S extends { content: { 'application/json': { schema: infer J } } } ? J : S;

export interface SchemaTypes extends FastifyTypeProvider {
  readonly validator: SchemaValue<RequestSchema<this['schema']>>;
  readonly serializer: unknown;
}

/** `app` with the type provider: the routes registered through it are typed by their schemas. */
export const typed = (app: FastifyInstance) => app.withTypeProvider<SchemaTypes>();

export type TypedInstance = ReturnType<typeof typed>;

/**
 * `data` checked by `schema` as a route's own schema would check it (the same compiler: coercion
 * and defaults alike), for what a handler reads itself (a multipart request's JSON field): its
 * value typed by the schema, or the 400 of a validation error.
 */
export function checked<S extends JsonSchema>(request: FastifyRequest, schema: S, data: unknown): SchemaValue<S> {
  const validate = request.compileValidationSchema(schema as Record<string, unknown>);
  if (!validate(data)) throw Object.assign(new Error('validation'), { validation: validate.errors ?? [], statusCode: 400 });
  return data as SchemaValue<S>;
}
