// Referrals of clients to services and to jobs (design.md §3). Server-only: RxDB holds only
// the 13 collections of spec §3.

import { defineEntity, f, text } from '../define.ts';
import { FILE_TYPES, MAX_IMAGE_BYTES } from './common.ts';

const referralAccess = { read: 'referrals.read', write: 'referrals.write' } as const;

/** A file attached through PUT /referral/images/{id}; the bytes live in the image table. */
export interface Attachment {
  name: string;
  type: (typeof FILE_TYPES)[number];
  size: number;
  uploadedAt: string;
}

const attachmentsSchema = {
  type: 'array',
  maxItems: 10,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'type', 'size', 'uploadedAt'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 255 },
      type: { type: 'string', enum: FILE_TYPES },
      size: { type: 'integer', minimum: 1, maximum: MAX_IMAGE_BYTES },
      uploadedAt: { type: 'string', format: 'date-time', maxLength: 40 },
    },
  },
} as const;

export const referral = defineEntity({
  name: 'referral',
  table: 'referral',
  key: 'ref_Id',
  parent: 'prof_Id',
  rest: '/referral',
  access: referralAccess,
  owner: { via: 'parent' },
  list: {
    filters: ['prof_Id', 'sp_Detail_Id', 'status'],
    search: ['reason', 'feedback'],
    defaultSort: { field: 'date', dir: 'desc' },
    dateField: 'date',
  },
  fields: {
    ref_Id: f.id({ required: true }),
    prof_Id: f.id({ required: true, ref: 'profile' }),
    sp_Detail_Id: f.id({ required: true, ref: 'service' }),
    date: f.date({ required: true }),
    reason: f.string({ required: true, minLength: 2, maxLength: 1000 }),
    status: f.enum({ required: true, values: ['sent', 'accepted', 'completed', 'declined'], default: 'sent' }),
    feedback: text(2000),
    followUpDate: f.date(),
    attachments: f.json<Attachment[]>()({ readOnly: true, schema: attachmentsSchema }),
  },
});

export const jobReferral = defineEntity({
  name: 'jobReferral',
  table: 'jobreferral',
  key: 'jref_Id',
  parent: 'prof_Id',
  rest: '/jobreferral',
  access: referralAccess,
  owner: { via: 'parent' },
  list: {
    filters: ['prof_Id', 'jb_Id', 'status'],
    search: ['feedback'],
    defaultSort: { field: 'date', dir: 'desc' },
    dateField: 'date',
  },
  fields: {
    jref_Id: f.id({ required: true }),
    prof_Id: f.id({ required: true, ref: 'profile' }),
    jb_Id: f.id({ required: true, ref: 'job' }),
    date: f.date({ required: true }),
    status: f.enum({ required: true, values: ['sent', 'interviewed', 'hired', 'not_selected'], default: 'sent' }),
    feedback: text(2000),
  },
});
