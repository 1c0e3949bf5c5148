// JSON schemas that carry the TypeScript type of the values they accept, so that a request's
// body, query or parameters are typed from the very schema that checks them (the server's type
// provider, server/lib/typeProvider.ts), never by a cast beside it. The schemas built here are
// the plain ones of ./json-schema.ts: only their static type says more.

import type { EntityShape, Field, JsonSchema } from '../define.ts';
import type { ListRequest } from '../listQuery.ts';
import { dateSchema, inputSchema, listQuerySchema, nullable, textSchema, withInputRules } from './json-schema.ts';
import type { ValueOf } from './types.ts';

declare const VALUE: unique symbol;

/** A JSON schema accepting values of type `T` (the type is static only: no such property exists). */
export type Typed<T> = JsonSchema & { readonly [VALUE]?: T };

/** The type of the values `S` accepts; `unknown` for a schema built without a type. */
export type SchemaValue<S> = S extends { readonly [VALUE]?: infer T } ? T : unknown;

/** `schema`, said to accept values of `T`: for the derivations below only. */
const typed = <T>(schema: JsonSchema): Typed<T> => schema;

/** Any text of at most `maxLength` characters (json-schema.ts textSchema). */
export const text = (maxLength: number, minLength?: number) => typed<string>(textSchema(maxLength, minLength));

/** A string schema as written (a format, a pattern of its own). */
export const string = (schema: JsonSchema & { readonly type: 'string' }) => typed<string>(schema);

/** A calendar date 'YYYY-MM-DD' (json-schema.ts dateSchema). */
export const date = () => typed<string>(dateSchema());

/** An ISO 8601 date-time within MIN_YEAR..MAX_YEAR (the input rules of json-schema.ts). */
export const dateTime = () => typed<string>(withInputRules({ type: 'string', format: 'date-time' }));

/** An integer within the bounds. */
export const integer = (minimum: number, maximum: number) => typed<number>({ type: 'integer', minimum, maximum });

/** A number within the bounds. */
export const number = (minimum: number, maximum: number) => typed<number>({ type: 'number', minimum, maximum });

/** One of fixed values, as a string or an integer. */
export const oneOf = <const V extends readonly (string | number)[]>(type: 'string' | 'integer', values: V) =>
  typed<V[number]>({ type, enum: values });

/** Its schema with a default, which the validation fills in: the value is always there. */
export const withDefault = <T>(schema: Typed<T>, value: T): Typed<T> & { readonly default: T } => ({ ...schema, default: value });

/** Its schema, or null. */
export const orNull = <T>(schema: Typed<T>) => typed<T | null>(nullable(schema));

/** A list of values of `items`. */
export const arrayOf = <T>(items: Typed<T>, limits: { minItems?: number; maxItems?: number } = {}) =>
  typed<T[]>({ type: 'array', ...limits, items });

/** An object of any properties (what a nested record's fields are before their own check). */
export const anyObject = () => typed<Record<string, unknown>>({ type: 'object' });

/** A value of the entity field `field`, checked by its request schema (json-schema.ts inputSchema)
 * or by `schema` when the route has always used another one. */
export const fieldValue = <F extends Field>(field: F, schema: JsonSchema = inputSchema(field)) => typed<ValueOf<F>>(schema);

type Properties = Readonly<Record<string, Typed<unknown>>>;

/** A property always there once validated: required, or filled by its default. */
type Present<P extends Properties, K extends keyof P, R> = K extends R ? true : P[K] extends { readonly default: unknown } ? true : false;

/** The object `properties` describe: the `required` ones and those with a default present, the others optional. */
export type ObjectValue<P extends Properties, R extends keyof P> = {
  -readonly [K in keyof P as Present<P, K, R> extends true ? K : never]: SchemaValue<P[K]>;
} & {
  -readonly [K in keyof P as Present<P, K, R> extends true ? never : K]?: SchemaValue<P[K]>;
};

/**
 * An object with `properties`, those of `required` present. No other property is accepted unless
 * `open` (a route's query string that has always let others pass).
 */
export function object<const P extends Properties, const R extends keyof P & string = never>(
  properties: P,
  required: readonly R[] = [],
  { open = false }: { open?: boolean } = {},
): Typed<ObjectValue<P, R>> {
  return typed<ObjectValue<P, R>>({
    type: 'object',
    ...(open ? {} : { additionalProperties: false }),
    ...(required.length ? { required } : {}),
    properties,
  });
}

/** The query string of an entity's GET list, or the body of its POST search call
 * (json-schema.ts listQuerySchema): the page and its size are filled by the schema's defaults. */
export const listQuery = (entity: EntityShape) => typed<ListRequest>(listQuerySchema(entity));
