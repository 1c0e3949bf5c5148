import type { FastifyInstance } from 'fastify';
import {
  DEFAULT_LOCK_AFTER_MINUTES,
  MAX_LOCK_AFTER_MINUTES,
  NO_CONTACT,
  type ContactDetails,
  type PublicConfig,
} from '../../schemas/publicConfig';

export type { ContactDetails, PublicConfig };

export { NO_CONTACT };

const CONTACT_MAX = 300;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[\d\s().-]{6,30}$/;

function setting(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = env[name]?.trim();
  if (!value) return null;
  if (value.length > CONTACT_MAX) throw new Error(`${name} must have at most ${CONTACT_MAX} characters`);
  return value;
}

/** CONTACT_NAME, CONTACT_EMAIL, CONTACT_PHONE, CONTACT_ADDRESS, CONTACT_HOURS. A malformed
 * address or number stops the start with a clear message: a typo must not become a mailto or
 * tel link that goes nowhere. */
export function contactFromEnv(env: NodeJS.ProcessEnv): ContactDetails {
  const contact: ContactDetails = {
    name: setting(env, 'CONTACT_NAME'),
    email: setting(env, 'CONTACT_EMAIL'),
    phone: setting(env, 'CONTACT_PHONE'),
    address: setting(env, 'CONTACT_ADDRESS'),
    hours: setting(env, 'CONTACT_HOURS'),
  };
  if (contact.email && !EMAIL.test(contact.email)) throw new Error(`CONTACT_EMAIL must be an e-mail address, got "${contact.email}"`);
  if (contact.phone && !PHONE.test(contact.phone)) throw new Error(`CONTACT_PHONE must be a phone number, got "${contact.phone}"`);
  return contact;
}

const nullableText = { type: ['string', 'null'] } as const;

const publicConfigSchema = {
  response: {
    200: {
      type: 'object',
      required: ['programmeUrl', 'contact', 'lockAfterMinutes'],
      additionalProperties: false,
      properties: {
        programmeUrl: nullableText,
        lockAfterMinutes: { type: 'integer', minimum: 0, maximum: MAX_LOCK_AFTER_MINUTES },
        contact: {
          type: 'object',
          required: ['name', 'email', 'phone', 'address', 'hours'],
          additionalProperties: false,
          properties: { name: nullableText, email: nullableText, phone: nullableText, address: nullableText, hours: nullableText },
        },
      },
    },
  },
} as const;

/** GET /api/config: the settings of this installation the app shows before and after sign-in.
 * Public (the login screen has the footer and Contact us too) and holds nothing secret. */
export default async function publicConfigPlugin(
  app: FastifyInstance,
  { programmeUrl, contact, lockAfterMinutes }: { programmeUrl?: string; contact?: ContactDetails; lockAfterMinutes?: number },
) {
  const body: PublicConfig = {
    programmeUrl: programmeUrl ?? null,
    contact: contact ?? NO_CONTACT,
    lockAfterMinutes: lockAfterMinutes ?? DEFAULT_LOCK_AFTER_MINUTES,
  };
  // Read at each start of the app (never cached: Cache-Control no-store, as every API answer):
  // a changed setting shows after a restart, not a rebuild.
  app.get('/api/config', { schema: publicConfigSchema, config: { public: true } }, async () => body);
}
