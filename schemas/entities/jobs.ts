// Available jobs posted by employers and further positions of the same posting (product.md §3).

import { defineEntity, f, text } from '../define.ts';
import { email, longText, name, owner, phone } from './common.ts';

const jobAccess = { read: 'jobs.read', write: 'jobs.write' } as const;
const positions = () => f.integer({ required: true, minimum: 1, maximum: 10_000, default: 1 });

export const job = defineEntity({
  name: 'job',
  title: ['title'],
  table: 'available-jobs',
  key: 'jb_Id',
  rest: '/jobs',
  routes: { search: '/search/' },
  offline: true,
  // 1: pending updates carry the image slots they empty (syncRemoveImages); added as optional.
  rxVersion: 1,
  upload: { order: 1, errorTitle: 'JAALL Error' },
  access: jobAccess,
  owner: { field: 'location', reads: 'all' },
  list: {
    filters: ['sector', 'territory', 'contract', 'open', 'location'],
    search: ['title', 'employer', 'description', 'address'],
    defaultSort: { field: 'createdAt', dir: 'desc' },
    sorts: ['title', 'employer', 'sector', 'territory', 'positions', 'deadline', 'open'],
  },
  fields: {
    jb_Id: f.id({ required: true }),
    title: name(),
    employer: name(),
    sector: f.lookup({ required: true, list: 'sector' }),
    territory: f.lookup({ required: true, list: 'territory' }),
    address: text(500),
    positions: positions(),
    contract: f.enum({ values: ['permanent', 'fixedTerm', 'temporary', 'daily', 'internship'] }),
    /** Last day to apply. */
    deadline: f.date({ range: { pastYears: 5, futureYears: 5 } }),
    description: longText(),
    requirements: longText(),
    contact: text(200),
    phone: phone(),
    email: email(),
    lat: f.lat(),
    lng: f.lng(),
    jb_img1: f.image(),
    jb_img2: f.image(),
    jb_img3: f.image(),
    /** False once the posting is filled or withdrawn (closed). */
    open: f.boolean({ required: true, default: true }),
    location: owner(),
  },
});

export const otherJob = defineEntity({
  name: 'otherJob',
  title: ['title'],
  table: 'tbl_jobs_other',
  key: 'jb_oth_Id',
  parent: 'jb_Id',
  rest: '/jobsother',
  routes: { byParent: '/jb' },
  offline: true,
  upload: { order: 2, errorTitle: 'OtJob Error' },
  access: jobAccess,
  owner: { via: 'parent' },
  list: { filters: ['jb_Id'], search: ['title', 'description'], defaultSort: { field: 'createdAt', dir: 'asc' } },
  fields: {
    jb_oth_Id: f.id({ required: true }),
    jb_Id: f.id({ required: true, ref: 'job' }),
    title: name(),
    positions: positions(),
    description: longText(),
    requirements: text(2000),
  },
});
