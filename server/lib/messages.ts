// Messages the server sends to people, in the user's language (Accept-Language, French by
// default like the app). A few texts are protocol words the client matches on
// ('jwt expired', 'invalid signature', 'duplicate entry'): they stay the same in both languages.
import type { FastifyRequest } from 'fastify';

export type Lang = 'fr' | 'en';

const en = {
  'auth.badCredentials': 'Invalid user name or password',
  'auth.inactive': 'This account is disabled. Ask an administrator.',
  'auth.noToken': 'No authorization token was found',
  'auth.expired': 'jwt expired',
  'auth.badSignature': 'invalid signature',
  'auth.badToken': 'invalid token',
  'auth.unknownUser': 'The user of this session no longer exists',
  'auth.forbidden': 'You are not allowed to do this',
  'http.notFound': 'Not found: {path}',
  'http.recordNotFound': 'No record with this id',
  'http.duplicate': 'duplicate entry',
  'http.badJson': 'The request body is not valid JSON',
  'http.tooLarge': 'The request is too large',
  'http.mediaType': 'This content type is not accepted',
  'http.internal': 'Something went wrong on the server. Please try again.',
  'http.badRequest': 'The request is not valid',
  'validation.required': '{field} is required',
  'validation.minLength': '{field} must have at least {limit} characters',
  'validation.maxLength': '{field} must have at most {limit} characters',
  'validation.minimum': '{field} must be at least {limit}',
  'validation.maximum': '{field} must be at most {limit}',
  'validation.type': '{field} must be of type {type}',
  'validation.enum': '{field} must be one of: {values}',
  'validation.format': '{field} is not valid',
  'validation.unknown': '{field} is not a known field',
  'validation.other': '{field} is not valid',
  'validation.controlChars': '{field} contains control characters, which are not allowed',
  'validation.dateRange': '{field} must be a date between {min} and {max}',
  'upload.broken': 'The form data could not be read (incomplete or malformed request)',
  'upload.tooManyFiles': 'Too many files: at most {limit} per request',
  'upload.busy': 'Too many uploads at once: please try again in a moment',
  'http.badUrl': 'The address contains control characters, which are not allowed',
  'users.duplicateName': 'duplicate entry',
  'http.conflict': 'conflict',
  'http.parentMissing': 'The record this one belongs to does not exist',
  'delete.badPassword': 'Wrong password: nothing was deleted',
  'profile.superAdmin': 'Error Saving Super admin cannot create',
  'profile.badRegNo': 'The registration number must be {abbr} followed by 8 characters from A-Z and 0-9',
  'profile.regNoTaken': 'This registration number is already used by another client',
  'verify.commentRequired': 'A comment is required to reject a service',
  'upload.badType': '{file}: only these file types are accepted: {types}',
  'upload.tooLarge': 'A file is larger than 5 MB',
  'users.wrongPassword': 'The current password is not correct; nothing was changed',
  'users.samePassword': 'The new password must be different from the current one',
  'users.passwordChanged': 'Password changed',
  'users.selfOnly': 'You can only edit your own profile here',
  'users.notYourself': 'You cannot change your own role or deactivate your own account',
  'users.noOrganisation': 'An account without an organisation cannot manage staff',
  'users.otherOrganisation': 'You can only manage the staff of your own organisation',
  'users.roleNotAllowed': 'You cannot manage users of role {role}; allowed roles: {roles}',
  'lists.duplicateItemId': 'Item id {id} appears more than once',
  'lists.itemRemoved': 'Items cannot be removed, deactivate them instead (missing ids: {ids})',
} as const;

export type MessageKey = keyof typeof en;

const fr: Record<MessageKey, string> = {
  'auth.badCredentials': "Nom d'utilisateur ou mot de passe incorrect",
  'auth.inactive': 'Ce compte est désactivé. Adressez-vous à un administrateur.',
  'auth.noToken': 'No authorization token was found',
  'auth.expired': 'jwt expired',
  'auth.badSignature': 'invalid signature',
  'auth.badToken': 'invalid token',
  'auth.unknownUser': "L'utilisateur de cette session n'existe plus",
  'auth.forbidden': "Vous n'avez pas le droit de faire ceci",
  'http.notFound': 'Introuvable : {path}',
  'http.recordNotFound': 'Aucun enregistrement avec cet identifiant',
  'http.duplicate': 'duplicate entry',
  'http.badJson': "Le corps de la requête n'est pas un JSON valide",
  'http.tooLarge': 'La requête est trop volumineuse',
  'http.mediaType': "Ce type de contenu n'est pas accepté",
  'http.internal': 'Une erreur est survenue sur le serveur. Veuillez réessayer.',
  'http.badRequest': "La requête n'est pas valide",
  'validation.required': '{field} est obligatoire',
  'validation.minLength': '{field} doit contenir au moins {limit} caractères',
  'validation.maxLength': '{field} doit contenir au plus {limit} caractères',
  'validation.minimum': '{field} doit être au moins {limit}',
  'validation.maximum': '{field} doit être au plus {limit}',
  'validation.type': '{field} doit être de type {type}',
  'validation.enum': '{field} doit être parmi : {values}',
  'validation.format': "{field} n'est pas valide",
  'validation.unknown': "{field} n'est pas un champ connu",
  'validation.other': "{field} n'est pas valide",
  'validation.controlChars': '{field} contient des caractères de contrôle, qui ne sont pas acceptés',
  'validation.dateRange': '{field} doit être une date entre {min} et {max}',
  'upload.broken': "Les données du formulaire n'ont pas pu être lues (requête incomplète ou mal formée)",
  'upload.tooManyFiles': 'Trop de fichiers : {limit} au plus par requête',
  'upload.busy': 'Trop de téléversements en même temps : veuillez réessayer dans un instant',
  'http.badUrl': "L'adresse contient des caractères de contrôle, qui ne sont pas acceptés",
  'users.duplicateName': 'duplicate entry',
  'http.conflict': 'conflict',
  'http.parentMissing': "L'enregistrement parent n'existe pas",
  'delete.badPassword': "Mot de passe incorrect : rien n'a été supprimé",
  'profile.superAdmin': 'Erreur : un super administrateur ne peut pas créer de profil (Error Saving Super admin cannot create)',
  'profile.badRegNo': "Le numéro d'enregistrement doit être {abbr} suivi de 8 caractères parmi A-Z et 0-9",
  'profile.regNoTaken': "Ce numéro d'enregistrement est déjà utilisé par un autre client",
  'verify.commentRequired': 'Un commentaire est obligatoire pour rejeter un service',
  'upload.badType': '{file} : seuls ces types de fichiers sont acceptés : {types}',
  'upload.tooLarge': 'Un fichier dépasse 5 Mo',
  'users.wrongPassword': "Le mot de passe actuel n'est pas correct ; rien n'a été modifié",
  'users.samePassword': 'Le nouveau mot de passe doit être différent du mot de passe actuel',
  'users.passwordChanged': 'Mot de passe modifié',
  'users.selfOnly': 'Vous ne pouvez modifier ici que votre propre profil',
  'users.notYourself': 'Vous ne pouvez pas changer votre propre rôle ni désactiver votre propre compte',
  'users.noOrganisation': 'Un compte sans organisation ne peut pas gérer de personnel',
  'users.otherOrganisation': 'Vous ne pouvez gérer que le personnel de votre propre organisation',
  'users.roleNotAllowed': 'Vous ne pouvez pas gérer des utilisateurs de rôle {role} ; rôles permis : {roles}',
  'lists.duplicateItemId': "L'identifiant d'élément {id} apparaît plus d'une fois",
  'lists.itemRemoved': 'Les éléments ne peuvent pas être supprimés, désactivez-les plutôt (identifiants manquants : {ids})',
};

const catalogues: Record<Lang, Record<MessageKey, string>> = { en, fr };

export function requestLang(request: Pick<FastifyRequest, 'headers'>): Lang {
  const header = request.headers['accept-language'] ?? '';
  return /^\s*en\b/i.test(header) ? 'en' : 'fr';
}

export function translate(lang: Lang, key: MessageKey, values: Record<string, string | number> = {}): string {
  return catalogues[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}
