// The erasure note's check (docs/security.md "What an erasure does"): every common way of writing
// the client's name, phone, birth date and registration number is caught, and ordinary words and
// other numbers are not.
import { describe, expect, it } from 'vitest';
import { noteClash } from '../../server/plugins/audit/erasureNote';

const client = {
  firstName: 'Jean de la',
  middleName: null,
  lastName: 'Mbuyá',
  phone: '+243 89 988 7766',
  birthDate: '1991-07-23',
  prof_Reg_No: 'ADCAB12CD34',
};
const texts = ['Needs housing near Kinshasa', 'ab'];

describe('noteClash', () => {
  it.each([
    ['asked by JEAN', 'name'],
    ['mbuya asked', 'name'],
    ['call 0899887766', 'phone'],
    ['call 89.988.77', 'phone'],
    ['+243 (0)89 988', 'phone'],
    ['243-899-887', 'phone'],
    ['born 23/07/1991', 'birthDate'],
    ['born 1991-07-23', 'birthDate'],
    ['born 23-07-1991', 'birthDate'],
    ['born 23.07.1991', 'birthDate'],
    ['born 07/23/1991', 'birthDate'],
    ['born 23/7/91', 'birthDate'],
    ['née le 23 juillet 1991', 'birthDate'],
    ['born July 23, 1991', 'birthDate'],
    ['born 23rd July 1991', 'birthDate'],
    ['ref 230791', 'birthDate'],
    ['ref 23071991', 'birthDate'],
    ['ref 19910723', 'birthDate'],
    ['on 12 23/07/1991', 'birthDate'],
    ['id adc-ab12 cd34', 'regNo'],
    ['she needs housing near kinshasa', 'text'],
  ])('refuses %j (%s)', (note, what) => {
    expect(noteClash(note, client, texts)).toBe(what);
  });

  it.each([
    'la lettre est arrivée de la mairie',
    'Letter of 12/03/2024, file 123 456',
    'Client request by phone',
    'Duplicate of another record',
    'born in 1991',
  ])('takes %j', (note) => {
    expect(noteClash(note, client, texts)).toBeUndefined();
  });
});
