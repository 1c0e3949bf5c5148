// The smallest server entity declaration, for the tests of what defineEntity refuses: each test
// adds the one part it is about (an owner, a title) and the fields.
export const THING = {
  name: 'thing',
  table: 'things',
  key: 'id',
  rest: '/things',
  access: { read: 'jobs.read', write: 'jobs.write' },
} as const;
