// Schemas of the lookup-list routes, from the `list` entity (schemas/entities/users.ts).
import type { JsonSchema } from '../../../schemas/define';
import { fieldSchema, rowSchema, updateBodySchema, withInputRules } from '../../../schemas/derive/json-schema';
import { list } from '../../../schemas/index';

const declaredItems = withInputRules(list.fields.items.schema);
const declaredItem = declaredItems.items as JsonSchema;

/** One item: {id, fr, en, active, abbr?, parent?, lat?, lng?}. */
export const itemSchema: JsonSchema = declaredItem;
const itemsSchema: JsonSchema = declaredItems;

/** A list as GET /lists answers it: {id, key, items, createdAt, updatedAt, createdBy, updatedBy}. */
export const listRow: JsonSchema = rowSchema(list);

const idParams: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: fieldSchema(list.fields.id) },
};

/** POST /lists/{id}: a new item; the server gives it the next id and makes it active. */
const NEW_ITEM_FIELDS = ['fr', 'en', 'abbr', 'parent', 'lat', 'lng'] as const;
const newItemSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['fr', 'en'],
  properties: Object.fromEntries(NEW_ITEM_FIELDS.map((name) => [name, itemSchema.properties?.[name] ?? {}])),
};

export const schemas = {
  all: { response: { 200: { type: 'array', items: listRow } } },
  /** {territory: [active items], category: [...], ...}: one property per list key. */
  profileList: { response: { 200: { type: 'object', additionalProperties: { type: 'array', items: itemSchema } } } },
  replace: {
    params: idParams,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['items'],
      properties: { items: itemsSchema, updatedAt: updateBodySchema(list).properties?.updatedAt ?? {} },
    },
    response: { 200: listRow },
  },
  addItem: { params: idParams, body: newItemSchema, response: { 201: listRow } },
  /** {known, items: {itemId: number of server records using it}}; `known` false: no declared
   * field refers to this list, so the server has nothing to count. */
  usage: {
    params: idParams,
    response: {
      200: {
        type: 'object',
        additionalProperties: false,
        required: ['known', 'items'],
        properties: { known: { type: 'boolean' }, items: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 } } },
      },
    },
  },
} as const;
