// The password strength rule (ADR-0003 "Password strength"), one module for the change-password screen (shown as
// the user types), the user forms and the server (every route that sets a password). A
// password is accepted when it is long enough, does not contain the user name, and is not one
// of the passwords every guessing list tries first.
import { user } from './entities/users.ts';

export const PASSWORD_MIN_LENGTH: number = user.fields.password.minLength;
export const PASSWORD_MAX_LENGTH: number = user.fields.password.maxLength;

/** The rules, in the order the screens list them. */
export const PASSWORD_RULES = ['length', 'userName', 'common'] as const;
export type PasswordRule = (typeof PASSWORD_RULES)[number];

// The most used passwords of public breach lists (English and French), and the obvious ones of
// this product. Compared after lower-casing and removing a trailing run of digits and symbols,
// so "Password2024!" and "azerty123" count as common too.
const COMMON = new Set([
  'password',
  'passw0rd',
  'motdepasse',
  'mot2passe',
  'azerty',
  'azertyuiop',
  'qwerty',
  'qwertyuiop',
  'abc',
  'abcd',
  'abcdef',
  'abcdefgh',
  'letmein',
  'welcome',
  'bienvenue',
  'admin',
  'administrator',
  'administrateur',
  'root',
  'user',
  'utilisateur',
  'login',
  'changeme',
  'secret',
  'iloveyou',
  'jetaime',
  'monkey',
  'dragon',
  'football',
  'baseball',
  'soleil',
  'bonjour',
  'doudou',
  'chouchou',
  'loulou',
  'princess',
  'princesse',
  'master',
  'shadow',
  'sunshine',
  'starwars',
  'superman',
  'batman',
  'trustno1',
  'freedom',
  'whatever',
  'michael',
  'nicolas',
  'marseille',
  'paris',
  'icrs',
  'training',
  'formation',
  'test',
  'testing',
  'temp',
  'temporaire',
  'default',
  'guest',
  'invite',
  'hello',
  'salut',
  'computer',
  'ordinateur',
  'internet',
  'samsung',
  'google',
  'facebook',
  'qazwsx',
  'zaq1zaq1',
  'asdfgh',
  'asdfghjkl',
  'zxcvbn',
  'zxcvbnm',
  '1q2w3e4r',
  '1qaz2wsx',
  'q1w2e3r4',
]);

/** Passwords made of digits or one repeated character ("12345678", "aaaaaaaa", "11111111"). */
function isTrivial(text: string): boolean {
  return /^\d+$/.test(text) || /^(.)\1*$/.test(text);
}

/** True for a password every guessing list tries early. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const stem = lower.replace(/[\d\W_]+$/u, '');
  return isTrivial(lower) || COMMON.has(lower) || (stem.length > 0 && COMMON.has(stem));
}

/** The rules `password` breaks for the account `userName` (empty when it is accepted). */
export function passwordProblems(password: string, userName = ''): PasswordRule[] {
  const problems: PasswordRule[] = [];
  if ([...password].length < PASSWORD_MIN_LENGTH) problems.push('length');
  const name = userName.trim().toLowerCase();
  if (name.length >= 3 && password.toLowerCase().includes(name)) problems.push('userName');
  if (isCommonPassword(password)) problems.push('common');
  return problems;
}
