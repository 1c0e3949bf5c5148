// Request and answer schemas of the user routes, derived from the `user` entity (schemas/),
// so a limit changed there is enforced here and shown in /api/docs at once.
import type { JsonSchema } from '../../../schemas/define';
import { createBodySchema, fieldSchema, inputSchema, rowSchema, textSchema, updateBodySchema } from '../../../schemas/derive/json-schema';
import { user } from '../../../schemas/index';

/** The named properties of an object schema, nothing else accepted. */
function pick(schema: JsonSchema, names: readonly string[], required: readonly string[] = []): JsonSchema {
  const properties = Object.fromEntries(names.map((name) => [name, schema.properties?.[name] ?? {}]));
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

/** A user as every answer carries it: never the password nor its hash. */
export const userRow = rowSchema(user);

/** POST /users/createStaff: like POST /users/, but `location` has no default, so the server
 * can tell "not sent" (a role 7's own organisation) from "organisation 0". */
function staffCreateSchema(): JsonSchema {
  const base = createBodySchema(user);
  const { default: _default, ...location } = base.properties?.location ?? {};
  return { ...base, properties: { ...base.properties, location } };
}

export const idParams: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: fieldSchema(user.fields.userId) },
};

const PICKER_FIELDS = ['userId', 'userName', 'fullName', 'role', 'location'] as const;

/** GET /users: the page records.ts listRows answers ({rows, total, totalIsLowerBound, page, pageSize}). */
const usersPage: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['rows', 'total', 'totalIsLowerBound', 'page', 'pageSize'],
  properties: {
    rows: { type: 'array', items: userRow },
    total: { type: 'integer', minimum: 0 },
    totalIsLowerBound: { type: 'boolean' },
    page: { type: 'integer', minimum: 1 },
    pageSize: { type: 'integer' },
  },
};

const OLD_PASSWORD_MAX = 200; // as at sign-in: an old password is checked, not validated

export const schemas = {
  list: { response: { 200: usersPage } },
  all: { response: { 200: { type: 'array', items: pick(userRow, PICKER_FIELDS, PICKER_FIELDS) } } },
  get: { params: idParams, response: { 200: userRow } },
  create: { body: createBodySchema(user), response: { 201: userRow } },
  createStaff: { body: staffCreateSchema(), response: { 201: userRow } },
  /** PUT /users/{id} and /users/staff/{id}: any writable field; `password` is an admin reset. */
  update: { params: idParams, body: updateBodySchema(user), response: { 200: userRow } },
  /** PUT /users/self/{id}: own contact details only, never role, location or active. */
  updateSelf: {
    params: idParams,
    body: pick(updateBodySchema(user), ['fullName', 'email', 'phone', 'updatedAt']),
    response: { 200: userRow },
  },
  changePassword: {
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['oldPassword', 'newPassword'],
      properties: {
        oldPassword: textSchema(OLD_PASSWORD_MAX, 1),
        newPassword: inputSchema(user.fields.password),
      },
    },
    // `token`: the caller's new session token; every older one, this session's included, is over.
    response: {
      200: {
        type: 'object',
        additionalProperties: false,
        required: ['message', 'token'],
        properties: { message: { type: 'string' }, token: { type: 'string' } },
      },
    },
  },
} as const;
