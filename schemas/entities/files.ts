// `files`: the browser-side store of job and service images awaiting upload (product.md §3 "files
// (keyed by source id and image number)"). Client-only: no table, no API; an image travels
// in the multipart POST of its record (jb_img1..3, sp_img1..3) and is deleted with it.

import { defineEntity, f } from '../define.ts';
import { IMAGE_TYPES, MAX_IMAGE_BASE64, MAX_IMAGE_BYTES } from './common.ts';

export const file = defineEntity({
  name: 'file',
  table: 'files',
  key: ['srcId', 'imgNo'],
  server: false,
  offline: true,
  // Whoever may open the offline home handles its images; the record's own rights apply on upload.
  access: { read: 'route.offlinehp', write: 'route.offlinehp' },
  fields: {
    /** Key of the job or service the image belongs to. */
    srcId: f.id({ required: true }),
    /** Collection of that record. */
    srcTable: f.enum({ required: true, values: ['available-jobs', 'tbl_sp_detail'] }),
    /** 1..3: the image slot (jb_img1..3 / sp_img1..3). */
    imgNo: f.integer({ required: true, minimum: 1, maximum: 3 }),
    name: f.string({ required: true, minLength: 1, maxLength: 255 }),
    type: f.enum({ required: true, values: IMAGE_TYPES }),
    size: f.integer({ required: true, minimum: 1, maximum: MAX_IMAGE_BYTES }),
    data: f.string({ required: true, maxLength: MAX_IMAGE_BASE64 }),
  },
});
