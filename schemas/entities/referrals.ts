// Referrals of clients to services and to jobs (product.md §D3). Server-only: RxDB holds only
// the 13 collections of product.md §3.

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

// ---------------------------------------------------------------------------------------------
// Statuses (ADR-0029): a referral only moves forward; a decline or "not selected" is final.
// ---------------------------------------------------------------------------------------------

export const REFERRAL_STATUSES = ['sent', 'accepted', 'completed', 'declined'] as const;
export const JOB_REFERRAL_STATUSES = ['sent', 'interviewed', 'hired', 'not_selected'] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];
export type JobReferralStatus = (typeof JOB_REFERRAL_STATUSES)[number];

/** The statuses of one kind of referral: the forward path, and the one refusal. */
export interface StatusFlow {
  readonly path: readonly string[];
  readonly refusal: string;
}

export const REFERRAL_FLOW: StatusFlow = { path: ['sent', 'accepted', 'completed'], refusal: 'declined' };
export const JOB_REFERRAL_FLOW: StatusFlow = { path: ['sent', 'interviewed', 'hired'], refusal: 'not_selected' };

/** True when nothing may follow `status` (the end of the path, or the refusal). */
export function isFinalStatus(flow: StatusFlow, status: string): boolean {
  return status === flow.refusal || status === flow.path.at(-1);
}

/** The statuses a referral at `current` may move to: any later step of the path (a follow-up
 * may learn of the outcome at once), or the refusal while not final. Never back. */
export function nextStatuses(flow: StatusFlow, current: string): string[] {
  if (isFinalStatus(flow, current)) return [];
  const at = flow.path.indexOf(current);
  return [...flow.path.slice(at + 1), flow.refusal];
}

/** Still waiting for an outcome: a follow-up date passed on such a referral is overdue. */
export const isOpenStatus = (flow: StatusFlow, status: string): boolean => !isFinalStatus(flow, status);

/** One status change as the server records it: what, the date given, who and when. */
export interface StatusChange {
  status: string;
  /** The day the change happened, as the user gave it. */
  date: string | null;
  feedback: string | null;
  by: string;
  byName: string;
  /** When the server recorded it. */
  at: string;
}

/** The most entries a referral's history holds (server/plugins/records/referrals.ts keeps the first and the newest). */
export const HISTORY_MAX = 50;

const historySchema = {
  type: 'array',
  maxItems: HISTORY_MAX,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['status', 'by', 'byName', 'at'],
    properties: {
      status: { type: 'string', maxLength: 20 },
      date: { type: ['string', 'null'], format: 'date', maxLength: 10 },
      feedback: { type: ['string', 'null'], maxLength: 2000 },
      by: { type: 'string', maxLength: 64 },
      byName: { type: 'string', maxLength: 200 },
      at: { type: 'string', format: 'date-time', maxLength: 40 },
    },
  },
} as const;

/** A referral happened: not after today, nor over 10 years ago; its follow-up may be planned up
 * to 5 years on (docs/adr/0042-date-ranges.md "Dates that mean what they say"). */
const REFERRAL_DATE = { pastYears: 10, futureYears: 0 } as const;
const FOLLOW_UP_DATE = { pastYears: 10, futureYears: 5 } as const;

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
    date: f.date({ required: true, range: REFERRAL_DATE }),
    reason: f.string({ required: true, minLength: 2, maxLength: 1000, personal: true }),
    status: f.enum({ required: true, values: REFERRAL_STATUSES, default: 'sent' }),
    feedback: text(2000, { personal: true }),
    followUpDate: f.date({ range: FOLLOW_UP_DATE }),
    /** The day of the last status change (the history keeps every one). */
    statusDate: f.date({ range: REFERRAL_DATE }),
    attachments: f.json<Attachment[]>()({ readOnly: true, schema: attachmentsSchema }),
    history: f.json<StatusChange[]>()({ readOnly: true, schema: historySchema }),
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
    search: ['feedback', 'note'],
    defaultSort: { field: 'date', dir: 'desc' },
    dateField: 'date',
  },
  fields: {
    jref_Id: f.id({ required: true }),
    prof_Id: f.id({ required: true, ref: 'profile' }),
    jb_Id: f.id({ required: true, ref: 'job' }),
    date: f.date({ required: true, range: REFERRAL_DATE }),
    status: f.enum({ required: true, values: JOB_REFERRAL_STATUSES, default: 'sent' }),
    /** Why this client for this job (ADR-0029: a date and a note are recorded with each). */
    note: text(1000, { personal: true }),
    feedback: text(2000, { personal: true }),
    followUpDate: f.date({ range: FOLLOW_UP_DATE }),
    statusDate: f.date({ range: REFERRAL_DATE }),
    history: f.json<StatusChange[]>()({ readOnly: true, schema: historySchema }),
  },
});

// ---------------------------------------------------------------------------------------------
// List views (ADR-0029 "List views"): a referral with its client, service or job, as the
// search calls answer them (POST /referral/search, /jobreferral/search). Not tables: they
// declare the columns, filters and sorts the list offers, for the server's query schema and
// the grid alike.
// ---------------------------------------------------------------------------------------------

const clientColumns = {
  clientName: text(201),
  prof_Reg_No: text(20),
  territory: f.lookup({ list: 'territory' }),
  location: f.lookup({ list: 'organisation', allowNone: true }),
} as const;

const followColumns = {
  date: f.date({ required: true }),
  followUpDate: f.date(),
  statusDate: f.date(),
  overdue: f.boolean(),
  updatedAt: f.dateTime(),
} as const;

export const referralView = defineEntity({
  name: 'referral',
  table: 'referral_view',
  key: 'ref_Id',
  server: false,
  access: referralAccess,
  list: {
    filters: ['status', 'territory', 'category', 'serviceType', 'location', 'overdue', 'prof_Id'],
    search: ['clientName', 'prof_Reg_No', 'serviceName', 'reason'],
    defaultSort: { field: 'date', dir: 'desc' },
    dateField: 'date',
  },
  fields: {
    ref_Id: f.id({ required: true }),
    prof_Id: f.id({ required: true }),
    sp_Detail_Id: f.id({ required: true }),
    ...clientColumns,
    serviceName: text(200),
    providerName: text(200),
    category: f.lookup({ list: 'category' }),
    serviceType: f.lookup({ list: 'serviceType' }),
    reason: text(1000),
    status: f.enum({ required: true, values: REFERRAL_STATUSES }),
    ...followColumns,
  },
});

export const jobReferralView = defineEntity({
  name: 'jobReferral',
  table: 'jobreferral_view',
  key: 'jref_Id',
  server: false,
  access: referralAccess,
  list: {
    filters: ['status', 'territory', 'sector', 'location', 'overdue', 'prof_Id'],
    search: ['clientName', 'prof_Reg_No', 'jobTitle', 'employer'],
    defaultSort: { field: 'date', dir: 'desc' },
    dateField: 'date',
  },
  fields: {
    jref_Id: f.id({ required: true }),
    prof_Id: f.id({ required: true }),
    jb_Id: f.id({ required: true }),
    ...clientColumns,
    jobTitle: text(200),
    employer: text(200),
    sector: f.lookup({ list: 'sector' }),
    status: f.enum({ required: true, values: JOB_REFERRAL_STATUSES }),
    ...followColumns,
  },
});
